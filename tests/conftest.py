"""The suite's root: where the repository and the shared data folder beside it are.

The page's fixtures (a real table behind the app, the browser) are in
``tests/web/conftest.py``; each game's test helpers sit in that game's folder. The markers
(``browser``, ``slow``) are declared in ``pyproject.toml``: ``make test`` runs everything,
``make test-fast`` leaves out the tests marked ``slow``.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
