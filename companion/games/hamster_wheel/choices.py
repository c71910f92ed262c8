"""Candidate moves for the tablet's buttons (the engine keeps only the legal ones)."""

from __future__ import annotations

from typing import Any

from companion.engine.state import Ctx
from companion.games.hamster_wheel.model import PIECE_COLOURS, TARGETS, HamsterWheel
from companion.games.hamster_wheel.moves import target_compartment
from companion.games.hamster_wheel.view import TARGET_WORDS

MAX_PASSES = 40  # every pass from the two lowest compartments fits in the list


def choices(game: HamsterWheel, ctx: Ctx) -> list[dict[str, Any]]:
    seat = ctx.current
    if seat is None or ctx.over:
        return []
    player = game.players[seat]
    found: list[dict[str, Any]] = []
    if not game.turn.acted:
        stock = player
        partner = game.partner(seat)
        if player.pieces == 0 and partner is not None:
            stock = game.players[partner]
        colours = [c for c, n in zip(PIECE_COLOURS, stock.hand, strict=True) if n]
        for target in TARGETS:
            compartment = target_compartment(game.wheel, target)
            if compartment is None:
                continue
            for colour in colours:
                found.append(
                    {
                        "seat": seat,
                        "name": "place",
                        "label": f"{colour} → {TARGET_WORDS[target]} #{compartment + 1}",
                        "args": {"colour": colour, "at": target},
                    }
                )
        found.extend(_passes(game, seat))
    found.append(
        {
            "seat": seat,
            "name": "fail",
            "label": "Failed try: nothing fell",
            "args": {"fell": [], "stayed": True},
        }
    )
    return found


def _passes(game: HamsterWheel, seat: int) -> list[dict[str, Any]]:
    wheel, passes = game.wheel, []
    for source in wheel.lowest_two():
        for colour in sorted(set(wheel.holds(source))):
            for step in range(1, wheel.sections):
                target = (source + step) % wheel.sections
                if colour in wheel.holds(target):
                    continue
                passes.append(
                    {
                        "seat": seat,
                        "name": "pass",
                        "label": f"pass {colour} #{source + 1} → #{target + 1}",
                        "args": {"colour": colour, "from": source + 1, "to": target + 1},
                    }
                )
    return passes[:MAX_PASSES]
