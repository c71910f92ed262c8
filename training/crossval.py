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


# The thresholds a nested pick may choose, and what it asks of the folds it picks on: the
# issue's goal is 0.5 % accepted wrong and 0.5 % of rolls applied wrong; picking at half of
# each leaves room for the fold it is then used on (rule written before any result).
GRID = tuple(round(0.50 + 0.01 * step, 2) for step in range(50))
PICK_WRONG = 0.0025
PICK_ROLLS_WRONG = 0.0025


def picks(results: Sequence[dice_eval.ImageResult], threshold: float) -> bool:
    """Whether these reads stay within the picking limits at this AUTO_ACCEPT."""
    figures = dice_eval.Report(list(results)).figures(threshold)
    wrong, applied = int(figures["accepted_wrong"]), int(figures["applied_unasked"])
    rolls_wrong = int(figures["rolls_applied_wrong"])
    return wrong <= PICK_WRONG * max(1, applied) and rolls_wrong <= PICK_ROLLS_WRONG * len(results)


def pick_threshold(results: Sequence[dice_eval.ImageResult]) -> float:
    """The lowest AUTO_ACCEPT on the grid whose accepted dice and rolls stay within the
    picking limits on these reads (the highest, if none does)."""
    return next((t for t in GRID if picks(results, t)), GRID[-1])


def nested(
    by_fold: dict[int, list[dice_eval.ImageResult]],
) -> tuple[dict[int, float], dict[str, float]]:
    """Each fold read at a threshold picked on the other folds only, and the pooled counts.

    The folds a threshold is picked on were read by their own models, so the threshold
    never saw the photos it is then used on: that makes the pooled figures held out for
    the threshold as well as for the networks.
    """
    chosen = {
        fold: pick_threshold([r for other, rs in by_fold.items() if other != fold for r in rs])
        for fold in by_fold
    }
    keys = (
        "dice",
        "applied_unasked",
        "accepted_wrong",
        "accepted_false_dice",
        "rolls_applied_right",
        "rolls_applied_wrong",
        "rolls_asked",
    )
    pooled: dict[str, float] = dict.fromkeys(keys, 0)
    for fold, results in by_fold.items():
        figures = dice_eval.Report(results).figures(chosen[fold])
        for key in keys:
            pooled[key] += figures[key]
    applied_matched = pooled["applied_unasked"] - pooled["accepted_false_dice"]
    pooled["coverage"] = round(applied_matched / max(1, pooled["dice"]), 4)
    return chosen, pooled


def dump(by_fold: dict[int, list[dice_eval.ImageResult]], path: Path) -> None:
    """Every found and every missed die as one JSON line (fold, photo, label, reading,
    confidence), so thresholds and checks can be studied later without retraining."""
    with path.open("w") as out:
        for fold, results in by_fold.items():
            for result in results:
                paired = {fi: li for li, fi in result.pairs}
                for fi, die in enumerate(result.found):
                    li = paired.get(fi)
                    label = None if li is None else result.labelled[li].value
                    row = {"fold": fold, "file": result.file, "label": label}
                    row |= {"read": die.value, "confidence": die.confidence}
                    row |= {"is_die": die.is_die}
                    row |= {"centre": [round(c, 1) for c in die.centre]}
                    out.write(json.dumps(row | {"size": round(die.size, 1)}) + "\n")
                for li, labelled in enumerate(result.labelled):
                    if li not in paired.values():
                        row = {"fold": fold, "file": result.file, "label": labelled.value}
                        out.write(json.dumps(row | {"read": "missed"}) + "\n")


def print_nested(by_fold: dict[int, list[dice_eval.ImageResult]]) -> None:
    """The figures with each fold's AUTO_ACCEPT picked on the other folds, and the value
    the same rule picks on all of them (what would ship)."""
    thresholds, pooled = nested(by_fold)
    on_all = pick_threshold([r for results in by_fold.values() for r in results])
    each = ", ".join(f"fold {fold} {t:.2f}" for fold, t in thresholds.items())
    print(f"nested: AUTO_ACCEPT picked on the other folds ({each}; on all folds {on_all:.2f}):")
    print("nested:", json.dumps(pooled))
    line = said(
        pooled["coverage"],
        int(pooled["dice"]),
        int(pooled["accepted_wrong"]),
        int(pooled["applied_unasked"]),
        (int(pooled["rolls_applied_right"]), int(pooled["rolls_applied_wrong"])),
    )
    print(f"nested: {line}, {int(pooled['rolls_asked'])} asked")


def said(coverage: float, dice: int, wrong: int, taken: int, rolls: tuple[int, int]) -> str:
    """Pooled figures as one sentence: the share of dice applied unasked, how many of the
    dice taken were wrong (with the rate's 95 % upper bound), rolls applied right and wrong."""
    return (
        f"{coverage:.1%} of {dice} dice applied without asking, {wrong} of {taken} wrong "
        f"(95 % upper bound {binomial_upper(wrong, taken):.2%}); rolls {rolls[0]} applied "
        f"right, {rolls[1]} applied wrong"
    )


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
    parser.add_argument("--dump", type=Path, help="write every die's reading here (JSON lines)")
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
    if len(by_fold) > 1:
        print_nested(by_fold)
    if args.dump:
        dump(by_fold, args.dump)
        print(f"every die's reading written to {args.dump}")


if __name__ == "__main__":
    main()
