"""How sure the dice reader is, in one place the reader and the teacher both import.

``dice.py`` (the reader) uses ``teach.py`` (a table's taught head), and teaching must
measure its head with the reader's own threshold and temperature; keeping those here, with
no imports of either, lets both import them at the top instead of one of them inside a
function.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

# The close-up classifier's logits are divided by this before its confidence is used
# (temperature scaling; ``judge`` keeps the value and the "not a die" veto untempered).
# Fitted by ``make calibrate-dice`` (``training.calibrate_dice``) on the "calibrate" part
# of the labelled photos (``dice_split``: the detector never saw them, but the close-up
# classifier was trained on them, so on a new table it is, if anything, still too sure):
# mean negative log-likelihood 0.143 at 1.0, 0.131 at 1.3.
FACE_TEMPERATURE = 1.3

# Dice whose confidence is at least this are accepted without asking the player. Picked
# by ``make calibrate-dice`` on the "pick" part (neither the detector nor the temperature
# fit used it): the lowest threshold with no accepted error (phantom dice included) and no
# roll applied wrong was 0.5 there (0.72 before side faces were dropped), but never below
# 0.85, because on photos of the same kind nobody here has (issue 17) dice rated
# 0.85-0.95 were right only ~90 % of the time.
# Figures on the untouched "report" part: ``companion dice eval DIR --part report``.
AUTO_ACCEPT = 0.85


def temper(probabilities: NDArray[np.float64], temperature: float) -> NDArray[np.float64]:
    """Probabilities (rows) softened as if their logits were divided by ``temperature``.

    For one classifier this is exactly temperature scaling of its logits; it never changes
    which class is most likely, only how sure the reader says it is.
    """
    soft = np.power(np.clip(probabilities, 1e-300, 1.0), 1.0 / temperature)
    result: NDArray[np.float64] = soft / soft.sum(axis=-1, keepdims=True)
    return result
