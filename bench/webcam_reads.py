"""What the 3 s capture timeout costs a webcam's reads: the hand-over to the reading thread.

``OpenCVSource.read`` asks a thread of its own for each frame and waits at most
``capture_timeout`` for it (``hardware.webcam.TimedCalls``), so that a hung driver is
noticed after 3 s instead of OpenCV's 10 s. This times that hand-over on this machine, with
a stand-in capture that returns a ready 1280x720 frame at once (no camera, no decoding:
only the overhead is measured: the hand-over and the frame's shape check), against
calling the stand-in directly.

Run: ``.venv/bin/python -m bench.webcam_reads [--reads N]``; prints the median
microseconds per read both ways over N reads (default 3000) and the difference.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import cv2
import numpy as np

from hardware.camera import OpenCVSource

FRAME = np.zeros((720, 1280, 3), np.uint8)


class ReadyCapture:
    """A webcam whose every frame is already there."""

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FRAME_WIDTH: 1280, cv2.CAP_PROP_FRAME_HEIGHT: 720}.get(prop, 0)

    def read(self) -> tuple[bool, Any]:
        return True, FRAME

    def release(self) -> None:
        pass


def per_read(read: Any, reads: int) -> float:
    """Median microseconds of one call of ``read`` over ``reads`` calls."""
    times = []
    for _ in range(reads):
        start = time.perf_counter()
        read()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=3000)
    reads = parser.parse_args().reads
    capture = ReadyCapture()
    direct = per_read(capture.read, reads)
    with OpenCVSource(0, open_capture=lambda *_: capture, platform="linux") as source:
        timed = per_read(source.read, reads)
    print(f"direct VideoCapture.read stand-in: {direct:8.1f} µs per read (median of {reads})")
    print(f"OpenCVSource.read with its timeout: {timed:8.1f} µs per read (median of {reads})")
    print(
        f"added per frame: {timed - direct:.1f} µs (a 30 fps webcam gives a frame every 33333 µs)"
    )


if __name__ == "__main__":
    main()
