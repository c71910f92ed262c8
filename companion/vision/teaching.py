"""Teaching the dice reader this table's dice: the head that reads faces, then the finder.

Apart from both teachers because the finder's (``teach_finder``) reads frames with the
reader, whose module imports the head's (``teach``): the step that runs both sits above them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.vision.dice import DiceReader
from companion.vision.teach import TeachReport, teach_head
from companion.vision.teach_finder import teach_finder
from companion.vision.teach_not_dice import teach_not_dice


def teach(reader: DiceReader, data_dir: Path) -> TeachReport:
    """Fit, measure and save the taught head and the finder's threshold for the examples
    in ``data_dir``; ``reader`` uses both from now on."""
    report = teach_head(reader, data_dir)
    not_dice = teach_not_dice(reader, data_dir)
    return replace(report, finder=teach_finder(reader, data_dir).line(), not_dice=not_dice)
