"""Camera watchers: frames in, steady readings out, posted to the table.

Each watcher reads the newest frame on its own thread (``frames.LatestFrameWorker``), turns
it into a reading with the pure functions of :mod:`companion.vision`, waits until the
reading has held for several frames, and posts it with ``Table.observe``. A watcher never
decides what a reading means for the game: the table's worker asks the current game's rule
(``GameSpec.camera``), so the decision is made against the state that is current. Which
watchers run is decided by the camera rig (:mod:`companion.watch.rig`) from the same seam.

Watchers take frames from whatever delivers them (``hardware.camera.CameraSupervisor`` on
the table, a simulated twin on a laptop, a test) and import no device library.
"""
