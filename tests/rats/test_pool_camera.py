"""The camera reads a rat's whole pool (d4 to d10) and gives it to the rat waiting for it.

What the table notices: the reading lands on the right rat with each die's size and face,
a reading whose kinds are not that rat's dice is never applied (one sentence says why),
and in ``make run``'s twin the dice thrown are the dice read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine.readings import DiceSeen
from companion.games.rats import SPEC
from companion.games.rats.table import pool_due, read_dice
from companion.table import Table as CompanionTable
from companion.watch.dice import DiceWatcher
from hardware.dice_twin import DiceTwin
from tests.rats.helpers import POOL, Table
from tests.rats.pool_table import WAIT, play_until_a_pool_is_due
from tests.rats.pool_table import rats_table as companion_rats_table


def test_a_read_pool_goes_to_the_first_rat_still_to_roll_with_each_size() -> None:
    table = Table()
    table.move(0, "play", card="9c")
    assert sorted(pool_due(table.state)) == sorted(POOL)
    sizes = (10, 4, 8, 6, 10, 8)
    seen = DiceSeen((9, 2, 7, 5, 10, 1), (0.99,) * 6, auto_accept=0.9, sizes=sizes)
    verdict = read_dice(SPEC, table.state, seen)
    assert verdict.event is not None and verdict.event.seat == 0
    # However sure the reader is, the rat confirms with one tap: the d4-d10 reader learned
    # from renders only, and real dice are a style it never saw.
    assert not verdict.sure and verdict.summary is not None and "Press READ" in verdict.summary
    table.move(0, "roll", given=verdict.event.given, **verdict.event.args)
    roll = table.game.contest()
    assert roll is not None
    shown = roll.rolls[0]
    assert shown is not None
    assert Counter(zip(shown.sizes, shown.faces, strict=True)) == Counter(
        zip(sizes, (9, 2, 7, 5, 10, 1), strict=True)
    )


def test_a_pool_whose_kinds_are_not_the_rats_dice_is_never_applied() -> None:
    table = Table()
    table.move(0, "play", card="9c")
    seen = DiceSeen((3,) * 6, (0.99,) * 6, auto_accept=0.9, sizes=(4, 6, 8, 8, 8, 10))
    verdict = read_dice(SPEC, table.state, seen)
    assert verdict.event is None and verdict.note is not None
    assert verdict.note.status == "differ"
    (line,) = verdict.note.lines
    assert "d8, d8, d8" in line and line.endswith("type them instead.")


def test_an_unsure_pool_is_offered_for_one_tap() -> None:
    table = Table()
    table.move(0, "play", card="9c")
    seen = DiceSeen((3,) * 6, (0.99, 0.5, 0.99, 0.99, 0.99, 0.99), auto_accept=0.9, sizes=POOL)
    verdict = read_dice(SPEC, table.state, seen)
    assert verdict.event is not None and not verdict.sure
    assert verdict.summary is not None and "Press READ" in verdict.summary


@pytest.fixture
def rats_table(tmp_path: Path) -> Iterator[CompanionTable]:
    with companion_rats_table(tmp_path) as table:
        yield table


def test_the_twin_throws_a_rats_pool_and_the_camera_reads_it_to_the_rat(
    rats_table: CompanionTable,
) -> None:
    sizes = play_until_a_pool_is_due(rats_table)
    state = rats_table.snapshot.state
    assert state is not None
    seat = state.ctx.current or 0
    twin = DiceTwin()
    watcher = DiceWatcher(rats_table, stable_frames=2)
    for _ in range(8):
        published = watcher.process(twin.frame(sizes, "roll"))
        if published is not None:
            published.result(WAIT)
            break
    if rats_table.public_state()["pending"] is not None:
        rats_table.submit_intent("read").result(WAIT)  # the one tap
    state = rats_table.snapshot.state
    assert state is not None
    contest = state.G.contest()
    assert contest is not None
    roll = contest.rolls[seat]
    assert roll is not None
    assert Counter(zip(roll.sizes, roll.faces, strict=True)) == Counter(
        zip(sizes, twin.thrown, strict=True)
    )
