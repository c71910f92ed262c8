"""Would a two-part bar apply more dice without asking than the one confidence bar?

    .venv/bin/python -m training.two_part_bar DUMP

The reader applies a die unasked when its confidence, the product of how sure it is that
this is a die and how sure it is of the face, is at least AUTO_ACCEPT. A die whose face is
certain but whose close-up keeps a little doubt that it is a die at all (or the reverse)
is asked about. The two-part bar asks each part to clear its own bar instead: face share
>= A and die certainty >= B, each on a grid from 0.85 (the floor AUTO_ACCEPT keeps) to 0.99.

Read from a cross-validation dump (``training.crossval MODELS --dump FILE``: every die of
every photo read by the models of the fold that never saw it), the pair is picked on three
folds and used on the fourth (nested), with the same limits the one bar is picked by
(``crossval.PICK_WRONG`` and ``crossval.PICK_ROLLS_WRONG``). The rule was written before
any result (docs/figures.md says what it gave). Needs no models: arithmetic on the dump.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.vision.confidence import AUTO_ACCEPT
from training.crossval import PICK_ROLLS_WRONG, PICK_WRONG, said

BARS = tuple(round(0.85 + 0.01 * step, 2) for step in range(15))


@dataclass(frozen=True)
class Reading:
    """One die of the dump: found (with its label, or None for a die nobody labelled) or
    missed (a labelled die the reader never found)."""

    label: int | None
    read: int | None
    missed: bool
    confidence: float
    is_die: float
    # Where the die was found in its photo (pixels of the photo as read; (0, 0) and 0.0
    # for a missed die), for studies that look at the die itself.
    file: str = ""
    centre: tuple[float, float] = (0.0, 0.0)
    size: float = 0.0

    @property
    def share(self) -> float:
        """How sure the reader is of the face, given this is a die."""
        return self.confidence / self.is_die if self.is_die > 0 else 0.0


@dataclass(frozen=True)
class Photo:
    """One photo's readings and the fold whose models read it."""

    fold: int
    readings: tuple[Reading, ...]


Accept = Callable[[Reading], bool]


def load(dump: Path) -> list[Photo]:
    """The dump's lines grouped by photo, in the order written."""
    rows: dict[tuple[int, str], list[Reading]] = {}
    for line in dump.read_text().splitlines():
        row = json.loads(line)
        missed = row["read"] == "missed"
        reading = Reading(
            label=row["label"],
            read=None if missed else row["read"],
            missed=missed,
            confidence=0.0 if missed else float(row["confidence"]),
            is_die=0.0 if missed else float(row.get("is_die", 1.0)),
            file=row["file"],
            centre=(0.0, 0.0) if missed else (float(row["centre"][0]), float(row["centre"][1])),
            size=0.0 if missed else float(row["size"]),
        )
        rows.setdefault((row["fold"], row["file"]), []).append(reading)
    return [Photo(fold, tuple(readings)) for (fold, _), readings in rows.items()]


def figures(photos: Iterable[Photo], accept: Accept) -> dict[str, int]:
    """The counts ``dice_eval.Report.figures`` gives, for any acceptance rule."""
    keys = ("dice", "applied", "false", "wrong", "rolls", "rolls_right", "rolls_wrong")
    out = dict.fromkeys(keys, 0)
    for photo in photos:
        found = [r for r in photo.readings if not r.missed]
        labelled = [r for r in photo.readings if r.label is not None]
        taken = [r for r in found if r.read is not None and accept(r)]
        out["dice"] += len(labelled)
        out["applied"] += sum(1 for r in taken if r.label is not None)
        out["false"] += sum(1 for r in taken if r.label is None)
        out["wrong"] += sum(1 for r in taken if r.read != r.label)
        out["rolls"] += 1
        if len(found) == len(labelled) and len(taken) == len(found):
            right = all(r.label is not None and r.read == r.label for r in found)
            right = right and not any(r.missed for r in photo.readings)
            out["rolls_right" if right else "rolls_wrong"] += 1
    return out


def one_bar(threshold: float) -> Accept:
    """Today's rule: the product of both certainties at least ``threshold``."""
    return lambda r: r.confidence >= threshold


def two_part(face: float, die: float) -> Accept:
    """Each certainty at least its own bar."""
    return lambda r: r.share >= face and r.is_die >= die


def within_limits(counts: dict[str, int]) -> bool:
    """Whether reads at some bar stay inside the picking limits."""
    return (
        counts["wrong"] <= PICK_WRONG * max(1, counts["applied"] + counts["false"])
        and counts["rolls_wrong"] <= PICK_ROLLS_WRONG * counts["rolls"]
    )


def pick(photos: Sequence[Photo]) -> tuple[float, float]:
    """The pair with the most dice applied inside the limits (ties: higher face bar, then
    higher die bar); the strictest pair if none stays inside."""
    best: tuple[int, float, float] | None = None
    for face in BARS:
        for die in BARS:
            counts = figures(photos, two_part(face, die))
            if within_limits(counts):
                key = (counts["applied"], face, die)
                best = key if best is None or key > best else best
    return (best[1], best[2]) if best else (BARS[-1], BARS[-1])


def nested(photos: Sequence[Photo]) -> tuple[dict[int, tuple[float, float]], dict[str, int]]:
    """Each fold read at the pair picked on the other folds; the pooled counts."""
    folds = sorted({p.fold for p in photos})
    chosen = {k: pick([p for p in photos if p.fold != k]) for k in folds}
    pooled: dict[str, int] = {}
    for k in folds:
        counts = figures([p for p in photos if p.fold == k], two_part(*chosen[k]))
        pooled = {key: pooled.get(key, 0) + value for key, value in counts.items()}
    return chosen, pooled


def sentence(name: str, counts: dict[str, int]) -> str:
    """One line of figures, as crossval prints them."""
    applied, dice = counts["applied"], counts["dice"]
    rolls = (counts["rolls_right"], counts["rolls_wrong"])
    line = said(applied / max(1, dice), dice, counts["wrong"], applied + counts["false"], rolls)
    return f"{name}: {line}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", type=Path, help="a crossval --dump file with is_die")
    args = parser.parse_args()
    photos = load(args.dump)
    print(sentence(f"one bar at {AUTO_ACCEPT}", figures(photos, one_bar(AUTO_ACCEPT))))
    chosen, pooled = nested(photos)
    each = ", ".join(f"fold {k} {a:.2f}/{b:.2f}" for k, (a, b) in chosen.items())
    print(f"two-part bar picked on the other folds ({each}):")
    print(sentence("two-part, nested", pooled))
    face, die = pick(photos)
    print(f"picked on all folds: face {face:.2f}, die {die:.2f} (figures on seen reads):")
    print(sentence("two-part, all folds", figures(photos, two_part(face, die))))


if __name__ == "__main__":
    main()
