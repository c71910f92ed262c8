#!/usr/bin/env bash
# Install the companion as a service on 64-bit Raspberry Pi OS bookworm or trixie (Pi 4 /
# Pi 5). Run as root from a checkout: `sudo make install`. Safe to run again to update.
# `bash systemd/install.sh --check` (or `make install-check`) changes nothing: it checks
# the system and prints each step it would take.
set -euo pipefail
check=no
case "${1:-}" in
    --check) check=yes ;;
    "") ;;
    *) echo "Unknown option '$1'; the only one is --check (say what would be done)." >&2; exit 2 ;;
esac
ok() { echo "   ok: $1"; }
# In check mode a step's commands are printed, not run.
act() {
    if [ "$check" = yes ]; then echo "   would run: $*"; else "$@"; fi
}
here="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/hamster-companion
user=companion
data=/var/lib/hamster-companion
config=/etc/hamster-companion/companion.toml

# Checked before anything changes: the locks name the releases this installs on, and they
# are built for 64-bit ARM (picamera2 and lgpio come from apt for that architecture).
os_release="${OS_RELEASE:-/etc/os-release}"
release=$(. "$os_release" && echo "${VERSION_CODENAME:-unknown}")
arch="${ARCH:-$(dpkg --print-architecture 2>/dev/null || uname -m)}"
lock_name="requirements/pi-$release.lock"
if [ ! -f "$here/$lock_name" ]; then
    echo "This is Debian '$release'; the companion installs on Raspberry Pi OS bookworm or trixie: flash one of those and run this again." >&2
    exit 2
fi
if [ "$arch" != arm64 ] && [ "$arch" != aarch64 ]; then
    echo "This system is '$arch'; the companion installs on 64-bit Raspberry Pi OS (arm64): flash the 64-bit image and run this again." >&2
    exit 2
fi
lock="$prefix/$lock_name"
if [ "$check" = yes ]; then
    echo "Check only: Raspberry Pi OS $release on $arch is supported; nothing below is done."
elif [ "$(id -u)" != 0 ]; then
    echo "Installing needs root: run 'sudo make install' (or 'make install-check' to see what it would do)." >&2
    exit 2
fi

echo "1/6 system packages (apt's picamera2 and lgpio, built for the system's own numpy)"
act apt-get update -qq
act apt-get install -y -qq --no-install-recommends \
    python3-venv python3-picamera2 python3-lgpio python3-numpy rsync openssl
[ "$check" = yes ] || ok "system packages"

echo "2/6 a dedicated user in the gpio, video and audio groups"
if ! id -u "$user" >/dev/null 2>&1; then
    act useradd --system --home-dir "$data" --shell /usr/sbin/nologin "$user"
fi
# Its data folder now, not only when systemd first starts the service (StateDirectory=):
# step 6 shows the PIN from it even when the service did not start.
act install -d -o "$user" -g "$user" "$data"
if [ "$check" = yes ]; then
    echo "   would run: usermod -aG gpio,video,audio $user"
else
    usermod -aG gpio,video,audio "$user"
    ok "user $user ($(id -nG "$user" | tr ' ' ','))"
fi

echo "3/6 copy the companion to $prefix"
act mkdir -p "$prefix"
act rsync -a --delete --exclude .venv --exclude .git --exclude .cache "$here/" "$prefix/"
[ "$check" = yes ] || ok "copied to $prefix"

echo "4/6 a venv that sees apt's picamera2, lgpio and numpy"
[ -x "$prefix/.venv/bin/python" ] || act python3 -m venv --system-site-packages "$prefix/.venv"
# Everything from the hashed lock of this Debian release, so the Pi runs what was tested;
# numpy is left out of it and comes from apt (picamera2 is built against that one).
act "$prefix/.venv/bin/pip" install --quiet --require-hashes --no-deps -r "$lock"
act "$prefix/.venv/bin/pip" install --quiet --no-deps --no-build-isolation "$prefix"
if [ "$check" != yes ]; then
    "$prefix/.venv/bin/python" -c 'import picamera2, lgpio' 2>/dev/null && ok "venv sees picamera2 and lgpio" \
        || echo "   warning: the venv cannot import picamera2/lgpio; the camera or buttons will be simulated"
fi

echo "5/6 configuration and the service"
act mkdir -p /etc/hamster-companion
if [ -f "$config" ]; then
    echo "   kept: your settings in $config"
else
    act cp "$here/systemd/companion.toml" "$config"
fi
act install -m 0644 "$here/systemd/companion.service" /etc/systemd/system/companion.service
# The page's Table care: a restore or an update it asks for is done by this root helper.
act install -m 0644 "$here/systemd/companion-care.path" "$here/systemd/companion-care.service" /etc/systemd/system/
act systemctl daemon-reload
act systemctl enable companion.service
act systemctl enable --now companion-care.path
act systemctl restart companion.service
if [ "$check" != yes ]; then
    systemctl is-active --quiet companion.service && ok "service running" \
        || echo "   warning: the service is not running: journalctl -u companion -n 30"
fi

echo "6/6 checks, then the page's address and the table PIN"
if [ "$check" = yes ]; then
    echo "   would run: companion --config $config doctor, then companion pin (as $user)"
    exit 0
fi
sudo -u "$user" HAMSTER_DATA="$data" "$prefix/.venv/bin/companion" \
    --config /etc/hamster-companion/companion.toml doctor || true
# The page's Update fetches from the checkout this was installed from (git pull there first).
# Remembered as root, in root's own folder: root's helper refuses a source the page's user wrote.
[ ! -d "$here/.git" ] || HAMSTER_DATA="$data" "$prefix/.venv/bin/companion" \
    --config "$config" update --remember --git "$here" || true
# The PIN is shown here, once, and by `companion pin` later; never in the journal.
sudo -u "$user" HAMSTER_DATA="$data" "$prefix/.venv/bin/companion" \
    --config /etc/hamster-companion/companion.toml pin || true
echo "Done. Point the tablet's camera at the code above. Later: sudo -u $user HAMSTER_DATA=$data $prefix/.venv/bin/companion --config $config pin"
