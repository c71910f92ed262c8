"""Hamster Wheel declared for the engine: one phase of turns around the table."""

from __future__ import annotations

from companion.engine.camera import Watch
from companion.engine.readings import WHEEL
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
from companion.engine.turns import round_robin
from companion.games.hamster_wheel import bot, moves, table
from companion.games.hamster_wheel.choices import choices
from companion.games.hamster_wheel.model import (
    MAX_SECTIONS,
    MIN_SECTIONS,
    RULE_SETS,
    SECTIONS,
    HamsterWheel,
    pieces,
)
from companion.games.hamster_wheel.phases import Phase
from companion.games.hamster_wheel.view import prompt, render, view

NAME = "hamster-wheel"
# The starting seat as the page offers it: seats count from 0 in the game's data.
FIRSTS = tuple(enumerate(("first", "second", "third", "fourth")))

PHASES: dict[str, PhaseSpec[HamsterWheel]] = {
    Phase.PLAY: PhaseSpec(
        name=Phase.PLAY,
        title="Turns",
        next=lambda game: Phase.PLAY,
        moves={
            "place": MoveSpec(moves.place, "colour, at=same|next|next2"),
            "pass": MoveSpec(moves.constructive_pass, "constructive pass: colour, from, to"),
            "fail": MoveSpec(
                moves.fail, "failed try: fell=[colours], stayed=true|false", ends_turn=True
            ),
            "higher_powers": MoveSpec(
                moves.higher_powers, "pieces fell between turns: fell=[colours]", any_seat=True
            ),
            "turn_wheel": MoveSpec(
                moves.turn_wheel, "the wheel rolled: lowest=compartment", any_seat=True
            ),
            "fell_from": MoveSpec(
                moves.fell_from,
                "where a fallen piece came from: colour, from=compartment (none: don't know)",
                any_seat=True,
            ),
        },
        turn=round_robin(lambda game: game.first, lambda game: len(game.players)),
        on_turn_end=moves.end_turn,
        new_round=True,
    )
}


def end_if(game: HamsterWheel, ctx: Ctx) -> Outcome | None:
    """Checked between turns: an empty hand ends the game (the team rules in team play)."""
    if game.turn.acted:
        return None
    players = game.players
    if not game.teams:
        for seat, player in enumerate(players):
            if player.pieces == 0:
                return Outcome((seat,), f"{player.name} has placed every piece and wins!")
        return None
    seats = {team: [s for s, p in enumerate(players) if p.team == team] for team in (0, 1)}
    names = {team: " and ".join(players[s].name for s in seats[team]) for team in (0, 1)}
    for team in (0, 1):
        if game.team_pieces(team) == 0:
            return Outcome(tuple(seats[team]), f"{names[team]} have placed every piece and win!")
    if all(any(players[s].pieces == 0 for s in seats[team]) for team in (0, 1)):
        left = {team: game.team_pieces(team) for team in (0, 1)}
        if left[0] == left[1]:
            return Outcome(
                (*seats[0], *seats[1]), f"Both teams have {pieces(left[0])} left: a tie."
            )
        winner = min((0, 1), key=lambda t: left[t])
        return Outcome(
            tuple(seats[winner]),
            f"{names[winner]} win with {pieces(left[winner])} left against {left[1 - winner]}.",
        )
    return None


SPEC: GameSpec[HamsterWheel] = GameSpec(
    name=NAME,
    title="Hamster Wheel",
    rule_sets=RULE_SETS,
    min_players=2,
    max_players=4,
    setup=moves.setup,
    phases=PHASES,
    first_phase=Phase.PLAY,
    end_if=end_if,
    presentation=Presentation(
        view=view,
        prompt=prompt,
        text=render,
        seat_name=lambda game, seat: game.players[seat].name,
        by_hand=(
            'Which compartment is lowest: "Wheel rolled: lowest compartment", then Set (under '
            '"The wheel rolled, or pieces fell between turns").',
            "What fell on a failed try: the failed-try form (pre-filled from the camera).",
            "Pieces that fell with nobody at the wheel: the Higher Powers form.",
        ),
    ),
    choices=choices,
    bot=bot.candidates,
    report=BalanceReport(figures=table.report_figures),
    start_player=lambda game: game.first,
    standing=table.standing,
    board=NAME,
    camera={WHEEL: Watch(table.read_wheel, roll=table.logged_roll)},
    cues=table.cues,
    cue_words={"failed": "The try failed.", "higher_powers": "Higher powers!"},
    on_read=table.read_means_failed,
    options={
        "split_fourth": SetupOption(
            "Three players: the fourth set",
            "no",
            choices=(("no", "left in the box"), ("yes", "split two, two, two")),
        ),
        "first": SetupOption(
            "Who starts (the shakiest hand)",
            "0",
            choices=tuple((str(seat), f"the {place} player named") for seat, place in FIRSTS),
        ),
        "sections": SetupOption(
            "Compartments in the wheel", SECTIONS, minimum=MIN_SECTIONS, maximum=MAX_SECTIONS
        ),
    },
)
