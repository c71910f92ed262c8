"""``make pi-check``: the Pi install proved on arm64 Debian roots under qemu (docs/pi.md)."""
