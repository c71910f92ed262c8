"""Shared fixtures: sessions of Run, Hamster, Run! and paths to the shared data."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
