"""What players see: the public board, and the one sentence saying what to do now.

Allocations stay secret until every hamster has allocated: another seat sees only whether
a hamster has allocated, never how.
"""

from __future__ import annotations

from typing import Any

from companion.engine.state import Ctx
from companion.games.run_hamster_run.actions import ACTION_TITLES
from companion.games.run_hamster_run.model import NOT_PLACED, TRAIT_TITLES, TRAITS, Belt, Hamster
from companion.games.run_hamster_run.odds import chomp_odds, mettle_odds
from companion.games.run_hamster_run.phases import Phase


def _hamster(
    game: Belt, seat: int, hamster: Hamster, viewer: int | None, ctx: Ctx
) -> dict[str, Any]:
    rank = game.initiative.index(seat) + 1 if seat in game.initiative else None
    data: dict[str, Any] = {
        "seat": seat,
        "name": hamster.name,
        "colour": hamster.colour,
        "row": hamster.row if hamster.row != NOT_PLACED else None,
        "lane": hamster.lane if hamster.row > 0 else None,
        "in_pit": hamster.in_pit,
        "eaten": hamster.eaten,
        "passed_out": hamster.passed_out and ctx.round > 0,
        "fatigue": hamster.fatigue,
        "pluck": hamster.pluck,
        "traits": dict(zip(TRAITS, hamster.traits, strict=True)) if ctx.round > 0 else None,
        "face_down": dict(zip(TRAITS, hamster.down, strict=True)),
        "declared": hamster.declared or None,
        "did": hamster.did or None,
        "initiative": rank,
        "allocated": hamster.allocation is not None,
        "start_row": hamster.start_row or None,
    }
    if ctx.phase == Phase.ALLOCATE:
        # Until the reveal, the previous split is stale and the new one secret.
        data["traits"] = None
        if viewer == seat and hamster.allocation is not None:
            data["my_allocation"] = dict(zip(TRAITS, hamster.allocation, strict=True))
    return data


def view(game: Belt, ctx: Ctx, viewer: int | None) -> dict[str, Any]:
    res = game.resolution
    return {
        "rules": game.rules,
        "speed": game.speed,
        "alligators": game.alligators,
        "asterisk_row": game.asterisk_row,
        "strips": list(game.strips),
        "hamsters": [_hamster(game, s, h, viewer, ctx) for s, h in enumerate(game.hamsters)],
        "initiative": list(game.initiative),
        "placement": list(game.placement),
        "resolution": None
        if res is None
        else {"seat": res.seat, "action": res.action, "changed": res.changed, "acted": res.acted},
        "tests": [
            {
                "round": t.round,
                "trait": t.trait,
                "initiator": t.initiator,
                "defender": t.defender,
                "chips": [t.initiator_chips, t.defender_chips],
                "odds": round(t.initiator_odds, 3),
                "winner": t.winner,
                "why": t.why,
            }
            for t in game.tests
        ],
        "notes": list(game.notes),
        "odds": {"mettle": mettle_odds(game, ctx), "chomp": chomp_odds(game, ctx)},
    }


def prompt(game: Belt, ctx: Ctx) -> str:
    """One sentence: what the table must do now."""
    if ctx.over:
        return ctx.result
    current = game.hamsters[ctx.current].name if ctx.current is not None else ""
    phase = ctx.phase
    if phase == Phase.SETUP:
        if current:
            return f"{current}: put your hamster on an empty square in rows 1 to 5."
        return "Everyone is placed: press NEXT to allocate Pluck."
    if phase == Phase.ALLOCATE:
        waiting = [h.name for h in game.hamsters if not h.eaten and h.allocation is None]
        if waiting:
            return f"Allocate Pluck in secret: waiting for {', '.join(waiting)}."
        return "Everyone has allocated: press NEXT to reveal and draw initiative."
    if phase == Phase.DECLARE:
        if current:
            return f"{current} declares an action (lowest initiative first)."
        return "Every action is declared: press NEXT to resolve, highest initiative first."
    if phase == Phase.RESOLVE:
        if current:
            res = game.resolution
            hamster = game.hamsters[ctx.current or 0]
            action = res.action if res and res.seat == ctx.current else hamster.declared or "rest"
            return f"{current} resolves {ACTION_TITLES[action]}; press NEXT when done."
        return "Every action is resolved: press NEXT to move the belt."
    notes = " ".join(game.notes)
    follow = {
        "initiative": "Press NEXT to declare actions.",
        "belt": "Press NEXT for the alligators.",
        "alligators": "Press NEXT to check fatigue.",
        "fatigue": "Press NEXT to tally the hamsters.",
        "tally": "Press NEXT to begin a new round.",
        "new_round": "",
    }.get(phase, "")
    return f"{notes} {follow}".strip()


def table_changes(before: Belt, after: Belt) -> str:
    """What to move on the real table after an undo or redo: pieces, chips, belt and counters."""
    moves = []
    for old, new in zip(before.hamsters, after.hamsters, strict=True):
        if old.square == new.square and old.eaten == new.eaten:
            continue
        if new.eaten:
            moves.append(f"take {new.name} off the table")
        elif new.row == 0:
            moves.append(f"put {new.name} in the Pit")
        elif new.row > 0:
            moves.append(f"put {new.name} on row {new.row}, lane {new.lane}")
        else:
            moves.append(f"take {new.name} off the belt (not placed yet)")
    for old, new in zip(before.hamsters, after.hamsters, strict=True):
        # Chips moved to or from the Fatigue pile, or flipped, are on the table too. A
        # change of traits alone is the reveal of secret allocations: nothing to move.
        if new.eaten or (old.fatigue == new.fatigue and old.down == new.down):
            continue
        split = ", ".join(
            f"{title} {count}" + (f" ({down} face-down)" if down else "")
            for title, count, down in zip(TRAIT_TITLES, new.traits, new.down, strict=True)
        )
        moves.append(f"set {new.name}'s chips to {split} and {new.fatigue} in Fatigue")
    if before.strips != after.strips:
        moves.append(f"lay the belt so the asterisk strip is row {after.asterisk_row}")
    if before.speed != after.speed:
        moves.append(f"set the speed pool to {after.speed}")
    if before.alligators != after.alligators:
        moves.append(f"leave {after.alligators} alligator(s) in the Pit")
    if not moves:
        return ""
    text = "; ".join(moves)
    return text[0].upper() + text[1:] + "."
