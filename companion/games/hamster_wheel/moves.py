"""Set-up and the moves of a Hamster Wheel turn: place, constructive pass, failed try,
Higher Powers, and the wheel's rotation as the camera (or a person) reports it.

Where the printed rules leave things open, ``docs/rules/hamster-wheel.md`` settles them:
the fourth set split two, two, two with one piece out; "higher" is a reminder, not a check;
more than one piece in the opening compartment is only discouraged.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine.errors import IllegalMoveError
from companion.engine.rng import Draws
from companion.engine.spec import Args
from companion.engine.state import Ctx
from companion.games.hamster_wheel.model import (
    COLOURS,
    MAX_SECTIONS,
    MIN_SECTIONS,
    OPENING_OFFSET,
    PIECE_COLOURS,
    PYRAMID,
    SECTIONS,
    SET_SIZE,
    TARGETS,
    HamsterWheel,
    Player,
    Turn,
    Wheel,
    add,
    hand_of,
    take,
)

TARGET_TITLES = {"same": "the same compartment", "next": "the next free", "next2": "next but one"}


def setup(rules: str, players: tuple[str, ...], options: Args, draws: Draws) -> HamsterWheel:
    """Hands by the number of players; the pyramid in the lowest compartment."""
    sections = options.get("sections", SECTIONS)
    if (
        isinstance(sections, bool)
        or not isinstance(sections, int)
        or not MIN_SECTIONS <= sections <= MAX_SECTIONS
    ):
        raise IllegalMoveError(
            f"A wheel has from {MIN_SECTIONS} to {MAX_SECTIONS} compartments "
            f"(the published one {SECTIONS})."
        )
    split = options.get("split_fourth", False)
    if split in ("yes", "no"):  # as the page and `--option split_fourth=yes` give it
        split = split == "yes"
    if not isinstance(split, bool):
        raise IllegalMoveError("'split_fourth' is true or false.")
    if split and len(players) != 3:
        raise IllegalMoveError("Only a three-player game splits the fourth set.")
    one_set = {colour: 1 for colour in COLOURS}
    hands = [dict(one_set) for _ in players]
    out: tuple[str, ...] = ()
    if len(players) == 2:
        hands = [{colour: 2 for colour in COLOURS} for _ in players]
    elif split:
        for seat, hand in enumerate(hands):  # two more each; the last colour stays out
            for colour in COLOURS[2 * seat : 2 * seat + 2]:
                hand[colour] += 1
        out = (COLOURS[-1],)
    first = options.get("first", 0)
    if isinstance(first, str) and first.isdigit():  # as the page and `--option first=1` give it
        first = int(first)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(players):
        raise IllegalMoveError(
            f"'first' is the seat of the player with the shakiest hand, from 0 (the first "
            f"name) to {len(players) - 1}."
        )
    teams = len(players) == 4
    built = tuple(
        Player(name, hand_of(hand), team=(seat // 2 if teams else None))
        for seat, (name, hand) in enumerate(zip(players, hands, strict=True))
    )
    contents = tuple((PYRAMID,) if i == 0 else () for i in range(sections))
    wheel = Wheel(sections=sections, contents=contents)
    return HamsterWheel(rules, built, wheel, teams, out=out, first=first)


def opening(wheel: Wheel) -> int:
    return (wheel.pyramid_start + OPENING_OFFSET) % wheel.sections


def target_compartment(wheel: Wheel, target: str) -> int | None:
    """Where ``same``/``next``/``next2`` points now (None: there is no such compartment)."""
    if target not in TARGETS:
        return None
    if wheel.last is None:
        return opening(wheel) if target == "next" else None
    if target == "same":
        return wheel.last
    wanted = 1 if target == "next" else 2
    for step in range(1, wheel.sections):
        compartment = (wheel.last + step) % wheel.sections
        if wheel.free(compartment):
            wanted -= 1
            if wanted == 0:
                return compartment
    return None


def _colour(args: Args, key: str = "colour") -> str:
    colour = args.get(key)
    if colour not in PIECE_COLOURS:
        names = ", ".join(PIECE_COLOURS)
        raise IllegalMoveError(f"Say which piece by its colour: one of {names}.")
    return str(colour)


def _colours(args: Args, key: str = "fell") -> tuple[str, ...]:
    found = args.get(key, [])
    if isinstance(found, str):  # typed in `companion play`, where the quotes do not survive
        found = [c.strip() for c in found.strip("[] ").split(",") if c.strip()]
    if not isinstance(found, list) or len(found) > 60:
        raise IllegalMoveError(
            f'\'{key}\' lists the colours of the pieces, e.g. {key}=red,blue (or ["red", "blue"]).'
        )
    return tuple(_colour({"colour": c}) for c in found)


def place(game: HamsterWheel, ctx: Ctx, seat: int, args: Args, draws: Draws) -> HamsterWheel:
    """Put a piece into the wheel: the same compartment, the next free or the next but one."""
    if game.turn.acted:
        raise IllegalMoveError(
            "This turn already has its piece: press NEXT, or report a failed try."
        )
    colour = _colour(args)
    target = str(args.get("at", "next"))
    at = target_compartment(game.wheel, target)
    if at is None:
        if game.wheel.last is None:
            raise IllegalMoveError(
                f"The opening piece goes into compartment {opening(game.wheel) + 1}, two "
                "clockwise from the pyramid's: place it there (at=next)."
            )
        raise IllegalMoveError(f"There is no {TARGET_TITLES.get(target, target)} compartment now.")
    if target == "same" and colour in game.wheel.holds(at):
        raise IllegalMoveError(
            f"Compartment {at + 1} already holds a {colour} piece: the same compartment "
            "needs a colour not yet in it."
        )
    player, source, from_partner = game.players[seat], seat, False
    if player.pieces == 0 and game.teams:
        partner = game.partner(seat)
        assert partner is not None
        source, from_partner = partner, True
    stock = game.players[source]
    if stock.hand[PIECE_COLOURS.index(colour)] == 0:
        whose = f"{stock.name}'s stock" if from_partner else f"{player.name}'s hand"
        raise IllegalMoveError(f"There is no {colour} piece in {whose}.")
    game = game.with_player(source, replace(stock, hand=take(stock.hand, colour)))
    wheel = _put(game.wheel, at, colour)
    notes: tuple[str, ...] = ()
    if at == opening(wheel) and len(wheel.holds(at)) == 2:  # said once, as the tip is broken
        notes = ("A tip from the rules: not more than one piece in the opening compartment.",)
    return replace(
        game,
        wheel=wheel,
        turn=Turn(placed=colour, at=at, from_partner=from_partner),
        notes=notes,
        ask_lowest=False,  # the next try has begun: the questions of the last fall lapse
        guessed=(),
    )


def constructive_pass(
    game: HamsterWheel, ctx: Ctx, seat: int, args: Args, draws: Draws
) -> HamsterWheel:
    """Before trying: move a piece from one of the two lowest compartments to one without
    that colour."""
    if game.turn.acted:
        raise IllegalMoveError("A constructive pass comes instead of placing, before trying.")
    colour = _colour(args)
    source, target = _compartment(game, args, "from"), _compartment(game, args, "to")
    if source not in game.wheel.lowest_two():
        low = " or ".join(str(c + 1) for c in game.wheel.lowest_two())
        raise IllegalMoveError(
            f"A constructive pass takes from the two lowest compartments: {low}."
        )
    if colour not in game.wheel.holds(source):
        raise IllegalMoveError(f"No {colour} piece is logged in compartment {source + 1}.")
    if target == source or colour in game.wheel.holds(target):
        raise IllegalMoveError(
            f"The piece must go to another compartment with no {colour} piece in it."
        )
    wheel = _put(_remove(game.wheel, source, colour), target, colour)
    return replace(game, wheel=wheel, turn=Turn(passed=True), notes=())


def fail(game: HamsterWheel, ctx: Ctx, seat: int, args: Args, draws: Draws) -> HamsterWheel:
    """A failed try: the fallen pieces and any set aside by Higher Powers go to the player;
    the chosen piece stays in the wheel or comes back to the hand; the turn ends.

    ``fell`` is the pieces that fell apart from the chosen one (``stayed`` says where that
    one is): every stored game reads it so, and the page's form takes the chosen piece out
    of what lies on the table before it sends."""
    fell = _colours(args)
    stayed = args.get("stayed", True)
    if not isinstance(stayed, bool):
        raise IllegalMoveError("'stayed' says whether the chosen piece stayed in the wheel.")
    wheel, player = game.wheel, game.players[seat]
    placed = game.turn.placed
    if placed and not stayed:
        assert game.turn.at is not None
        wheel = _remove(wheel, game.turn.at, placed)
        player = replace(player, hand=add(player.hand, (placed,)))
    wheel, guessed = _fall_all(wheel, fell)
    taken = fell + game.aside
    player = replace(player, hand=add(player.hand, taken))
    said = f"{player.name}'s try failed"
    said += f": takes {_list(taken)}." if taken else "."
    return replace(
        game.with_player(seat, player),
        wheel=wheel,
        aside=(),
        turn=Turn(),
        turns=game.turns + 1,
        failures=game.failures + 1,
        taken=game.taken + len(taken),
        notes=(said,),
        last_fell=taken,
        ask_lowest=True,
        guessed=guessed,
    )


def higher_powers(
    game: HamsterWheel, ctx: Ctx, seat: int, args: Args, draws: Draws
) -> HamsterWheel:
    """Pieces that fell with nobody touching the wheel are set aside for the next to fail."""
    if game.turn.acted:
        raise IllegalMoveError(
            "A turn is in progress: pieces falling now belong to it (report a failed try)."
        )
    fell = _colours(args)
    if not fell:
        raise IllegalMoveError('Say which pieces fell out: fell=["red", ...].')
    wheel, guessed = _fall_all(game.wheel, fell)
    note = f"Higher Powers: {_list(fell)} set aside for the next player who fails."
    return replace(
        game,
        wheel=wheel,
        aside=game.aside + fell,
        notes=(note,),
        ask_lowest=True,
        guessed=game.guessed + guessed,
    )


def turn_wheel(game: HamsterWheel, ctx: Ctx, seat: int, args: Args, draws: Draws) -> HamsterWheel:
    """The wheel rolled: which compartment is lowest now (from the camera, or typed)."""
    lowest = _compartment(game, args, "lowest")
    turns = args.get("turns", game.wheel.turns)
    if isinstance(turns, bool) or not isinstance(turns, int | float) or abs(turns) > 1000:
        raise IllegalMoveError("'turns' is how far the wheel has rolled, in turns.")
    wheel = replace(game.wheel, lowest=lowest, turns=float(turns))
    return replace(game, wheel=wheel, ask_lowest=False)


def fell_from(game: HamsterWheel, ctx: Ctx, seat: int, args: Args, draws: Draws) -> HamsterWheel:
    """Where a fallen piece came from (``colour``, ``from``), answering the question asked
    after a fall; without ``from`` ("I don't know") every open question keeps the
    companion's assumption, which the note says."""
    if not game.guessed:
        raise IllegalMoveError("No fallen piece waits to be placed: nothing to answer.")
    if args.get("from") is None:
        said = "; ".join(f"{c} from compartment {at + 1}" for c, at, _ in game.guessed)
        return replace(game, guessed=(), notes=(f"Assumed (nearest the bottom): {said}.",))
    colour, source = _colour(args), _compartment(game, args, "from")
    entry = next((g for g in game.guessed if g[0] == colour), None)
    if entry is None:
        raise IllegalMoveError(f"No fallen {colour} piece waits to be placed.")
    _, assumed, candidates = entry
    if source not in candidates:
        where = ", ".join(str(c + 1) for c in candidates)
        raise IllegalMoveError(f"The {colour} piece can only have come from {where}.")
    wheel = game.wheel
    if source != assumed and colour not in wheel.holds(source):
        raise IllegalMoveError(f"No {colour} piece is logged in compartment {source + 1} now.")
    if source != assumed:  # put it back where it was assumed gone from, take it from here
        wheel = _remove(_put(wheel, assumed, colour), source, colour)
    wheel = replace(wheel, uncertain=wheel.uncertain - frozenset(candidates))
    guessed = list(game.guessed)
    guessed.remove(entry)
    note = f"The {colour} piece fell from compartment {source + 1}."
    return replace(game, wheel=wheel, guessed=tuple(guessed), notes=(note,))


def end_turn(game: HamsterWheel, ctx: Ctx, draws: Draws) -> HamsterWheel:
    """NEXT: the piece held (or the pass is done); the next player's turn."""
    turn = game.turn
    if not turn.acted:
        assert ctx.current is not None
        raise IllegalMoveError(
            f"{game.players[ctx.current].name}: place a piece, pass one on, or report a "
            "failed try first."
        )
    wheel = game.wheel if turn.at is None else replace(game.wheel, last=turn.at)
    return replace(game, wheel=wheel, turn=Turn(), turns=game.turns + 1, notes=(), last_fell=())


def _compartment(game: HamsterWheel, args: Args, key: str) -> int:
    value = args.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMoveError(f"'{key}' is a compartment number from 1 to {game.wheel.sections}.")
    if not 1 <= value <= game.wheel.sections:
        raise IllegalMoveError(f"The wheel has compartments 1 to {game.wheel.sections}.")
    return value - 1


def _put(wheel: Wheel, at: int, colour: str) -> Wheel:
    contents = list(wheel.contents)
    contents[at] = (*contents[at], colour)
    return replace(wheel, contents=tuple(contents))


def _remove(wheel: Wheel, at: int, colour: str) -> Wheel:
    contents = list(wheel.contents)
    pieces = list(contents[at])
    pieces.remove(colour)
    contents[at] = tuple(pieces)
    return replace(wheel, contents=tuple(contents))


def _fall_all(
    wheel: Wheel, fell: tuple[str, ...]
) -> tuple[Wheel, tuple[tuple[str, int, tuple[int, ...]], ...]]:
    """Take each fallen piece out; what was assumed where several could have lost it."""
    guessed = []
    for colour in fell:
        holding = tuple(c for c in range(wheel.sections) if colour in wheel.holds(c))
        if len(holding) > 1:
            nearest = min(holding, key=lambda c: _distance(wheel, c))
            guessed.append((colour, nearest, holding))
        wheel = _fall_out(wheel, colour)
    return wheel, tuple(guessed)


def _fall_out(wheel: Wheel, colour: str) -> Wheel:
    """A piece of ``colour`` fell out: take it from the compartment nearest the bottom that
    holds one (pieces fall from there); when several could have lost it, they are marked
    uncertain rather than guessed right."""
    holding = [c for c in range(wheel.sections) if colour in wheel.holds(c)]
    if not holding:
        raise IllegalMoveError(
            f"No {colour} piece is logged in the wheel; check the colours that fell."
        )
    nearest = min(holding, key=lambda c: _distance(wheel, c))
    wheel = _remove(wheel, nearest, colour)
    if len(holding) > 1:
        wheel = replace(wheel, uncertain=wheel.uncertain | frozenset(holding))
    return wheel


def _distance(wheel: Wheel, compartment: int) -> int:
    around = (compartment - wheel.lowest) % wheel.sections
    return min(around, wheel.sections - around)


def _list(colours: tuple[str, ...]) -> str:
    return ", ".join(colours) if colours else "nothing"


def describe(game: HamsterWheel) -> dict[str, Any]:
    """Where each placement choice points now, for the view and the buttons."""
    return {t: target_compartment(game.wheel, t) for t in TARGETS}


__all__ = [
    "SET_SIZE",
    "constructive_pass",
    "end_turn",
    "fail",
    "higher_powers",
    "place",
    "setup",
    "turn_wheel",
]
