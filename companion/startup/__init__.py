"""What ``companion run`` starts, one module per family; ``companion.serve`` composes them.

Each ``start_*`` returns the part (or None) and the one line the page and console show
about it; none fails the start because a device is missing.
"""
