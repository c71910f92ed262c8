"""``python3 -m pi.check``: see ``pi.check.run``."""

from pi.check.run import main

raise SystemExit(main())
