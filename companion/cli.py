"""The ``companion`` command: play, inspect and simulate games from a terminal.

This module holds the engine's commands only; ``companion.serve`` adds the ones that need
devices (``run``, ``doctor``, ``calibrate``) and is the installed entry point.

Every command that changes a game goes through the same engine and SQLite store as the
buttons and the tablet, so a game started here continues on the table and vice versa.
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from companion.config import Config, load_config
from companion.data_lock import refuse_while_served
from companion.engine.errors import IllegalMoveError, ScenarioError
from companion.engine.events import MOVE, NEXT, REDO, UNDO, Event
from companion.engine.replaying import replaying
from companion.engine.serialize import dumps, loads
from companion.engine.session import GameHeader, Session
from companion.engine.spec import GameSpec
from companion.errors import CompanionError
from companion.games import GAMES, find_game
from companion.history import last_players
from companion.history_cli import history_command
from companion.mqtt.command import board
from companion.saved import resume_game, start_game
from companion.store import Store, StoreDamagedError, backups, restore, salvage
from companion.vision.dice_cli import dice

# The largest seed the games file can store (SQLite's integers are 64-bit).
MAX_SEED = 2**63 - 1
EXPECTED = (CompanionError,)  # every error meant for a person; anything else is a bug


def fail(error: Exception) -> NoReturn:
    click.secho(f"Error: {error}", fg="red", err=True)
    sys.exit(2)


class Context:
    """Settings and the store, opened lazily so `--help` never touches the disk."""

    def __init__(self, config_file: str | None, data_dir: str | None, odds: bool = True) -> None:
        self.config_file = config_file
        self.data_dir = data_dir
        self.odds = odds  # some groups find odds spoilers: --no-odds hides them
        self._config: Config | None = None
        self._store: Store | None = None

    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = load_config(self.config_file, data_dir=self.data_dir)
        return self._config

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.config.database)
        return self._store

    def changing(self, change: str) -> Store:
        """The games file, for a command that changes it: refused in one sentence while a
        running companion serves it (its table would never see the change)."""
        refuse_while_served(self.config.data_dir, change)
        return self.store

    def current(self, change: str = "") -> tuple[int, Session[Any]]:
        """The current game; ``change`` (what the command will do to it) first checks
        that no running companion serves it."""
        found = resume_game(self.changing(change) if change else self.store)
        if found is None:
            raise IllegalMoveError("There is no game yet: start one with `companion new`.")
        return found


pass_context = click.make_pass_decorator(Context)


class CompanionGroup(click.Group):
    """The command tree: an error meant for a person (a broken config, a damaged games
    file) that a command did not catch itself is still one sentence, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except EXPECTED as error:
            fail(error)


@click.group(cls=CompanionGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config", "config_file", type=click.Path(dir_okay=False), help="TOML settings file."
)
@click.option("--data-dir", type=click.Path(file_okay=False), help="Where games are stored.")
@click.option(
    "--odds/--no-odds", default=True, help="Show each game's odds where a decision is made."
)
@click.version_option(package_name="hamster-companion")
@click.pass_context
def main(ctx: click.Context, config_file: str | None, data_dir: str | None, odds: bool) -> None:
    """Companion for hamster board games: rules, buttons, camera and a live scoreboard."""
    ctx.obj = Context(config_file, data_dir, odds)


def _status(
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
            "prompt": spec.prompt(state.G, state.ctx),
            "view": spec.view(state.G, state.ctx, None),
        }
        click.echo(json.dumps(data, indent=1))
        return
    shown = spec.text(state.G, state.ctx) if spec.text is not None else ""
    if shown:
        click.echo(shown)
    prompt = spec.prompt(state.G, state.ctx)
    for line in happened:
        if line not in shown and line not in prompt:  # said once, where the game says it
            click.secho(line, fg="cyan")
    if odds and spec.odds_text is not None:
        for line in spec.odds_text(state.G, state.ctx):
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
    old = session.spec.view(before.G, before.ctx, None)
    new = session.spec.view(after.G, after.ctx, None)
    if session.spec.happened is not None:
        lines.extend(session.spec.happened(old, new))
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


@main.command()
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
    _status(session, odds=obj.odds)


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


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable state.")
@pass_context
def status(obj: Context, as_json: bool) -> None:
    """Show the current game: the board and what the table must do now."""
    try:
        _, session = obj.current()
    except EXPECTED as error:
        fail(error)
    _status(session, as_json, obj.odds)


# What each table command would do, for the sentence refusing it while a companion runs.
ASKED = {NEXT: "press NEXT", UNDO: "undo", REDO: "redo"}


def _do(obj: Context, event: Event) -> None:
    try:
        _, session = obj.current(ASKED[event.kind])
        happened = _dispatch(session, event)
    except EXPECTED as error:
        fail(error)
    _status(session, odds=obj.odds, happened=happened)


@main.command(name="next")
@click.option("--dice", default="", help="Dice rolled by hand for this step, e.g. 4,2.")
@pass_context
def next_(obj: Context, dice: str) -> None:
    """Advance: end the current hamster's turn or move to the next phase."""
    given = _whole_numbers(dice)
    if given is None:
        fail(ValueError(f"--dice lists whole numbers separated by commas, e.g. 4,2, not {dice!r}."))
    _do(obj, Event(NEXT, given=given, source="cli"))


@main.command()
@pass_context
def undo(obj: Context) -> None:
    """Take back the latest change."""
    _do(obj, Event(UNDO, source="cli"))


@main.command()
@pass_context
def redo(obj: Context) -> None:
    """Put back the change undone last (same outcome: undo is no free re-roll)."""
    _do(obj, Event(REDO, source="cli"))


def _parse_move(session: Session[Any], words: list[str]) -> Event:
    """`SEAT MOVE key=value ...`; values are JSON where they parse, else text; ``dice=``
    (or ``given=``) lists dice rolled by hand."""
    if len(words) < 2:
        raise IllegalMoveError(
            "Write a move as: PLAYER MOVE key=value ..., e.g. Alice run path=[[2,3]]"
        )
    who, name, *pairs = words
    players = [p.lower() for p in session.header.players]
    if who.isdigit() and int(who) < len(players):
        seat = int(who)
    elif who.lower() in players:
        seat = players.index(who.lower())
    else:
        raise IllegalMoveError(
            f"{who!r} is not a player; players: {', '.join(session.header.players)}."
        )
    args: dict[str, Any] = {}
    given: tuple[Any, ...] = ()
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep:
            raise IllegalMoveError(f"{pair!r} should be key=value.")
        value = _value(raw)
        if key in ("given", "dice"):  # dice rolled by hand: `Ann roll dice=[2,3,4]`
            given = tuple(value if isinstance(value, list) else _faces(value))
        else:
            args[key] = value
    return Event(MOVE, name=name, seat=seat, args=args, given=given, source="cli")


# In a list or a table typed without JSON's quotes: a quoted text, or a bare word
_PART = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|[^\[\]{},:"\']+')


def _value(raw: str) -> Any:
    """A typed detail: JSON where it parses (``fell=["red"]``, ``to=[5,3]``), the same
    without JSON's quotes (``fell=[red]``, as a shell leaves ``fell=["red"]``), a text in
    single quotes without them, else the text as typed (``to=mettle``)."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        pass
    if len(raw) >= 2 and raw[0] == raw[-1] == "'":
        return raw[1:-1]
    if raw.startswith(("[", "{")):
        try:
            return json.loads(_PART.sub(_quoted, raw))
        except json.JSONDecodeError:
            pass
    return raw


def _quoted(part: re.Match[str]) -> str:
    """One part of a bare list or table as JSON: a word gets quotes, a number keeps none."""
    text = part.group(0)
    if text.startswith('"'):
        return text
    if text.startswith("'"):
        return json.dumps(text[1:-1])
    word = text.strip()
    if not word:
        return text
    try:
        json.loads(word)  # a number, true, false or null
    except json.JSONDecodeError:
        return json.dumps(word)
    return text


def typed_words(line: str) -> list[str]:
    """A line typed in ``companion play``, split into words the way a shell would, except
    that quotes inside a word stay (``fell=["red"]`` reaches the JSON reader as typed, where
    shlex dropped them), a space inside brackets does not split (``path=[[6,3], [7,3]]``)
    and a lone apostrophe (``O'Brien``) is a letter; a word wholly in quotes
    (``"Mary Ann"``) loses them."""
    words: list[str] = []
    word, quote, depth = "", "", 0
    for at, char in enumerate(line):
        if quote:
            word += char
            quote = "" if char == quote else quote
        elif char in "\"'" and char in line[at + 1 :]:
            word, quote = word + char, char
        elif char.isspace() and depth == 0:
            if word:
                words.append(word)
            word = ""
        else:
            depth += (char in "[{") - (char in "]}")
            depth = max(depth, 0)
            word += char
    if word:
        words.append(word)
    return [w[1:-1] if len(w) >= 2 and w[0] == w[-1] and w[0] in "\"'" else w for w in words]


def _whole_numbers(text: str) -> tuple[int, ...] | None:
    """Dice typed as whole numbers, "4,2" or "4 2" (none for ""); None if one is not."""
    try:
        return tuple(int(face) for face in text.replace(",", " ").split())
    except ValueError:
        return None


def _faces(value: Any) -> list[Any]:
    """``dice=3,4,2`` as ``next --dice 3,4,2`` takes it (it was one text value, "3,4,2");
    anything else as it was typed, for the game to refuse in its own words."""
    faces = _whole_numbers(value) if isinstance(value, str) else None
    return list(faces) if faces else [value]


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, required=True)
@pass_context
def move(obj: Context, words: tuple[str, ...]) -> None:
    """Record a move: PLAYER MOVE key=value ... (e.g. `Alice run path=[[2,3],[3,3]]`)."""
    try:
        _, session = obj.current("record a move")
        event = _parse_move(session, list(words))
        happened = _dispatch(session, event)
    except EXPECTED as error:
        fail(error)
    except Exception:  # the game could not read typed details; nothing changed
        fail(ValueError(unreadable(words)))
    _status(session, odds=obj.odds, happened=happened)


def unreadable(words: Sequence[str]) -> str:
    """The sentence for typed move details (``PLAYER MOVE key=value ...``) the game's code
    could not read (the move was not recorded): the same answer the page gives."""
    move_name = words[1] if len(words) > 1 else ""
    return (
        f"The rules cannot read those details for '{move_name}'; check each value "
        "(in `companion play`, `moves` lists what each move takes)."
    )


@main.command()
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
        _status(session, odds=odds, happened=happened)
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
                given = _typed_dice(words[1:])
                happened = _dispatch(session, Event(NEXT, given=given, source="cli"))
            elif command == "undo":
                happened = _dispatch(session, Event(UNDO, source="cli"))
            elif command == "redo":
                happened = _dispatch(session, Event(REDO, source="cli"))
            else:
                try:
                    happened = _dispatch(session, _parse_move(session, words))
                except EXPECTED:
                    raise
                except Exception:  # typed details the game could not read
                    raise IllegalMoveError(unreadable(words)) from None
        except IllegalMoveError as error:
            click.secho(str(error), fg="red")
    _status(session, odds=odds, happened=happened)


def phase_moves(spec: GameSpec[Any], phase: str, rules: str) -> list[str]:
    """``moves`` in ``companion play``: the phase's moves that this game's rules have."""
    found = spec.phases[phase].moves.items()
    return [f"  {name}: {m.help}" for name, m in found if not m.rules or rules in m.rules]


def _typed_dice(words: Sequence[str]) -> tuple[int, ...]:
    """The dice typed after ``next`` in ``companion play``: ``next 4,2``, ``next 4 2``,
    ``next --dice 4,2`` or ``next dice=4,2`` (as ``companion next --dice`` takes them)."""
    text = " ".join(words).strip()
    for prefix in ("--dice", "dice=", "given="):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    faces = _whole_numbers(text.strip("[] =").replace("[", " ").replace("]", " "))
    if faces is None:
        raise IllegalMoveError(
            f"After next, type the dice rolled by hand as whole numbers, e.g. next 4,2, "
            f"not {text.strip()!r}."
        )
    return faces


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--save", is_flag=True, help="Also store it as the current game.")
@pass_context
def replay(obj: Context, file: str, save: bool) -> None:
    """Replay a scenario or saved game file and print its final state as JSON."""
    try:
        header, events = loads(Path(file).read_text(encoding="utf-8"))
        spec = find_game(header.game)
        header = GameHeader(
            spec.name,
            header.rules or spec.rules_default,
            header.players,
            header.seed,
            header.options,
            header.given,
        )
        # A recorded game, as a stored one loads: checks added since it was played let
        # its moves stand (companion.engine.replaying).
        with replaying():
            session = Session(spec, header)
            for number, event in enumerate(events, start=1):
                try:
                    session.dispatch(event, strict=False)
                except IllegalMoveError as error:
                    raise ScenarioError(
                        f"Event {number} ({event.name or event.kind}): {error}"
                    ) from None
                except EXPECTED:
                    raise
                except Exception:  # the file's details, not the replay, are wrong
                    raise ScenarioError(
                        f"Event {number} ({event.name or event.kind}): "
                        "the rules cannot read its details; check its values in the file."
                    ) from None
            if save:
                _, stored = start_game(obj.changing("store a game"), header)
                for event in session.log:
                    again = Event(event.kind, event.name, event.seat, event.args, event.given)
                    stored.dispatch(again, strict=False)
    except EXPECTED as error:
        fail(error)
    _status(session, as_json=True)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@pass_context
def export(obj: Context, file: str) -> None:
    """Save the current game (header and every event) as a replayable file.

    From a damaged games file it saves what can still be read (the events up to the first
    unreadable one), so a game is never lost with the file.
    """
    try:
        try:
            _, session = obj.current()
            header, events = session.header, session.log
        except StoreDamagedError:
            header, events = salvage(obj.config.database)
            click.secho("The games file is damaged: saving what can still be read.", fg="yellow")
        Path(file).write_text(dumps(header, events), encoding="utf-8")
    except EXPECTED as error:
        fail(error)
    except OSError as error:
        fail(OSError(f"Cannot write {file}: {error.strerror}; choose a folder that exists."))
    click.echo(f"Saved {len(events)} events to {file}.")


@main.command(name="backups")
@pass_context
def list_backups(obj: Context) -> None:
    """List the backups of the games file, newest last."""
    found = backups(obj.config.database)
    if not found:
        click.echo(f"No backups yet in {obj.config.database.parent / 'backups'}.")
    for path in found:
        click.echo(f"{path.name}  {path.stat().st_size // 1024} KiB")


@main.command(name="restore")
@click.argument("backup", required=False, type=click.Path(dir_okay=False, exists=True))
@pass_context
def restore_backup(obj: Context, backup: str | None) -> None:
    """Bring back a backup (the newest unless named); stop the companion first.

    The games file it replaces is kept beside it, never deleted.
    """
    try:
        refuse_while_served(obj.config.data_dir, "restore a backup")
        used, kept = restore(obj.config.database, Path(backup) if backup else None)
    except EXPECTED as error:
        fail(error)
    click.echo(f"Restored {used.name}.")
    if kept is not None:
        click.echo(f"The file it replaced was kept as {kept}.")


@main.command()
@click.option("--game", "game_name", default="", help="Game name (default: the first listed).")
@click.option("--rules", default="", help="Rule set (default: the game's newest).")
@click.option("--players", type=click.IntRange(1, 8), default=4, show_default=True)
@click.option("--games", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--workers", type=click.IntRange(1, 64), default=None, help="Processes (default: cores)."
)
@click.option("--json", "as_json", is_flag=True, help="Print only the JSON report.")
def simulate(
    game_name: str,
    rules: str,
    players: int,
    games: int,
    seed: int,
    workers: int | None,
    as_json: bool,
) -> None:
    """Play random legal games and print a balance report."""
    from companion.simulate import check_simulation
    from companion.simulate import simulate as run_simulation

    started = time.perf_counter()
    try:
        check_simulation(game_name, rules, players, seed)  # a sentence before any progress bar
        with click.progressbar(
            length=games, label="Simulating", file=sys.stderr, show_pos=True
        ) as bar:
            report = run_simulation(game_name, rules, players, games, seed, workers, bar.update)
    except EXPECTED as error:
        fail(error)
    seconds = time.perf_counter() - started
    data = report.as_dict()
    data["seconds"] = round(seconds, 2)
    data["games_per_second"] = round(games / seconds, 1)
    if not as_json:
        click.echo(
            f"{data['games']} games of {data['game']} ({data['rules']}), {players} players, "
            f"seed {seed}, in {seconds:.1f} s ({data['games_per_second']} games/s)"
        )
        click.echo(f"  win rate by seat:      {data['win_rate_by_seat']}")
        if "win_rate_by_start_row" in data:
            click.echo(f"  win rate by start row: {data['win_rate_by_start_row']}")
        if "alligator_wins" in data:
            click.echo(f"  alligators win:        {data['alligator_wins']:.1%}")
        click.echo(f"  rounds: mean {data['mean_rounds']}, max {data['max_rounds']}")
        for key, value in data.items():
            if key.startswith("mean_") and key != "mean_rounds":
                name = key[5:].replace("_", " ")
                click.echo(f"  {name}: mean {value}, max {data['max_' + key[5:]]}")
    click.echo(json.dumps(data))


@main.command(name="games")
def list_games() -> None:
    """List the games and rule sets the companion knows."""
    for name, spec in GAMES.items():
        click.echo(f"{name:<18} {spec.title} — rules: {', '.join(spec.rule_sets)}")


main.add_command(dice)
main.add_command(board)
main.add_command(history_command, name="history")


if __name__ == "__main__":
    main()
