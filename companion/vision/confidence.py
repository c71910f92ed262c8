"""How sure the dice reader is: the bar a reading must clear to be applied, and tempering.

Apart from the reader (``dice.py``) and the teacher (``teach.py``) because both use them: the
teacher measures a taught head by the share the reader would accept, with the reader's sums.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

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


def turned_together(faces: NDArray[np.float64], turns: int) -> NDArray[np.float64]:
    """P(face 1..6) per close-up from the readings of its ``turns`` quarter turns (rows in
    groups of ``turns``): their product, normalised (one row when ``turns`` is 1)."""
    if turns == 1:
        return faces
    logs = np.log(np.clip(faces, 1e-12, 1.0)).reshape(-1, turns, faces.shape[1]).mean(axis=1)
    exp = np.exp(logs - logs.max(axis=-1, keepdims=True))
    result: NDArray[np.float64] = exp / exp.sum(axis=-1, keepdims=True)
    return result
