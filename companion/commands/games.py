"""``companion games`` and ``companion simulate``: the games the companion knows, and random
legal games of one of them with a balance report.
"""

from __future__ import annotations

import json
import sys
import time

import click

from companion.commands.group import EXPECTED, fail
from companion.games import GAMES
from companion.simulate import check_simulation
from companion.simulate import simulate as run_simulation


@click.command()
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


@click.command(name="games")
def list_games() -> None:
    """List the games and rule sets the companion knows."""
    for name, spec in GAMES.items():
        click.echo(f"{name:<18} {spec.title} — rules: {', '.join(spec.rule_sets)}")
