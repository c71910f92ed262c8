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

from companion.engine.errors import IllegalMoveError
from companion.engine.evolve import evolve as replace
from companion.engine.rng import Draws
from companion.engine.state import Ctx
from companion.games.hamsterdam.catalogue import KINDS, SWIMSTER, TWINSTERS
from companion.games.hamsterdam.deck import load_deck
from companion.games.hamsterdam.layout import default_layout, lay_out, spread_layout
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
from companion.games.hamsterdam.phases import Phase
from companion.games.hamsterdam.pieces import index_of, put, take_from_rest

Args = Mapping[str, Any]


def setup(rules: str, players: tuple[str, ...], options: Args, draws: Draws) -> Hamsterdam:
    deck = load_deck(options.get("deck"))
    specials = [name for name in KINDS for _ in range(deck.copies[name])]
    roll_for_us = options.get("roll_for_us", False)
    if not isinstance(roll_for_us, bool):
        raise IllegalMoveError("'roll_for_us' is true (the companion rolls) or false.")
    game = Hamsterdam(
        rules=rules,
        players=(),
        single_use=deck.single_use,
        supply=deck.flood_tokens,
        roll_for_us=roll_for_us,
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
        raise IllegalMoveError(f"{player.name} must {doing} now.")
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
        raise IllegalMoveError(f"{player.name} passes two different dam cards they hold (2 to 12).")
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


def pass_card(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """One card at a time (``card``): the first goes to the left, the second to the right.

    The tablet offers eleven buttons, then ten, instead of 110 pairs; ``pass_cards`` does
    both at once for the terminal and scripts.
    """
    player = _stage(game, seat, PASS)
    card = args.get("card")
    values = [c.value for c in player.hand]
    if card not in values or card in player.passing:
        raise IllegalMoveError(
            f"{player.name} passes a dam card they hold and have not chosen yet."
        )
    if not player.passing:
        return game.with_player(seat, replace(player, passing=(int(card),)))
    return pass_cards(game, ctx, seat, {"cards": [player.passing[0], int(card)]}, draws)


def _lay(game: Hamsterdam, seat: int, value: object) -> Hamsterdam:
    """The next dam card, to the right of those already laid."""
    player = game.players[seat]
    card = next((c for c in player.hand if c.value == value), None)
    if card is None:
        held = sorted(c.value for c in player.hand)
        raise IllegalMoveError(f"{player.name} holds no {value} card to lay; they hold {held}.")
    hand = list(player.hand)
    hand.remove(card)
    return game.with_player(seat, replace(player, hand=tuple(hand), dam=(*player.dam, Spot(card))))


def _keep(game: Hamsterdam, seat: int, ref: object) -> Hamsterdam:
    """Keep one dealt special card: it becomes its piece(s) in the reinforcement pile."""
    player = game.players[seat]
    if player.keep <= 0:
        raise IllegalMoveError(f"{player.name} has kept every special they may (one per blue dot).")
    dealt = next(
        (s for s in player.dealt if s.id == ref or s.name.lower() == str(ref).lower()), None
    )
    if dealt is None:
        raise IllegalMoveError(f"{player.name} was not dealt {ref} (or not that many).")
    game, pieces = _pieces(game, [dealt.name])
    player = game.players[seat]
    return game.with_player(
        seat,
        replace(
            player,
            dealt=tuple(s for s in player.dealt if s is not dealt),
            keep=player.keep - 1,
            rest_specials=(*player.rest_specials, *pieces),
        ),
    )


def _arranged(game: Hamsterdam, seat: int) -> Hamsterdam:
    """Every card laid and every special kept: one plain hamster per orange dot, then place."""
    player = game.players[seat]
    if player.hand or player.keep:
        return game
    player = replace(
        player,
        dealt=(),
        rest_plain=sum(spot.card.orange for spot in player.dam),
        stage=PLACE,
    )
    return game.with_player(seat, player)


def arrange(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Order the dam (``order``: values left to right) and keep specials (``keep``).

    After some ``lay_card``/``keep_special`` steps it completes what is left: ``order``
    then lists the cards still held and ``keep`` the specials still to keep.
    """
    player = _stage(game, seat, ARRANGE)
    order = args.get("order")
    held = sorted(c.value for c in player.hand)
    if not isinstance(order, list) or sorted(order) != held:
        raise IllegalMoveError(f"{player.name} must line up exactly the cards they hold: {held}.")
    kept = args.get("keep", [])
    if not isinstance(kept, list) or len(kept) != player.keep:
        raise IllegalMoveError(
            f"{player.name} keeps {player.keep} of the dealt specials (one per blue dot)."
        )
    for ref in kept:
        game = _keep(game, seat, ref)
    for value in order:
        game = _lay(game, seat, value)
    return _arranged(game, seat)


def lay_card(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Lay the next dam card (``card``), building the dam from its left end."""
    _stage(game, seat, ARRANGE)
    return _arranged(_lay(game, seat, args.get("card")), seat)


def keep_special(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Keep one of the dealt specials (``special``: its id or name)."""
    _stage(game, seat, ARRANGE)
    return _arranged(_keep(game, seat, args.get("special")), seat)


def place(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Stand every hamster on the dam: ``stacks`` per position, ``specials`` [[name, at]]."""
    _stage(game, seat, PLACE, READY)
    game = lay_out(game, seat, args.get("stacks", ()), args.get("specials", []))
    return game.with_player(seat, replace(game.players[seat], stage=READY))


def stand(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Stand one resting hamster (``hamster``: plain or a special's id) on card ``at``.

    The step-wise way to place at set-up and after ``lift`` at redeployment: the player is
    done once nothing resting can stand anywhere (no hamster on a card with a flood token,
    except Swimster).
    """
    player = _stage(game, seat, PLACE)
    if ctx.phase == Phase.REDEPLOY and player.redeployed:
        raise IllegalMoveError(f"{player.name} has already redeployed this round.")
    index = index_of(player, args.get("at"), "where the hamster stands")
    player, piece = take_from_rest(player, args.get("hamster"))
    spot = player.dam[index]
    if spot.tokens and (piece is None or piece.name != SWIMSTER):
        raise IllegalMoveError(
            f"No hamster may be put on {player.name}'s {spot.value} card: it has a flood token "
            "(only Swimster may)."
        )
    game = put(game.with_player(seat, player), seat, index, piece)
    if not can_stand(game.players[seat]):
        game = placed(game, ctx, seat)
    return game


def can_stand(player: Player) -> bool:
    """Some resting hamster has a card it may stand on."""
    dry = any(not spot.tokens for spot in player.dam)
    swimmer = any(s.name == SWIMSTER for s in player.rest_specials)
    resting = player.rest_plain or player.rest_specials
    return bool(player.dam) and bool(resting) and (dry or swimmer)


def placed(game: Hamsterdam, ctx: Ctx, seat: int) -> Hamsterdam:
    """The player has stood every hamster they can: ready (and, in redeployment, done)."""
    player = replace(game.players[seat], stage=READY)
    if ctx.phase == Phase.REDEPLOY:
        player = replace(player, redeployed=True)
    return game.with_player(seat, player)


def spread(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Stand the resting hamsters the plain way, leaving those already standing in place."""
    _stage(game, seat, PLACE)
    stacks, specials = spread_layout(game.players[seat])
    return placed(lay_out(game, seat, stacks, specials), ctx, seat)


def ready_to_line_up(player: Player) -> bool:
    """Every special kept and cards still in hand: the rest of the dam can go down at once."""
    return player.stage == ARRANGE and not player.keep and len(player.hand) > 1


def arrange_all(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Every player who has kept their specials lays the rest of their dam in rising order
    (the plain order, one tap for the table instead of one per player)."""
    seats = [s for s, p in enumerate(game.players) if ready_to_line_up(p)]
    if not seats:
        raise IllegalMoveError("Nobody has cards left to line up with every special kept.")
    for each in seats:
        order = sorted(c.value for c in game.players[each].hand)
        game = arrange(game, ctx, each, {"order": order, "keep": []}, draws)
    return game


def spread_all(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Every player still placing stands the rest of their hamsters the plain way (one tap
    for the table instead of one per player)."""
    seats = [s for s, p in enumerate(game.players) if p.stage == PLACE]
    if not seats:
        raise IllegalMoveError("Nobody has hamsters left to stand.")
    for each in seats:
        game = spread(game, ctx, each, {}, draws)
    return game


def place_default(game: Hamsterdam, seat: int) -> Hamsterdam:
    stacks, specials = default_layout(game.players[seat])
    return lay_out(game, seat, stacks, specials)


def roll_off(game: Hamsterdam, ctx: Ctx, seat: int, args: Args, draws: Draws) -> Hamsterdam:
    """Everyone rolls two dice; the highest rolls first every round (ties roll again).

    The table may roll by hand and say who won (``first``: a seat), which spares the
    tablet a picker per die and per tie-break; without it the dice come as given outcomes
    (two per contender, then two more per tied contender), or from the companion for a
    table that asked it to roll.
    """
    if game.first >= 0:
        raise IllegalMoveError(f"{game.players[game.first].name} already rolls first.")
    if "first" in args:
        first = args["first"]
        if not isinstance(first, int) or isinstance(first, bool):
            raise IllegalMoveError("Say which seat won the roll-off.")
        if not 0 <= first < len(game.players):
            raise IllegalMoveError(f"There is no seat {first} at this table.")
        return replace(game, first=first).note(
            f"{game.players[first].name} won the roll-off and rolls first every round."
        )
    contenders = list(range(len(game.players)))
    own = game.roll_for_us  # the players' own dice, unless the table asked us to roll
    again = False
    best = 0
    while len(contenders) > 1:
        try:
            totals = {
                s: draws.hand_die(f"{game.players[s].name}'s roll-off", companion_rolls=own)
                + draws.hand_die(f"{game.players[s].name}'s roll-off", companion_rolls=own)
                for s in contenders
            }
        except IllegalMoveError:
            if not again:
                raise
            names = " and ".join(game.players[s].name for s in contenders)
            # The page's dice pickers hold the first roll only: the tap is its way on.
            raise IllegalMoveError(
                f"{names} tied in the roll-off with {best} each: they roll again, then tap "
                "the winner's 'won the roll-off' button (or give every roll-off die, the "
                "new ones too, as companion next --dice does)."
            ) from None
        best = max(totals.values())
        contenders = [s for s in contenders if totals[s] == best]
        again = True
    first = contenders[0]
    return replace(game, first=first).note(
        f"{game.players[first].name} won the roll-off and rolls first every round."
    )


def blocker(game: Hamsterdam, ctx: Ctx) -> str | None:
    waiting = [p.name for p in game.players if p.stage != READY]
    if waiting:
        return f"Set-up is not finished: waiting for {', '.join(waiting)}."
    return None


def roll_off_dice(game: Hamsterdam) -> list[str]:
    """The dice NEXT takes when it ends set-up with no first player named: two each."""
    if game.first >= 0 or game.roll_for_us or any(p.stage != READY for p in game.players):
        return []
    return [f"{p.name}'s roll-off die {k}" for p in game.players for k in (1, 2)]


def finish(game: Hamsterdam, ctx: Ctx, draws: Draws) -> Hamsterdam:
    """Leaving set-up: roll off for the first player if the table has not yet."""
    if game.first < 0:
        game = roll_off(game, ctx, 0, {}, draws)
    return game
