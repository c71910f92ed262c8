"""The game-agnostic engine: specs, pure flow, seeded draws, event log, sessions.

Nothing here knows a particular game; games live in :mod:`companion.games` and are
declared as data plus small functions (see :mod:`companion.engine.spec`, and the stock
turn orders in :mod:`companion.engine.turns`). Import each name from the module that
defines it (``companion.engine.session.Session``): this package hands nothing on.
"""
