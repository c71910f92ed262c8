#!/usr/bin/env bash
# Remove the companion service: `sudo make uninstall`. The games (/var/lib/hamster-companion)
# and the settings (/etc/hamster-companion) are kept unless PURGE=1 is given.
set -euo pipefail
systemctl disable --now companion.service companion-care.path 2>/dev/null || true
rm -f /etc/systemd/system/companion.service /etc/systemd/system/companion-care.{path,service}
systemctl daemon-reload
rm -rf /opt/hamster-companion
echo "   ok: service and program removed"
if [ "${PURGE:-0}" = "1" ]; then
    rm -rf /var/lib/hamster-companion /etc/hamster-companion
    userdel companion 2>/dev/null || true
    echo "   ok: games, settings and the companion user removed"
else
    echo "   kept: games in /var/lib/hamster-companion, settings in /etc/hamster-companion"
    echo "   (sudo make uninstall PURGE=1 removes them too)"
fi
