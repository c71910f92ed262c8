"""``companion update`` and ``companion care apply``: the root side of *Table care*.

The page may not stop the service or write the installed release (the service's sandbox);
these commands, run as root (``companion-care.path`` starts ``care apply`` when the page
leaves a request), do it with :mod:`companion.care.helper` and :mod:`companion.update`.
"""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import click

from companion.care.helper import Service, apply_waiting
from companion.care.requests import care_folder
from companion.commands.group import EXPECTED, Context, fail, pass_context
from companion.update import GitSource, Release, ReleaseSource, Updater, WheelFolder
from companion.update.releases import PipInstaller
from companion.update.remembered import remember_source, remembered_source

PREFIX = Path("/opt/hamster-companion")  # where systemd/install.sh copies the checkout
UNIT = "companion.service"


def _systemctl(action: str) -> None:
    subprocess.run(["systemctl", action, UNIT], check=False, timeout=120)


def _doctor(obj: Context) -> tuple[bool, str]:
    """After the restart: the service must be up (``systemctl restart`` of a notify unit
    waits for its READY), then `companion doctor` of the release now installed must pass,
    run as the service's user (the owner of the data folder) so its checks are that
    user's groups and files, not root's."""
    active = subprocess.run(["systemctl", "is-active", "--quiet", UNIT], check=False, timeout=60)
    if active.returncode != 0:
        return False, f"[FAIL] {UNIT} is not running after the restart"
    command = [sys.executable, "-m", "companion"]
    if obj.config_file:
        command += ["--config", obj.config_file]
    command += ["--data-dir", str(obj.config.data_dir), "doctor"]
    if os.geteuid() == 0:
        owner = pwd.getpwuid(obj.config.data_dir.stat().st_uid).pw_name
        command = ["runuser", "-u", owner, "--", *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    return done.returncode == 0, done.stdout + done.stderr


def _updater(obj: Context, source: ReleaseSource | None = None) -> tuple[Updater, ReleaseSource]:
    home = care_folder(obj.config.data_dir)
    updater = Updater(
        home,
        PipInstaller(),
        lambda: _systemctl("restart"),
        lambda: _doctor(obj),
        Release("installed", PREFIX),
    )
    return updater, source or remembered_source(home)


@click.command(name="update")
@click.option(
    "--git", "git_url", default=None, help="Update from this git repository (URL or path)."
)
@click.option("--ref", default="main", help="Its branch or tag (default main).")
@click.option(
    "--wheels",
    default=None,
    type=click.Path(file_okay=False),
    help="Update from a folder of wheels.",
)
@click.option("--remember", is_flag=True, help="Only remember the source for the page's Update.")
@pass_context
def update(obj: Context, git_url: str | None, ref: str, wheels: str | None, remember: bool) -> None:
    """Install the newest release (run as root), keep the previous one, restart, and roll
    back by itself if `companion doctor` fails after the restart. The source given is
    remembered for the page's Update."""
    try:
        given: ReleaseSource | None = (
            GitSource(git_url, ref) if git_url else WheelFolder(Path(wheels)) if wheels else None
        )
        if given is not None:
            remember_source(care_folder(obj.config.data_dir), given)
        if remember:
            said = given.describe() if given else "nothing (give --git or --wheels)"
            click.echo(f"The page's Update will fetch from {said}.")
            return
        updater, source = _updater(obj, given)
        done = updater.update(source)
    except EXPECTED as error:
        fail(error)
    click.echo(done.sentence)
    sys.exit(0 if done.ok else 1)


@click.group(name="care")
def care() -> None:
    """The root helper behind the page's Table care panel."""


@care.command(name="apply")
@pass_context
def apply(obj: Context) -> None:
    """Carry out the restore or update the page asked for (run as root)."""
    config = obj.config
    service = Service(lambda: _systemctl("stop"), lambda: _systemctl("start"))
    said = apply_waiting(config.data_dir, config.database, service, lambda: _updater(obj))
    click.echo(said or "Nothing was asked from the page.")
