"""Score the dice reader on every labelled photo by models that never saw it.

    .venv/bin/python -m training.crossval MODELS_DIR [--data DIR]

One held-out part of the folder holds a few dozen dice, too few to tell 95 % from 97 %
or to show that fewer than one accepted die in two hundred is wrong. Cross-validation
uses them all: the folder is cut into ``dice_split.FOLDS`` folds, and for each fold
``MODELS_DIR/fold<K>/`` holds a whole-frame network and a close-up classifier trained on
the other folds only (``make crossval-dice`` trains them with the shipped recipe; fold 0
is the quarter the shipped whole-frame network left out). Each fold's photos are read by
that fold's pair at the shipped temperature and AUTO_ACCEPT, and the figures are pooled.

Neither setting is fitted here, so the figures are on photos that no network and no
threshold saw, with one exception said in the output: the temperature was fitted on the
``calibrate`` part, a third of fold 0. Needs no torch.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path

import cv2

from companion.vision import dice, dice_eval, dice_split

# Each fold's folder holds its whole-frame network and its close-up classifier.
MODEL_FILES = ("dice_net.onnx", "dice_face.onnx")
DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"


def binomial_upper(errors: int, trials: int, confidence: float = 0.95) -> float:
    """The one-sided upper confidence bound on a rate seen as ``errors`` in ``trials``
    (Clopper-Pearson: the largest rate under which so few errors are still that likely).

    With no errors this is close to the "rule of three", 3 / trials at 95 %.
    """
    if trials <= 0:
        return 1.0
    if errors >= trials:
        return 1.0

    def at_most(rate: float) -> float:
        """P(no more than ``errors`` in ``trials``) at this rate, summed in logs so a
        thousand trials do not overflow."""
        log_choose = math.lgamma(trials + 1)
        return sum(
            math.exp(
                log_choose
                - math.lgamma(k + 1)
                - math.lgamma(trials - k + 1)
                + k * math.log(rate)
                + (trials - k) * math.log1p(-rate)
            )
            for k in range(errors + 1)
        )

    low, high = errors / trials, 1.0
    for _ in range(60):
        middle = (low + high) / 2.0
        if at_most(middle) > 1.0 - confidence:
            low = middle
        else:
            high = middle
    return high


def fold_results(
    models: Path,
    data: Path,
    folds: Sequence[int] = range(dice_split.FOLDS),
    views: int = dice.FACE_VIEWS,
) -> dict[int, list[dice_eval.ImageResult]]:
    """Each fold's photos read by that fold's own models (each close-up in ``views``
    symmetric views)."""
    fold_of = dice_split.folds([name for name, _ in dice_eval.load_labels(data / "labels.json")])
    results: dict[int, list[dice_eval.ImageResult]] = {}
    for fold in folds:
        folder = models / f"fold{fold}"
        missing = [name for name in MODEL_FILES if not (folder / name).exists()]
        if missing:
            raise SystemExit(
                f"{folder} has no {' or '.join(missing)}: 'make crossval-dice' trains every "
                "fold's pair (about two hours), or pass the folder that holds fold0/ .. fold3/."
            )
        detector, faces = (folder / name for name in MODEL_FILES)
        reader = dice.DiceReader(detector, (faces,), views=views)
        chosen = {name for name, at in fold_of.items() if at == fold}
        results[fold] = list(dice_eval.iter_results(data, reader=reader.read, names=chosen))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", type=Path, help="folder with fold0/ .. fold3/ model pairs")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--folds", default="0,1,2,3", help="which folds to read, e.g. 1,2,3 (default: all)"
    )
    parser.add_argument(
        "--views",
        type=int,
        default=dice.FACE_VIEWS,
        choices=(1, 4, 8),
        help="symmetric views of each close-up averaged (default: the shipped reader's)",
    )
    args = parser.parse_args()
    cv2.setNumThreads(1)
    chosen = [int(fold) for fold in args.folds.split(",")]
    by_fold = fold_results(args.models, args.data, chosen, args.views)
    for fold, results in by_fold.items():
        print(f"fold {fold}:", json.dumps(dice_eval.Report(results).figures()))
    pooled = dice_eval.Report([r for results in by_fold.values() for r in results])
    figures = pooled.figures()
    accepted = figures["applied_unasked"]
    print("all folds:", json.dumps(figures))
    print(
        f"read right {figures['dice_accuracy']:.1%} of {figures['dice']} dice; "
        f"{accepted} applied without asking, {figures['accepted_wrong']} of them wrong "
        f"(95 % upper bound on that rate: "
        f"{binomial_upper(figures['accepted_wrong'], accepted):.2%}); "
        f"rolls {figures['rolls_applied_right']} applied right, "
        f"{figures['rolls_applied_wrong']} applied wrong, {figures['rolls_asked']} asked"
    )
    fixes = dice_eval.fixes_applied(args.data / "labels.json")
    print(
        f"judged against labels.json with {len(fixes)} confirmed label faults fixed "
        "(companion/vision/label_fixes.py); the networks learned from the labels as they are"
    )
    print(
        "temperature and AUTO_ACCEPT are the shipped ones; the temperature was fitted on the "
        "calibrate part, a third of fold 0's photos"
    )


if __name__ == "__main__":
    main()
