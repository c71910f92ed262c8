"""Taps per round, before and after steps where nobody has a decision pass on their own.

Plays ``GAMES_PER_KIND`` bot games of every game and rule set (seeds 1..N, three players, or
the game's least) and counts what the table taps: every move and every NEXT the bot made.
"After" leaves out the NEXTs the tablet now presses by itself (companion.engine.passing:
the game says the step passes, no move is offered, NEXT takes no dice). The bot plays every
decision a table would, so the figures are the taps of a table playing as the bot does, not
of any real group. Prints a line per game and a last line of JSON.
Run: ``.venv/bin/python bench/taps_per_round.py``.
"""

from __future__ import annotations

import json
import random

from companion.engine.events import NEXT
from companion.engine.passing import passes_itself
from companion.engine.session import GameHeader, Session
from companion.games import GAMES
from companion.simulate import bot_of, bot_turn

GAMES_PER_KIND = 5
NAMES = ("Ann", "Bob", "Cy", "Dee")
LIMIT = 20_000


def taps(game: str, rules: str, seed: int) -> tuple[int, int, int]:
    """(taps before, taps after, rounds) for one bot game."""
    spec = GAMES[game]
    names = NAMES[: max(spec.min_players, 3)]
    session = Session(spec, GameHeader(game, rules, names, seed))
    rng, before, passed = random.Random(seed), 0, 0
    while not session.state.ctx.over and len(session.log) < LIMIT:
        formal = passes_itself(spec, session.state)
        event = bot_turn(bot_of(spec), session.state, rng, session.dispatch)
        before += 1
        passed += int(event.kind == NEXT and formal)
    return before, before - passed, max(session.state.ctx.round, 1)


def main() -> None:
    figures = {}
    for game, spec in GAMES.items():
        for rules in spec.rule_sets:
            totals = [taps(game, rules, seed) for seed in range(1, GAMES_PER_KIND + 1)]
            rounds = sum(t[2] for t in totals)
            per_round = (sum(t[0] for t in totals) / rounds, sum(t[1] for t in totals) / rounds)
            figures[f"{game} {rules}"] = {
                "before": round(per_round[0], 1),
                "after": round(per_round[1], 1),
            }
            before, after = per_round
            print(f"{game:16} {rules:9} taps per round: {before:6.1f} before, {after:6.1f} after")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
