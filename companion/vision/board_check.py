"""Compare what the camera sees on the belt with where the game has the hamsters.

The comparison works on the game's *public view* (``run_hamster_run.view``: each hamster's
name, colour, row, lane, Pit and eaten flags, and the asterisk row), the same data the
tablet draws, so the camera is checked against exactly what the players are shown. A
hamster is matched to its piece by colour, the colour the game gave it at set-up and the
calibration sampled. Nothing here changes the game: the result is a list of sentences.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from companion.camera_notes import AGREE_NOTE, BoardCheck
from companion.vision.board import BoardReading, Cell

PIT = "pit"
Where = Cell | str | None  # a square, "pit", or None (not on the table)


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


def _camera_where(reading: BoardReading, colour: str) -> Where:
    if colour in reading.hamsters:
        return reading.hamsters[colour]
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


def compare_board(
    reading: BoardReading,
    view: Mapping[str, Any],
    calibrated: Collection[str],
    *,
    game_id: int,
    seq: int,
) -> BoardCheck:
    """Every difference between ``reading`` and the game's ``view``, one sentence each.

    ``calibrated`` lists the colours the calibration has profiles for. The asterisk strip is
    compared only when the camera clearly sees one (faint asterisks are not a disagreement).
    """
    if reading.blocked:
        return BoardCheck(game_id, seq, "blocked", (blocked_note(reading.reason),))
    differences = []
    for hamster in view.get("hamsters", []):
        colour = hamster["colour"]
        seen = _camera_where(reading, colour)
        found = hamster_difference(hamster, seen, colour in calibrated)
        if found is not None:
            differences.append(found)
    expected_row = view.get("asterisk_row")
    if reading.asterisk_row is not None and reading.asterisk_row != expected_row:
        differences.append(
            f"Camera sees the asterisk strip on row {reading.asterisk_row}; "
            f"the game has it on row {expected_row}."
        )
    if differences:
        return BoardCheck(game_id, seq, "differ", tuple(differences))
    return BoardCheck(game_id, seq, "agree", (AGREE_NOTE,))
