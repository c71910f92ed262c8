"""Which labelled dice photos each step of making the reader may look at.

Figures are only honest when the photos they are measured on played no part in what is
measured, so every photo of the labelled folder belongs to exactly one part:

* ``train``: the three quarters the whole-frame network (``dice_net.onnx``) learned from
  (``make train-dice`` runs ``training.dice_net --holdout 0.25``, seed 0, by source).
* the quarter it never saw is cut again, seeded and by source, into three thirds:
  ``calibrate`` (the confidence's temperature is fitted here), ``pick`` (AUTO_ACCEPT is
  chosen here) and ``report`` (touched by neither: the figures docs/camera.md states).

The close-up classifier (``dice_face.onnx``) learned from *all* the photos, so no part is
unseen by it; the only photos it never saw are the ones ``make check-dice`` leaves out when
it retrains it. That is said wherever these figures are shown.

The split is a pure function of the file names in labels.json order, so the trainers
(``training.dice_net.split``) and the reader's tools share it without torch.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# The trainers' seed and the share of photos the whole-frame network was not trained on.
SEED = 0
DETECTOR_HOLDOUT = 0.25
# The held-out quarter is cut with its own seed so the thirds do not depend on how the
# quarter itself was drawn.
THIRDS_SEED = 17
PARTS = ("train", "calibrate", "pick", "report")


def source_of(name: str) -> str:
    """The source a photo came from: its file name up to the first underscore."""
    return name.split("_")[0]


def hold_out(names: Sequence[str], share: float, seed: int) -> tuple[list[str], list[str]]:
    """(kept, held out): a seeded share of each source's photos, by image.

    Sources are taken in sorted order and one generator draws a permutation for each, so
    the result depends only on the names, their order, the share and the seed.
    """
    rng = np.random.default_rng(seed)
    kept: list[str] = []
    held: list[str] = []
    for source in sorted({source_of(n) for n in names}):
        group = [n for n in names if source_of(n) == source]
        order = rng.permutation(len(group))
        cut = round(share * len(group))
        held += [group[i] for i in order[:cut]]
        kept += [group[i] for i in order[cut:]]
    return kept, held


def parts(names: Sequence[str]) -> dict[str, str]:
    """Each photo's part (one of PARTS), for the names of a labels.json in file order."""
    kept, held = hold_out(names, DETECTOR_HOLDOUT, SEED)
    thirds = _cut_by_source(held, 3, THIRDS_SEED)
    return dict.fromkeys(kept, "train") | {n: PARTS[1 + third] for n, third in thirds.items()}


def _cut_by_source(names: Sequence[str], count: int, seed: int) -> dict[str, int]:
    """Each name's share (0..count-1): every source's names, in a seeded order, cut into
    ``count`` nearly equal shares (sources in sorted order, one permutation each)."""
    rng = np.random.default_rng(seed)
    result: dict[str, int] = {}
    for source in sorted({source_of(n) for n in names}):
        group = [n for n in names if source_of(n) == source]
        order = rng.permutation(len(group))
        for rank, index in enumerate(order):
            result[group[index]] = rank * count // len(group)
    return result


# Cross-validation cuts the whole folder into this many folds. Fold 0 is the quarter the
# shipped whole-frame network never saw (so its models are the ones already measured);
# the other folds cut the remaining three quarters, by source, into thirds.
FOLDS = 4
FOLDS_SEED = 23


def folds(names: Sequence[str]) -> dict[str, int]:
    """Each photo's fold (0..FOLDS-1): a model trained on every other fold may read it.

    Read by fold, every labelled photo is scored by models that never saw it, so the
    figures pool all the folder's dice instead of one part's few dozen (``training.crossval``).
    """
    kept, held = hold_out(names, DETECTOR_HOLDOUT, SEED)
    rest = _cut_by_source(kept, FOLDS - 1, FOLDS_SEED)
    return dict.fromkeys(held, 0) | {n: 1 + share for n, share in rest.items()}


def fold_split(names: Sequence[str], fold: int) -> tuple[list[str], list[str]]:
    """(train on, held out) for one fold, in the names' order."""
    if not 0 <= fold < FOLDS:
        raise ValueError(f"There are folds 0 to {FOLDS - 1}; {fold} is not one of them.")
    chosen = folds(names)
    return [n for n in names if chosen[n] != fold], [n for n in names if chosen[n] == fold]
