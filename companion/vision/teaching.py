"""Teaching the dice reader this table's dice: the head that reads faces, then the finder.

Apart from both teachers because the finder's (``teach_finder``) reads frames with the
reader, whose module imports the head's (``teach``): the step that runs both sits above them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.vision.dice import DiceReader
from companion.vision.teach import TeachError, TeachReport, teach_head
from companion.vision.teach_finder import teach_finder
from companion.vision.teach_not_dice import teach_not_dice
from companion.vision.teach_pools import PoolTeachReport, teach_pools


def teach(reader: DiceReader, data_dir: Path) -> TeachReport:
    """Fit, measure and save the taught head and the finder's threshold for the examples
    in ``data_dir``, and the pool reader's model for the confirmed Rats pools; ``reader``
    and the pool reader use them from now on. Only pools confirmed: the d6s are skipped."""
    pools = teach_pools(data_dir)
    taught = pools if isinstance(pools, PoolTeachReport) else None
    lines = tuple(taught.lines()) if taught else ((pools,) if isinstance(pools, str) else ())
    figures = taught.to_json() if taught else None
    try:
        report = teach_head(reader, data_dir)
    except TeachError as error:
        if pools is None:
            raise
        return TeachReport(
            0,
            0,
            0.0,
            0.0,
            0.0,
            0,
            kept=False,
            pools=lines,
            pool_figures=figures,
            skipped=f"Six-sided dice not taught: {error}",
        )
    not_dice = teach_not_dice(reader, data_dir)
    finder = teach_finder(reader, data_dir).line()
    return replace(report, finder=finder, not_dice=not_dice, pools=lines, pool_figures=figures)
