"""The suite's root: where the repository and the shared data folder beside it are.

The page's fixtures (a real table behind the app, the browser) are in
``tests/web/conftest.py``; each game's test helpers sit in that game's folder. The markers
(``browser``, ``slow``) are declared in ``pyproject.toml``: ``make test`` runs everything,
``make test-fast`` leaves out the tests marked ``slow``.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

# Property tests check rules, not speed: no per-example deadline or "too slow" check, which a
# busy 2-core machine trips at random. CI (CI=true) also draws the same examples every run,
# so a submission is judged on the code and not on the day's draw; a developer's `make test`
# keeps drawing new ones (what it finds is kept in .hypothesis/ and tried first next time).
settings.register_profile("house", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", settings.get_profile("house"), derandomize=True)
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
settings.load_profile("ci" if CI else "house")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
