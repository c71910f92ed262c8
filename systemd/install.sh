#!/usr/bin/env bash
# Install the companion as a service on Raspberry Pi OS Bookworm (Pi 4 / Pi 5). Run as root
# from a checkout: `sudo make install`. Safe to run again to upgrade.
set -euo pipefail
ok() { echo "   ok: $1"; }
here="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/hamster-companion
user=companion
# Checked before anything changes: the locks name the releases this installs on.
release=$(. /etc/os-release && echo "$VERSION_CODENAME")
lock_name="requirements/pi-$release.lock"
if [ ! -f "$here/$lock_name" ]; then
    echo "This is Debian '$release'; the companion installs on Raspberry Pi OS bookworm or trixie: flash one of those and run this again." >&2
    exit 2
fi
lock="$prefix/$lock_name"

echo "1/6 system packages (apt's picamera2 and lgpio, built for Bookworm's own numpy)"
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
    python3-venv python3-picamera2 python3-lgpio python3-numpy rsync openssl >/dev/null
ok "system packages"

echo "2/6 a dedicated user in the gpio, video and audio groups"
id -u "$user" >/dev/null 2>&1 || useradd --system --home-dir /var/lib/hamster-companion --shell /usr/sbin/nologin "$user"
usermod -aG gpio,video,audio "$user"
ok "user $user ($(id -nG "$user" | tr ' ' ','))"

echo "3/6 copy the companion to $prefix"
mkdir -p "$prefix"
rsync -a --delete --exclude .venv --exclude .git --exclude .cache "$here/" "$prefix/"
ok "copied to $prefix"

echo "4/6 a venv that sees apt's picamera2, lgpio and numpy"
[ -x "$prefix/.venv/bin/python" ] || python3 -m venv --system-site-packages "$prefix/.venv"
# Everything from the hashed lock of this Debian release, so the Pi runs what was tested;
# numpy is left out of it and comes from apt (picamera2 is built against that one).
"$prefix/.venv/bin/pip" install --quiet --require-hashes --no-deps -r "$lock"
"$prefix/.venv/bin/pip" install --quiet --no-deps --no-build-isolation "$prefix"
"$prefix/.venv/bin/python" -c 'import picamera2, lgpio' 2>/dev/null && ok "venv sees picamera2 and lgpio" \
    || echo "   warning: the venv cannot import picamera2/lgpio; the camera or buttons will be simulated"

echo "5/6 configuration and the service"
mkdir -p /etc/hamster-companion
[ -f /etc/hamster-companion/companion.toml ] || cp "$here/systemd/companion.toml" /etc/hamster-companion/companion.toml
install -m 0644 "$here/systemd/companion.service" /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable companion.service >/dev/null
systemctl restart companion.service
systemctl is-active --quiet companion.service && ok "service running" \
    || echo "   warning: the service is not running: journalctl -u companion -n 30"

echo "6/6 checks"
sudo -u "$user" HAMSTER_DATA=/var/lib/hamster-companion "$prefix/.venv/bin/companion" \
    --config /etc/hamster-companion/companion.toml doctor || true
echo "Done: the tablet page and PIN are in 'journalctl -u companion -n 20'."
