"""Taps to set up Hamsterdam on the tablet page, for three players, counted on the buttons
the page offers (``state.legal``) as a table presses them, from the new game to the first
roll.

Two ways a table plays it: "one at a time" presses the first button the page shows for the
next thing to do (each card passed, each special kept, each dam card laid, each hamster
stood: what the play-test did), and "shortcuts" presses the biggest button on offer
(the rest of the dam in order, the rest of the hamsters the plain way, every dam at once,
the roll-off's winner). A NEXT the tablet presses itself (the set-up is done) is no tap.
Each decision a player makes by the rules (the two cards passed, the specials kept) is one
tap either way: the figures count presses, not choices.
Prints one line per rule set and way, then a last line of JSON.
Run: ``.venv/bin/python bench/setup_taps.py``.
"""

from __future__ import annotations

import json

from companion.engine.events import MOVE, NEXT, Event
from companion.engine.legal import legal_moves
from companion.engine.passing import passes_itself
from companion.engine.session import GameHeader, Session
from companion.games import GAMES

NAMES = ("Ann", "Bo", "Cy")
SEEDS = range(1, 6)
# the players' own choices first, then the biggest button: what a table that knows the
# shortcuts presses
SHORTCUTS = (
    "spread_all",
    "arrange_all",
    "pass_card",
    "keep_special",
    "arrange",
    "spread",
    "roll_off",
)
ONE_AT_A_TIME = ("pass_card", "keep_special", "lay_card", "stand", "roll_off")


def taps(rules: str, seed: int, order: tuple[str, ...]) -> int:
    spec = GAMES["hamsterdam"]
    session = Session(spec, GameHeader("hamsterdam", rules, NAMES, seed))
    count = 0
    while session.state.ctx.phase == "setup":
        legal = legal_moves(spec, session.state)
        ranked = [c for name in order for c in legal if c["name"] == name]
        if not ranked:
            count -= passes_itself(spec, session.state)  # the tablet presses this one itself
            session.dispatch(Event(NEXT))
        else:
            choice = ranked[0]
            session.dispatch(
                Event(MOVE, name=choice["name"], seat=choice["seat"], args=choice["args"])
            )
        count += 1
    return count


def main() -> None:
    figures = {}
    for rules in GAMES["hamsterdam"].rule_sets:
        for way, order in (("one at a time", ONE_AT_A_TIME), ("shortcuts", SHORTCUTS)):
            mean = sum(taps(rules, seed, order) for seed in SEEDS) / len(SEEDS)
            figures[f"{rules} {way}"] = round(mean, 1)
            print(f"hamsterdam {rules:8} set-up, three players, {way:13}: {mean:5.1f} taps")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
