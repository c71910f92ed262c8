"""Hamster Wheel's rules, scenario by scenario from the rule text and the rulings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.events import MOVE, NEXT, Event
from companion.engine.flow import initial_state, step
from companion.engine.state import State
from companion.games.hamster_wheel import SPEC, HamsterWheel
from companion.games.hamster_wheel.model import COLOURS, PYRAMID, hand_dict

Game = State[HamsterWheel]


def start(players: int = 3, **options: Any) -> Game:
    names = ("Ann", "Bo", "Cy", "Di")[:players]
    return initial_state(SPEC, "standard", names, 1, options)[0]


def act(state: Game, name: str, seat: int | None = None, **args: Any) -> Game:
    who = state.ctx.current if seat is None else seat
    return step(SPEC, state, Event(MOVE, name=name, seat=who, args=args))[0]


def nxt(state: Game) -> Game:
    return step(SPEC, state, Event(NEXT))[0]


def contents(state: Game, compartment: int) -> tuple[str, ...]:
    return state.G.wheel.holds(compartment - 1)


def test_hands_by_number_of_players() -> None:
    two = start(2).G
    assert [p.pieces for p in two.players] == [14, 14]
    three = start(3).G
    assert [p.pieces for p in three.players] == [7, 7, 7] and three.out == ()
    split = start(3, split_fourth=True).G
    assert [p.pieces for p in split.players] == [9, 9, 9] and len(split.out) == 1
    assert split.total_pieces() == 4 * 7 + 1  # four sets and the pyramid
    four = start(4).G
    assert four.teams and [p.team for p in four.players] == [0, 0, 1, 1]
    assert start(4).G.wheel.holds(0) == (PYRAMID,)  # the pyramid in the lowest compartment
    with pytest.raises(IllegalMoveError, match="three-player"):
        start(2, split_fourth=True)


def test_the_opening_piece_goes_two_compartments_clockwise_from_the_pyramid() -> None:
    state = start()
    with pytest.raises(IllegalMoveError, match="opening piece goes into compartment 3"):
        act(state, "place", colour="red", at="same")
    state = act(state, "place", colour="red", at="next")
    assert contents(state, 3) == ("red",)
    state = nxt(state)
    assert state.G.wheel.last == 2 and state.ctx.current == 1
    state = act(state, "place", colour="blue", at="same")  # allowed, but discouraged
    assert "not more than one piece in the opening" in state.G.notes[0]
    state = act(nxt(state), "place", colour="yellow", at="same")  # the tip is not said again
    assert contents(state, 3) == ("red", "blue", "yellow")
    assert not any("opening" in note for note in state.G.notes)


def test_the_same_compartment_needs_a_new_colour() -> None:
    state = nxt(act(start(), "place", colour="red", at="next"))
    with pytest.raises(IllegalMoveError, match="already holds a red piece"):
        act(state, "place", colour="red", at="same")
    assert contents(act(state, "place", colour="green", at="same"), 3) == ("red", "green")


def test_next_free_and_next_but_one_skip_filled_compartments() -> None:
    state = nxt(act(start(), "place", colour="red", at="next"))  # compartment 3
    state = nxt(act(state, "place", colour="red", at="next2"))  # 3 -> next free 4, but one 5
    assert contents(state, 5) == ("red",)
    state = nxt(act(state, "place", colour="red", at="next"))  # after 5: 6
    assert contents(state, 6) == ("red",)
    assert SPEC.presentation.view(state.G, state.ctx, None)["wheel"]["targets"] == {
        "same": 6,
        "next": 7,
        "next2": 8,
    }


def test_next_waits_for_a_piece_and_a_turn_has_one_piece() -> None:
    state = start()
    with pytest.raises(IllegalMoveError, match="place a piece, pass one on, or report"):
        nxt(state)
    state = act(state, "place", colour="red", at="next")
    with pytest.raises(IllegalMoveError, match="press NEXT"):
        act(state, "place", colour="blue", at="next")


def test_a_failed_try_gives_the_player_what_fell_and_ends_the_turn() -> None:
    state = nxt(act(start(), "place", colour="red", at="next"))  # Ann: red in 3
    state = act(state, "place", colour="blue", at="same")  # Bo: blue in 3 ...
    before = state.G.players[1].pieces
    state = act(state, "fail", fell=["red"], stayed=False)  # ... red falls, blue comes back
    bo = state.G.players[1]
    assert bo.pieces == before + 2 and hand_dict(bo.hand)["red"] == 2
    assert contents(state, 3) == () and state.ctx.current == 2
    assert state.G.failures == 1 and state.G.wheel.last == 2  # last success is still Ann's


def test_the_pyramid_counts_as_a_piece_once_it_falls() -> None:
    state = act(start(), "fail", fell=[PYRAMID], stayed=False)
    assert hand_dict(state.G.players[0].hand)[PYRAMID] == 1 and state.G.wheel.holds(0) == ()


def test_a_constructive_pass_takes_from_the_two_lowest_before_trying() -> None:
    state = act(start(), "turn_wheel", lowest=12)  # compartments 12 and 1 are at the bottom
    with pytest.raises(IllegalMoveError, match="lowest compartments: 12 or 1"):
        act(state, "pass", colour=PYRAMID, **{"from": 2, "to": 5})
    state = act(state, "pass", colour=PYRAMID, **{"from": 1, "to": 5})
    assert contents(state, 5) == (PYRAMID,) and contents(state, 1) == ()
    with pytest.raises(IllegalMoveError, match="instead of placing"):
        act(state, "pass", colour=PYRAMID, **{"from": 12, "to": 6})
    assert nxt(state).ctx.current == 1


def test_higher_powers_wait_for_the_next_player_who_fails() -> None:
    state = nxt(act(start(), "place", colour="red", at="next"))
    state = act(state, "higher_powers", seat=2, fell=["red"])  # between turns: set aside
    assert state.G.aside == ("red",)
    state = act(state, "place", colour="blue", at="next")
    with pytest.raises(IllegalMoveError, match="turn is in progress"):
        act(state, "higher_powers", fell=["blue"])
    state = nxt(state)
    state = act(state, "fail", fell=["blue"], stayed=False)  # Cy fails: blue and the red
    assert state.G.aside == () and state.G.players[2].pieces == 7 + 2
    assert "takes blue, red" in state.G.notes[0]


def test_a_player_who_places_the_last_piece_wins_when_it_holds() -> None:
    state = start(2)
    game = state.G
    ann = game.players[0]
    almost = type(ann)(ann.name, tuple(1 if c == "red" else 0 for c in (*COLOURS, PYRAMID)))
    state = State(game.with_player(0, almost), state.ctx, state.rng)
    state = act(state, "place", colour="red", at="next")
    assert not state.ctx.over  # it could still fall
    state = nxt(state)
    assert state.ctx.over and state.ctx.winners == (0,)


def test_team_play_uses_the_partner_stock_and_ends_by_the_team_rules() -> None:
    state = start(4)
    game = state.G
    empty = type(game.players[0])("Ann", (0,) * 8, team=0)
    state = State(game.with_player(0, empty), state.ctx, state.rng)
    state = act(state, "place", colour="red", at="next")  # Ann places from Bo's stock
    assert state.G.players[1].pieces == 6 and state.G.turn.from_partner
    state = act(state, "fail", fell=["red"], stayed=True)  # she keeps what fell
    assert state.G.players[0].pieces == 1 and state.G.players[1].pieces == 6
    # one player of each team out: the team with fewer pieces left wins
    game = state.G
    game = game.with_player(0, type(game.players[0])("Ann", (0,) * 8, team=0))
    game = game.with_player(2, type(game.players[2])("Cy", (0,) * 8, team=1))
    ended = SPEC.end_if(game, state.ctx)
    assert ended is not None and ended.winners == (0, 1)  # Bo 6 < Di 7


def test_what_fell_must_have_been_in_the_wheel() -> None:
    with pytest.raises(IllegalMoveError, match="No red piece is logged"):
        act(start(), "fail", fell=["red"])


def test_three_players_choose_the_split_fourth_set_from_the_command_line(tmp_path: Path) -> None:
    """README's `--option split_fourth=yes`: the page offers the same choice."""
    from click.testing import CliRunner

    from companion.commands.tree import main

    def run(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), *args])
        return result.exit_code, result.output

    players = ("--game", "hamster-wheel", "--players")
    code, out = run("new", *players, "Ann,Bo,Cy", "--option", "split_fourth=yes", "--seed", "1")
    assert code == 0, out
    code, out = run("new", *players, "Ann,Bo", "--option", "split_fourth=yes")
    assert code == 2 and "Only a three-player game splits the fourth set" in out
    code, out = run("new", *players, "Ann,Bo,Cy", "--option", "split_fourth=maybe")
    assert code == 2 and "no, yes" in out


def test_the_pages_yes_splits_the_fourth_set_as_true_does() -> None:
    assert start(3, split_fourth="yes").G == start(3, split_fourth=True).G
    assert start(3, split_fourth="no").G == start(3).G


def test_the_table_says_who_starts_and_a_home_made_wheels_size_from_the_command_line(
    tmp_path: Path,
) -> None:
    """The shakiest hand starts (the rules) and a home-made wheel may have other than 12
    compartments (rulings): both are set-up choices the page and `--option` offer."""
    from click.testing import CliRunner

    from companion.commands.tree import main

    def run(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), *args])
        return result.exit_code, result.output

    new = ("new", "--game", "hamster-wheel", "--players", "Ann,Bo,Cy", "--seed", "1")
    code, out = run(*new, "--option", "first=2", "--option", "sections=10")
    assert code == 0, out
    code, out = run("status", "--json")
    assert code == 0, out
    status = json.loads(out)
    assert status["current"] == 2 and status["view"]["wheel"]["sections"] == 10
    assert start(3, first="2").G == start(3, first=2).G  # the page's "2" as a game file's 2
    code, out = run(*new, "--option", "sections=30")
    assert code == 2 and "from 6 to 24" in out
    code, out = run(*new, "--option", "first=3")
    assert code == 2 and "from 0 (the first name) to 2" in out


def test_what_fell_is_read_apart_from_the_chosen_piece_as_every_stored_game_has_it() -> None:
    """'fell' lists the pieces that fell apart from the chosen one ('stayed' says where
    that one is): games stored so must load as they were played. The page's form takes
    the chosen piece out of what lies on the table before it sends (browser test)."""
    state = nxt(act(start(), "place", colour="red", at="next"))  # Ann: red in 3
    state = act(state, "place", colour="red", at="next")  # Bo: red in 4 ...
    state = act(state, "fail", fell=[PYRAMID], stayed=False)  # ... it and the pyramid fall
    bo = state.G.players[1]
    assert bo.pieces == 7 + 1 and hand_dict(bo.hand)["red"] == 1
    assert contents(state, 3) == ("red",) and contents(state, 4) == () and contents(state, 1) == ()
    assert state.G.total_pieces() == start().G.total_pieces()
    state = act(start(), "place", colour="red", at="next")  # no other red in the wheel
    with pytest.raises(IllegalMoveError, match="No red piece"):
        act(state, "fail", fell=["red"], stayed=False)


def test_the_prompt_names_only_the_ways_the_buttons_offer() -> None:
    """Late in a game the prompt said "place a piece in same #1, or pass one on from the
    bottom" to a player whose only colour was already in #1 and with nothing at the bottom
    to pass: every way it names has a button, and the buttons it leaves out have none."""
    import random

    from companion.engine.legal import legal_moves
    from companion.games.hamster_wheel.bot import bot_with

    state = nxt(act(start(2), "place", colour="red", at="next"))  # red in 3
    state = act(state, "turn_wheel", lowest=6)  # 6 and 7 at the bottom, both empty
    bo = state.G.players[1]
    only_red = type(bo)(bo.name, tuple(1 if c == "red" else 0 for c in (*COLOURS, PYRAMID)))
    state = State(state.G.with_player(1, only_red), state.ctx, state.rng)
    assert (
        SPEC.presentation.prompt(state.G, state.ctx)
        == "Bo: place a piece in next free #4, next but one #5."
    )
    for seed in range(4):
        state, rng = start(2 + seed % 3), random.Random(seed)
        while not state.ctx.over:
            if not state.G.turn.acted:
                said, offered = (
                    SPEC.presentation.prompt(state.G, state.ctx),
                    legal_moves(SPEC, state),
                )
                ats = {c["args"]["at"] for c in offered if c["name"] == "place"}
                passes = any(c["name"] == "pass" for c in offered)
                assert ("same #" in said) == ("same" in ats), said
                assert ("next free #" in said or "opening" in said) == ("next" in ats), said
                assert ("pass one on" in said) == passes, said
            for event in bot_with(0.2)(state, rng):
                try:
                    state = step(SPEC, state, event)[0]
                    break
                except IllegalMoveError:
                    continue


def test_one_piece_is_said_as_one_piece() -> None:
    """The tablet said "Ann and Bo win with 1 pieces left against 2"."""
    state = start(4)
    game = state.G
    player = type(game.players[0])
    one_red = tuple(1 if c == "red" else 0 for c in (*COLOURS, PYRAMID))
    two_red = tuple(2 if c == "red" else 0 for c in (*COLOURS, PYRAMID))
    game = game.with_player(0, player("Ann", (0,) * 8, team=0))
    game = game.with_player(1, player("Bo", one_red, team=0))
    game = game.with_player(2, player("Cy", (0,) * 8, team=1))
    game = game.with_player(3, player("Di", two_red, team=1))
    ended = SPEC.end_if(game, state.ctx)
    assert ended is not None and ended.result == "Ann and Bo win with 1 piece left against 2."
    assert SPEC.standing is not None
    assert [s.figure for s in SPEC.standing(game, state.ctx)][:1] == ["1 piece left"]
    assert SPEC.presentation.text is not None
    assert "  Bo: 1 piece (1 red)" in SPEC.presentation.text(game, state.ctx).splitlines()


def test_rule_text_examples_a_piece_that_stays_a_pass_that_drops_and_team_turns() -> None:
    """From the rule text: a newly placed piece that stays is left in place even though
    the try failed; pieces a constructive pass knocks out go to the passer; in the game
    for four each team takes two goes in a row."""
    state = nxt(act(start(), "place", colour="red", at="next"))  # Ann: red in 3
    state = act(state, "place", colour="blue", at="next")  # Bo: blue in 4 stays ...
    state = act(state, "fail", fell=["red"], stayed=True)  # ... but the red fell
    assert contents(state, 4) == ("blue",) and contents(state, 3) == ()
    assert state.G.players[1].pieces == 7 and state.ctx.current == 2
    state = act(state, "pass", colour=PYRAMID, **{"from": 1, "to": 4})  # Cy passes ...
    state = act(state, "fail", fell=["blue"], stayed=True)  # ... and knocks the blue out
    assert hand_dict(state.G.players[2].hand)["blue"] == 2 and contents(state, 4) == (PYRAMID,)
    four = start(4)
    order = []
    for _ in range(6):
        assert four.ctx.current is not None
        order.append(four.G.players[four.ctx.current].team)
        four = act(four, "fail", fell=[], stayed=True)
    assert order == [0, 0, 1, 1, 0, 0]


def test_what_fell_can_be_typed_in_the_terminal_game(tmp_path: Path) -> None:
    """In `companion play` the quotes of fell=["red"] do not survive the line's splitting:
    it was refused with a sentence showing that very form; red,blue and [red] now read."""
    from click.testing import CliRunner

    from companion.commands.tree import main

    runner = CliRunner()
    new = ["new", "--game", "hamster-wheel", "--players", "Ann,Bo", "--seed", "1"]
    assert runner.invoke(main, ["--data-dir", str(tmp_path), *new]).exit_code == 0
    lines = [
        "Ann place colour=red at=next",
        "next",
        "Bo place colour=blue at=same",
        'Bo fail fell=["red"] stayed=false',
        "Ann place colour=blue at=next",
        "Ann fail fell=blue,black",
        "quit",
    ]
    result = runner.invoke(main, ["--data-dir", str(tmp_path), "play"], input="\n".join(lines))
    assert "lists the colours" not in result.output, result.output
    status = runner.invoke(main, ["--data-dir", str(tmp_path), "status", "--json"])
    hands = [p["hand"] for p in json.loads(status.output)["view"]["players"]]
    assert hands[0]["black"] == 1 and hands[0]["blue"] == 2 and hands[1]["red"] == 3
