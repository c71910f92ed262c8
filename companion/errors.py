"""The one family every error the companion reports to a person belongs to.

As gpiozero roots its errors in ``GPIOZeroError``: a caller that only wants to show a
person what went wrong catches :class:`CompanionError` and prints its message, which is
always one sentence saying what is wrong and how to fix it. Specific errors live beside
the code that raises them and are named ``...Error``; each also derives from the built-in
it behaves like (``ValueError`` for a bad value, ``LookupError`` for an unknown name), so
code written against the built-ins keeps working.
"""


class CompanionError(Exception):
    """Something a person can read and act on; the message is the whole explanation."""
