"""``python -m companion``: the same command as the installed ``companion``."""

from companion.serve import main

main()
