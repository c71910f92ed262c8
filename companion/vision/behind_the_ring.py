"""How much of the table the standing ring hides from the camera, by the camera's height.

The Hamster Wheel's ring stands a diameter (about 28 cm) tall. Seen from a camera above the
table and off to one side, its top covers a strip of table beyond its footprint, and a
piece that falls there is not in the picture at all: no reading of that frame can count
it (the watcher still counts a piece it saw before the ring rolled in front of it:
``companion.vision.fallen_memory``). The lower the camera, the wider the strip: with the
ring 20 cm from the point under the camera, the table up to about 37 cm beyond the
ring's middle at 50 cm up, 21 cm at 70 cm and 14 cm at 100 cm. On rendered rooms
(``bench/vision_rooms.py``) nearly every count that came out wrong was short by such a
piece, so the calibration says how wide the strip is while the players can still move
the camera.
"""

from __future__ import annotations

from companion.tabletop import CM_PER_UNIT, WHEEL_DEPTH, WHEEL_RADIUS

RING_HEIGHT_CM = 2.0 * WHEEL_RADIUS * CM_PER_UNIT
RING_DEPTH_CM = WHEEL_DEPTH * CM_PER_UNIT
# How far from the point under the camera the ring is taken to stand: it rolls about the
# table's middle, and the tablet asks for a push back when it drifts 3 squares (14 cm).
RING_OFFSET_CM = 20.0
# Below this height the players are told to raise the camera: of the places a fallen piece
# lands, 10 % were at least 75 % hidden with the camera at 50-67 cm, 4 % at 67-83 cm and
# 2 % at 83-100 cm (``bench/behind_the_ring.py``, the simulator's cameras and falls).
ADVISED_HEIGHT_CM = 70.0


def hidden_strip_cm(height_cm: float, offset_cm: float = RING_OFFSET_CM) -> float:
    """How far beyond the ring's middle, on the side away from the camera, its top hides
    the table (cm) from a camera ``height_cm`` above it, with the ring ``offset_cm`` from
    the point under the camera: the far edge of its top, ``RING_HEIGHT_CM`` up and half
    the ring's depth further out, is seen where the line from the lens through it meets
    the table."""
    if height_cm <= RING_HEIGHT_CM:
        return float("inf")
    far_edge = offset_cm + RING_DEPTH_CM / 2.0
    return far_edge * height_cm / (height_cm - RING_HEIGHT_CM) - offset_cm


# Beyond this a width in centimetres means nothing at a table (a camera barely above the
# ring's top hides metres): the tablet then names no width; ``camera_height_said``
# already asks for a higher camera.
WIDEST_SAID_CM = 100.0


def hidden_beyond_cm(camera_height_cm: float | None) -> float | None:
    """The strip's width (``hidden_strip_cm``) as the tablet says it with every count, or
    None when no sensible width can be said: no height set, or a camera so low (or a
    height so broken) that it is not a width below WIDEST_SAID_CM."""
    if not camera_height_cm:
        return None
    strip = hidden_strip_cm(camera_height_cm)
    return round(strip, 1) if strip <= WIDEST_SAID_CM else None


def camera_height_said(height_cm: float | None) -> str:
    """One sentence for the calibration panel and ``companion calibrate show``: what the
    camera's height means for counting the wheel's fallen pieces."""
    if not height_cm:
        return (
            "Camera height: not set, so the wheel's ring is read as if flat: set "
            "[camera] height_cm (lens to cloth, 50-100 cm) for a real ring."
        )
    if height_cm <= RING_HEIGHT_CM:
        return (
            f"Camera height: {height_cm:.0f} cm is not above the ring's top "
            f"({RING_HEIGHT_CM:.0f} cm): raise the camera to {ADVISED_HEIGHT_CM:.0f} cm or more."
        )
    strip = hidden_strip_cm(height_cm)
    said = (
        f"Camera height: {height_cm:.0f} cm; the ring's top hides the table up to about "
        f"{strip:.0f} cm beyond its middle, on the side away from the camera, where a fallen "
        "piece is not counted"
    )
    if height_cm < ADVISED_HEIGHT_CM:
        better = hidden_strip_cm(ADVISED_HEIGHT_CM)
        return (
            f"{said}: raise the camera to {ADVISED_HEIGHT_CM:.0f} cm or more if you can "
            f"(about {better:.0f} cm hidden there)."
        )
    return f"{said}."
