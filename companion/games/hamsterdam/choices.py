"""Every concrete move a Hamsterdam player could make now, as buttons for the tablet.

The engine keeps only the candidates it accepts (:func:`companion.engine.legal.legal_moves`
applies each one), so this module may offer generously; what it must not do is miss a
move a player could make, because the page has no free-text entry. Moves whose arguments
would be too many to list are offered step by step instead (the rules have a move for
each step): two cards passed one at a time, the dam laid card by card and specials kept
one by one, hamsters stood one at a time, a redeployment that starts by picking everyone
up. Each step-wise series has a "the plain way" shortcut button, like NEXT has.

Labels name the player first, then what happens on the table, in a few words.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from companion.engine.state import Ctx
from companion.games.hamsterdam import breach, flood, powers
from companion.games.hamsterdam.catalogue import (
    BOMBSTER,
    BUFFSTER,
    CONTRACTSTER,
    COPYCATSTER,
    FLOOD,
    HUCKSTER,
    JANITSTER,
    KINDS,
    MOBSTER,
    MOMSTER,
    NAPSTER,
    NINJASTER,
    PHYSICSTER,
    SPEEDSTER,
    SPINSTER,
    SWIMSTER,
    WHACK_A_MOLE,
)
from companion.games.hamsterdam.layout import default_layout
from companion.games.hamsterdam.model import (
    ARRANGE,
    PASS,
    PLACE,
    READY,
    Hamsterdam,
    Player,
    Special,
)
from companion.games.hamsterdam.naming import card
from companion.games.hamsterdam.phases import Phase
from companion.games.hamsterdam.setup import ready_to_line_up

Choice = dict[str, Any]
COPY = f"{COPYCATSTER} as "  # how powers.usable names an imitation
COPY_LABEL = "Copycat as "  # shorter, for buttons


# Group order on the page: what the table must answer, then shortcuts, then the rest.
FIRST = (
    "roll",
    "keep_roll",
    "roll_off",
    "spread_all",
    "arrange_all",
    "spread",
    "arrange",
    "redeploy",
    "pass_card",
)
LAST = ("move", "clear", "lift", "lay_card", "stand")
RANK = {name: i for i, name in enumerate(FIRST)} | {name: 90 + i for i, name in enumerate(LAST)}


def _choice(seat: int, name: str, label: str, dice: int = 0, **args: Any) -> Choice:
    found: Choice = {"seat": seat, "name": name, "label": label, "args": args}
    if dice:
        found["dice"] = dice
    return found


def choices(game: Hamsterdam, ctx: Ctx) -> list[Choice]:
    """Candidate moves for the current phase (the engine filters out the illegal ones).

    Two buttons with the same label would do the same thing on the table (two Mobster
    cards dealt, the two pieces of a Twinsters pair): only the first is kept. The page
    groups buttons by move in the order they come, so the one-tap answers come first and
    the long step-by-step lists last.
    """
    found: dict[str, Choice] = {}
    for choice in _candidates(game, ctx):
        found.setdefault(choice["label"], choice)
    return sorted(found.values(), key=lambda choice: RANK.get(choice["name"], 50))


def _candidates(game: Hamsterdam, ctx: Ctx) -> list[Choice]:
    phase = ctx.phase
    if phase == Phase.SETUP:
        return list(_setup(game))
    if phase == Phase.ROLL:
        return list(_roll(game, ctx))
    if phase == Phase.FLOOD:
        return list(_floods(game))
    if phase == Phase.BREACH:
        return list(_breaches(game))
    if phase == Phase.MOVEMENT:
        return list(_movement(game, ctx))
    if phase == Phase.SKIPS:
        return [*_specials(game, ctx), *_floods(game), *_breaches(game)]
    if phase == Phase.REDEPLOY:
        return list(_redeploy(game, ctx))
    return []  # a new round, passing the dice: only NEXT


# ----------------------------------------------------------------------------- set-up
def _neighbours(game: Hamsterdam, seat: int) -> tuple[str, str]:
    """Who gets the first (left) and the second (right) passed card."""
    count = len(game.players)
    return game.players[(seat + 1) % count].name, game.players[(seat - 1) % count].name


def _setup(game: Hamsterdam) -> Iterator[Choice]:
    for seat, player in enumerate(game.players):
        name = player.name
        if player.stage == PASS:
            to = _neighbours(game, seat)[len(player.passing)]
            for value in sorted({c.value for c in player.hand} - set(player.passing)):
                yield _choice(seat, "pass_card", f"{name}: pass {value} to {to}", card=value)
        elif player.stage == ARRANGE:
            if player.keep:
                for special in player.dealt:
                    yield _choice(
                        seat,
                        "keep_special",
                        f"{name}: keep {special.name}",
                        special=special.id,
                    )
            place = "first" if not player.dam else "next"
            for value in sorted({c.value for c in player.hand}):
                yield _choice(seat, "lay_card", f"{name}: {value} {place} in the dam", card=value)
            if not player.keep and len(player.hand) > 1:
                order = sorted(c.value for c in player.hand)
                label = f"{name}: the rest in order {order[0]}→{order[-1]}"
                yield _choice(seat, "arrange", label, order=order, keep=[])
        elif player.stage == PLACE:
            yield from _standing(seat, player)
    # the whole table at once, where two or more players have the same plain step left
    lining = [s for s, p in enumerate(game.players) if ready_to_line_up(p)]
    if len(lining) > 1:
        yield _choice(lining[0], "arrange_all", _everyone(game, lining, "the rest in order"))
    placing = [s for s, p in enumerate(game.players) if p.stage == PLACE]
    if len(placing) > 1:
        yield _choice(placing[0], "spread_all", _everyone(game, placing, "spread the rest"))
    if all(p.stage == READY for p in game.players) and game.first < 0:
        for seat, player in enumerate(game.players):
            yield _choice(seat, "roll_off", f"{player.name} won the roll-off", first=seat)


def _everyone(game: Hamsterdam, seats: list[int], what: str) -> str:
    names = [game.players[s].name for s in seats]
    who = "Everyone" if len(seats) == len(game.players) else " and ".join(names)
    return f"{who}: {what}"


def _resting(player: Player) -> list[tuple[str, int | None]]:
    """Distinct resting hamsters: a plain one (if any), then each special piece."""
    found: list[tuple[str, int | None]] = [("a hamster", None)] if player.rest_plain else []
    return found + [(s.name, s.id) for s in player.rest_specials]


def _standing(seat: int, player: Player) -> Iterator[Choice]:
    """Stand one resting hamster on any card, or the rest the plain way."""
    for what, ref in _resting(player):
        for i in range(len(player.dam)):
            label = f"{player.name}: {what} on {card(player, i)}"
            yield _choice(seat, "stand", label, at=i + 1, hamster=ref)
    yield _choice(seat, "spread", f"{player.name}: spread the rest")


# ----------------------------------------------------------------------------- roll
def _roll(game: Hamsterdam, ctx: Ctx) -> Iterator[Choice]:
    if ctx.current is not None:
        who = game.players[ctx.current].name
        again = " again" if game.dry else ""
        yield _choice(ctx.current, "roll", f"Enter {who}'s roll{again}", dice=2)
        return
    if game.alternative is not None and game.dice is not None:
        old, new = game.dice, game.alternative
        for use, dice in (("old", old), ("new", new)):
            who = game.players[game.roller].name
            label = f"{who}: keep the {use} roll {dice[0]}+{dice[1]}={dice[0] + dice[1]}"
            yield _choice(game.roller, "keep_roll", label, use=use)
        return
    yield from _specials(game, ctx)


# ----------------------------------------------------------------------------- specials
def _offers(game: Hamsterdam, ctx: Ctx, seat: int) -> Iterator[tuple[str, bool]]:
    """(special name, imitated by Copycatster?) for each special this player may use now."""
    for offer in powers.usable(game, ctx, seat):
        if offer.startswith(COPY):
            yield offer.removeprefix(COPY), True
        else:
            yield offer, False


def _pieces_of(player: Player, name: str) -> list[tuple[int, Special]]:
    return [
        (i, special)
        for i, spot in enumerate(player.dam)
        for special in spot.specials
        if special.name == name
    ]


def _specials(game: Hamsterdam, ctx: Ctx) -> Iterator[Choice]:
    """Every usable special (flood-time ones come with their flood) with each target."""
    for seat, player in enumerate(game.players):
        for name, copying in _offers(game, ctx, seat):
            if KINDS[name].timing == FLOOD:
                continue  # offered per flood, see _floods
            actor = COPYCATSTER if copying else name
            for index, piece in _pieces_of(player, actor):
                if piece.id in game.acted:
                    continue
                who = f"{player.name}: {COPY_LABEL if copying else ''}{name}"
                if len(_pieces_of(player, actor)) > 1:
                    who += f" on {card(player, index)}"
                for label, args, dice in _targets(game, seat, name, index):
                    yield _choice(
                        seat,
                        KINDS[name].move,
                        f"{who} {label}".rstrip(),
                        dice=dice,
                        piece=piece.id,
                        copycat=copying,
                        **args,
                    )


Target = tuple[str, dict[str, Any], int]  # (label, arguments, dice to roll)


def _targets(game: Hamsterdam, seat: int, name: str, index: int) -> Iterator[Target]:
    """The ways special ``name`` (standing at ``index``) can act; dice it needs rolled."""
    player = game.players[seat]
    dam = player.dam
    others = [s for s in range(len(game.players)) if s != seat]
    if name == BUFFSTER and game.dice is not None:
        a, b = game.dice
        yield f"flips the dice ({7 - a}+{7 - b})", {}, 0
    elif name == SPINSTER and game.dice is not None:
        for die, face in ((d, f) for d in (1, 2) for f in range(1, 7)):
            if game.dice[die - 1] != face:
                roll = game.roll - game.dice[die - 1] + face
                yield f"sets die {die} to {face} (= {roll})", {"die": die, "to": face}, 0
    elif name == PHYSICSTER:
        yield "re-roll", {}, 2
    elif name == WHACK_A_MOLE:
        yield "jump roll", {}, 2
    elif name == MOBSTER:
        for by in (1, -1):
            yield f"floods at {game.roll + by}", {"by": by}, 0
    elif name == NINJASTER:
        yield "dodges this roll", {}, 0
    elif name in (NAPSTER, SPEEDSTER):
        reach = (index - 1, index + 1) if name == NAPSTER else range(len(dam))
        for to in reach:
            if 0 <= to < len(dam) and to != index:
                yield f"to {card(player, to)}", {"to": to + 1}, 0
    elif name == BOMBSTER:
        for victim in others:
            for i in range(len(game.players[victim].dam)):
                where = f"{game.players[victim].name}'s {card(game.players[victim], i)}"
                yield f"floods {where}", {"target": victim, "at": i + 1}, 0
    elif name == CONTRACTSTER:
        for i, spot in enumerate(dam):
            for to in (i - 1, i + 1):
                if spot.tokens and 0 <= to < len(dam):
                    label = f"water {card(player, i)}→{card(player, to)}"
                    yield label, {"from": i + 1, "to": to + 1}, 0
    elif name == HUCKSTER:
        for victim in others:
            their = game.players[victim].dam
            for i, spot in enumerate(their):
                for to in (i - 1, i + 1):
                    if spot.plain and 0 <= to < len(their):
                        step = f"{card(game.players[victim], i)}→{card(game.players[victim], to)}"
                        label = f"moves {game.players[victim].name}'s {step}"
                        yield label, {"target": victim, "from": i + 1, "to": to + 1}, 0
    elif name == MOMSTER:
        yield "calls two resting hamsters", {}, 0
    elif name == JANITSTER:
        yield "mops the dam", {}, 0


# ----------------------------------------------------------------------------- flood
def _floods(game: Hamsterdam) -> Iterator[Choice]:
    """Each waiting flood, each way its player may stop it (see :func:`flood.options`)."""
    for pending in game.pending:
        player = game.players[pending.seat]
        hit = card(player, pending.index)
        at = pending.index + 1
        for how, ref in flood.options(game, pending):
            where = "" if ref is None else _where(player, ref, pending.index)
            if how == flood.PLUG:
                what = "a hamster" if ref is None else _name(player, ref)
                label = f"{player.name}: plug {hit} with {what}"
                yield _choice(pending.seat, "plug", label, at=at, hamster=ref)
            elif how == flood.WATER:
                label = f"{player.name}: water onto {hit}"
                yield _choice(pending.seat, "water", label, at=at)
            else:
                copying = how.startswith("copycat-")
                name = _kind(how.removeprefix("copycat-"))
                actor = f"{COPY_LABEL}{name}" if copying else name
                label = f"{player.name}: {actor}{where} stops {hit}"
                yield _choice(
                    pending.seat,
                    KINDS[name].move,
                    label,
                    at=at,
                    piece=ref,
                    copycat=copying,
                )


def _kind(move: str) -> str:
    return next(name for name, kind in KINDS.items() if kind.move == move)


def _name(player: Player, ref: int) -> str:
    return next((s.name for spot in player.dam for s in spot.specials if s.id == ref), "a special")


def _where(player: Player, ref: int, index: int) -> str:
    """Where the acting special stands, when it is beside the flooded card (Blobster)."""
    for i, spot in enumerate(player.dam):
        if i != index and any(s.id == ref for s in spot.specials):
            return f" from {card(player, i)}"
    return ""


# ----------------------------------------------------------------------------- breach
def _breaches(game: Hamsterdam) -> Iterator[Choice]:
    """Flip either end; where hamsters land in water, each hamster that may be sacrificed."""
    for seat, player in enumerate(game.players):
        if not breach.due(player):
            continue
        ends = ("left",) if len(player.dam) == 1 else ("left", "right")
        for end in ends:
            index = 0 if end == "left" else len(player.dam) - 1
            flip = f"{player.name}: flip {end} end {player.dam[index].value}"
            victims = _sacrifices(player, index, end)
            if not victims:
                yield _choice(seat, "flip", flip, end=end)
            for what, ref in victims:
                yield _choice(seat, "flip", f"{flip}, lose {what}", end=end, sacrifice=ref)


def _sacrifices(player: Player, index: int, end: str) -> list[tuple[str, int | None]]:
    """Who may be sacrificed when the card at ``index`` flips (none if nobody must be)."""
    if len(player.dam) < 2:
        return []
    inward = player.dam[1 if end == "left" else len(player.dam) - 2]
    gone = player.dam[index]
    if not inward.tokens:
        return []
    plain = inward.plain + gone.plain
    specials = [s for s in (*inward.specials, *gone.specials) if s.name != SWIMSTER]
    if not plain and not specials:
        return []
    found: list[tuple[str, int | None]] = [("a hamster", None)] if plain else []
    return found + [(s.name, s.id) for s in specials]


# ----------------------------------------------------------------------------- movement
def _movement(game: Hamsterdam, ctx: Ctx) -> Iterator[Choice]:
    """Each player's one move (any hamster, one card either way), then Speedster's dash."""
    for seat, player in enumerate(game.players):
        if player.moved:
            continue
        for i, spot in enumerate(player.dam):
            kinds: list[tuple[str, int | None]] = [("hamster", None)] if spot.plain else []
            kinds += [(s.name, s.id) for s in spot.specials]
            for what, ref in kinds:
                for to in (i - 1, i + 1):
                    if 0 <= to < len(player.dam):
                        label = f"{player.name}: {what} {card(player, i)}→{card(player, to)}"
                        args: dict[str, Any] = {"from": i + 1, "to": to + 1, "hamster": ref}
                        yield _choice(seat, "move", label, **args)
    yield from _specials(game, ctx)


# ----------------------------------------------------------------------------- redeploy
def _redeploy(game: Hamsterdam, ctx: Ctx) -> Iterator[Choice]:
    """Clear water, mop, then stand the hamsters anew (or NEXT: evenly)."""
    for seat, player in enumerate(game.players):
        if player.redeployed:
            continue
        yield from _clearing(seat, player)
        if player.stage == PLACE:
            yield from _standing(seat, player)
        else:
            yield _choice(seat, "lift", f"{player.name}: pick up hamsters to redeploy")
            stacks, specials = default_layout(player)
            label = f"{player.name}: redeploy evenly"
            yield _choice(seat, "redeploy", label, stacks=stacks, specials=specials)
    yield from _specials(game, ctx)


def _clearing(seat: int, player: Player) -> Iterator[Choice]:
    """Give a hamster to clear a token: a plain one (resting first), or any special.

    Where the hamster came from does not matter once everyone is stood anew, so one
    button per wet card and kind of hamster is enough.
    """
    hamsters: list[tuple[str, int | None, object]] = []
    if player.rest_plain:
        hamsters.append(("a resting hamster", None, "rest"))
    else:
        stacked = next((i for i, spot in enumerate(player.dam) if spot.plain), None)
        if stacked is not None:
            hamsters.append(("a hamster", None, stacked + 1))
    hamsters += [(s.name, s.id, "rest") for s in player.rest_specials]
    hamsters += [(s.name, s.id, i + 1) for i, spot in enumerate(player.dam) for s in spot.specials]
    for i, spot in enumerate(player.dam):
        if not spot.tokens:
            continue
        for what, ref, source in hamsters:
            label = f"{player.name}: {what} leaves to clear {card(player, i)}"
            args: dict[str, Any] = {"at": i + 1, "hamster": ref, "from": source}
            yield _choice(seat, "clear", label, **args)
