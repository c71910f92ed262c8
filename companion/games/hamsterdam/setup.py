"""Set-up: passing and arranging dam cards, dealing specials, placing hamsters, first player.

Full game: every player picks two dam cards to pass (one to each neighbour, both to the
opponent with two players); once all have picked, the cards change hands and the
specials are dealt, two per blue dot, from a deck with one Twinsters card removed. Each
player then orders their dam and keeps one special per blue dot, and takes one plain
hamster per orange dot. Classic: the dam runs 2..12 and each player gets the deck's
classic hamsters and specials at once. Everyone places; a roll-off picks the first player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine.errors import IllegalMove
from companion.engine.evolve import evolve as replace
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.hamsterdam.catalogue import KINDS, TWINSTERS
from companion.games.hamsterdam.deck import load_deck
from companion.games.hamsterdam.layout import default_layout, lay_out
from companion.games.hamsterdam.model import (
    ARRANGE,
    CLASSIC,
    PASS,
    PLACE,
    READY,
    WAIT,
    Hamsterdam,
    Player,
    Special,
    Spot,
)

Args = Mapping[str, Any]


def setup(rules: str, players: tuple[str, ...], options: Args, draws: Draws) -> Hamsterdam:
    deck = load_deck(options.get("deck"))
    specials = [name for name in KINDS for _ in range(deck.copies[name])]
    game = Hamsterdam(
        rules=rules,
        players=(),
        single_use=deck.single_use,
        supply=deck.flood_tokens,
    )
    if rules == CLASSIC:
        seated = tuple(
            Player(
                name=name,
                dam=tuple(Spot(card) for card in sorted(deck.dam_cards, key=lambda c: c.value)),
                rest_plain=deck.classic_hamsters,
                stage=PLACE,
            )
            for name in players
        )
        game = replace(game, players=seated, deck_left=tuple(specials))
        order = draws.shuffle(specials, "special hamsters dealt")
        for seat in range(len(players)):
            hand, order = order[: deck.classic_specials], order[deck.classic_specials :]
            game, pieces = _pieces(game, hand)
            game = game.with_player(seat, replace(game.players[seat], rest_specials=pieces))
        return replace(game, deck_left=tuple(order))
    specials.remove(TWINSTERS)  # the full set-up sets one Twinsters card aside
    seated = tuple(Player(name=name, hand=deck.dam_cards, stage=PASS) for name in players)
    return replace(game, players=seated, deck_left=tuple(specials))


def _pieces(game: Hamsterdam, names: Sequence[str]) -> tuple[Hamsterdam, tuple[Special, ...]]:
    """Turn special cards into pieces; a Twinsters card brings two linked hamsters."""
    pieces: list[Special] = []
    next_id = game.next_id
    for name in names:
        if name == TWINSTERS:
            pieces += [
                Special(next_id, name, twin=next_id + 1),
                Special(next_id + 1, name, next_id),
            ]
            next_id += 2
        else:
            pieces.append(Special(next_id, name))
            next_id += 1
    return replace(game, next_id=next_id), tuple(pieces)


def _stage(game: Hamsterdam, seat: int, *expected: str) -> Player:
    player = game.players[seat]
    if player.stage not in expected:
        doing = {
            PASS: "choose two dam cards to pass",
            WAIT: "wait for the others to pass their cards",
            ARRANGE: "arrange the dam and keep specials",
            PLACE: "place the hamsters",
            READY: "wait: they are ready",
        }[player.stage]
        raise IllegalMove(f"{player.name} must {doing} now.")
    return player


def pass_cards(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Choose the two cards to pass: ``cards=[to the left, to the right]``."""
    player = _stage(game, seat, PASS, WAIT)
    cards = args.get("cards")
    values = [c.value for c in player.hand]
    if (
        not isinstance(cards, list)
        or len(cards) != 2
        or cards[0] == cards[1]
        or any(v not in values for v in cards)
    ):
        raise IllegalMove(f"{player.name} passes two different dam cards they hold (2 to 12).")
    game = game.with_player(
        seat, replace(player, passing=(int(cards[0]), int(cards[1])), stage=WAIT)
    )
    if all(p.stage == WAIT for p in game.players):
        game = _exchange(game, draws)
    return game


def _exchange(game: Hamsterdam, draws: Draws) -> Hamsterdam:
    """Everyone has chosen: the cards change hands and the specials are dealt."""
    count = len(game.players)
    hands = [[c for c in p.hand if c.value not in p.passing] for p in game.players]
    for seat, player in enumerate(game.players):
        left, right = (seat + 1) % count, (seat - 1) % count  # the dice also go left
        by_value = {c.value: c for c in player.hand}
        hands[left].append(by_value[player.passing[0]])
        hands[right].append(by_value[player.passing[1]])
    order = draws.shuffle(list(game.deck_left), "special hamsters dealt")
    players = []
    for seat, player in enumerate(game.players):
        blue = sum(c.blue for c in hands[seat])
        dealt_names, order = order[: 2 * blue], order[2 * blue :]
        game, dealt = _cards(game, dealt_names)
        players.append(
            replace(
                player,
                hand=tuple(sorted(hands[seat], key=lambda c: c.value)),
                dealt=dealt,
                keep=min(blue, len(dealt)),
                stage=ARRANGE,
            )
        )
    return replace(game, players=tuple(players), deck_left=tuple(order)).note(
        "The dam cards changed hands and the special hamsters were dealt."
    )


def _cards(game: Hamsterdam, names: Sequence[str]) -> tuple[Hamsterdam, tuple[Special, ...]]:
    """Dealt cards, not yet pieces (a Twinsters card is one card until kept)."""
    cards = tuple(Special(game.next_id + i, name) for i, name in enumerate(names))
    return replace(game, next_id=game.next_id + len(cards)), cards


def arrange(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Order the dam (``order``: values left to right) and keep specials (``keep``)."""
    player = _stage(game, seat, ARRANGE)
    order = args.get("order")
    held = sorted(c.value for c in player.hand)
    if not isinstance(order, list) or sorted(order) != held:
        raise IllegalMove(f"{player.name} must line up exactly the cards they hold: {held}.")
    kept = args.get("keep", [])
    if not isinstance(kept, list) or len(kept) != player.keep:
        raise IllegalMove(
            f"{player.name} keeps {player.keep} of the dealt specials (one per blue dot)."
        )
    left = list(player.dealt)
    chosen: list[str] = []
    for ref in kept:
        dealt = next((s for s in left if s.id == ref or s.name.lower() == str(ref).lower()), None)
        if dealt is None:
            raise IllegalMove(f"{player.name} was not dealt {ref} (or not that many).")
        left.remove(dealt)
        chosen.append(dealt.name)
    cards = list(player.hand)
    dam = []
    for value in order:
        card = next(c for c in cards if c.value == value)
        cards.remove(card)
        dam.append(Spot(card))
    game, pieces = _pieces(game, chosen)
    player = replace(
        player,
        dam=tuple(dam),
        hand=(),
        dealt=(),
        rest_plain=sum(spot.card.orange for spot in dam),
        rest_specials=pieces,
        stage=PLACE,
    )
    return game.with_player(seat, player)


def place(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Stand every hamster on the dam: ``stacks`` per position, ``specials`` [[name, at]]."""
    _stage(game, seat, PLACE, READY)
    game = lay_out(game, seat, args.get("stacks", ()), args.get("specials", []))
    return game.with_player(seat, replace(game.players[seat], stage=READY))


def place_default(game: Hamsterdam, seat: int) -> Hamsterdam:
    stacks, specials = default_layout(game.players[seat])
    return lay_out(game, seat, stacks, specials)


def roll_off(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Everyone rolls two dice; the highest rolls first every round (ties roll again)."""
    if game.first >= 0:
        raise IllegalMove(f"{game.players[game.first].name} already rolls first.")
    contenders = list(range(len(game.players)))
    while len(contenders) > 1:
        totals = {
            s: draws.die(f"roll-off: {game.players[s].name}")
            + draws.die(f"roll-off: {game.players[s].name}")
            for s in contenders
        }
        best = max(totals.values())
        contenders = [s for s in contenders if totals[s] == best]
    first = contenders[0]
    return replace(game, first=first).note(
        f"{game.players[first].name} won the roll-off and rolls first every round."
    )


def blocker(game: Hamsterdam, ctx: Ctx) -> str | None:
    waiting = [p.name for p in game.players if p.stage != READY]
    if waiting:
        return f"Set-up is not finished: waiting for {', '.join(waiting)}."
    return None


def finish(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    """Leaving set-up: roll off for the first player if the table has not yet."""
    if game.first < 0:
        game = roll_off(game, ctx, 0, {}, draws)
    return game
