"""Text printed light on a filled dark box (reverse video), turned dark on light before OCR.

Some labs mark an out-of-range result by printing it white on a black box ("11,4" in a filled
rectangle), and some print headers as white text on a dark band. Tesseract reads dark glyphs on
light paper: inside such a box it reads nothing or noise ('IFG' for '6,6'), the row loses its
value, and a neighbour's value may be taken in its place. The class is recognised by shape alone:
a run of coarse cells that are mostly ink, filling a rectangle about one or two text lines tall
and at least as wide as tall. Text on paper never covers most of a rectangle that size, even in
bold: ink fills ~10-35% of a line of type. The box's pixels are inverted and a thin fringe around
it painted paper, so its outline does not read as '[' or '|'.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

# Sizes in inches, turned into pixels at the image's resolution.
CELL = 0.025  # coarse cells the page is judged in (~8 px at 300 dpi, under a digit's height)
DARK_CELL_SHARE = 0.5  # a cell at least this much ink belongs to a filled area
# A box holds a line of type or two (7-14 pt text in a margin: ~0.1-0.5 in each way; boxes in
# consecutive rows touch and count as one; the dev scans' boxes measure 0.13 in tall, 0.23 in
# wide or more); taller dark areas are pictures or logos, left as they are, and smaller ones
# glyphs (a bold capital's solid part, ~0.08 in).
MIN_BOX_SIDE = 0.1
MAX_BOX_HEIGHT = 0.6
# Ink covers at least this share of a box: filled boxes holding white digits measure 0.80-0.86
# on the dev scans; a small box drawn round a flag letter ('H' in a frame) 0.71-0.72.
MIN_INK_SHARE = 0.75
# Inside its edges a box shows at least this share of paper: the text it holds (a black square
# with nothing to read is left as it is).
MIN_TEXT_SHARE = 0.05
# A box's edges are solid: its outermost rows and columns average at least SOLID_EDGES ink, and
# none is below SOLID_EDGE (a bold glyph's outline never is solid on all four sides; two boxes
# stacked with different widths measure ~0.7 on the side where the narrower one steps in).
SOLID_EDGES = 0.85
SOLID_EDGE = 0.7
EDGE = 0.01  # the depth of an edge looked at
FRINGE = 0.012  # paper painted around an inverted box (its anti-aliased edge)
GAP_INK_SHARE = 0.2  # a row inside a box this bare is the gap between two boxes stacked


def invert_reverse_video(gray: Image.Image, dpi: float, ink_level: int) -> tuple[Image.Image, int]:
    """`gray` with every filled dark box's pixels inverted (light text on dark read as dark on
    light), and how many boxes were inverted. Ink is everything darker than `ink_level`."""
    pixels = np.asarray(gray)
    ink = pixels < ink_level
    cell = max(3, round(CELL * dpi))
    boxes = [box for box in _filled_areas(ink, cell) if _is_text_box(box, ink, dpi)]
    if not boxes:
        return gray, 0
    out = pixels.copy()
    fringe = max(1, round(FRINGE * dpi))
    for box in boxes:
        _invert_rows(out, ink, box, fringe)
    return Image.fromarray(out), len(boxes)


def _invert_rows(out: np.ndarray, ink: np.ndarray, box: tuple[int, int, int, int], fringe: int) -> None:
    """Invert `box` in `out` row by row, each row between its own solid edges (two boxes stacked
    with different widths: the wider one's edge may lie a little outside `box`), and paint the
    edges and the rows just above and below paper."""
    top, left, bottom, right = box
    width = out.shape[1]
    reach = right - left
    span_left, span_right = max(0, left - fringe * 3), min(width, right + fringe * 3)
    out[max(0, top - fringe):top + fringe, span_left:span_right] = 255
    for y in range(top + fringe, bottom - fringe):
        solid = np.nonzero(np.convolve(ink[y, span_left:span_right], np.ones(fringe), "valid") == fringe)[0]
        if not len(solid) or solid[-1] + fringe - solid[0] < reach // 2:
            if ink[y, left:right].mean() < GAP_INK_SHARE:
                out[y, left:right] = 255  # a gap between stacked boxes
            continue
        start, end = span_left + int(solid[0]), span_left + int(solid[-1]) + fringe
        if ink[y, start:end].mean() < GAP_INK_SHARE:  # edge to edge but bare: a gap's ragged rim
            out[y, start:end] = 255
            continue
        out[y, start:end] = 255 - out[y, start:end]
        out[y, max(0, start - fringe):start + fringe] = 255
        out[y, end - fringe:min(width, end + fringe)] = 255
    out[bottom - fringe:bottom + fringe, span_left:span_right] = 255


def _filled_areas(ink: np.ndarray, cell: int) -> list[tuple[int, int, int, int]]:
    """Pixel rectangles (top, left, bottom, right) of 4-connected groups of mostly-ink cells."""
    rows, columns = ink.shape[0] // cell, ink.shape[1] // cell
    if not rows or not columns:
        return []
    share = ink[:rows * cell, :columns * cell].reshape(rows, cell, columns, cell).mean(axis=(1, 3))
    dark = share >= DARK_CELL_SHARE
    seen = np.zeros_like(dark)
    areas = []
    for start in zip(*np.nonzero(dark)):
        if seen[start]:
            continue
        cells = _group(dark, seen, start)
        ys, xs = [c[0] for c in cells], [c[1] for c in cells]
        if min(max(xs) - min(xs), max(ys) - min(ys)) >= 1:  # two cells or more each way
            areas.append((min(ys) * cell, min(xs) * cell, (max(ys) + 1) * cell, (max(xs) + 1) * cell))
    return [_snapped(area, ink, cell) for area in areas]


def _group(dark: np.ndarray, seen: np.ndarray, start: tuple[int, int]) -> list[tuple[int, int]]:
    """The dark cells 4-connected to `start` (marked seen)."""
    seen[start] = True
    stack, cells = [start], []
    while stack:
        y, x = stack.pop()
        cells.append((y, x))
        for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
            if 0 <= ny < dark.shape[0] and 0 <= nx < dark.shape[1] and dark[ny, nx] and not seen[ny, nx]:
                seen[ny, nx] = True
                stack.append((ny, nx))
    return cells


def _snapped(area: tuple[int, int, int, int], ink: np.ndarray, cell: int) -> tuple[int, int, int, int]:
    """`area` (whole cells) moved to the box's own edges: the outermost rows and columns, within
    a cell of the coarse edge, that are mostly ink across the box."""
    top, left, bottom, right = area
    height, width = ink.shape
    span_top, span_bottom = max(0, top - cell), min(height, bottom + cell)
    span_left, span_right = max(0, left - cell), min(width, right + cell)
    row_share = ink[span_top:span_bottom, left:right].mean(axis=1)
    column_share = ink[top:bottom, span_left:span_right].mean(axis=0)
    solid_rows = np.nonzero(row_share >= 0.5)[0]
    solid_columns = np.nonzero(column_share >= 0.5)[0]
    if not len(solid_rows) or not len(solid_columns):
        return area
    return (span_top + int(solid_rows[0]), span_left + int(solid_columns[0]),
            span_top + int(solid_rows[-1]) + 1, span_left + int(solid_columns[-1]) + 1)


def _is_text_box(box: tuple[int, int, int, int], ink: np.ndarray, dpi: float) -> bool:
    """A box a line of type or two tall, mostly ink, with solid edges."""
    top, left, bottom, right = box
    height, width = bottom - top, right - left
    if not (MIN_BOX_SIDE * dpi <= height <= MAX_BOX_HEIGHT * dpi) or width < MIN_BOX_SIDE * dpi:
        return False
    inside = ink[top:bottom, left:right]
    depth = max(1, round(EDGE * dpi))
    edges = (inside[:depth], inside[-depth:], inside[:, :depth], inside[:, -depth:])
    text = 1 - float(inside[depth:-depth, depth:-depth].mean()) if min(height, width) > 2 * depth else 0.0
    return (float(inside.mean()) >= MIN_INK_SHARE and text >= MIN_TEXT_SHARE
            and min(float(e.mean()) for e in edges) >= SOLID_EDGE
            and sum(float(e.mean()) for e in edges) >= 4 * SOLID_EDGES)
