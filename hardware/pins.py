"""Which machine this is and which gpiozero pin factory to use on it.

A Raspberry Pi's device tree names its model; lgpio is the backend for a Pi 5 and for
Bookworm, RPi.GPIO the fallback for older ones; anywhere else gpiozero's MockFactory stands
in, and the reason is said in one line so dead buttons are never a mystery. An explicit
``GPIOZERO_PIN_FACTORY`` in the environment is honoured as gpiozero itself would.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(errors="replace").replace("\x00", "").strip()
    except OSError:
        return ""


def is_raspberry_pi(model_path: Path = Path("/proc/device-tree/model")) -> bool:
    """Whether this machine is a Raspberry Pi (its device tree names the model)."""
    return _pi_generation(_read_text(model_path)) is not None


def _pi_generation(model: str) -> int | None:
    """4 for "Raspberry Pi 4 Model B Rev 1.5" or "Raspberry Pi Compute Module 4", etc."""
    if "Raspberry Pi" not in model:
        return None
    for word in model.replace("Raspberry Pi", "").split():
        if word.isdigit():
            return int(word)
    return 1


def _debian_release(os_release: str) -> int | None:
    for line in os_release.splitlines():
        key, _, value = line.partition("=")
        if key == "VERSION_ID":
            value = value.strip().strip('"')
            return int(value) if value.isdigit() else None
    return None


def _load_lgpio() -> Any:
    from gpiozero.pins.lgpio import LGPIOFactory

    return LGPIOFactory()


def _load_rpigpio() -> Any:
    from gpiozero.pins.rpigpio import RPiGPIOFactory

    return RPiGPIOFactory()


def _mock_factory() -> Any:
    from gpiozero.pins.mock import MockFactory

    return MockFactory()


def _as_the_user_asks(
    wanted: str, loaders: Mapping[str, Callable[[], Any]], work_dir: Path | str | None
) -> tuple[Any, str]:
    """The factory ``GPIOZERO_PIN_FACTORY`` names, or MockFactory and why it could not be."""
    chosen = {**loaders, "mock": _mock_factory}.get(wanted)
    if chosen is None:
        return _mock_factory(), (
            f"GPIOZERO_PIN_FACTORY={wanted} is not one the companion uses (lgpio, rpigpio, "
            "mock), so buttons are simulated; unset it to let the companion choose"
        )
    if wanted == "lgpio":
        _prepare_lgpio_work_dir(work_dir)
    try:
        return chosen(), f"{wanted}, as GPIOZERO_PIN_FACTORY asks"
    except Exception as exc:
        return _mock_factory(), (
            f"GPIOZERO_PIN_FACTORY={wanted} failed ({exc}), so buttons are simulated"
        )


def choose_pin_factory(
    *,
    simulate: bool = False,
    work_dir: Path | str | None = None,
    model_path: Path = Path("/proc/device-tree/model"),
    os_release_path: Path = Path("/etc/os-release"),
    dev_dir: Path = Path("/dev"),
    loaders: Mapping[str, Callable[[], Any]] | None = None,
) -> tuple[Any, str]:
    """Pick the gpiozero pin factory for this machine; returns (factory, one-line reason).

    lgpio is the only backend that works on a Pi 5 (its GPIOs sit behind the RP1 chip) and
    the supported one on Bookworm; RPi.GPIO is kept as a fallback for a Pi 4 or older on an
    older OS. lgpio creates notification pipes in its working directory, so ``LG_WD`` is set
    (unless the user already set it) to ``work_dir``, e.g. the data dir, before lgpio loads —
    otherwise a service started in an unwritable cwd fails. Without GPIO (a laptop, CI) or
    when every backend fails, MockFactory is returned and the reason says why, so the log
    explains dead buttons instead of gpiozero's PinFactoryFallback warnings.
    """
    loaders = dict(loaders or {"lgpio": _load_lgpio, "rpigpio": _load_rpigpio})
    if simulate:
        return _mock_factory(), "simulated buttons (MockFactory), as --simulate asked"
    wanted = os.environ.get("GPIOZERO_PIN_FACTORY", "").strip().lower()
    if wanted:  # gpiozero's own setting: the user's choice beats our guess
        return _as_the_user_asks(wanted, loaders, work_dir)
    model = _read_text(model_path)
    generation = _pi_generation(model)
    if generation is None:
        return _mock_factory(), "no Raspberry Pi GPIO here, so buttons are simulated (MockFactory)"
    if not any(dev_dir.glob("gpiochip*")):
        return _mock_factory(), (
            f"{model} has no {dev_dir}/gpiochip* device, so buttons are simulated (MockFactory)"
        )
    release = _debian_release(_read_text(os_release_path))
    if generation >= 5:
        order = ["lgpio"]
    elif release is not None and release >= 12:
        order = ["lgpio", "rpigpio"]
    else:
        order = ["rpigpio", "lgpio"]
    failures: list[str] = []
    for name in order:
        loader = loaders.get(name)
        if loader is None:
            continue
        where = ""
        if name == "lgpio":
            lg_wd = _prepare_lgpio_work_dir(work_dir)
            where = f", LG_WD={lg_wd}"
        try:
            factory = loader()
        except Exception as exc:  # ImportError, OSError, lgpio.error, ... all mean "not this one"
            failures.append(f"{name}: {exc}")
            continue
        return factory, f"{name} on {model}{where}"
    return _mock_factory(), (
        f"no GPIO backend worked on {model} ({'; '.join(failures)}), so buttons are simulated; "
        f"install python3-lgpio and create the venv with --system-site-packages"
    )


def _prepare_lgpio_work_dir(work_dir: Path | str | None) -> str:
    """Set LG_WD (unless already set) to a writable directory and return it.

    Must happen before lgpio is first imported: the library reads LG_WD when it loads.
    """
    existing = os.environ.get("LG_WD")
    if existing:
        return existing
    directory = Path(work_dir) if work_dir is not None else Path(tempfile.gettempdir())
    with contextlib.suppress(OSError):
        directory.mkdir(parents=True, exist_ok=True)
    os.environ["LG_WD"] = str(directory)
    if "lgpio" in sys.modules:
        log.warning("lgpio was imported before LG_WD was set; it may write pipes to the cwd")
    return str(directory)
