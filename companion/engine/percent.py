"""A chance as the page and the terminal say it: whole percents in the middle, and near 0 or
100 % one significant figure of the distance from it, so 0.34 % and 0.06 % stay apart
(both used to read "1%") and nothing that can still go either way reads 0 or 100.

>>> [percent(c) for c in (0, 0.0034, 0.0006, 0.5, 0.987, 0.997, 0.9994, 1)]
[0, 0.3, 0.06, 50, 99, 99.7, 99.94, 100]
>>> percent_text(0.0006), percent_text(0.25), percent_text(Fraction(1, 10**7))
('0.06%', '25%', '0.00001%')
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

#: The closest to 0 or 100 (in percent) a chance is written: a float cannot carry 100 less
#: a much smaller distance (1 - 10^-17 is 1.0 as a float), and a chance that can still go
#: either way must never read 0 or 100.
CLOSEST = 1e-9


def percent(chance: Fraction | float) -> int | float:
    """``chance`` (0 to 1) in percent: a whole number from 1 to 99, else one significant
    figure of the distance from 0 or 100 (0.3, 0.06, 99.7); 0 and 100 only when certain.
    Halves round up, as the page's own rounding does, so both write the same figure."""
    if chance <= 0:
        return 0
    if chance >= 1:
        return 100
    value = float(chance) * 100
    if 1 <= value <= 99:
        return int(Decimal(value).quantize(Decimal(1), ROUND_HALF_UP))
    if value < 1:
        return _one_figure(max(value, CLOSEST))
    near = _one_figure(max(100 - value, CLOSEST))
    digits = _decimals(near)
    return round(100 - near, digits) if digits else int(100 - near)


def percent_text(chance: Fraction | float) -> str:
    """The same, written with its % sign for the terminal."""
    value = percent(chance)
    digits = _decimals(value)
    return f"{value:.{digits}f}%" if digits else f"{int(value)}%"


def _one_figure(value: float) -> int | float:
    exact = Decimal(value)  # the float's own value: ties fall as the page's toPrecision(1)
    unit = Decimal(1).scaleb(exact.adjusted())
    rounded = float(exact.quantize(unit, ROUND_HALF_UP))
    return int(rounded) if rounded >= 1 else rounded


def _decimals(value: int | float) -> int:
    """How many decimals a value made by ``percent`` carries (0 for a whole number)."""
    written = f"{float(value):.12f}".rstrip("0")
    return len(written.split(".")[1])
