"""Rulings of shared/rules/hamsterdam.md; each has a test that fails without it.

Where each ruling is tested:
- two rotations before movement with 2 players; 6/4/3 turns each; movement before
  redeployment: test_turns.test_movement_and_redeployment_timing
- breach at the 3rd, 5th and every later token: test_breaches (first two tests)
- the flipped card leaves the dam and floods no more: here
- hamsters shift inward, one sacrificed with the token: test_breaches (sacrifice tests)
- the flipped card's token goes to the pile and counts: test_breaches (token test)
- remaining hamsters include the reinforcement pile; a hamster removed clears a token;
  nothing placed on water; Swimster and Janitster: test_redeploy, test_specials
- end threshold after every flood and breach step, at once: test_turns, test_breaches
- specials are data with timings; own roll vs any roll; Mobster and Ninjaster per player;
  offered only at their timing and logged: test_specials; single-use flag is card data:
  test_setup.test_an_edited_deck_changes_the_single_use_flags
- the re-roll looks at the raw roll: here
- full set-up removes one Twinsters card, deals two per blue dot, keeps one per dot:
  test_setup
- duplicate values all flood; a dam without the value is dry: test_turns (first test)
- scoring and the hamster tie-break: test_turns.test_scoring_...
- flood tallies on the tablet: test_redeploy.test_view_...
"""

from __future__ import annotations

from tests.hamsterdam.board import act, at, dam, nxt, player, rolled, rolling, spot, table


def test_a_flipped_card_no_longer_floods_its_old_dam() -> None:
    game = table([player("Ann", [spot(2), spot(3), spot(4)], pile=3), player("Ben", dam(2))])
    state = act(at(game, "breach"), 0, "flip", end="left")
    state = nxt(nxt(state))  # pass the dice: Ben rolls
    state = rolled(state, 1, 1)
    assert not state.G.dry, "Ben still has a 2"
    state = nxt(state)
    assert state.G.players[0].tokens_on_dam == 0 and state.G.players[1].dam[0].tokens == 1
    ann_only = table([player("Ann", [spot(3)], flipped=()), player("Ben", dam(4))])
    assert rolled(rolling(ann_only), 1, 1).G.dry, "a value on no dam is rolled again"


def test_the_re_roll_rule_looks_at_the_raw_roll_only() -> None:
    game = table([player("Ann", [spot(3), spot(7, 0, "Buffster")]), player("Ben", dam(4))])
    state = act(rolled(rolling(game), 1, 2), 0, "buffster")  # 3 becomes 6+5 = 11
    assert state.G.roll == 11 and not state.G.dry, "no re-roll although no dam shows 11"
    state = nxt(state)
    assert state.ctx.phase == "flood" and not state.G.pending


def test_the_supply_may_run_short_and_the_table_uses_stand_ins() -> None:
    wet = [player("Ann", [spot(6, tokens=30)], pile=5), player("Ben", dam(6))]
    state = nxt(rolled(rolling(table(wet)), 3, 3))
    assert state.G.supply == -2 and state.G.tokens_in_play() == 35  # Ann's and Ben's water
    assert any("stand-in" in line for line in state.G.log)
