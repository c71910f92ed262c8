"""What the terminal tells the table after a change, as the page does: who won a HAT test,
what a failed try or a roll did, what to put back after an undo, the dice NEXT waits for;
and details typed in `companion play` with or without JSON's quotes."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from companion.commands.tree import main


def run(tmp_path: Path, *args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), *args], input=input)
    return result.exit_code, result.output


def typed(tmp_path: Path, *lines: str) -> None:
    """Commands as a player types them in the shell, each of which must be accepted."""
    for line in lines:
        code, out = run(tmp_path, *line.split())
        assert code == 0, f"{line}: {out}"


def throw_declared(tmp_path: Path, *options: str) -> None:
    """Run, Hamster, Run! classic, seed 3: Bob is about to throw Cathleen (2 against 2)."""
    players = ("--players", "Alice,Bob,Cathleen", "--rules", "classic", "--seed", "3")
    assert run(tmp_path, "new", *players, *options)[0] == 0
    typed(
        tmp_path,
        "move Cathleen place to=[5,3]",
        "move Bob place to=[4,3]",
        "move Alice place to=[3,3]",
        "next",
        "move Alice allocate scamper=3 mettle=2 friskiness=2",
        "move Bob allocate scamper=3 mettle=2 friskiness=2",
        "move Cathleen allocate scamper=3 mettle=2 friskiness=2",
        "next",
        "next",
        "move Alice declare action=push",
        "move Cathleen declare action=rest",
        "move Bob declare action=throw target=Cathleen",
        "next",
    )


def test_a_move_says_who_won_its_hat_test(tmp_path: Path) -> None:
    throw_declared(tmp_path)
    code, out = run(tmp_path, "move", "Bob", "throw", "target=Cathleen")
    assert code == 0 and "Bob throws Cathleen: Cathleen wins (2 against 2 chips)." in out


def test_undo_and_redo_say_what_to_put_back_on_the_table(tmp_path: Path) -> None:
    throw_declared(tmp_path)
    typed(tmp_path, "move Bob throw target=Cathleen")
    code, out = run(tmp_path, "undo")
    assert code == 0
    assert "Set Cathleen's chips to Scamper 3, Mettle 2, Friskiness 2 and 0 in Fatigue." in out
    assert "Cathleen wins" not in out  # an undone test is not news
    code, out = run(tmp_path, "redo")
    assert code == 0 and "Mettle 1, Friskiness 2 and 1 in Fatigue." in out


def test_the_dice_next_waits_for_are_named_and_play_takes_them(tmp_path: Path) -> None:
    throw_declared(tmp_path)
    typed(
        tmp_path,
        "move Bob throw target=Cathleen",
        "next",
        "move Cathleen rest to=mettle dice=4",
        "next",
        "next",
        "next",
        "next",
    )
    code, out = run(tmp_path, "status")
    assert "NEXT takes 2 dice rolled by hand, in this order: Alice's fatigue die, " in out
    code, out = run(tmp_path, "play", input="next 4,5\nquit\n")
    assert code == 0 and "Alice tires (rolls 4)" in out and "Bob rolls 5" in out


def test_a_roll_the_companion_made_is_said(tmp_path: Path) -> None:
    throw_declared(tmp_path, "--roll-for-us")
    typed(tmp_path, "move Bob throw target=Cathleen", "next")
    code, out = run(tmp_path, "move", "Cathleen", "rest", "to=mettle")
    assert code == 0 and "The companion rolled " in out and " (Cathleen's rest die)." in out


def wheel_game(tmp_path: Path) -> None:
    """Hamster Wheel, seed 5: Ann's red piece held; it is Bo's try."""
    run(tmp_path, "new", "--game", "hamster-wheel", "--players", "Ann,Bo,Cy", "--seed", "5")
    typed(tmp_path, "move Ann place colour=red at=next", "next")


def test_a_failed_try_says_what_the_player_takes(tmp_path: Path) -> None:
    wheel_game(tmp_path)
    code, out = run(tmp_path, "move", "Bo", "fail", "fell=[red]")
    assert code == 0 and "Bo's try failed: takes red." in out


def test_play_reads_details_typed_with_json_quotes(tmp_path: Path) -> None:
    wheel_game(tmp_path)
    code, out = run(tmp_path, "play", input='Bo fail fell=["red"]\nquit\n')
    assert code == 0 and "Bo's try failed: takes red." in out and "Bo: 8 pieces" in out


def test_play_reads_details_typed_without_quotes_and_with_spaces(tmp_path: Path) -> None:
    wheel_game(tmp_path)
    code, out = run(tmp_path, "play", input="Bo fail fell=[red] stayed=false\nquit\n")
    assert code == 0 and "Bo: 8 pieces" in out
    code, out = run(tmp_path, "undo")
    code, out = run(tmp_path, "play", input="Bo fail fell=[ red ]\nquit\n")
    assert code == 0 and "Bo: 8 pieces" in out


def test_play_survives_an_unclosed_quote(tmp_path: Path) -> None:
    wheel_game(tmp_path)
    code, out = run(tmp_path, "play", input='Bo fail fell=["red]\nquit\n')
    assert code == 0 and "Traceback" not in out and "Bo: 7 pieces" in out


def test_play_reads_a_table_typed_as_json_or_bare(tmp_path: Path) -> None:
    """shlex dropped the quotes and split at the space: "'[2,3]}' should be key=value"."""
    throw_declared(tmp_path)
    code, out = run(tmp_path, "play", input='Alice correct places={"red": [2,3]}\nquit\n')
    assert code == 0 and "Corrected from the camera: Alice to row 2, lane 3." in out
    code, out = run(tmp_path, "play", input="undo\nAlice correct places={red: pit}\nquit\n")
    assert code == 0 and "Corrected from the camera: Alice into the Pit." in out
