"""Updating the companion with a way back: fetch a release, install it, keep the previous
one, restart, and roll back by itself when ``companion doctor`` fails on the new one.

:mod:`companion.update.sources` says where a release comes from (a git checkout or a folder
of wheels, both local or on the LAN, never a guess); :mod:`companion.update.releases` does
the install, the restart, the check and the rollback, with each of those steps handed in,
so a test runs the whole thing against a bare git repository with no network.
"""

from companion.update.releases import Release, ReleaseSource, Updated, UpdateError, Updater
from companion.update.sources import GitSource, WheelFolder

__all__ = [
    "GitSource",
    "Release",
    "ReleaseSource",
    "UpdateError",
    "Updated",
    "Updater",
    "WheelFolder",
]
