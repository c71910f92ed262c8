"""All vision benchmarks in one run: the belt and wheel readers, then the dice reader.

Each component keeps its own script (``bench/vision_board.py``, ``bench/vision_dice.py``);
this runs both and prints their figures, then one JSON line with everything.
Run: ``.venv/bin/python bench/vision.py`` (a few minutes on two cores).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
COMPONENTS = {"board_and_wheel": "vision_board.py", "dice": "vision_dice.py"}


def main() -> None:
    figures: dict[str, object] = {}
    for name, script in COMPONENTS.items():
        print(f"== {name} ({script})", flush=True)
        result = subprocess.run(
            [sys.executable, str(HERE / script)], capture_output=True, text=True, check=False
        )
        lines = result.stdout.strip().splitlines()
        if result.returncode != 0 or not lines:
            print(result.stderr.strip()[-2000:], file=sys.stderr)
            raise SystemExit(f"{script} failed with exit code {result.returncode}")
        try:  # a script that ends with a JSON line gives figures; others give their lines
            figures[name] = json.loads(lines[-1])
            lines = lines[:-1]
        except json.JSONDecodeError:
            figures[name] = lines
        print("\n".join(lines), flush=True)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
