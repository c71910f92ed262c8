"""The worked examples of both rule texts, replayed round for round.

Each test forces the HAT only where the text names a winner; every cost and position
comes from the engine.
"""

from __future__ import annotations

from tests.run_hamster_run.helpers import arrange, hamster, lost, new_game

A, B, C, D = 0, 1, 2, 3


def test_v21_example_round_one() -> None:
    # Alice S0 M6 F1 (throws 3 = floor(6/2)); Bob rests; Cathleen S4 M2 F1; Dave S4 M2 F1.
    s = new_game(
        "v2.1",
        places=[(5, 4), (5, 3), (4, 3), (4, 1)],
        allocations=[(0, 6, 1), (0, 3, 4), (4, 2, 1), (4, 2, 1)],
        initiative=[A, B, C, D],
    )
    assert s.state.G.initiative == (A, B, C, D)
    # Declared lowest initiative first: Dave Run, Cathleen Bite, Bob Rest, Alice Throw.
    assert s.state.ctx.current == D
    s.move(D, "declare", action="run", target="Bob")
    s.move(C, "declare", action="bite")
    s.move(B, "declare", action="rest")
    s.move(A, "declare", action="throw")
    s.next()
    assert s.state.ctx.phase == "resolve" and s.state.ctx.current == A
    # Alice is already next to Bob, wins the Mettle test and throws him three squares.
    s.move(A, "throw", target="Bob", to=[2, 3], given=[A])
    assert hamster(s, "Bob").square == (2, 3)
    s.next()
    # Bob rests: he has lost nothing, so gets nothing back.
    s.next()
    # Cathleen changes Bite to Run, spending a Friskiness chip.
    s.move(C, "change", action="run", chip="friskiness")
    assert hamster(s, "Cathleen").traits == (4, 2, 0)
    s.move(C, "run", path=[[3, 3]])
    event = s.move(C, "push", direction="down", given=[C])
    assert event.outcome[0]["value"] == C
    assert hamster(s, "Bob").square == (1, 3)
    assert hamster(s, "Cathleen").square == (2, 3)
    s.move(C, "run", path=[[3, 3], [4, 3]])
    assert hamster(s, "Cathleen").up(0) == 0
    s.next()
    # Dave changes only his target (Bob -> Cathleen): no chip for that.
    s.move(D, "run", path=[[4, 2]])
    s.move(D, "push", direction="right", given=[C])
    assert hamster(s, "Dave").square == (4, 2)
    assert hamster(s, "Dave").up(0) == 2
    s.move(D, "run", path=[[5, 2], [6, 2]])
    s.next()
    assert [lost(s, n) for n in ("Alice", "Bob", "Cathleen", "Dave")] == [0, 0, 1, 0]
    assert s.state.ctx.current is None


def test_classic_example_round_one() -> None:
    # Alice S0 M6 F1: after losing a Mettle chip for winning she has 5, so throws ceil(5/2) = 3.
    s = new_game(
        "classic",
        places=[(5, 4), (5, 3), (3, 4), (3, 1)],
        allocations=[(0, 6, 1), (0, 3, 4), (4, 2, 1), (3, 2, 2)],
        initiative=[A, B, C, D],
    )
    # The text has Alice throw Bob three squares straight toward the Pit from row 5, which
    # needs her on row 6; no round-one placement allows that, so put her there directly.
    arrange(s, Alice=(6, 3))
    s.move(D, "declare", action="push", target="Bob")
    s.move(C, "declare", action="run")
    s.move(B, "declare", action="rest")
    s.move(A, "declare", action="throw")
    s.next()
    s.move(A, "throw", target="Bob", given=[A])
    assert hamster(s, "Bob").square == (2, 3)
    assert hamster(s, "Alice").traits == (0, 5, 1)
    s.next()
    s.next()  # Bob rests with an empty Fatigue pile: no die is rolled
    s.move(C, "change", action="push", chip="friskiness")
    s.move(C, "run", path=[[3, 3]])
    s.move(C, "push", direction="down", given=[C])
    assert hamster(s, "Bob").square == (1, 3)
    s.move(C, "run", path=[[3, 3]])
    assert hamster(s, "Cathleen").up(0) == 0
    s.next()
    s.move(D, "run", path=[[3, 2]])
    s.move(D, "push", direction="right", given=[C])
    assert hamster(s, "Dave").up(0) == 1
    s.move(D, "run", path=[[4, 2]])
    s.next()
    assert [lost(s, n) for n in ("Alice", "Bob", "Cathleen", "Dave")] == [1, 0, 3, 0]
