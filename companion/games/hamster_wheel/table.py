"""What Hamster Wheel gives the rest of the table: report figures, cues, the camera rule.

The camera follows the upright ring (``companion.watch.wheel``): how far it has rolled, and
the pieces lying on the table outside it. From the roll the game knows which compartment is
lowest now (a physical fact the camera is the authority for: applied and logged at once);
pieces that appear on the table while nobody has been at the wheel this turn are *proposed*
as Higher Powers (a person accepts with READ); once a hand has been over the table, or a
piece is logged, they pre-fill the failed try (READ: "my try failed"). When the camera
reads the ring but cannot count the pieces (a cloth that hides a piece colour, a piece
against the ring), the compartment still follows the roll and the players count the pieces.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, Event
from companion.engine.readings import Note, Verdict, WheelSeen
from companion.engine.spec import GameSpec, Standing
from companion.engine.standing import ranked
from companion.engine.state import Ctx, State
from companion.games.hamster_wheel.model import PIECE_COLOURS, HamsterWheel, pieces


def standing(game: HamsterWheel, ctx: Ctx) -> tuple[Standing, ...]:
    """Fewest pieces left in hand leads (in team play, the team's pieces)."""
    left = [
        game.team_pieces(p.team) if game.teams and p.team is not None else p.pieces
        for p in game.players
    ]
    return tuple(
        Standing(rank, f"{pieces(n)} left") for rank, n in zip(ranked(left), left, strict=True)
    )


def report_figures(game: HamsterWheel) -> Mapping[str, float]:
    """For a dexterity game: how long it lasts and what failing costs."""
    return {
        "turns": game.turns,
        "failures": game.failures,
        "pieces_taken_on_failures": game.taken,
        "pieces_left_in_hands": sum(p.pieces for p in game.players),
    }


def cues(before: HamsterWheel, after: HamsterWheel, ctx: Ctx, event: Event) -> tuple[str, ...]:
    if event.kind == MOVE and event.name == "fail":
        return ("failed",)
    if event.kind == MOVE and event.name == "higher_powers":
        return ("higher_powers",)
    return ()


def read_means_failed(game: HamsterWheel, ctx: Ctx, notes: Mapping[str, Any]) -> Event | None:
    """READ on the table: "my try failed" — the pieces the camera sees on the table go to
    the player (BACK takes it back if the camera was wrong). Without a camera: nothing fell.
    While the camera follows the ring but cannot count the pieces, READ is refused with the
    reason: logging "nothing fell" (or an old count) would hand the player the wrong pieces,
    so the failed try is entered on the tablet."""
    if ctx.current is None or ctx.over:
        return None
    wheel = notes.get("wheel") or {}
    if wheel.get("pieces_reason"):
        raise IllegalMoveError(
            f"The camera cannot count the fallen pieces just now "
            f"({str(wheel['pieces_reason']).rstrip('. ')}): enter the failed try on the "
            "tablet with what fell out."
        )
    proposal = wheel.get("proposal") or []
    stayed = bool(game.turn.placed)
    return Event(
        MOVE, name="fail", seat=ctx.current, args={"fell": list(proposal), "stayed": stayed}
    )


# Nearer than this to a divider (degrees of the ring), or than the roll's own uncertainty,
# the bottom is not given as one compartment: the reading cannot tell which side is lower.
# A reading without an uncertainty (the flat renders, a twin) gets this margin too, so a
# ring resting on a divider does not flicker between the two.
MIN_DIVIDER_MARGIN_DEG = 1.0


def bottom_of(roll_turns: float, uncertainty_deg: float, sections: int) -> int | tuple[int, int]:
    """Which compartment (0-based, counted from the one lowest at the start, in the
    direction of building) is at the bottom after the ring rolled ``roll_turns``; or,
    when the bottom lies within the roll's uncertainty of a divider, the two compartments
    either side of it, lower-numbered first round the ring.

    A roll that brings higher rim-strip ids to the top (negative turns) brings the next
    compartments in the direction of building to the bottom (``companion.vision.wheel``).
    """
    position = -roll_turns * sections
    margin = max(MIN_DIVIDER_MARGIN_DEG, uncertainty_deg) * sections / 360.0
    below = math.floor(position)
    if abs(position - below - 0.5) < margin:
        return (below % sections, (below + 1) % sections)
    return round(position) % sections


def lowest_from(seen: WheelSeen, sections: int, now: int | None = None) -> int:
    """The compartment at the bottom now (0-based), from the measured roll.

    The strip's ids and the compartments rise the same way round the ring, and on a rigid
    ring whatever passes the top passes the bottom in the same order: a roll that brings
    higher ids to the top (a negative angle, ``companion.vision.wheel.rim_angle``) brings
    the next compartments in the direction of building to the bottom. On a divider (the
    roll's uncertainty reaches across it: :func:`bottom_of`) the compartment already
    lowest (``now``) is kept when it is one of the two, so a wheel resting there is not
    logged turning back and forth; else the nearer of the two is given, for the drawing
    only (:func:`on_divider` stops it being logged).
    """
    found = seen.extra.get("lowest")
    if isinstance(found, int) and 1 <= found <= sections:
        return found - 1
    bottom = bottom_of(seen.roll_turns, seen.roll_uncertainty_deg, sections)
    if isinstance(bottom, int):
        return bottom
    if now in bottom:
        return now
    return round(-seen.roll_turns * sections) % sections


def on_divider(seen: WheelSeen, sections: int, now: int) -> tuple[int, int] | None:
    """The two compartments (0-based) either side of the divider the ring rests on, when the
    camera cannot tell which is lower and the one logged (``now``) is neither: the players
    are asked rather than told a compartment the camera could not see. None otherwise."""
    if isinstance(seen.extra.get("lowest"), int):
        return None  # a twin knows its compartment
    bottom = bottom_of(seen.roll_turns, seen.roll_uncertainty_deg, sections)
    return bottom if isinstance(bottom, tuple) and now not in bottom else None


def new_on_table(game: HamsterWheel, seen: WheelSeen) -> list[str]:
    """Pieces on the table not yet accounted for: those set aside, and those a player just
    took after a failed try, may still lie there."""
    waiting = [*game.aside, *game.last_fell]
    found = []
    for colour in PIECE_COLOURS:
        for _ in range(int(seen.fallen.get(colour, 0))):
            if colour in waiting:
                waiting.remove(colour)
            else:
                found.append(colour)
    return found


def read_wheel(spec: GameSpec[Any], state: State[HamsterWheel], seen: WheelSeen) -> Verdict:
    """The table's rule for a steady wheel reading (see the module docstring).

    A reading whose pieces were not counted (``seen.pieces_reason``) still turns the wheel,
    but its fallen pieces are an old count: nothing is proposed from them (no Higher
    Powers, no pre-filled failed try), and the note says why instead."""
    game, ctx = state.G, state.ctx
    fallen = [] if seen.pieces_reason else new_on_table(game, seen)
    lines = [seen.hint] if seen.hint else []
    if seen.blocked:
        lines.append(f"Wheel not read just now: {seen.reason}.")
    divider = None if seen.blocked else on_divider(seen, game.wheel.sections, game.wheel.lowest)
    if divider:
        first, second = (c + 1 for c in divider)
        lines.append(
            f"The wheel rests on the divider between compartments {first} and {second}: "
            "tap the lower one."
        )
    if seen.uncounted:
        lines.append(seen.uncounted)
    if seen.cloth_warning:
        lines.append(seen.cloth_warning)
    if fallen:
        lines.append(f"Camera sees on the table: {', '.join(fallen)}.")
        if seen.behind_ring_line:
            lines.append(seen.behind_ring_line)
    data = {
        **seen.figures(),
        "proposal": fallen,
        "lowest": lowest_from(seen, game.wheel.sections) + 1,
        "divider": [c + 1 for c in divider] if divider else None,
    }
    status = "blocked" if seen.blocked else "differ" if seen.drifted_far else "info"
    note = Note(status, tuple(lines), data)
    if ctx.over or ctx.current is None or not seen.seen:
        return Verdict(note=note)
    lowest = lowest_from(seen, game.wheel.sections, game.wheel.lowest)
    if not seen.blocked and divider is None and lowest != game.wheel.lowest:
        args = {"lowest": lowest + 1, "turns": round(seen.roll_turns, 3)}
        event = Event(MOVE, name="turn_wheel", seat=ctx.current, args=args)
        return Verdict(event, sure=True, note=note)
    # A hand was over the table this turn (``seen.touched``): what fell, fell in the
    # current player's try, even before the piece is logged; READ then reports that try.
    if fallen and not game.turn.acted and not seen.blocked and not seen.touched:
        event = Event(MOVE, name="higher_powers", seat=ctx.current, args={"fell": fallen})
        summary = f"Pieces fell with nobody at the wheel: {', '.join(fallen)}."
        return Verdict(event, summary=f"{summary} Press READ to set them aside.", note=note)
    return Verdict(note=note)


def logged_roll(game: HamsterWheel) -> float:
    """How far the ring has rolled by the log, in turns (the camera's roll, logged with
    each new lowest compartment): where a restarted wheel watcher takes up the count."""
    return game.wheel.turns
