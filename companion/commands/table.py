"""``companion new``, ``status``, ``next``, ``undo``, ``redo``, ``move`` and ``play``: the game
on the table, from a terminal.

Every command that changes a game goes through the same engine and SQLite store as the
buttons and the tablet, so a game started here continues on the table and vice versa.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import click

from companion.commands.group import EXPECTED, MAX_SEED, Context, fail, pass_context
from companion.commands.typed import parse_move, typed_dice, typed_words, unreadable, whole_numbers
from companion.engine.errors import IllegalMoveError
from companion.engine.events import NEXT, REDO, UNDO, Event
from companion.engine.session import GameHeader, Session
from companion.engine.spec import GameSpec
from companion.games import find_game
from companion.history import last_players
from companion.saved import start_game
from companion.store import Store


def show_game(
    session: Session[Any],
    as_json: bool = False,
    odds: bool = True,
    happened: Sequence[str] = (),
) -> None:
    """The board, ``happened`` (what the change just made did), the odds and the prompt."""
    state = session.state
    spec = session.spec
    if as_json:
        data = {
            "game": spec.name,
            "rules": session.header.rules,
            "players": list(session.header.players),
            "phase": state.ctx.phase,
            "round": state.ctx.round,
            "current": state.ctx.current,
            "over": state.ctx.over,
            "result": state.ctx.result,
            "prompt": spec.presentation.prompt(state.G, state.ctx),
            "view": spec.presentation.view(state.G, state.ctx, None),
        }
        click.echo(json.dumps(data, indent=1))
        return
    shown = spec.presentation.text(state.G, state.ctx) if spec.presentation.text is not None else ""
    if shown:
        click.echo(shown)
    prompt = spec.presentation.prompt(state.G, state.ctx)
    for line in happened:
        if line not in shown and line not in prompt:  # said once, where the game says it
            click.secho(line, fg="cyan")
    if odds and spec.presentation.odds_text is not None:
        for line in spec.presentation.odds_text(state.G, state.ctx):
            click.secho(line, fg="yellow")
    # the dice NEXT waits for (the page shows a picker for each): which, and in what order
    dice = spec.next_dice(state.G, state.ctx) if spec.next_dice is not None else []
    if dice and not state.ctx.over:
        click.echo(f"NEXT takes {len(dice)} dice rolled by hand, in this order: {', '.join(dice)}.")
    title = spec.phases[state.ctx.phase].title
    click.secho(f"[{title}] {prompt}", bold=True)


def _dispatch(session: Session[Any], event: Event) -> list[str]:
    """Apply ``event`` and return what it did in words, as the page tells the table: a
    HAT test's winner, what a die or a flood did, and after an undo or redo what to put
    back on the real table (the board alone does not say it)."""
    before = session.state
    logged = session.dispatch(event)
    after = session.state
    lines: list[str] = []
    if logged.kind in (UNDO, REDO) and session.spec.table_changes is not None:
        lines.append(session.spec.table_changes(before.G, after.G))
    if logged.kind == UNDO:
        return [line for line in lines if line]
    lines.extend(_rolled(logged))
    old = session.spec.presentation.view(before.G, before.ctx, None)
    new = session.spec.presentation.view(after.G, after.ctx, None)
    if session.spec.presentation.happened is not None:
        lines.extend(session.spec.presentation.happened(old, new))
    if new.get("notes") != old.get("notes"):
        lines.extend(str(line) for line in new.get("notes") or ())
    return [line for line in lines if line]


def _rolled(logged: Event) -> list[str]:
    """The dice the companion rolled itself for this step (dice typed or read are known)."""
    lines: list[str] = []
    typed = len(logged.given)
    for entry in logged.outcome:
        if entry.get("kind") != "die":
            continue
        if typed:
            typed -= 1
            continue
        lines.append(f"The companion rolled {entry.get('value')} ({entry.get('why')}).")
    return lines


@click.command()
@click.option("--game", "game_name", default="", help="Game name (default: the first listed).")
@click.option("--rules", default="", help="Rule set (default: the game's newest).")
@click.option("--players", default="", help="Names, comma separated: Alice,Bob,Cathleen.")
@click.option(
    "--same-players", is_flag=True, help="The last game's players and colours, in their seats."
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=None,
    help="Seed for the companion's draws (a whole number from 0).",
)
@click.option("--colours", default="", help="Colours in seat order, comma separated.")
@click.option(
    "--option",
    "chosen",
    multiple=True,
    help="A game's own set-up choice, e.g. --option deck=phone --option rounds=8.",
)
@click.option("--roll-for-us", is_flag=True, help="The companion rolls the players' dice.")
@click.option("--demo", is_flag=True, help="A demo game: the simulated camera's dice count.")
@pass_context
def new(
    obj: Context,
    game_name: str,
    rules: str,
    players: str,
    same_players: bool,
    seed: int | None,
    colours: str,
    chosen: tuple[str, ...],
    roll_for_us: bool,
    demo: bool,
) -> None:
    """Start a new game (it becomes the current one)."""
    try:
        spec = find_game(game_name)
        names = tuple(p.strip() for p in players.split(",") if p.strip())
        if same_players:
            names, colours = _same_players(obj.changing("start a game"), names, colours)
        if not names:
            raise IllegalMoveError(
                "Name the players with --players Alice,Bob (or --same-players for the last game's)."
            )
        options: dict[str, Any] = _options(spec, chosen)
        if roll_for_us:
            options["roll_for_us"] = True
        if demo:
            options["demo"] = True
        if colours:
            options["colours"] = [c.strip() for c in colours.split(",")]
        header = GameHeader(
            spec.name,
            rules or spec.rules_default,
            names,
            seed if seed is not None else random.SystemRandom().randrange(2**31),
            options,
        )
        game_id, session = start_game(obj.changing("start a game"), header)
    except EXPECTED as error:
        fail(error)
    click.echo(f"Game {game_id}: {spec.title} ({header.rules}) for {', '.join(names)}.")
    show_game(session, odds=obj.odds)


def _same_players(
    store: Store, names: tuple[str, ...], colours: str
) -> tuple[tuple[str, ...], str]:
    """The last game's names and colours ("same players again"); typed ones still win."""
    last = last_players(store)
    if last is None:
        raise IllegalMoveError("There is no earlier game yet: name the players with --players.")
    return names or last[0], colours or ",".join(last[1])


def _options(spec: GameSpec[Any], chosen: tuple[str, ...]) -> dict[str, Any]:
    """``key=value`` pairs checked against the game's declared set-up options."""
    options: dict[str, Any] = {}
    for pair in chosen:
        key, _, text = pair.partition("=")
        option = spec.options.get(key.strip())
        if option is None:
            known = ", ".join(f"{k} ({o.label})" for k, o in spec.options.items()) or "none"
            raise IllegalMoveError(f"{spec.title} has no option {key!r}; its options: {known}.")
        value: Any = text.strip()
        if not option.choices:
            try:
                value = int(value)
            except ValueError:
                value = None
        try:
            options[key.strip()] = option.check(key.strip(), value)
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
    return options


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable state.")
@pass_context
def status(obj: Context, as_json: bool) -> None:
    """Show the current game: the board and what the table must do now."""
    try:
        _, session = obj.current()
    except EXPECTED as error:
        fail(error)
    show_game(session, as_json, obj.odds)


# What each table command would do, for the sentence refusing it while a companion runs.
ASKED = {NEXT: "press NEXT", UNDO: "undo", REDO: "redo"}


def _do(obj: Context, event: Event) -> None:
    try:
        _, session = obj.current(ASKED[event.kind])
        happened = _dispatch(session, event)
    except EXPECTED as error:
        fail(error)
    show_game(session, odds=obj.odds, happened=happened)


@click.command(name="next")
@click.option("--dice", default="", help="Dice rolled by hand for this step, e.g. 4,2.")
@pass_context
def next_(obj: Context, dice: str) -> None:
    """Advance: end the current hamster's turn or move to the next phase."""
    given = whole_numbers(dice)
    if given is None:
        fail(ValueError(f"--dice lists whole numbers separated by commas, e.g. 4,2, not {dice!r}."))
    _do(obj, Event(NEXT, given=given, source="cli"))


@click.command()
@pass_context
def undo(obj: Context) -> None:
    """Take back the latest change."""
    _do(obj, Event(UNDO, source="cli"))


@click.command()
@pass_context
def redo(obj: Context) -> None:
    """Put back the change undone last (same outcome: undo is no free re-roll)."""
    _do(obj, Event(REDO, source="cli"))


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, required=True)
@pass_context
def move(obj: Context, words: tuple[str, ...]) -> None:
    """Record a move: PLAYER MOVE key=value ... (e.g. `Alice run path=[[2,3],[3,3]]`)."""
    try:
        _, session = obj.current("record a move")
        event = parse_move(session, list(words))
        happened = _dispatch(session, event)
    except EXPECTED as error:
        fail(error)
    except Exception:  # the game could not read typed details; nothing changed
        fail(ValueError(unreadable(words)))
    show_game(session, odds=obj.odds, happened=happened)


@click.command()
@pass_context
def play(obj: Context) -> None:
    """Play the current game in the terminal, prompted phase by phase."""
    try:
        _, session = obj.current("play the game here")
    except EXPECTED as error:
        fail(error)
    _play(session, obj.odds)


def _play(session: Session[Any], odds: bool = True) -> None:
    click.echo(
        "Type: next (next 4,2 with dice rolled by hand) | undo | redo | "
        "PLAYER MOVE key=value ... | moves | quit"
    )
    happened: list[str] = []
    while not session.state.ctx.over:
        show_game(session, odds=odds, happened=happened)
        happened = []
        try:
            line = click.prompt(">", default="next", show_default=False)
        except (click.Abort, EOFError):
            click.echo()
            return
        words = typed_words(line)
        if not words:
            continue
        command = words[0].lower()
        try:
            if command in ("quit", "exit", "q"):
                return
            if command == "moves":
                phase = session.state.ctx.phase
                for line in phase_moves(session.spec, phase, session.header.rules):
                    click.echo(line)
                continue
            if command in ("next", "n"):
                given = typed_dice(words[1:])
                happened = _dispatch(session, Event(NEXT, given=given, source="cli"))
            elif command == "undo":
                happened = _dispatch(session, Event(UNDO, source="cli"))
            elif command == "redo":
                happened = _dispatch(session, Event(REDO, source="cli"))
            else:
                try:
                    happened = _dispatch(session, parse_move(session, words))
                except EXPECTED:
                    raise
                except Exception:  # typed details the game could not read
                    raise IllegalMoveError(unreadable(words)) from None
        except IllegalMoveError as error:
            click.secho(str(error), fg="red")
    show_game(session, odds=odds, happened=happened)


def phase_moves(spec: GameSpec[Any], phase: str, rules: str) -> list[str]:
    """``moves`` in ``companion play``: the phase's moves that this game's rules have."""
    found = spec.phases[phase].moves.items()
    return [f"  {name}: {m.help}" for name, m in found if not m.rules or rules in m.rules]
