"""Run, Hamster, Run! — classic (2000) and v2.1 (2005) rules."""

from companion.games.run_hamster_run.model import Belt
from companion.games.run_hamster_run.spec import SPEC

__all__ = ["SPEC", "Belt"]
