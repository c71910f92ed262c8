"""``companion dice``: read one photo, score a labelled folder, teach this table's dice.

``eval`` prints its figures as one JSON object on the last stdout line so scripts and CI
can parse it without scraping the human-readable table above it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import cv2

from companion.commands.group import fail
from companion.config import load_config
from companion.vision.dice import AUTO_ACCEPT, read_dice, shared_reader
from companion.vision.dice_eval import (
    LabelsError,
    Report,
    count_images,
    fixes_applied,
    iter_results,
)
from companion.vision.dice_review import SURE, contact_sheet, disagreements
from companion.vision.dice_split import PARTS
from companion.vision.label_fixes import KNOWN_FIXES, LabelFix
from companion.vision.teach import TeachError
from companion.vision.teaching import teach


@click.group(name="dice")
def dice() -> None:
    """Read dice from camera photos."""


@dice.command(name="read")
@click.argument("image", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the dice as JSON.")
def read_command(image: Path, as_json: bool) -> None:
    """Read the dice in IMAGE."""
    frame = cv2.imread(str(image))
    if frame is None:
        raise click.ClickException(f"cannot read image {image}")
    found = read_dice(frame)
    if as_json:
        rows = [
            {
                "value": d.value,
                "centre": [round(d.centre[0], 1), round(d.centre[1], 1)],
                "size": round(d.size, 1),
                "confidence": d.confidence,
                "auto_accept": d.value is not None and d.confidence >= AUTO_ACCEPT,
            }
            for d in found
        ]
        click.echo(json.dumps(rows))
        return
    click.echo(f"{len(found)} dice")
    for d in found:
        value = "?" if d.value is None else str(d.value)
        sure = "auto" if d.value is not None and d.confidence >= AUTO_ACCEPT else "ask"
        x, y = d.centre
        click.echo(
            f"  {value}  at ({x:.0f}, {y:.0f})  size {d.size:.0f}px  "
            f"confidence {d.confidence:.2f} ({sure})"
        )


# What each part of the shared folder is, printed with its figures so a number is never
# quoted without the photos it was measured on (see companion/vision/dice_split.py).
MEASURED_ON = {
    None: "all photos of the folder (for the shared folder: the detector trained on 3/4 of "
    "them and the close-up classifier on all of them)",
    "train": "photos both networks trained on",
    "calibrate": "photos the detector never saw and the temperature was fitted on "
    "(the close-up classifier trained on them)",
    "pick": "photos the detector never saw and AUTO_ACCEPT was picked on "
    "(the close-up classifier trained on them)",
    "report": "photos the detector never saw and neither calibration nor AUTO_ACCEPT used "
    "(the close-up classifier trained on them)",
}


# Either figure can be asked for: against the labels with the faults a person confirmed
# fixed (the default), or against labels.json exactly as it is.
as_labelled_option = click.option(
    "--as-labelled",
    is_flag=True,
    help="Judge against labels.json as it is, without the confirmed label fixes "
    "(companion/vision/label_fixes.py).",
)


def chosen_fixes(labels_file: Path, as_labelled: bool) -> tuple[tuple[LabelFix, ...], str]:
    """The label fixes to judge with, and the line that says so beside the figures."""
    if as_labelled:
        return (), f"labels: {labels_file} as it is (--as-labelled)"
    used = fixes_applied(labels_file)
    if not used:
        return KNOWN_FIXES, f"labels: {labels_file} as it is (no known fault applies)"
    return KNOWN_FIXES, (
        f"labels: {labels_file} with {len(used)} confirmed faults fixed "
        "(companion/vision/label_fixes.py; --as-labelled judges without them)"
    )


@dice.command(name="eval")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--labels",
    "labels_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="labels.json to use (default: FOLDER/labels.json).",
)
@click.option(
    "--part",
    type=click.Choice(PARTS),
    default=None,
    help="Score only this part of the shared folder (see companion/vision/dice_split.py).",
)
@click.option(
    "--auto-accept",
    type=click.FloatRange(0.0, 1.0),
    default=AUTO_ACCEPT,
    show_default=True,
    help="Confidence at which a die counts as applied without asking.",
)
@as_labelled_option
def eval_command(
    folder: Path,
    labels_file: Path | None,
    part: str | None,
    auto_accept: float,
    as_labelled: bool,
) -> None:
    """Score the reader on the labelled photos in FOLDER."""
    report = Report()
    try:
        total = count_images(folder, labels_file, part)
        fixes, fixes_line = chosen_fixes(labels_file or folder / "labels.json", as_labelled)
    except LabelsError as error:
        click.secho(f"Error: {error}", fg="red", err=True)
        sys.exit(2)
    with click.progressbar(length=total, label="reading dice", file=sys.stderr) as bar:
        for result in iter_results(folder, labels_file, part=part, fixes=fixes):
            report.results.append(result)
            bar.update(1)
    click.echo("confusion (rows: labelled value; columns: read value)")
    columns = ["1", "2", "3", "4", "5", "6", "None", "missed"]
    click.echo("      " + "".join(f"{c:>7}" for c in columns))
    for value, row in sorted(report.confusion().items()):
        click.echo(f"{value:>6}" + "".join(f"{row.get(c, 0):>7}" for c in columns))
    click.echo("worst images (errors: labelled -> read)")
    for result in report.worst():
        labelled = sorted(d.value for d in result.labelled)
        read = sorted((d.value for d in result.found), key=lambda v: (v is None, v or 0))
        click.echo(f"  {result.errors:>3}  {result.file}: {labelled} -> {read}")
    click.echo(f"measured on: {MEASURED_ON[part]}")
    click.echo(fixes_line)
    click.echo(json.dumps({"part": part or "all", **report.figures(auto_accept)}))


@dice.command(name="review")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("label-review.png"),
    show_default=True,
    help="Where to write the contact sheet of disagreeing dice.",
)
@click.option("--sure", type=click.FloatRange(0.0, 1.0), default=SURE, show_default=True)
@click.option("--part", type=click.Choice(PARTS), default=None, help="Only this part.")
@as_labelled_option
def review_command(
    folder: Path, out: Path, sure: float, part: str | None, as_labelled: bool
) -> None:
    """List and show the dice where a sure reading contradicts FOLDER's labels (likely
    label faults, for a person to judge; a confirmed fault goes into
    companion/vision/label_fixes.py with its note, never silently)."""
    try:
        fixes, fixes_line = chosen_fixes(folder / "labels.json", as_labelled)
        results = list(iter_results(folder, part=part, fixes=fixes))
    except LabelsError as error:
        click.secho(f"Error: {error}", fg="red", err=True)
        sys.exit(2)
    faults = disagreements(results, sure)
    image_dir = folder / "images" if (folder / "images").is_dir() else folder
    frames = {f.file: cv2.imread(str(image_dir / f.file)) for f in faults}
    for fault in faults:
        click.echo(fault.line())
    cv2.imwrite(str(out), contact_sheet(faults, frames))
    click.echo(fixes_line)
    click.echo(f"{len(faults)} sure readings disagree with the labels; crops in {out}")


@dice.command(name="teach")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The table's data folder (default: the companion's).",
)
@click.pass_context
def teach_command(ctx: click.Context, data_dir: Path | None) -> None:
    """Teach the reader this table's dice from the rolls confirmed on the tablet."""
    if data_dir is None:
        config = getattr(ctx.find_root().obj, "config", None) or load_config()
        data_dir = config.data_dir
    try:
        report = teach(shared_reader(), data_dir)
    except TeachError as error:  # nothing to teach from yet: bad input, exit 2 as elsewhere
        fail(error)
    for line in report.lines():
        click.echo(line)
    figures = {k: v for k, v in report.to_json().items() if k != "lines"}
    click.echo(json.dumps(figures))
