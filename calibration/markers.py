"""Printable ArUco marker sheets for the board corners, asterisk strip, table and wheel rim.

The vision measures everything in belt squares, so the corner markers must print exactly
one belt square wide: each sheet carries a 100 mm bar to check the printer did not scale
it. Sheets are written as PNG (for screens) and as a one-page PDF built by hand around the
same image (for printers), so no PDF library is needed.

    python -m calibration.markers OUTDIR [--square-mm 40]
"""

from __future__ import annotations

import argparse
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.tabletop import (
    ASTERISK_MARKER_IDS,
    BOARD_MARKER_LAYOUT,
    MARKER_GAP,
    RIM_MARKER_FILL,
    RIM_MARKER_IDS,
    TABLE_MARKER_LAYOUT,
)

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
DPI = 300
A4_MM = (210.0, 297.0)
MM_PER_INCH = 25.4
POINTS_PER_INCH = 72.0
DEFAULT_SQUARE_MM = 40.0

Image = NDArray[np.uint8]


@dataclass(frozen=True)
class Sheet:
    """One page: markers of ``side_mm`` with a caption each, plus how to place them."""

    name: str
    title: str
    markers: tuple[tuple[int, str], ...]  # (id, caption)
    side_mm: float
    instructions: tuple[str, ...]


def mm_to_px(mm: float) -> int:
    return round(mm / MM_PER_INCH * DPI)


def marker_image(marker_id: int, side_px: int) -> Image:
    """The marker's black square (border included) at exactly ``side_px`` pixels."""
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    return np.asarray(cv2.aruco.generateImageMarker(dictionary, marker_id, side_px), np.uint8)


def _text(page: Image, text: str, origin: tuple[int, int], scale: float = 1.6) -> None:
    cv2.putText(page, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (0,), 3, cv2.LINE_AA)


def render_sheet(sheet: Sheet) -> Image:
    """An A4 page at 300 dpi: title, scale bar, markers in a grid, placement notes."""
    width, height = mm_to_px(A4_MM[0]), mm_to_px(A4_MM[1])
    page = np.full((height, width), 255, np.uint8)
    margin = mm_to_px(15)
    _text(page, sheet.title, (margin, margin + 40), 2.0)
    bar_y = margin + mm_to_px(12)
    cv2.rectangle(page, (margin, bar_y), (margin + mm_to_px(100), bar_y + mm_to_px(3)), (0,), -1)
    _text(page, "100 mm: measure this bar; print at 100% scale", (margin, bar_y + mm_to_px(9)), 1.2)

    side = mm_to_px(sheet.side_mm)
    cell = side + mm_to_px(max(12.0, sheet.side_mm * 0.5))
    columns = max(1, (width - 2 * margin) // cell)
    top = bar_y + mm_to_px(20)
    for index, (marker_id, caption) in enumerate(sheet.markers):
        x = margin + (index % columns) * cell
        y = top + (index // columns) * (cell + mm_to_px(6))
        page[y : y + side, x : x + side] = marker_image(marker_id, side)
        _text(page, caption, (x, y + side + mm_to_px(6)), 1.0)

    rows = (len(sheet.markers) + columns - 1) // columns
    note_y = top + rows * (cell + mm_to_px(6)) + mm_to_px(8)
    for line in sheet.instructions:
        _text(page, line, (margin, note_y), 1.1)
        note_y += mm_to_px(7)
    return page


def pdf_bytes(page: Image) -> bytes:
    """A one-page PDF showing ``page`` (8-bit grey) across an A4 sheet at its true size.

    The PDF is just five objects: catalog, page tree, page, drawing command and the image
    (Flate-compressed with the standard library), plus the cross-reference table.
    """
    height, width = page.shape
    page_w = A4_MM[0] / MM_PER_INCH * POINTS_PER_INCH
    page_h = A4_MM[1] / MM_PER_INCH * POINTS_PER_INCH
    pixels = zlib.compress(np.ascontiguousarray(page).tobytes(), 9)
    drawing = f"q {page_w:.2f} 0 0 {page_h:.2f} 0 0 cm /Im0 Do Q".encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_w:.2f} {page_h:.2f}] "
            "/Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>"
        ).encode("ascii"),
        b"<< /Length %d >>\nstream\n" % len(drawing) + drawing + b"\nendstream",
        (
            f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} "
            f"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode "
            f"/Length {len(pixels)} >>\nstream\n"
        ).encode("ascii")
        + pixels
        + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


# Where each belt corner marker goes, as its caption on the sheet says.
CORNER_NAMES = {
    0: "Pit end, lane 1",
    1: "Pit end, lane 5",
    2: "far end, lane 5",
    3: "far end, lane 1",
}


def standard_sheets(square_mm: float = DEFAULT_SQUARE_MM) -> tuple[Sheet, ...]:
    """The three sheets a table needs, sized so one marker is one belt square."""
    gap_mm = MARKER_GAP * square_mm
    corner_names = CORNER_NAMES
    return (
        Sheet(
            "board-corners",
            "Run, Hamster, Run! - belt corner markers",
            tuple((i, f"{i}: {corner_names[i]}") for i in BOARD_MARKER_LAYOUT),
            square_mm,
            (
                f"Cut out each marker. Place each {gap_mm:.0f} mm beyond the belt's end",
                f"and {gap_mm:.0f} mm beyond the strip tabs, upright, text towards the far end.",
                "Keep all four visible while playing; recalibrate if the belt moves.",
            ),
        ),
        Sheet(
            "table-corners",
            "Hamster Wheel - table corner markers",
            tuple((i, f"{i}") for i in TABLE_MARKER_LAYOUT),
            square_mm,
            (
                "Lay 10, 11, 12, 13 clockwise at the corners of a 16 x 12 square area",
                "(one square = one marker side), each 0.3 squares in from its corner.",
            ),
        ),
        Sheet(
            "asterisk-strip",
            "Run, Hamster, Run! - asterisk strip markers",
            tuple(
                (i, f"{i}: {'lane-1 end' if k == 0 else 'lane-5 end'}")
                for k, i in enumerate(ASTERISK_MARKER_IDS)
            ),
            square_mm * 0.4,
            ("Stick one on each end tab of the asterisk strip, next to its asterisk.",),
        ),
    )


DEFAULT_CIRCUMFERENCE_MM = 880.0  # a 28 cm wheel; measure yours with a string
STRIP_SEGMENT_MM = 170.0  # one printed piece of the strip: fits across an A4 page


def _strip_page_header(page: Image, circumference_mm: float, margin: int) -> int:
    """The strip page's title and its 100 mm check bar; the height the pieces start at."""
    _text(
        page,
        f"Hamster Wheel - rim strip ({circumference_mm:.0f} mm round)",
        (margin, margin + 40),
        1.6,
    )
    bar_y = margin + mm_to_px(10)
    cv2.rectangle(page, (margin, bar_y), (margin + mm_to_px(100), bar_y + mm_to_px(3)), (0,), -1)
    _text(page, "100 mm: print at 100% and check this bar", (margin, bar_y + mm_to_px(9)), 1.1)
    return bar_y + mm_to_px(18)


def wheel_strip_pages(circumference_mm: float = DEFAULT_CIRCUMFERENCE_MM) -> list[Image]:
    """The rim strip, cut into pieces that fit A4 pages (300 dpi), true to size.

    The strip is exactly one circumference long; its markers (ids 20 and up) sit one slot
    apart, each ``RIM_MARKER_FILL`` of a slot wide, so the camera can tell the angle from
    any two of them. Pieces are numbered and carry the marker ids at their ends, so they
    are glued end to end in order.
    """
    if not 300.0 <= circumference_mm <= 3000.0:
        raise ValueError(
            f"A wheel's circumference of {circumference_mm:.0f} mm is not plausible; measure "
            "round the outside of the ring with a string (a 28 cm wheel is about 880 mm)."
        )
    count = len(RIM_MARKER_IDS)
    slot = circumference_mm / count
    side = slot * RIM_MARKER_FILL
    height_mm = side * 1.35
    # Pieces end between two markers, never across one: a whole number of slots each.
    per_piece = max(1, int(STRIP_SEGMENT_MM // slot))
    pieces = -(-count // per_piece)
    labels = strip_piece_labels(circumference_mm)
    width_px, page_h = mm_to_px(A4_MM[0]), mm_to_px(A4_MM[1])
    margin = mm_to_px(15)
    per_page = max(1, int((A4_MM[1] - 60) // (height_mm + 22)))
    pages: list[Image] = []
    for first in range(0, pieces, per_page):
        page = np.full((page_h, width_px), 255, np.uint8)
        y = _strip_page_header(page, circumference_mm, margin)
        for piece in range(first, min(pieces, first + per_page)):
            start = piece * per_piece * slot
            piece_mm = min(per_piece, count - piece * per_piece) * slot
            top = y + mm_to_px(6)
            cv2.rectangle(
                page,
                (margin, top),
                (margin + mm_to_px(piece_mm), top + mm_to_px(height_mm)),
                (0,),
                2,
            )
            for k, marker_id in enumerate(RIM_MARKER_IDS):
                centre = (k + 0.5) * slot - start
                if not side / 2 <= centre <= piece_mm - side / 2:
                    continue
                x = margin + mm_to_px(centre - side / 2)
                m = mm_to_px(side)
                row = top + mm_to_px((height_mm - side) / 2)
                page[row : row + m, x : x + m] = marker_image(marker_id, m)
            _text(page, labels[piece], (margin, y), 1.0)
            y = top + mm_to_px(height_mm + 14)
        notes = (
            "Cut the pieces out along their frames and glue them end to end in order, the",
            "numbers rising in the direction players build (clockwise as they see the ring).",
            "Stick the strip round the OUTSIDE of the rim, centred, ends meeting exactly.",
        )
        for line in notes:
            _text(page, line, (margin, y), 1.0)
            y += mm_to_px(7)
        pages.append(page)
    return pages


def _piece_label(piece: int, pieces: int, per_piece: int, count: int) -> str:
    """What a piece says above its frame: its place, its markers' ids and which way the
    next piece joins, so a piece glued the wrong way round is seen before the glue sets."""
    ids = RIM_MARKER_IDS[piece * per_piece : min(count, (piece + 1) * per_piece)]
    onward = (
        f"piece {piece + 2} joins the right-hand end"
        if piece + 1 < pieces
        else ("its right-hand end meets piece 1's left-hand end")
    )
    return f"piece {piece + 1} of {pieces}: markers {ids[0]}-{ids[-1]} left to right; {onward} ->"


def strip_piece_labels(circumference_mm: float = DEFAULT_CIRCUMFERENCE_MM) -> list[str]:
    """The line printed above each piece of the rim strip, in order."""
    count = len(RIM_MARKER_IDS)
    per_piece = max(1, int(STRIP_SEGMENT_MM // (circumference_mm / count)))
    pieces = -(-count // per_piece)
    return [_piece_label(piece, pieces, per_piece, count) for piece in range(pieces)]


def write_wheel_strip(out_dir: Path, circumference_mm: float) -> list[Path]:
    """Write wheel-strip-N.png and .pdf for each page; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for number, page in enumerate(wheel_strip_pages(circumference_mm), start=1):
        written += write_page(out_dir, f"wheel-strip-{number}", page)
    return written


def write_page(out_dir: Path, name: str, page: Image) -> list[Path]:
    """NAME.png and NAME.pdf of one page; returns both paths."""
    png = out_dir / f"{name}.png"
    if not cv2.imwrite(str(png), page):
        raise OSError(f"Could not write {png}; check the folder is writable.")
    pdf = out_dir / f"{name}.pdf"
    pdf.write_bytes(pdf_bytes(page))
    return [png, pdf]


def write_sheets(out_dir: Path, sheets: Sequence[Sheet]) -> list[Path]:
    """Write NAME.png and NAME.pdf for every sheet; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for sheet in sheets:
        written += write_page(out_dir, sheet.name, render_sheet(sheet))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write printable ArUco marker sheets.")
    parser.add_argument("out_dir", type=Path, help="folder for the PNG and PDF sheets")
    parser.add_argument(
        "--square-mm",
        type=float,
        default=DEFAULT_SQUARE_MM,
        help="side of one belt square in mm (markers print this wide)",
    )
    args = parser.parse_args(argv)
    for path in write_sheets(args.out_dir, standard_sheets(args.square_mm)):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
