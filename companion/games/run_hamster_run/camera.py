"""Compare what the camera sees on the belt with where the game has the hamsters.

The comparison works on the game's *public view* (``run_hamster_run.view``: each hamster's
name, colour, row, lane, Pit and eaten flags, and the asterisk row), the same data the
tablet draws, so the camera is checked against exactly what the players are shown. A
hamster is matched to its piece by colour, the colour the game gave it at set-up and the
calibration sampled. Nothing here changes the game: the result is a read-only note, a
list of sentences, which the table shows under the Pit.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from companion.engine.readings import BeltSeen, Note, Square, Verdict
from companion.engine.spec import GameSpec
from companion.engine.state import State
from companion.games.run_hamster_run.model import Belt

PIT = "pit"
Where = Square | str | None  # a square, "pit", or None (not on the table)
AGREE_NOTE = "Camera agrees with the board."


def _square(where: Where) -> str:
    if where == PIT:
        return "in the Pit"
    assert isinstance(where, tuple)
    return f"on row {where[0]}, lane {where[1]}"


def _game_where(hamster: Mapping[str, Any]) -> Where:
    """Where the game has a hamster; None when it is not on the table (eaten, not placed)."""
    if hamster.get("eaten"):
        return None
    if hamster.get("in_pit"):
        return PIT
    row, lane = hamster.get("row"), hamster.get("lane")
    return (int(row), int(lane)) if row and lane else None


def _camera_where(reading: BeltSeen, colour: str) -> Where:
    if colour in reading.pieces:
        return reading.pieces[colour]
    return PIT if colour in reading.in_pit else None


def _off_table(hamster: Mapping[str, Any]) -> str:
    name = hamster["name"]
    if hamster.get("eaten"):
        return f"the game has {name} off the table (eaten)"
    return f"the game has not placed {name} yet"


def blocked_note(reason: str) -> str:
    """One sentence for a frame the reader refused to read."""
    if "hand" in reason:
        return "View blocked by a hand: positions not checked."
    return f"View blocked ({reason}): positions not checked."


def hamster_difference(hamster: Mapping[str, Any], seen: Where, calibrated: bool) -> str | None:
    """The sentence for one hamster where camera and game disagree, else None."""
    name, colour = hamster["name"], hamster["colour"]
    who = f"{name} ({colour})"
    if not calibrated:
        return f"Camera cannot check {who}: that colour is not calibrated; recalibrate."
    expected = _game_where(hamster)
    if seen == expected:
        return None
    if expected is None:
        return f"Camera sees {who} {_square(seen)}; {_off_table(hamster)}."
    if seen is None:
        return f"Camera cannot see {who}; the game has {name} {_square(expected)}."
    return f"Camera sees {who} {_square(seen)}; the game has {name} {_square(expected)}."


def check_belt(spec: GameSpec[Belt], state: State[Belt], reading: BeltSeen) -> Verdict:
    """The table's rule for a steady belt reading: a note comparing it with the game."""
    view = spec.presentation.view(state.G, state.ctx, None)
    return Verdict(note=compare_board(reading, view, reading.colours))


def compare_board(reading: BeltSeen, view: Mapping[str, Any], calibrated: Collection[str]) -> Note:
    """Every difference between ``reading`` and the game's ``view``, one sentence each.

    ``calibrated`` lists the colours the calibration has profiles for. The asterisk strip is
    compared only when the camera clearly sees one (faint asterisks are not a disagreement).
    The note's status is ``agree``, ``differ`` or ``blocked``.
    """
    if reading.blocked:
        return Note("blocked", (blocked_note(reading.blocked),))
    differences = []
    places: dict[str, Any] = {}  # what "the camera is right" would set
    for hamster in view.get("hamsters", []):
        colour = hamster["colour"]
        if colour not in calibrated and _game_where(hamster) in (PIT, None):
            # A calibration made mid-game samples only the hamsters still racing: one in
            # the Pit (there for good) or eaten cannot be sampled, and asking to calibrate
            # again, which could not sample it either, would be a note for ever.
            continue
        seen = _camera_where(reading, colour)
        found = hamster_difference(hamster, seen, colour in calibrated)
        if found is not None:
            differences.append(found)
            placed = _game_where(hamster) is not None
            if seen is not None and colour in calibrated and placed:
                places[colour] = list(seen) if isinstance(seen, tuple) else seen
    expected_row = view.get("asterisk_row")
    fix: dict[str, Any] = {"places": places}
    if reading.marker_row is not None and reading.marker_row != expected_row:
        differences.append(
            f"Camera sees the asterisk strip on row {reading.marker_row}; "
            f"the game has it on row {expected_row}."
        )
        fix["asterisk_row"] = reading.marker_row
    if differences:
        settle = {"fix": {"name": "correct", "args": fix}} if places or len(fix) > 1 else {}
        return Note("differ", tuple(differences), settle)
    return Note("agree", (AGREE_NOTE,))
