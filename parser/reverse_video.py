"""Text printed light on a filled dark box (reverse video), turned dark on light before OCR.

Some labs mark an out-of-range result by printing it white on a black box ("11,4" in a filled
rectangle), and some print headers as white text on a dark band. Tesseract reads dark glyphs on
light paper: inside such a box it reads nothing or noise ('IFG' for '6,6'), the row loses its
value, and a neighbour's value may be taken in its place. The class is recognised by shape alone:
coarse cells that are mostly ink, filling a rectangle a line of type tall, at least as wide as
tall, with solid straight edges and paper (the text) inside. Text on paper never covers most of
a rectangle that size, even in bold (ink fills ~10-35% of a line of type; a bold capital is
taller than wide and its bowls leave an edge open). Boxes of consecutive rows touch: their group
of cells is cut into bands where its width steps. The boxes' pixels are inverted and a thin
fringe around them painted paper, so an outline does not read as '[' or '|'.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

# Sizes in inches, turned into pixels at the image's resolution.
CELL = 0.025  # coarse cells the page is judged in (~8 px at 300 dpi, under a digit's height)
DARK_CELL_SHARE = 0.5  # a cell at least this much ink belongs to a filled area
BAND_STEP = 2  # cells: a group's width stepping this much from one cell row to the next
# A box holds a line of type (7-14 pt text in a margin: the dev scans' boxes measure 0.13 in
# tall, 0.16 in wide or more); taller dark areas are pictures or logos, left as they are, and
# smaller ones glyphs.
MIN_BOX_SIDE = 0.1
MAX_BOX_HEIGHT = 0.6
# A value's box is a cell wide: the dev boxes measure 0.16-0.35 in (ten characters of 10 pt type
# fill 0.7 in). A band across the table (a header row or section title white on navy, 7 in wide on
# rw_gasabo and ca_chinook) or a dark block 1.3 in wide on a real report's photo is left as it is:
# tesseract reads round it, and inverted it joined the rows under it (a photo lost all 21).
MAX_BOX_WIDTH = 1.0
# Ink covers at least this share of a box: filled boxes holding white digits measure 0.80-0.86
# on the dev scans; a small box drawn round a flag letter ('H' in a frame) 0.71-0.72.
MIN_INK_SHARE = 0.75
# Inside its edges a box shows at least this share of paper: the text it holds (a black square
# with nothing to read is left as it is).
MIN_TEXT_SHARE = 0.05
# Each of a box's four edges (EDGE deep, inches) is at least this much ink: the dev boxes
# measure 0.86-1.0, a bold capital 'B' 0.71 on its bowls' side.
SOLID_EDGE = 0.8
EDGE = 0.01
FRINGE = 0.012  # paper painted around an inverted box (its anti-aliased edge)
GAP_INK_SHARE = 0.2  # a row inside a box this bare is the gap between two boxes stacked

Box = tuple[int, int, int, int]  # top, left, bottom, right (pixels)


def invert_reverse_video(gray: Image.Image, dpi: float, ink_level: int) -> tuple[Image.Image, int]:
    """`gray` with every filled dark box's pixels inverted (light text on dark read as dark on
    light), and how many boxes were inverted. Ink is everything darker than `ink_level`."""
    pixels = np.asarray(gray)
    ink = pixels < ink_level
    cell = max(3, round(CELL * dpi))
    boxes = [box for box, cuts in _filled_areas(ink, cell) if _is_text_box(box, cuts, ink, dpi)]
    if not boxes:
        return gray, 0
    flip = np.zeros_like(ink)
    paper = np.zeros_like(ink)
    fringe = max(1, round(FRINGE * dpi))
    for box in boxes:
        _mark_rows(ink, box, fringe, flip, paper)
    out = np.where(flip, 255 - pixels, pixels).astype(np.uint8)
    out[paper] = 255  # edges and fringes last: a box's anti-aliased rim inverted stays grey
    return Image.fromarray(out), len(boxes)


def _mark_rows(ink: np.ndarray, box: Box, fringe: int, flip: np.ndarray, paper: np.ndarray) -> None:
    """Mark `box` to invert row by row, each row between its own solid edges (a box stacked on
    a wider one: its edge may lie a little outside `box`), and its fringe and the gaps between
    stacked boxes to paint paper."""
    top, left, bottom, right = box
    width = ink.shape[1]
    span_left, span_right = max(0, left - fringe * 3), min(width, right + fringe * 3)
    paper[max(0, top - fringe):top + fringe, span_left:span_right] = True
    paper[bottom - fringe:bottom + fringe, span_left:span_right] = True
    for y in range(top + fringe, bottom - fringe):
        solid = np.nonzero(np.convolve(ink[y, span_left:span_right], np.ones(fringe), "valid") == fringe)[0]
        if not len(solid) or solid[-1] + fringe - solid[0] < (right - left) // 2:
            if ink[y, left:right].mean() < GAP_INK_SHARE:
                paper[y, left:right] = True  # a gap between stacked boxes
            continue
        start, end = span_left + int(solid[0]), span_left + int(solid[-1]) + fringe
        if ink[y, start:end].mean() < GAP_INK_SHARE:  # edge to edge but bare: a gap's ragged rim
            paper[y, start:end] = True
            continue
        flip[y, start:end] = True
        paper[y, max(0, start - fringe):start + fringe] = True
        paper[y, end - fringe:min(width, end + fringe)] = True


def _filled_areas(ink: np.ndarray, cell: int) -> list[tuple[Box, tuple[bool, bool]]]:
    """Pixel rectangles of 4-connected groups of mostly-ink cells, each group cut into bands
    where its width steps (boxes of consecutive rows, touching), with whether each was cut from
    a neighbour above and below."""
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
        bands = _bands(_group(dark, seen, start))
        for index, (top, left, bottom, right) in enumerate(bands):
            if min(bottom - top, right - left) >= 1:  # two cells or more each way
                area = (top * cell, left * cell, (bottom + 1) * cell, (right + 1) * cell)
                # a band cut from a neighbour keeps that edge: snapping would run into the other box
                cut_above = index > 0 and bands[index - 1][2] == top - 1
                cut_below = index + 1 < len(bands) and bands[index + 1][0] == bottom + 1
                areas.append((_snapped(area, ink, cell, cut_above, cut_below), (cut_above, cut_below)))
    return areas


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


def _bands(cells: list[tuple[int, int]]) -> list[Box]:
    """A group's cell rectangle (top, left, bottom, right rows and columns, inclusive), cut
    where a cell row's extent steps by BAND_STEP or more from the row above."""
    extents: dict[int, tuple[int, int]] = {}
    for y, x in cells:
        low, high = extents.get(y, (x, x))
        extents[y] = (min(low, x), max(high, x))
    bands: list[list[int]] = []  # [top, left, bottom, right]
    previous = None
    for y in sorted(extents):
        low, high = extents[y]
        if (previous is None or y != previous[0] + 1 or abs(low - previous[1]) >= BAND_STEP
                or abs(high - previous[2]) >= BAND_STEP):
            bands.append([y, low, y, high])
        else:
            band = bands[-1]
            band[1], band[2], band[3] = min(band[1], low), y, max(band[3], high)
        previous = (y, low, high)
    return [tuple(band) for band in bands]


def _snapped(area: Box, ink: np.ndarray, cell: int, cut_above: bool, cut_below: bool) -> Box:
    """`area` (whole cells) moved to the box's own edges: the outermost rows and columns, within
    a cell of the coarse edge, that are mostly ink across the box (not past a cut edge)."""
    top, left, bottom, right = area
    height, width = ink.shape
    span_top = top if cut_above else max(0, top - cell)
    span_bottom = bottom if cut_below else min(height, bottom + cell)
    span_left, span_right = max(0, left - cell), min(width, right + cell)
    row_share = ink[span_top:span_bottom, left:right].mean(axis=1)
    column_share = ink[top:bottom, span_left:span_right].mean(axis=0)
    solid_rows = np.nonzero(row_share >= 0.5)[0]
    solid_columns = np.nonzero(column_share >= 0.5)[0]
    if not len(solid_rows) or not len(solid_columns):
        return area
    return (span_top + int(solid_rows[0]), span_left + int(solid_columns[0]),
            span_top + int(solid_rows[-1]) + 1, span_left + int(solid_columns[-1]) + 1)


def _is_text_box(box: Box, cuts: tuple[bool, bool], ink: np.ndarray, dpi: float) -> bool:
    """A box a line of type tall, at least as wide and at most a cell wide, mostly ink, with solid
    edges (but where it was cut from a box above or below) and text."""
    top, left, bottom, right = box
    height, width = bottom - top, right - left
    if not MIN_BOX_SIDE * dpi <= height <= min(width, MAX_BOX_HEIGHT * dpi) or width > MAX_BOX_WIDTH * dpi:
        return False
    inside = ink[top:bottom, left:right]
    depth = max(1, round(EDGE * dpi))
    if min(height, width) <= 2 * depth:
        return False
    cut_above, cut_below = cuts
    edges = [inside[:, :depth], inside[:, -depth:]]
    edges += [] if cut_above else [inside[:depth]]
    edges += [] if cut_below else [inside[-depth:]]
    text = 1 - float(inside[depth:-depth, depth:-depth].mean())
    return (float(inside.mean()) >= MIN_INK_SHARE and text >= MIN_TEXT_SHARE
            and min(float(e.mean()) for e in edges) >= SOLID_EDGE)
