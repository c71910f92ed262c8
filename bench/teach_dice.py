"""Teach the reader a synthetic "odd" dice set and print the figures ``dice teach`` gives.

    python -m bench.teach_dice [ROLLS]

The dice are drawn (tests/vision/odd_dice.py: dark blue with yellow pips in rows, which
the shipped reader misreads); each roll is read by the shipped reader and kept as a
person would confirm it (every found die's close-up with its true value), in a temporary
data folder. Then ``companion dice teach`` runs on it: every 3rd roll is held out of the
fitting and the figures are measured on those. These are drawn dice, not photos: they say
teaching works on a set the reader gets wrong, not how well it will do on any real set.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

from companion.vision.dice import DiceReader
from companion.vision.dice_cli import dice
from tests.vision.odd_dice import confirm_rolls


def main(rolls: int = 30) -> None:
    with tempfile.TemporaryDirectory() as folder:
        right, total = confirm_rolls(DiceReader(), Path(folder), rolls=rolls, seed=1)
        print(f"{rolls} drawn rolls, {total} odd dice: shipped reader read {right} right")
        result = CliRunner().invoke(dice, ["teach", "--data-dir", folder])
        print(f"$ companion dice teach --data-dir {folder}")
        print(result.output, end="")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
