"""``companion calibrate``: the command-line path through calibration.

The same steps the tablet's calibration panel drives: print the marker sheets, take one
picture of the board with each hamster on a known square, save the calibration, check it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import cv2

from calibration.geometry import (
    DEFAULT_CELLS,
    CalibrationError,
    calibrate_board,
    keep_previous,
    load_calibration,
    locate_board,
    save_calibration,
)
from calibration.hand_colours import (
    HAND_COLOURS_FILE,
    HandColours,
    add_hand,
    load_hand_colours,
    save_hand_colours,
)
from calibration.markers import standard_sheets, write_sheets, write_wheel_strip
from calibration.wheel_colours import (
    WHEEL_COLOURS_FILE,
    load_wheel_colours,
    sample_wheel_colours,
    save_wheel_colours,
)
from companion.tabletop import LANES, ROWS
from companion.vision.behind_the_ring import camera_height_said
from companion.vision.board import read_board


def calibration_path(obj: Any) -> Path:
    return Path(obj.config.calibration_file)


def parse_cells(text: str) -> dict[str, tuple[int, int]]:
    """``red=1,1 blue=1,2`` → {"red": (1, 1), ...}: where each hamster stands for the picture."""
    cells: dict[str, tuple[int, int]] = {}
    for item in text.split():
        colour, sep, where = item.partition("=")
        parts = where.split(",")
        if not sep or len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise click.BadParameter(f"{item!r}: write COLOUR=ROW,LANE, for example red=1,1.")
        row, lane = int(parts[0]), int(parts[1])
        if not (1 <= row <= ROWS and 1 <= lane <= LANES):
            raise click.BadParameter(
                f"{item!r} is off the belt: rows run 1 to {ROWS} and lanes 1 to {LANES}."
            )
        if (row, lane) in cells.values():
            raise click.BadParameter(f"{item!r}: another hamster is on that square already.")
        cells[colour] = (row, lane)
    if not cells:
        raise click.BadParameter("name each hamster's square, for example red=1,1 blue=1,2.")
    return cells


def _read(image: str) -> Any:
    frame = cv2.imread(image)
    if frame is None:
        raise click.ClickException(f"{image} is not a picture OpenCV can read (JPEG or PNG).")
    return frame


@click.group()
def calibrate() -> None:
    """Print marker sheets and calibrate the board from one camera picture."""


@calibrate.command()
@click.argument("out_dir", type=click.Path(file_okay=False))
@click.option(
    "--square-mm", type=float, default=40.0, show_default=True, help="Printed belt square."
)
def markers(out_dir: str, square_mm: float) -> None:
    """Write the printable ArUco marker sheets (PNG and PDF)."""
    try:
        written = write_sheets(Path(out_dir), standard_sheets(square_mm))
    except (ValueError, OSError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else error
        click.secho(
            f"Error: cannot write the sheets to {out_dir} ({message}); choose a folder you may "
            "write to.",
            fg="red",
            err=True,
        )
        sys.exit(2)
    for path in written:
        click.echo(path)
    click.echo(
        f"The corner markers print {square_mm:g} mm wide, one belt square: measure a square "
        f"of your belt, and if it is not {square_mm:g} mm, write the sheets again with "
        "--square-mm set to what you measured."
    )


@calibrate.command(name="wheel-strip")
@click.argument("out_dir", type=click.Path(file_okay=False))
@click.option(
    "--circumference-mm",
    type=float,
    default=880.0,
    show_default=True,
    help="Round the outside of your wheel's rim (measure with a string).",
)
def wheel_strip(out_dir: str, circumference_mm: float) -> None:
    """Write the Hamster Wheel's printable rim strip (PNG and PDF pages, true to size)."""
    try:
        written = write_wheel_strip(Path(out_dir), circumference_mm)
    except (ValueError, OSError) as error:
        click.secho(f"Error: {error}", fg="red", err=True)
        sys.exit(2)
    for path in written:
        click.echo(path)


@calibrate.command()
@click.argument("image", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--cells",
    default=" ".join(f"{c}={r},{lane}" for c, (r, lane) in DEFAULT_CELLS.items()),
    show_default=True,
    help="Where each hamster stands in the picture.",
)
@click.pass_obj
def board(obj: Any, image: str, cells: str) -> None:
    """Calibrate from a picture of the board with its four corner markers uncovered."""
    try:
        calibration = calibrate_board(_read(image), parse_cells(cells))
    except CalibrationError as error:
        raise click.ClickException(str(error)) from None
    path = calibration_path(obj)
    path.parent.mkdir(parents=True, exist_ok=True)
    previous = keep_previous(path)
    save_calibration(calibration, path)
    kept = f" (the one it replaces is kept as {previous.name})" if previous else ""
    click.echo(
        f"Saved {path}: {len(calibration.colour_profiles)} hamster colours, "
        f"{calibration.image_size[0]}x{calibration.image_size[1]} pictures{kept}."
    )
    if calibration.cloth and calibration.cloth.warning:
        click.secho(calibration.cloth.warning, fg="yellow")


@calibrate.command(name="wheel-colours")
@click.argument("image", type=click.Path(exists=True, dir_okay=False))
@click.pass_obj
def wheel_colours(obj: Any, image: str) -> None:
    """Sample your Hamster Wheel set's colours from a picture of one piece of each coloured
    set lying on the wheel's table (apart, its four markers in view)."""
    try:
        colours = sample_wheel_colours(_read(image))
    except CalibrationError as error:
        raise click.ClickException(str(error)) from None
    path = Path(obj.config.data_dir) / WHEEL_COLOURS_FILE
    save_wheel_colours(colours, path)
    click.echo(
        f"Saved {path}: the wheel's pieces are named by these hues from now on "
        f"({colours.described})."
    )


@calibrate.command()
@click.argument("image", type=click.Path(exists=True, dir_okay=False), required=False)
@click.option("--forget", is_flag=True, help="Forget every hand sampled so far.")
@click.pass_obj
def hand(obj: Any, image: str | None, forget: bool) -> None:
    """Sample one player's skin from a picture of their hand held over the wheel's table,
    or over the belt (the arm coming in from the picture's edge), so the camera sees that
    hand however pale or dark; one picture per player. ``--forget`` drops every hand
    sampled."""
    path = Path(obj.config.data_dir) / HAND_COLOURS_FILE
    if image is None and forget:
        save_hand_colours(HandColours(), path)
        click.echo(f"Saved {path}: no hands sampled; hands are found by typical skin colours.")
        return
    if image is None or forget:
        raise click.UsageError("Give either a picture of a hand or --forget, not both.")
    try:
        added = add_hand(path, _read(image), obj.config.camera.height_cm or None)
    except CalibrationError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Saved {path}: {added.kept.described}.")
    if added.warning:
        click.secho(f"Note: {added.warning}.", fg="yellow")


@calibrate.command()
@click.argument("image", type=click.Path(exists=True, dir_okay=False))
@click.pass_obj
def check(obj: Any, image: str) -> None:
    """Read a picture with the saved calibration: where does it see each hamster?"""

    frame = _read(image)
    try:
        calibration = load_calibration(calibration_path(obj), frame.shape[1::-1])
    except CalibrationError as error:
        raise click.ClickException(str(error)) from None
    reading = read_board(frame, locate_board(frame), calibration.colour_profiles)
    if reading.blocked:
        click.echo(f"View blocked: {reading.reason}.")
        sys.exit(1)
    for colour, cell in sorted(reading.hamsters.items()):
        click.echo(f"{colour:>7}: row {cell[0]}, lane {cell[1]}")
    for colour in sorted(reading.in_pit):
        click.echo(f"{colour:>7}: in the Pit")
    for colour in sorted(reading.missing):
        click.echo(f"{colour:>7}: not seen")
    row = reading.asterisk_row
    click.echo(f"asterisk strip: {'not seen' if row is None else f'row {row}'}")


def _sampled(say: Callable[[], str]) -> str:
    """What ``say`` says of a sampled calibration file, or what is wrong with the file."""
    try:
        return say()
    except CalibrationError as error:
        return click.style(str(error), fg="yellow")


def _wheel_colours_said(data_dir: Path) -> str:
    colours = load_wheel_colours(data_dir / WHEEL_COLOURS_FILE)
    if colours is None:
        return "Wheel piece colours: a typical set's (`companion calibrate wheel-colours PICTURE`)."
    return f"Wheel piece colours sampled {colours.created}."


def _hands_said(data_dir: Path) -> str:
    hands = load_hand_colours(data_dir / HAND_COLOURS_FILE)
    if hands is None or not hands.hands:
        return "Hands: found by typical skin colours (`companion calibrate hand PICTURE`)."
    return f"Hands: {hands.described}."


@calibrate.command()
@click.pass_obj
def show(obj: Any) -> None:
    """Say whether the belt's calibration, the wheel's colours and the players' hands are
    saved, and when, and what the camera's height means for the wheel's fallen pieces."""
    try:
        calibration = load_calibration(calibration_path(obj))
    except CalibrationError as error:
        belt, missing = f"Belt: {error}", True
    else:
        belt, missing = (
            f"Calibrated {calibration.created} for {calibration.image_size[0]}x"
            f"{calibration.image_size[1]} pictures; colours: "
            f"{', '.join(calibration.colour_profiles)}.",
            False,
        )
    click.echo(belt)
    data_dir = Path(obj.config.data_dir)
    click.echo(_sampled(lambda: _wheel_colours_said(data_dir)))
    click.echo(_sampled(lambda: _hands_said(data_dir)))
    click.echo(camera_height_said(obj.config.camera.height_cm or None))
    if missing:
        sys.exit(1)
