"""One scenario per special hamster: offered only at its timing, logged when used."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve
from companion.engine.legal import legal_moves
from companion.engine.state import State
from companion.games.hamsterdam import SPEC
from companion.games.hamsterdam.model import Hamsterdam, Spot
from tests.hamsterdam.board import (
    act,
    act_rolling,
    at,
    dam,
    names,
    nxt,
    piece,
    player,
    rolled,
    rolling,
    spot,
    table,
)


def duo(ann: list[Spot], ben: list[Spot] | None = None, **fields: Any) -> Hamsterdam:
    return table([player("Ann", ann), player("Ben", ben or list(dam(2, 3, 4)))], **fields)


def offered(state: State[Hamsterdam], seat: int) -> list[str]:
    usable: list[str] = SPEC.presentation.view(state.G, state.ctx, None)["players"][seat]["usable"]
    return usable


# ----------------------------------------------------------------------------- after a roll
def test_buffster_turns_both_dice_over_after_its_owners_roll_only() -> None:
    state = rolled(rolling(duo([spot(11), spot(3, 0, "Buffster")], list(dam(3, 11)))), 1, 2)
    assert "Buffster" in offered(state, 0)
    with pytest.raises(IllegalMoveError, match="owner's own roll"):
        act(evolve(state, G=evolve(state.G, turns=1)), 0, "buffster")
    state = act(state, 0, "buffster")
    assert state.G.dice == (6, 5)
    assert "Ann used Buffster" in state.G.log[-1]
    assert state.G.players[0].dam[1].plain == 1, "single-use: it shows its plain side"
    state = nxt(state)
    assert state.G.players[0].dam[0].tokens == 1 and state.G.players[1].dam[1].tokens == 1


def test_spinster_sets_one_die() -> None:
    state = rolled(rolling(duo([spot(4, 0, "Spinster"), spot(8)])), 2, 2)
    state = act(state, 0, "spinster", die=2, to=6)
    assert state.G.dice == (2, 6)
    assert "Spinster" in state.G.log[-1]


def test_physicster_rerolls_and_the_roller_keeps_either_roll() -> None:
    state = rolled(rolling(duo([spot(4, 0, "Physicster"), spot(8)])), 2, 2)
    state = act_rolling(state, 0, "physicster", (5, 5))
    assert state.G.alternative == (5, 5)
    with pytest.raises(IllegalMoveError, match="keep the old or the new"):
        nxt(state)
    state = act(state, 0, "keep_roll", use="new")
    assert state.G.roll == 10 and state.G.alternative is None


def test_whack_a_mole_jumps_to_the_rolled_card_or_rests_special_side_up() -> None:
    state = rolled(rolling(duo([spot(4, 0, "Whack-a-Mole"), spot(8), spot(9)])), 2, 2)
    hit = act_rolling(state, 0, "whack_a_mole", (4, 4))
    assert hit.G.players[0].dam[1].plain == 1, "landed on 8 and turned to its plain side"
    miss = act_rolling(state, 0, "whack_a_mole", (6, 6))
    assert [s.name for s in miss.G.players[0].rest_specials] == ["Whack-a-Mole"]


def test_mobster_changes_the_flood_for_its_owner_only_after_any_roll() -> None:
    game = duo([spot(5, 0, "Mobster"), spot(6), spot(7)], list(dam(6, 7)), turns=1)
    state = rolled(rolling(game), 3, 3)  # Ben rolled 6
    assert game.roller == 1 and "Mobster" in offered(state, 0)
    state = act(state, 0, "mobster", by=1)
    state = nxt(state)
    ann, ben = state.G.players
    assert ann.dam[1].tokens == 0 and ann.dam[2].tokens == 1
    assert ben.dam[0].tokens == 1


def test_mobster_cannot_leave_the_range_of_two_dice() -> None:
    state = rolled(rolling(duo([spot(12, 0, "Mobster")], list(dam(12)))), 6, 6)
    with pytest.raises(IllegalMoveError, match="13"):
        act(state, 0, "mobster", by=1)


def test_ninjaster_rests_and_its_owner_ignores_the_roll() -> None:
    game = duo([spot(6, 0, "Ninjaster"), spot(7)], list(dam(6, 7)), turns=1)
    state = act(rolled(rolling(game), 3, 4), 0, "ninjaster")
    ann = state.G.players[0]
    assert ann.rest_plain == 1 and not ann.rest_specials, "rests with its plain side up"
    state = nxt(state)
    assert state.G.players[0].tokens_on_dam == 0 and state.G.players[1].dam[1].tokens == 1


def test_napster_steps_one_card_after_any_roll_once_per_roll() -> None:
    state = rolled(rolling(duo([spot(5, 0, "Napster"), spot(7)], turns=1)), 1, 2)
    state = act(state, 0, "napster", to=2)
    assert names(state.G.players[0].dam[1]) == ["Napster"]
    # said as the button says it ("Napster to 7"): the card's value, not its position
    assert any("stepped to card 7." in line for line in state.G.log)
    with pytest.raises(IllegalMoveError, match="no Napster ready"):
        act(state, 0, "napster", to=1)


# ----------------------------------------------------------------------------- floods
def test_blobster_stops_a_flood_on_a_neighbouring_card() -> None:
    state = nxt(rolled(rolling(duo([spot(6), spot(8, 0, "Blobster")])), 3, 3))
    assert state.G.pending, "an empty card with Blobster next to it waits for a choice"
    assert "Blobster" in offered(state, 0)
    state = act(state, 0, "blobster", at=1)
    ann = state.G.players[0]
    assert ann.tokens_on_dam == 0 and [s.name for s in ann.rest_specials] == ["Blobster"]


def test_cheekster_holds_two_floods_then_rests() -> None:
    state = nxt(rolled(rolling(duo([spot(6, 0, "Cheekster")])), 3, 3))
    state = act(state, 0, "cheekster", at=1)
    assert state.G.players[0].dam[0].specials[0].stops == 1
    assert state.G.players[0].tokens_on_dam == 0
    state = nxt(rolled(rolling(state.G), 3, 3))
    state = act(state, 0, "cheekster")
    assert [s.name for s in state.G.players[0].rest_specials] == ["Cheekster"]
    assert state.G.players[0].tokens_on_dam == 0


# ----------------------------------------------------------------------------- movement
def test_speedster_dashes_anywhere_besides_the_normal_move() -> None:
    game = duo([spot(2, 1, "Speedster"), spot(3), spot(4), spot(5, tokens=1)])
    state = at(game, "movement")
    with pytest.raises(IllegalMoveError, match="cannot speedster during 1 Roll"):
        act(rolled(rolling(game), 1, 1), 0, "speedster", to=3)
    state = act(state, 0, "speedster", to=3)
    state = act(state, 0, "move", hamster="plain", to=2, **{"from": 1})
    ann = state.G.players[0]
    assert ann.dam[2].plain == 1 and ann.dam[1].plain == 1 and ann.moved


def test_swimster_shares_a_card_with_water_but_others_clear_it() -> None:
    game = duo([spot(2, 1, "Swimster"), spot(3, tokens=1), spot(4, 1), spot(5, tokens=1)])
    state = act(at(game, "movement"), 0, "move", hamster="Swimster", to=2, **{"from": 1})
    assert names(state.G.players[0].dam[1]) == ["Swimster"]
    assert state.G.players[0].dam[1].tokens == 1
    state = act(at(game, "movement"), 0, "move", to=4, **{"from": 3})
    ann = state.G.players[0]
    assert ann.dam[3].tokens == 0 and ann.dam[3].plain == 0 and ann.lost == 1
    assert state.G.removed == 1, "the token left the game with the hamster"
    # said in words a player reads out (it once said "Ann's a plain hamster cleared...")
    assert state.G.log[-1] == (
        "Ann's plain hamster cleared a flood token on the 5 card and left the game."
    )


def test_skip_movement_specials_act_after_everyone_moved_in_turn_order() -> None:
    game = duo([spot(2, 1, "Momster"), spot(3)], [spot(2, 1, "Huckster"), spot(3)], first=1)
    game = evolve(game, players=(evolve(game.players[0], rest_plain=3), game.players[1]))
    state = at(game, "movement")
    with pytest.raises(IllegalMoveError, match="cannot momster during Movement"):
        act(state, 0, "momster")
    state = nxt(state)
    assert state.ctx.phase == "skips" and state.ctx.current == 1, "the first player acts first"
    state = act(state, 1, "huckster", target=0, to=2, **{"from": 1})
    assert state.G.players[0].dam[1].plain == 1 and state.ctx.current == 0
    state = act(state, 0, "momster")
    # two called from the reinforcement pile, and Momster itself now shows its plain side
    assert state.G.players[0].dam[0].plain == 3 and state.G.players[0].rest_plain == 1
    assert state.ctx.current is None


def test_a_player_who_moved_cannot_use_a_skip_movement_special() -> None:
    state = at(duo([spot(2, 1, "Momster"), spot(3)]), "movement")
    assert nxt(state).ctx.phase == "skips", "Momster waits for its turn after movement"
    state = nxt(act(state, 0, "move", to=2, **{"from": 1}))
    assert state.ctx.phase == "roll", "having moved, nobody is left to skip"


def test_bombster_floods_another_players_dam() -> None:
    game = duo([spot(2, 0, "Bombster")], [spot(2), spot(3, 1)])
    state = nxt(at(game, "movement"))
    with pytest.raises(IllegalMoveError, match="another player's"):
        act(state, 0, "bombster", target=0, at=1)
    state = act(state, 0, "bombster", target="Ben", at=1)
    assert state.G.pending and "Bombster" in state.G.log[-1]
    state = nxt(state)
    assert state.G.players[1].dam[0].tokens == 1


def test_a_breach_a_bombster_flood_causes_is_said_and_offered_at_once() -> None:
    """Bombster's water filled Ben's pile to 3: the breach was neither said nor offered, and
    the next roll could still flood the card that should have left the dam."""
    ben = [spot(5, tokens=1), spot(6, 1), spot(7, 1)]
    game = table([player("Ann", [spot(2, 1, "Bombster")]), player("Ben", ben, pile=2)])
    state = act(nxt(at(game, "movement")), 0, "bombster", target="Ben", at=1)
    assert "Stop the flood Bombster started (Ben)" in SPEC.presentation.prompt(state.G, state.ctx)
    state = act(state, 1, "water", at=1)
    assert state.G.players[1].pile == 3
    assert SPEC.presentation.prompt(state.G, state.ctx) == (
        "Breach: Ben flips a card at an end of the dam now, then press NEXT."
    )
    buttons = [c["label"] for c in legal_moves(SPEC, state)]
    assert buttons == ["Ben: flip left end 5", "Ben: flip right end 7"]
    state = act(state, 1, "flip", end="left")
    assert [s.value for s in state.G.players[1].dam] == [6, 7]
    assert state.G.players[1].pile == 4, "the token on the flipped card went to the pile"
    assert nxt(state).ctx.phase == "roll"


def test_the_classic_game_never_flips_a_card() -> None:
    ben = player("Ben", [spot(5, tokens=1), spot(6, 1)], pile=3)
    state = nxt(
        at(table([player("Ann", [spot(2, 1, "Bombster")]), ben], rules="classic"), "movement")
    )
    with pytest.raises(IllegalMoveError, match="no breach"):
        act(state, 1, "flip", end="left")
    assert "Breach" not in SPEC.presentation.prompt(state.G, state.ctx)


def test_contractster_shifts_a_flood_token_but_not_onto_hamsters() -> None:
    game = duo([spot(2), spot(3, tokens=1), spot(4, 2), spot(5, 0, "Contractster")])
    state = nxt(at(game, "movement"))
    with pytest.raises(IllegalMoveError, match="onto hamsters"):
        act(state, 0, "contractster", to=3, **{"from": 2})
    state = act(state, 0, "contractster", to=1, **{"from": 2})
    ann = state.G.players[0]
    assert [s.tokens for s in ann.dam] == [1, 0, 0, 0]
    assert ann.dam[3].plain == 1, "Contractster itself shows its plain side after use"


# ----------------------------------------------------------------------------- redeploy
def test_janitster_mops_the_dam_and_leaves_the_game() -> None:
    game = duo([spot(2, 1, "Janitster"), spot(3, tokens=1), spot(4, tokens=2)])
    state = act(at(game, "redeploy"), 0, "janitster")
    ann = state.G.players[0]
    assert ann.tokens_on_dam == 0 and ann.lost == 1 and state.G.removed == 3
    with pytest.raises(IllegalMoveError, match="cannot janitster during Movement"):
        act(at(game, "movement"), 0, "janitster")
    done = evolve(game, players=(evolve(game.players[0], redeployed=True), game.players[1]))
    with pytest.raises(IllegalMoveError, match="before Ann redeploys"):
        act(at(done, "redeploy"), 0, "janitster")


# ----------------------------------------------------------------------------- copycat, twins
def test_copycatster_imitates_a_special_in_play_then_rests() -> None:
    game = duo([spot(4, 0, "Copycatster"), spot(8)], [spot(2, 0, "Buffster"), spot(3)])
    state = rolled(rolling(game), 2, 2)
    assert "Copycatster as Buffster" in offered(state, 0)
    state = act(state, 0, "buffster", copycat=True)
    assert state.G.dice == (5, 5)
    assert [s.name for s in state.G.players[0].rest_specials] == ["Copycatster"]
    assert "Copycatster as Buffster" in state.G.log[-1]
    alone = rolled(rolling(duo([spot(4, 0, "Copycatster"), spot(8)])), 2, 2)
    with pytest.raises(IllegalMoveError, match="imitate a Buffster"):
        act(alone, 0, "buffster", copycat=True)


def test_twinsters_leave_the_dam_together() -> None:
    one, two = piece("Twinsters"), piece("Twinsters")
    one, two = evolve(one, twin=two.id), evolve(two, twin=one.id)
    game = duo([spot(6, 0, one), spot(8, 0, two)])
    state = nxt(rolled(rolling(game), 3, 3))  # the only hamster on the 6 must plug
    ann = state.G.players[0]
    assert len(ann.rest_specials) == 2 and ann.dam[1].hamsters == 0


def test_copycatster_can_stop_a_flood_as_blobster_and_a_piece_can_be_named() -> None:
    game = duo([spot(6), spot(8, 0, "Copycatster")], [spot(2, 0, "Blobster")])
    state = nxt(rolled(rolling(game), 3, 3))
    assert "Copycatster as Blobster" in offered(state, 0)
    stopped = act(state, 0, "blobster", at=1, copycat=True)
    assert stopped.G.players[0].tokens_on_dam == 0
    assert [s.name for s in stopped.G.players[0].rest_specials] == ["Copycatster"]
    with pytest.raises(IllegalMoveError, match="no Copycatster ready"):
        act(state, 0, "blobster", at=1, copycat=True, piece=-5)


def test_the_breach_prompt_reads_right_for_one_player_or_several() -> None:
    """It said "Ben flip a card": one player flips, several each flip."""
    from companion.games.hamsterdam.view import _flip

    assert _flip(["Ben"]) == "Ben flips a card"
    assert _flip(["Ann", "Bo", "Cy"]) == "Ann, Bo and Cy each flip a card"
