"""Rats declared for the engine: making rats, the tunnels (a turn each), the nest, the end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.camera import Watch
from companion.engine.readings import DICE
from companion.engine.rng import Draws
from companion.engine.spec import (
    BalanceReport,
    GameSpec,
    MoveSpec,
    Outcome,
    PhaseSpec,
    Presentation,
    SetupOption,
)
from companion.engine.state import Ctx
from companion.engine.turns import once_round, whoever
from companion.games.rats import bot, nest, poker, setup, table, tunnel
from companion.games.rats.choices import choices
from companion.games.rats.deck import buy_card, drop, over_limit
from companion.games.rats.model import (
    CHALLENGES,
    DEFAULT_ROUNDS,
    DONE,
    MATE,
    PHONE,
    PHYSICAL,
    RULE_SETS,
    SCRAP,
    STEAL,
    Rats,
)
from companion.games.rats.nest import waiting as nest_waiting
from companion.games.rats.phases import Phase
from companion.games.rats.view import odds_lines, prompt, render, view

NAME = "rats"


def draw(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """Spend 1 Hate on a tunnel card, at any time (five a round at most)."""
    return buy_card(game, seat, draws)


def discard(game: Rats, ctx: Ctx, seat: int, args: Mapping[str, Any], draws: Draws) -> Rats:
    """Down to five cards: the card dropped (phone deck) stays that rat's secret."""
    return drop(game, seat, args.get("card"))


def _made(game: Rats, ctx: Ctx) -> bool:
    """Every rat is made (NEXT deals the hands): nothing left to choose."""
    return True


def _turn_over(game: Rats, ctx: Ctx) -> bool:
    """A rat's turn is settled (or every rat has had one): NEXT only moves the table on.
    A rat with no card is not: buying one or skipping is its choice."""
    return ctx.current is None or (game.turn.stage == DONE and not over_limit(game))


def _nest_settled(game: Rats, ctx: Ctx) -> bool:
    """The nest has nothing left to pick, challenge, mate or steal (the Mate is optional,
    so its stop holds: NEXT there is the Dominant Rat's choice to skip it)."""
    nest = game.nest
    if nest is None or nest_waiting(game):
        return False
    if nest.fight is not None and not nest.fight.result:
        return False  # the re-roll window
    return nest.stage not in (SCRAP, CHALLENGES, MATE, STEAL)


HATE_MOVES: dict[str, MoveSpec[Rats]] = {
    "draw": MoveSpec(draw, "spend 1 Hate on a card", any_seat=True, any_time=True),
    "discard": MoveSpec(discard, "card=Qh (phone deck)", any_seat=True, secret=True),
}

PHASES: dict[str, PhaseSpec[Rats]] = {
    Phase.CREATE: PhaseSpec(
        name=Phase.CREATE,
        title="Making rats",
        next=lambda game: Phase.TUNNEL,
        moves={"create": MoveSpec(setup.create, "name=..., bonus=[8, 10]", any_seat=True)},
        blocker=setup.blocker,
        on_end=setup.deal_hands,
        passes=_made,  # every rat made (the blocker holds it till then)
    ),
    Phase.TUNNEL: PhaseSpec(
        name=Phase.TUNNEL,
        title="Tunnels",
        next=lambda game: Phase.NEST,
        moves={
            "play": MoveSpec(tunnel.play, "card=Qc"),
            "skip": MoveSpec(tunnel.skip, "no card to play"),
            "burrow": MoveSpec(tunnel.burrow, "heal=[6, 8]"),
            "roll": MoveSpec(tunnel.roll, "sizes=[6, 6] with the faces as dice", any_seat=True),
            "reroll": MoveSpec(tunnel.reroll, "2 Hate: owner=seat, die=index", any_seat=True),
            "enough": MoveSpec(tunnel.enough, "no more Hate spent on re-rolls", any_seat=True),
            "loot": MoveSpec(tunnel.loot, "item=d4|d6|d8|d10|hate|none", any_seat=True),
            "wound": MoveSpec(tunnel.wound, "die=6", any_seat=True),
            **HATE_MOVES,
        },
        # the oldest player (the first seat) starts every round; each rat once round the table
        turn=once_round(lambda game: 0, lambda game: len(game.rats), holds=tunnel.mid_turn),
        on_turn_end=tunnel.end_turn,
        on_begin=tunnel.on_begin,
        new_round=True,
        passes=_turn_over,
    ),
    Phase.NEST: PhaseSpec(
        name=Phase.NEST,
        title="Nest",
        next=lambda game: Phase.END if game.finished else Phase.TUNNEL,
        moves={
            "scrap": MoveSpec(nest.scrap, "fighter=seat, opponent=seat", any_seat=True),
            "roll": MoveSpec(nest.roll, "sizes=[6, 6] with the faces as dice", any_seat=True),
            "reroll": MoveSpec(nest.reroll, "2 Hate: owner=seat, die=index", any_seat=True),
            "enough": MoveSpec(nest.enough, "no more Hate spent on re-rolls", any_seat=True),
            "wound": MoveSpec(nest.wound, "die=6", any_seat=True),
            "spoils": MoveSpec(nest.spoils, "die=8 or card=Qh", any_seat=True),
            "challenge": MoveSpec(nest.challenge, "target=seat", any_seat=True),
            "answer": MoveSpec(nest.answer, "accept=true|false", any_seat=True),
            "mate": MoveSpec(nest.mate, "rat=seat", any_seat=True),
            "offer": MoveSpec(nest.offer, "die=6", any_seat=True),
            "steal": MoveSpec(nest.steal, "victim=seat", any_seat=True, ends_turn=True),
            **HATE_MOVES,
        },
        turn=whoever(nest.dominant_until_settled),
        on_turn_end=nest.advance,
        on_begin=nest.on_begin,
        on_end=nest.on_end,
        passes=_nest_settled,
    ),
    Phase.END: PhaseSpec(name=Phase.END, title="Game over", next=lambda game: Phase.END),
}


def end_if(game: Rats, ctx: Ctx) -> Outcome | None:
    """After the agreed rounds the best Dominance hand wins (equal hands share the win)."""
    if not game.finished:
        return None
    leaders = nest.best_hands(game)
    if not game.rats[leaders[0]].dominance:
        return Outcome((), "No rat won a single tunnel card: nobody is dominant, nobody wins.")
    names = " and ".join(game.rats[s].owner for s in leaders)
    hand = poker.hand_name(game.rats[leaders[0]].dominance)
    verb = "wins" if len(leaders) == 1 else "share the win"
    return Outcome(tuple(leaders), f"{names} {verb} with the best Dominance hand: {hand}.")


SPEC: GameSpec[Rats] = GameSpec(
    name=NAME,
    title="Rats",
    rule_sets=RULE_SETS,
    min_players=4,
    max_players=6,
    setup=setup.setup,
    phases=PHASES,
    first_phase=Phase.CREATE,
    end_if=end_if,
    presentation=Presentation(
        view=view,
        prompt=prompt,
        text=render,
        odds_text=odds_lines,
        seat_name=lambda game, seat: game.title(seat),
        by_hand=(
            "Every die: one tap per die on the rat's phone or the tablet; a wrong tap: Undo.",
            "A card played from your own deck: suit, then rank.",
            "Loot, wounds, burrowing, scraps, mating and stealing: their own buttons.",
        ),
    ),
    choices=choices,
    bot=bot.candidates,
    report=BalanceReport(figures=table.report_figures),
    key_figures=table.key_figures,
    start_player=lambda game: 0,  # the oldest player starts every round
    standing=table.standing,
    board=NAME,
    camera={DICE: Watch(table.read_dice, dice=table.pool_due)},
    cues=table.cues,
    cue_words={"dominant": "A rat is dominant: to the nest!", "scrap": "Scrap!"},
    options={
        "deck": SetupOption(
            "Tunnel cards",
            PHYSICAL,
            choices=((PHYSICAL, "our own deck of cards"), (PHONE, "dealt to each phone")),
        ),
        "rounds": SetupOption("Rounds", DEFAULT_ROUNDS, minimum=1, maximum=setup.MAX_ROUNDS),
    },
)
