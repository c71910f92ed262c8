"""Score the dice reader against a folder of labelled photos.

The folder holds ``labels.json`` and ``images/`` (see ``shared/data/dice/SOURCE.md``).
Found dice are matched one-to-one to labelled dice by position: a found centre must lie
inside the labelled box (grown a little, because some sources box only the pip pattern)
and the nearest such pair wins. The figures separate *coverage* (how often the reader is
sure enough to skip asking the player) from *confident accuracy* (how often it is then
right), because a wrong auto-accepted roll is what a player would actually notice.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2

from companion.errors import CompanionError
from companion.vision import dice_split
from companion.vision.dice import AUTO_ACCEPT, Die, read_dice
from companion.vision.label_fixes import KNOWN_FIXES, LabelFix, fixes_for

# Grow each labelled box by this share of its longer side (at least MIN_MARGIN_PX) when
# matching, so a die centre a few pixels outside a tight pip-only box still matches.
MARGIN_SHARE = 0.25
MIN_MARGIN_PX = 8.0


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: face value and box [x, y, w, h] in pixels."""

    value: int
    box: tuple[float, float, float, float]


@dataclass
class ImageResult:
    """What the reader found in one image, matched against the labels."""

    file: str
    labelled: list[LabelledDie]
    found: list[Die]
    pairs: list[tuple[int, int]]  # (labelled index, found index)
    ms: float

    @property
    def errors(self) -> int:
        """Labelled dice missed or misread, plus spurious dice: what the worst list sorts by."""
        right = sum(1 for li, fi in self.pairs if self.found[fi].value == self.labelled[li].value)
        return len(self.labelled) - right + len(self.found) - len(self.pairs)


@dataclass
class Report:
    """All figures of one evaluation run."""

    results: list[ImageResult] = field(default_factory=list)

    def confusion(self) -> dict[int, dict[str, int]]:
        """Rows = labelled value; columns = read value as text ('None', 'missed')."""
        table: dict[int, dict[str, int]] = {v: {} for v in range(1, 7)}
        for result in self.results:
            matched = dict(result.pairs)
            for li, die in enumerate(result.labelled):
                fi = matched.get(li)
                key = "missed" if fi is None else str(result.found[fi].value)
                row = table.setdefault(die.value, {})
                row[key] = row.get(key, 0) + 1
        return table

    def figures(self, auto_accept: float = AUTO_ACCEPT) -> dict[str, Any]:
        """The summary dict: accuracies, coverage, errors a player would see, rolls, speed.

        ``auto_accept`` may be changed to see the figures at another threshold (how the
        shipped one was chosen). An accepted die counts as an accepted error when it reads
        a wrong value *or* matches no labelled die at all (a phantom, e.g. the side face of
        a tilted die): the player sees both as a wrong roll. A roll is one photo; it is
        applied without asking only when the count is right (the labelled count stands
        for the count the game expects) and every die is accepted, and it is applied right
        only when, besides, every labelled die was found and read right.
        """
        labelled = right = accepted = accepted_right = false_dice = counts_ok = 0
        accepted_false = rolls_right = rolls_wrong = 0
        for result in self.results:
            labelled += len(result.labelled)
            false_dice += len(result.found) - len(result.pairs)
            counts_ok += len(result.found) == len(result.labelled)
            paired = {fi for _, fi in result.pairs}
            accepted_false += sum(
                1
                for fi, die in enumerate(result.found)
                if fi not in paired and _accepted(die, auto_accept)
            )
            all_right = len(result.pairs) == len(result.labelled)
            for li, fi in result.pairs:
                die = result.found[fi]
                ok = die.value == result.labelled[li].value
                right += ok
                all_right = all_right and ok
                if _accepted(die, auto_accept):
                    accepted += 1
                    accepted_right += ok
            applied = len(result.found) == len(result.labelled) and all(
                _accepted(die, auto_accept) for die in result.found
            )
            rolls_right += applied and all_right
            rolls_wrong += applied and not all_right
        images = len(self.results)
        return {
            "images": images,
            "dice": labelled,
            "dice_accuracy": round(right / max(1, labelled), 4),
            "count_accuracy": round(counts_ok / max(1, images), 4),
            "false_dice": false_dice,
            "coverage": round(accepted / max(1, labelled), 4),
            "applied_unasked": accepted + accepted_false,
            "confident_accuracy": round(accepted_right / max(1, accepted + accepted_false), 4),
            "accepted_wrong": accepted - accepted_right + accepted_false,
            "accepted_false_dice": accepted_false,
            "rolls_applied_right": rolls_right,
            "rolls_applied_wrong": rolls_wrong,
            "rolls_asked": images - rolls_right - rolls_wrong,
            "auto_accept": auto_accept,
            "ms_per_image": round(statistics.median(r.ms for r in self.results), 2)
            if self.results
            else 0.0,
        }

    def worst(self, count: int = 10) -> list[ImageResult]:
        """Images with the most errors first, to look at by eye."""
        ranked = sorted(self.results, key=lambda r: r.errors, reverse=True)
        return [r for r in ranked[:count] if r.errors > 0]


def _accepted(die: Die, auto_accept: float) -> bool:
    """Whether the reader would apply this die without asking the player."""
    return die.value is not None and die.confidence >= auto_accept


class LabelsError(CompanionError, ValueError):
    """The labels file is missing or cannot be read; the message says what to do."""


def load_labels(
    labels_file: Path, fixes: Sequence[LabelFix] = KNOWN_FIXES
) -> list[tuple[str, list[LabelledDie]]]:
    """Read labels.json into (file name, labelled dice) pairs, skipping unboxed dice, with
    the confirmed label faults fixed (``label_fixes``; ``fixes=()`` reads them as they are)."""
    return [(name, fixed(name, dice, fixes)[0]) for name, dice in read_labels(labels_file)]


def fixes_applied(labels_file: Path, fixes: Sequence[LabelFix] = KNOWN_FIXES) -> list[LabelFix]:
    """Which of ``fixes`` change this labels file (for the line a figure is printed with)."""
    return [fix for name, dice in read_labels(labels_file) for fix in fixed(name, dice, fixes)[1]]


def fixed(
    name: str, dice: list[LabelledDie], fixes: Sequence[LabelFix] = KNOWN_FIXES
) -> tuple[list[LabelledDie], list[LabelFix]]:
    """One photo's labelled dice with its fixes applied, and the fixes that changed them.

    A fix changes a die only where the labels still say what the fault said (the value it
    had, or no die there at all), so labels corrected at their source are left alone.
    """
    dice = list(dice)
    applied = []
    for fix in fixes_for(name, fixes):
        if fix.was is None:
            if not any(fix.within(die.box) for die in dice):
                dice.append(LabelledDie(fix.shows, fix.box()))
                applied.append(fix)
            continue
        near = [i for i, die in enumerate(dice) if fix.within(die.box, grow=fix.side / 2.0)]
        if near:
            i = min(near, key=lambda i: _distance(dice[i].box, fix.centre))
            if dice[i].value == fix.was:
                dice[i] = LabelledDie(fix.shows, dice[i].box)
                applied.append(fix)
    return dice, applied


def _distance(box: tuple[float, float, float, float], point: tuple[float, float]) -> float:
    """How far a point lies from a box's centre, in pixels."""
    x, y, w, h = box
    return float(((x + w / 2.0 - point[0]) ** 2 + (y + h / 2.0 - point[1]) ** 2) ** 0.5)


def read_labels(labels_file: Path) -> list[tuple[str, list[LabelledDie]]]:
    """Read labels.json as it is into (file name, labelled dice) pairs, skipping unboxed dice."""
    try:
        data = json.loads(labels_file.read_text())
    except FileNotFoundError:
        raise LabelsError(
            f"There is no {labels_file.name} in {labels_file.parent}: the folder needs the "
            "labels of its photos (or name them with --labels FILE)."
        ) from None
    except (OSError, ValueError) as error:
        raise LabelsError(f"{labels_file} cannot be read as labels ({error}).") from None
    images = []
    try:
        for entry in data["images"]:
            dice = [
                LabelledDie(
                    int(d["value"]), (d["bbox"][0], d["bbox"][1], d["bbox"][2], d["bbox"][3])
                )
                for d in entry["dice"]
                if d.get("bbox") is not None
            ]
            images.append((str(entry["file"]), dice))
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise LabelsError(
            f"{labels_file} does not look like dice labels (missing {error}); each image "
            'needs {"file": ..., "dice": [{"value": n, "bbox": [x, y, w, h]}]}.'
        ) from None
    return images


def match(labelled: list[LabelledDie], found: list[Die]) -> list[tuple[int, int]]:
    """Pair labelled and found dice one-to-one, nearest first, centre inside grown box."""
    candidates = []
    for li, die in enumerate(labelled):
        x, y, w, h = die.box
        margin = max(MIN_MARGIN_PX, MARGIN_SHARE * max(w, h))
        bx, by = x + w / 2, y + h / 2
        for fi, seen in enumerate(found):
            fx, fy = seen.centre
            if x - margin <= fx <= x + w + margin and y - margin <= fy <= y + h + margin:
                candidates.append(((fx - bx) ** 2 + (fy - by) ** 2, li, fi))
    pairs = []
    used_l: set[int] = set()
    used_f: set[int] = set()
    for _, li, fi in sorted(candidates):
        if li not in used_l and fi not in used_f:
            used_l.add(li)
            used_f.add(fi)
            pairs.append((li, fi))
    return pairs


def select(
    images: list[tuple[str, list[LabelledDie]]], part: str | None
) -> list[tuple[str, list[LabelledDie]]]:
    """The images of one part of the folder (``dice_split.PARTS``), or all for None.

    Parts are drawn from the file names in the order of the labels file, so they are the
    trainers' own only for the shared folder's complete labels.json.
    """
    if part is None:
        return images
    if part not in dice_split.PARTS:
        raise LabelsError(
            f"There is no part {part!r}: choose one of {', '.join(dice_split.PARTS)}."
        )
    chosen = dice_split.parts([name for name, _ in images])
    return [(name, dice) for name, dice in images if chosen[name] == part]


def iter_results(
    folder: Path,
    labels_file: Path | None = None,
    reader: Callable[[Any], list[Die]] = read_dice,
    part: str | None = None,
    names: Collection[str] | None = None,
    fixes: Sequence[LabelFix] = KNOWN_FIXES,
) -> Iterator[ImageResult]:
    """Run the reader on each labelled image (one core, as on the Pi) and match; only
    those of one ``part``, and only those ``names``, when given.

    Time is process CPU time, so other load on the machine does not inflate ms_per_image.
    """
    cv2.setNumThreads(1)
    labels_path = labels_file or folder / "labels.json"
    image_dir = folder / "images" if (folder / "images").is_dir() else folder
    for name, labelled in select(load_labels(labels_path, fixes), part):
        if names is not None and name not in names:
            continue
        frame = cv2.imread(str(image_dir / name))
        if frame is None:
            raise FileNotFoundError(image_dir / name)
        start = time.process_time()
        found = reader(frame)
        ms = (time.process_time() - start) * 1000.0
        yield ImageResult(name, labelled, found, match(labelled, found), ms)


def count_images(folder: Path, labels_file: Path | None = None, part: str | None = None) -> int:
    """How many images an evaluation will read, for a progress bar."""
    return len(select(load_labels(labels_file or folder / "labels.json"), part))


def evaluate(folder: Path, labels_file: Path | None = None, part: str | None = None) -> Report:
    """Evaluate the reader on every labelled image of a folder (or of one part of it)."""
    return Report(list(iter_results(folder, labels_file, part=part)))
