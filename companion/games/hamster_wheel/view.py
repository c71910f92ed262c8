"""What the tablet shows for Hamster Wheel, the prompt, and the terminal board."""

from __future__ import annotations

from typing import Any

from companion.engine.state import Ctx
from companion.games.hamster_wheel.model import (
    PIECE_COLOURS,
    TARGETS,
    HamsterWheel,
    hand_dict,
    pieces,
)
from companion.games.hamster_wheel.moves import opening, target_compartment

TARGET_WORDS = {"same": "same", "next": "next free", "next2": "next but one"}


def _number(compartment: int | None) -> int | None:
    return None if compartment is None else compartment + 1


def view(game: HamsterWheel, ctx: Ctx, seat: int | None) -> dict[str, Any]:
    """Everything is public in Hamster Wheel: the same view for every seat."""
    wheel = game.wheel
    low = wheel.lowest_two()
    data: dict[str, Any] = {
        "players": [
            {
                "seat": s,
                "name": p.name,
                "team": p.team,
                "hand": hand_dict(p.hand),
                "pieces": p.pieces,
            }
            for s, p in enumerate(game.players)
        ],
        "wheel": {
            "sections": wheel.sections,
            "lowest": wheel.lowest + 1,
            "lowest_two": [c + 1 for c in low],
            "pyramid_start": wheel.pyramid_start + 1,
            "opening": opening(wheel) + 1,
            "last": _number(wheel.last),
            "turns": round(wheel.turns, 2),
            "targets": {t: _number(target_compartment(wheel, t)) for t in TARGETS},
            "compartments": [
                {
                    "number": c + 1,
                    "pieces": list(wheel.holds(c)),
                    "uncertain": c in wheel.uncertain,
                    "lowest": c in low,
                }
                for c in range(wheel.sections)
            ],
        },
        "aside": list(game.aside),
        "out": list(game.out),
        "turn": {
            "placed": game.turn.placed or None,
            "at": _number(game.turn.at),
            "passed": game.turn.passed,
            "from_partner": game.turn.from_partner,
        },
        "counts": {"turns": game.turns, "failures": game.failures, "taken": game.taken},
        "notes": list(game.notes),
        # Asked on the page when no camera follows the wheel (it would have read these).
        "ask": {
            "lowest": game.ask_lowest,
            "fell": [
                {"colour": c, "assumed": at + 1, "choices": [x + 1 for x in holding]}
                for c, at, holding in game.guessed
            ],
        },
    }
    if game.teams:
        data["teams"] = [
            {
                "team": team,
                "seats": [s for s, p in enumerate(game.players) if p.team == team],
                "pieces": game.team_pieces(team),
            }
            for team in (0, 1)
        ]
    return data


def prompt(game: HamsterWheel, ctx: Ctx) -> str:
    if ctx.over or ctx.current is None:
        return ctx.result or "Press NEXT."
    player = game.players[ctx.current]
    who = player.name
    if game.turn.acted:
        return f"{who}: press NEXT when it holds, or report a failed try if pieces fell."
    wheel = game.wheel
    stock = player
    partner = game.partner(ctx.current)
    if player.pieces == 0 and partner is not None:
        stock = game.players[partner]
    held = [c for c, n in zip(PIECE_COLOURS, stock.hand, strict=True) if n]
    if wheel.last is None:
        where = f"the opening compartment {opening(wheel) + 1}"
    else:
        options = [
            f"{TARGET_WORDS[t]} #{c + 1}"
            for t in TARGETS
            if (c := target_compartment(wheel, t)) is not None
            and (t != "same" or any(colour not in wheel.holds(c) for colour in held))
        ]
        where = ", ".join(options)
    from_partner = " (from the partner's stock)" if stock is not player else ""
    ways = [f"place a piece{from_partner} in {where}"] if where else []
    if any(wheel.holds(c) for c in wheel.lowest_two()):
        ways.append("pass one on from the bottom")
    aside = f" {pieces(len(game.aside))} set aside for the next to fail." if game.aside else ""
    if not ways:
        return f"{who}: nothing can be placed now: report a failed try.{aside}"
    return f"{who}: {', or '.join(ways)}.{aside}"


def render(game: HamsterWheel, ctx: Ctx) -> str:
    """The wheel and the hands as plain text for the terminal."""
    wheel = game.wheel
    lines = ["Wheel (compartments clockwise, * lowest, ? uncertain):"]
    for c in range(wheel.sections):
        mark = "*" if c in wheel.lowest_two() else " "
        doubt = "?" if c in wheel.uncertain else " "
        lines.append(f" {mark}{doubt}{c + 1:>2}: {', '.join(wheel.holds(c)) or '-'}")
    for seat, player in enumerate(game.players):
        turn = ">" if seat == ctx.current else " "
        hand = ", ".join(f"{n} {colour}" for colour, n in hand_dict(player.hand).items())
        lines.append(f"{turn} {player.name}: {pieces(player.pieces)} ({hand or 'none'})")
    if game.aside:
        lines.append(f"  set aside: {', '.join(game.aside)}")
    return "\n".join(lines)
