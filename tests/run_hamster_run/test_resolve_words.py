"""A hamster's change of action and its Rest are said (they used to pass without a word), and
what one hamster's resolution said is not left standing under the next one's."""

from __future__ import annotations

from companion.engine.events import NEXT, Event
from companion.engine.flow import step
from companion.games.run_hamster_run import SPEC
from tests.run_hamster_run.board import act, position


def test_a_change_of_action_is_said_with_its_price() -> None:
    s = position(
        "v2.1", [("A", 5, 3, (2, 3, 2)), ("B", 4, 1, (2, 2, 3))], declared=["bite", "rest"]
    )
    s = act(s, 0, "change", action="run", chip="mettle")
    assert s.G.notes == ("A changes from Bite to Run, paying one Pluck chip.",)


def test_a_rest_says_the_chip_it_brings_back() -> None:
    s = position(
        "v2.1", [("A", 5, 3, (2, 2, 2)), ("B", 4, 1, (2, 2, 3))], declared=["rest", "rest"]
    )
    s = act(s, 0, "rest", to="mettle")
    assert s.G.notes == ("A rests: a Mettle chip back from Fatigue.",)


def test_a_classic_rest_says_the_die_and_what_it_gave() -> None:
    spots = [("A", 5, 3, (2, 2, 2)), ("B", 4, 1, (2, 2, 3))]
    odd = act(position("classic", spots, declared=["rest", "rest"]), 0, "rest", given=[3])
    assert odd.G.notes == ("A rests: the die shows 3, odd, so no chip back.",)
    even = act(position("classic", spots, declared=["rest", "rest"]), 0, "rest", given=[4])
    assert even.G.notes == ("A rests: a Scamper chip back from Fatigue (the die shows 4).",)


def test_the_next_hamster_starts_without_the_last_ones_words() -> None:
    s = position(
        "v2.1", [("A", 5, 3, (2, 3, 2)), ("B", 4, 1, (2, 2, 3))], declared=["bite", "rest"]
    )
    s = act(s, 0, "change", action="run", chip="mettle")
    s, _ = step(SPEC, s, Event(NEXT))  # A's turn ends without acting
    assert s.ctx.current == 1 and s.G.notes == ()
