"""Plain Debian arm64 roots, built once with mmdebstrap and run under qemu-user.

Each run starts from a fresh copy of the cached root (``.cache/pi-roots/<release>.tar``), so
the installer always meets a system it has never seen; the apt and pip downloads are kept
between runs (``.cache/pi-roots/cache/``: packages, the archive's lists, wheels), so only
the first run waits for the network.
Every command inside a root runs in a mount namespace of its own (``unshare --mount``):
its mounts vanish with it, so nothing is left mounted on the host, whatever happens.
"""

from __future__ import annotations

import shlex
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: Where the roots, their downloads and the step logs live (gitignored).
CACHE = Path(".cache/pi-roots")
#: What a Raspberry Pi OS Lite image has that Debian's minimal base lacks and the check needs
#: before the installer runs: curl for the smoke test, sudo (the installer uses it).
BASE_PACKAGES = ("ca-certificates", "curl", "sudo", "python3")
MIRROR = "http://deb.debian.org/debian"
SECURITY = "http://deb.debian.org/debian-security"
#: Inside every root: the shims, the smoke script and a copy of this checkout.
TOOLS = "/usr/local/pi-check"
CHECKOUT = "/root/hamster-companion"
HOST_CA = "/etc/ssl/certs/ca-certificates.crt"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


@dataclass(frozen=True)
class Root:
    """One release's root: its cached tarball and the directory a run unpacks it into."""

    release: str
    cache: Path = CACHE

    @property
    def tarball(self) -> Path:
        return self.cache / f"{self.release}.tar"

    @property
    def path(self) -> Path:
        return self.cache / self.release

    def downloads(self, kind: str) -> Path:
        return self.cache / "cache" / self.release / kind


def mmdebstrap_command(release: str, out: Path) -> list[str]:
    """Debian's own tool, for arm64, with the release's updates and security archives."""
    return [
        "mmdebstrap", "--arch=arm64", "--variant=minbase", "--format=tar",
        f"--include={','.join(BASE_PACKAGES)}", "--components=main", release, str(out),
        f"deb {MIRROR} {release} main", f"deb {MIRROR} {release}-updates main",
        f"deb {SECURITY} {release}-security main",
    ]  # fmt: skip


def binfmt_ready() -> str | None:
    """None when arm64 programs run here through qemu; else one sentence on how to fix it."""
    if shutil.which("mmdebstrap") is None or not Path("/usr/bin/qemu-aarch64-static").exists():
        return (
            "pi-check needs Debian's mmdebstrap and qemu-user-static: "
            "`apt-get install -y mmdebstrap qemu-user-static binfmt-support`."
        )
    handler = Path("/proc/sys/fs/binfmt_misc/qemu-aarch64")
    if not handler.exists():
        if not Path("/proc/sys/fs/binfmt_misc/status").exists():
            subprocess.run(
                ["mount", "-t", "binfmt_misc", "binfmt_misc", "/proc/sys/fs/binfmt_misc"],
                check=False,
            )
        subprocess.run(["update-binfmts", "--enable", "qemu-aarch64"], check=False)
    if not handler.exists() or "enabled" not in handler.read_text(encoding="utf-8"):
        return (
            "arm64 programs cannot run here: binfmt_misc has no enabled qemu-aarch64 handler "
            "(as root: `mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc && "
            "update-binfmts --enable qemu-aarch64`)."
        )
    return None


def unpack(root: Root, checkout: Path, files: list[str]) -> None:
    """A fresh root from the cached tarball, with DNS, the check's tools and the checkout."""
    mounted = [line.split()[1] for line in Path("/proc/mounts").read_text().splitlines()]
    target = root.path.resolve()
    if any(point.startswith(str(target)) for point in mounted):
        raise RuntimeError(f"{target} still has something mounted in it: unmount it first.")
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    subprocess.run(["tar", "-C", str(target), "-xpf", str(root.tarball)], check=True)
    shutil.copy("/etc/resolv.conf", target / "etc/resolv.conf")
    # As Raspberry Pi OS does: the machine's own name resolves (sudo looks it up).
    with (target / "etc/hosts").open("a", encoding="utf-8") as hosts:
        hosts.write(f"127.0.1.1\t{socket.gethostname()}\n")
    tools = target / TOOLS.lstrip("/")
    tools.mkdir(parents=True)
    # This machine reaches PyPI through a proxy its own CA bundle trusts: pip in the root is
    # pointed at that bundle (PIP_CERT), as the host's pip is; apt uses plain HTTP.
    shutil.copy(HOST_CA, tools / "host-ca.crt")
    shutil.copytree(checkout / "pi/check/shims", tools / "shims")
    shutil.copytree(checkout / "pi/check/inside", tools / "inside")
    copy = target / CHECKOUT.lstrip("/")
    copy.mkdir(parents=True)
    for name in files:
        source = checkout / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    (root.downloads("apt") / "partial").mkdir(parents=True, exist_ok=True)
    (root.downloads("apt-lists") / "partial").mkdir(parents=True, exist_ok=True)
    root.downloads("pip").mkdir(parents=True, exist_ok=True)


def chroot_command(root: Root, script: str, *, network: bool, shims: bool = False) -> list[str]:
    """``script`` (bash) run as root inside ``root``: with /proc, /sys, /dev, a fresh /tmp
    and the kept downloads mounted; without ``network`` in a namespace with only loopback."""
    r = shlex.quote(str(root.path.resolve()))
    apt = shlex.quote(str(root.downloads("apt").resolve()))
    lists = shlex.quote(str(root.downloads("apt-lists").resolve()))
    pip = shlex.quote(str(root.downloads("pip").resolve()))
    path = f"{TOOLS}/shims:{PATH}" if shims else PATH
    setup = " && ".join(
        [
            f"mount -t proc proc {r}/proc",
            f"mount -t sysfs sysfs {r}/sys",
            f"mount --rbind /dev {r}/dev",
            f"mount -t tmpfs tmpfs {r}/tmp",
            f"mount --bind {apt} {r}/var/cache/apt/archives",
            f"mount --bind {lists} {r}/var/lib/apt/lists",
            f"mkdir -p {r}/root/.cache/pip",
            f"mount --bind {pip} {r}/root/.cache/pip",
            *([] if network else ["ip link set lo up"]),
        ]
    )
    inside = (
        f"exec chroot {r} /usr/bin/env -i PATH={path} HOME=/root LANG=C.UTF-8 "
        f"DEBIAN_FRONTEND=noninteractive PIP_CERT={TOOLS}/host-ca.crt "
        f"bash -c {shlex.quote(script)}"
    )
    unshare = ["unshare", "--mount", "--fork", *([] if network else ["--net"])]
    return [*unshare, "sh", "-c", f"{setup} && {inside}"]
