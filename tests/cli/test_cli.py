"""The `companion` command, through click's runner, as a player would type it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.commands.table import phase_moves
from companion.commands.tree import main
from companion.games import GAMES


def run(tmp_path: Path, *args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), *args], input=input)
    return result.exit_code, result.output


def test_new_move_next_undo_redo_and_status(tmp_path: Path) -> None:
    code, out = run(tmp_path, "new", "--players", "Alice,Bob", "--seed", "3")
    assert code == 0 and "Alice" in out and "Set-up" in out
    status = json.loads(run(tmp_path, "status", "--json")[1])
    first = status["players"][status["current"]]
    code, out = run(tmp_path, "move", first, "place", "to=[4,2]")
    assert code == 0
    code, out = run(tmp_path, "undo")
    assert code == 0 and f"{first}: put your hamster" in out
    code, out = run(tmp_path, "redo")
    assert code == 0
    code, out = run(tmp_path, "next")
    assert code == 2 and "must place their hamster first" in out


def test_illegal_move_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    run(tmp_path, "new", "--players", "Alice,Bob", "--seed", "3")
    status = json.loads(run(tmp_path, "status", "--json")[1])
    first = status["players"][status["current"]]
    code, out = run(tmp_path, "move", first, "place", "to=[8,2]")
    assert code == 2 and "rows 1 to 5" in out and "Traceback" not in out


def test_unknown_game_and_bad_players_are_explained(tmp_path: Path) -> None:
    code, out = run(tmp_path, "new", "--game", "chess", "--players", "A,B")
    assert code == 2 and "no game called 'chess'" in out
    code, out = run(tmp_path, "new", "--players", "Solo")
    assert code == 2 and "needs 2 to 5 players" in out
    code, out = run(tmp_path, "status")
    assert code == 2 and "companion new" in out


def test_bad_config_names_the_key(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[web]\nprot = 80\n")
    result = CliRunner().invoke(main, ["--config", str(config), "status"])
    assert result.exit_code == 2 and "unknown setting 'web.prot'" in result.output


def classic_game() -> dict[str, object]:
    """A game file's header: classic rules, Alice and Bob, Bob placing first."""
    return {
        "format": "hamster-companion/game",
        "version": 1,
        "game": "run-hamster-run",
        "rules": "classic",
        "seed": 1,
        "players": ["Alice", "Bob"],
        "given": [["Bob", "Alice"]],
    }


def test_replay_scenario_file_prints_final_state(tmp_path: Path) -> None:
    scenario = {
        **classic_game(),
        "events": [
            {"kind": "move", "seat": "Bob", "name": "place", "args": {"to": [5, 1]}},
            {"kind": "move", "seat": "Alice", "name": "place", "args": {"to": [4, 1]}},
            {"kind": "next"},
            {
                "seat": "Alice",
                "name": "allocate",
                "args": {"scamper": 4, "mettle": 2, "friskiness": 1},
            },
            {
                "seat": "Bob",
                "name": "allocate",
                "args": {"scamper": 4, "mettle": 2, "friskiness": 1},
            },
            {"kind": "next", "given": ["Bob", "Alice"]},
        ],
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    code, out = run(tmp_path, "replay", str(path))
    assert code == 0, out
    state = json.loads(out)
    assert state["phase"] == "initiative" and state["view"]["initiative"] == [1, 0]
    scenario["events"].append({"kind": "move", "seat": "Alice", "name": "fly"})  # type: ignore[attr-defined]
    path.write_text(json.dumps(scenario))
    code, out = run(tmp_path, "replay", str(path))
    assert code == 2 and "Event 7 (fly)" in out


def test_replay_rejects_a_broken_file_clearly(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    code, out = run(tmp_path, "replay", str(path))
    assert code == 2 and "not valid JSON" in out


def test_play_in_the_terminal(tmp_path: Path) -> None:
    run(tmp_path, "new", "--players", "Alice,Bob", "--seed", "3")
    status = json.loads(run(tmp_path, "status", "--json")[1])
    first = status["players"][status["current"]]
    code, out = run(tmp_path, "play", input=f"{first} place to=[2,2]\nmoves\nbogus x\nquit\n")
    assert code == 0 and "place:" in out and "not a player" in out


def test_simulate_prints_a_balance_report(tmp_path: Path) -> None:
    code, out = run(
        tmp_path, "simulate", "--games", "40", "--players", "3", "--seed", "2", "--workers", "1"
    )
    assert code == 0
    report = json.loads(out.strip().splitlines()[-1])
    assert report["games"] == 40 and set(report["win_rate_by_seat"]) == {"1", "2", "3"}
    assert 0 <= report["alligator_wins"] <= 1 and report["max_rounds"] >= report["mean_rounds"]


def test_a_simulation_the_game_cannot_play_is_one_sentence_with_nothing_before_it() -> None:
    """One player of Run, Hamster, Run!: the sentence alone, not a progress bar first."""
    result = CliRunner().invoke(main, ["simulate", "--players", "1", "--games", "5"])
    assert result.exit_code == 2 and "Simulating" not in result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1


def test_dice_eval_on_a_folder_without_labels_is_one_sentence(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["dice", "eval", str(tmp_path)])
    assert result.exit_code == 2 and "There is no labels.json" in result.output
    assert "Traceback" not in result.output


def test_export_to_a_missing_folder_is_one_sentence(tmp_path: Path) -> None:
    runner = CliRunner()
    data = ["--data-dir", str(tmp_path)]
    runner.invoke(main, [*data, "new", "--players", "Ann,Bo"])
    result = runner.invoke(main, [*data, "export", str(tmp_path / "no" / "such" / "game.json")])
    assert result.exit_code == 2 and "choose a folder that exists" in result.output


def test_the_documented_replay_example_runs_as_written(tmp_path: Path) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "terminal.md").read_text(
        encoding="utf-8"
    )
    example = page.split('```json\n{"format": "hamster-companion/game"', 1)[1].split("```")[0]
    path = tmp_path / "game.json"
    path.write_text('{"format": "hamster-companion/game"' + example, encoding="utf-8")
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "replay", str(path)])
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)
    assert state["phase"] == "initiative" and "Bob, Alice" in state["prompt"]


def test_rats_from_the_command_line_with_its_own_options(tmp_path: Path) -> None:
    players = ["--players", "Ann,Bob,Cat,Dan"]
    code, out = run(tmp_path, "new", "--game", "rats", *players, "--option", "deck=tarot")
    assert code == 2 and "'deck' is one of: physical, phone." in out
    code, out = run(tmp_path, "new", "--game", "rats", *players, "--option", "colour=red")
    assert code == 2 and "Rats has no option 'colour'" in out
    code, out = run(tmp_path, "new", "--game", "rats", *players, "--option", "rounds=2")
    assert code == 0, out
    for name in ("Ann", "Bob", "Cat", "Dan"):
        assert run(tmp_path, "move", name, "create", "bonus=[8,10]")[0] == 0
    assert run(tmp_path, "next")[0] == 0
    assert run(tmp_path, "move", "Ann", "play", "card=9c")[0] == 0
    code, out = run(tmp_path, "next")
    assert code == 2 and "Waiting for dice from Ann (0 of 6 dice in)" in out
    for name, dice in [
        ("Ann", "[2,3,4,4,3,1]"),
        ("Bob", "3,4,2,4,9,1"),  # as `next --dice` takes them; it was one text value
        ("Cat", "[1,1,5,8,2,10]"),
        ("Dan", "[4,6,8,8,10,10]"),
    ]:
        assert run(tmp_path, "move", name, "roll", f"dice={dice}")[0] == 0
    code, out = run(tmp_path, "next")
    assert code == 0 and "Ann wins the 9♣" in out


def test_a_broken_config_is_one_sentence_for_every_command(tmp_path: Path) -> None:
    """Some commands read the config outside their own error handling (backups, doctor,
    calibrate show, dice teach): a broken file gave them a traceback."""
    from companion.serve import companion_command

    broken = tmp_path / "companion.toml"
    broken.write_text("[web\nport = 8080\n")
    for args in (["backups"], ["calibrate", "show"], ["dice", "teach"], ["doctor"]):
        result = CliRunner().invoke(companion_command, ["--config", str(broken), *args])
        assert result.exit_code == 2, (args, result.output)
        assert "is not valid TOML" in result.output and "Traceback" not in result.output


def test_a_config_that_is_not_text_says_so(tmp_path: Path) -> None:
    binary = tmp_path / "companion.toml"
    binary.write_bytes(b"\xff\xfe[web]")
    code, out = run(tmp_path, "--config", str(binary), "status")
    assert code == 2 and "not a text file in UTF-8" in out


def test_a_seed_too_big_to_store_and_dice_that_are_not_numbers_are_explained(
    tmp_path: Path,
) -> None:
    code, out = run(tmp_path, "new", "--players", "A,B", "--seed", "99999999999999999999")
    assert code == 2 and "--seed" in out and "Traceback" not in out
    assert run(tmp_path, "new", "--players", "A,B", "--seed", "3")[0] == 0
    code, out = run(tmp_path, "next", "--dice", "a,b")
    assert code == 2 and "whole numbers separated by commas" in out


def test_typed_details_the_game_cannot_read_are_one_sentence_and_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.engine.session import Session

    run(tmp_path, "new", "--players", "Alice,Bob", "--seed", "3")
    before = json.loads(run(tmp_path, "status", "--json")[1])
    first = before["players"][before["current"]]

    def broken(*_: object, **__: object) -> None:
        raise TypeError("'NoneType' object is not iterable")

    monkeypatch.setattr(Session, "_prepare", broken)
    code, out = run(tmp_path, "move", first, "place", "to=[4,2]")
    assert code == 2 and "cannot read those details for 'place'" in out
    code, out = run(tmp_path, "play", input=f"{first} place to=[4,2]\nquit\n")
    assert code == 0 and "cannot read those details for 'place'" in out
    monkeypatch.undo()
    assert json.loads(run(tmp_path, "status", "--json")[1]) == before


def test_a_port_out_of_range_and_an_unknown_host_name_the_option_to_fix(tmp_path: Path) -> None:
    from companion.serve import companion_command
    from companion.startup.page import bind_problem

    result = CliRunner().invoke(companion_command, ["run", "--port", "99999"])
    assert result.exit_code == 2 and "1<=x<=65535" in result.output
    import errno
    import socket

    unknown = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    assert "check --host" in bind_problem(unknown)
    assert "already in use" in bind_problem(OSError(errno.EADDRINUSE, "Address in use"))


def test_a_game_file_with_a_note_the_moves_do_not_read_still_replays(tmp_path: Path) -> None:
    """Moves made now refuse a detail they never read; a recorded game file is replayed as
    a stored game loads, so files written before that check (or with notes) still run."""
    first = {"kind": "move", "seat": "Bob", "name": "place", "args": {"to": [5, 1], "why": "x"}}
    scenario = {**classic_game(), "events": [first]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    code, out = run(tmp_path, "replay", "--save", str(path))
    assert code == 0, out
    assert json.loads(run(tmp_path, "status", "--json")[1])["current"] == 0  # Alice places next


def test_a_game_file_is_replayed_as_a_stored_game_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checks added after a game was played (an unpaid push refused) let its moves stand
    when `companion replay` reads the file, and when `--save` stores it, as when a stored
    game loads; an exported game is the documented way back from a damaged games file."""
    from companion.engine import flow
    from companion.engine import session as session_module
    from companion.engine.replaying import is_replaying

    seen: list[bool] = []
    real_step = flow.step

    def watching(*args: object, **kwargs: object) -> object:
        seen.append(is_replaying())
        return real_step(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(session_module, "step", watching)
    first = {"kind": "move", "seat": "Bob", "name": "place", "args": {"to": [5, 1]}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**classic_game(), "events": [first]}))
    code, out = run(tmp_path, "replay", "--save", str(path))
    assert code == 0, out
    assert seen and all(seen)


def test_commands_that_change_the_games_wait_for_the_running_companion(tmp_path: Path) -> None:
    """While `companion run` serves these games, a move typed here was stored where the
    running table never saw it (and restore swapped the file under it): each is now one
    sentence saying to use the page or stop the companion, and nothing is stored."""
    import os

    from companion.data_lock import hold_data_folder

    assert run(tmp_path, "new", "--players", "Alice,Bob", "--seed", "3")[0] == 0
    before = run(tmp_path, "status", "--json")[1]
    held = hold_data_folder(tmp_path)  # what `companion run` holds while it serves
    assert held is not None
    try:
        for command in (
            ("move", "Alice", "place", "to=[4,2]"),
            ("next",),
            ("undo",),
            ("new", "--players", "Cy,Di"),
            ("restore",),
        ):
            code, out = run(tmp_path, *command)
            assert code == 2, (command, out)
            assert (
                f"A companion is running on the games in {tmp_path} (process {os.getpid()})" in out
            )
            assert "use its page or its buttons, or stop it first" in out
            assert out.count("\n") == 1, out
        code, out = run(tmp_path, "status", "--json")  # reading is fine
        assert code == 0 and out == before
    finally:
        held.close()
    code, out = run(tmp_path, "move", "Bob", "place", "to=[4,2]")
    assert code in (0, 2) and "A companion is running" not in out


def test_moves_lists_only_what_the_games_rules_have() -> None:
    """Classic Run, Hamster, Run! has no Bite, Climb, Sidestep or free step (v2.1 only)."""
    spec = GAMES["run-hamster-run"]
    classic = " ".join(phase_moves(spec, "resolve", "classic"))
    newer = " ".join(phase_moves(spec, "resolve", "v2.1"))
    for only_new in ("bite:", "climb:", "sidestep:", "step:"):
        assert f" {only_new}" not in classic and f" {only_new}" in newer
    assert " run:" in classic and " push:" in classic and " throw:" in classic
