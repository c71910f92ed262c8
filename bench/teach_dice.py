"""Teach the reader a synthetic "odd" dice set and print the figures ``dice teach`` gives.

    python -m bench.teach_dice [ROLLS]

The dice are drawn (tests/vision/odd_dice.py: dark blue with yellow pips in rows, which
the shipped reader misreads); each roll is read by the shipped reader and kept as a
person would confirm it (every found die's close-up with its true value), in a temporary
data folder. Then ``companion dice teach`` runs on it: every 3rd roll is held out of the
fitting and the figures are measured on those. Last, 30 new rolls (another seed, never
confirmed or fitted) are read whole, frame by frame, before and after teaching: the dice
found and how many of those were read right. These are drawn dice, not photos: they say
teaching works on a set the reader gets wrong, not how well it will do on any real set.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from companion.commands.dice import dice
from companion.vision.dice import DiceReader, shared_reader
from tests.vision.odd_dice import confirm_rolls, odd_roll

NEW_ROLLS_SEED = 99


def read_whole(reader: DiceReader, rolls: int = 30) -> str:
    """Dice found and read right in new drawn rolls, read whole as the camera would."""
    rng = np.random.default_rng(NEW_ROLLS_SEED)
    right = found = total = 0
    for _ in range(rolls):
        frame, spots, values = odd_roll(rng)
        dice_seen = reader.read(frame)
        for (x, y), value in zip(spots, values, strict=True):
            near = [d for d in dice_seen if abs(d.centre[0] - x) < 15 and abs(d.centre[1] - y) < 15]
            total += 1
            found += bool(near)
            right += bool(near) and near[0].value == value
    return f"{found} of {total} dice found, {right} of those read right ({right / found:.1%})"


def main(rolls: int = 30) -> None:
    reader = shared_reader()  # the one ``dice teach`` gives the taught head to
    print(f"30 new rolls (seed {NEW_ROLLS_SEED}), shipped reader: {read_whole(reader)}")
    with tempfile.TemporaryDirectory() as folder:
        right, total = confirm_rolls(reader, Path(folder), rolls=rolls, seed=1)
        print(f"{rolls} drawn rolls, {total} odd dice: shipped reader read {right} right")
        result = CliRunner().invoke(dice, ["teach", "--data-dir", folder])
        print(f"$ companion dice teach --data-dir {folder}")
        print(result.output, end="")
    print(f"30 new rolls (seed {NEW_ROLLS_SEED}), taught reader: {read_whole(reader)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
