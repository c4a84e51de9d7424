"""Dotted strokes erased from a page image before OCR: leaders (`Glucose .......... 95`,
`RBC . . . . . 4.5` in a monospace printout) and dotted or dashed cell borders.

Tesseract reads a run of leader dots as letters and glues them to the test name beside it
("Appearance ......" read as "ADDOBIENCE"). The class is recognised by shape alone, in a few
vectorised passes over the binarised page (no extra OCR pass): close small gaps along the
stroke's direction, keep what is thinner than any line of text, longer than any glyph and made
of several pieces, and paint it paper. Letters never qualify, since closing the gaps between
the letters of a word makes a block as tall as the text, not a thin bar; a hyphen or a dash
is thin but one piece. Solid rules are left alone: tesseract's own layout analysis uses them
(erasing them split a table's columns apart on a photographed page, dropping its values).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

# Sizes in inches, turned into pixels at the image's resolution. A printed period in 7-10 pt
# type is ~0.01 in across; leaders repeat every ~0.03 in, or every ~0.07 in when a monospace
# printout spaces them (". . . ."). Text lines are >= 0.05 in tall.
LEADER_GAP = 0.08  # gaps this short between dots (or dashes) along a stroke are closed
# Thicker than this, a closed stroke is text. 0.03 took the x-height letters of small print
# for leaders on a ~150 dpi photo (a real report's method line); 0.025 keeps them and reads the
# HTML dev scans as well (recall 0.950 either way; 0.02 drops it to 0.878).
MAX_THICKNESS = 0.025
MIN_DOTS = 4  # pieces of ink in a dotted stroke: a hyphen with its spaces is one
DOTTED_LENGTH = 0.15  # a dotted stroke at least this long (~4 spaced dots)
MAX_DOT_LENGTH = 0.15  # its pieces at most this long on average (dots a blurred scan ran together)
# Vertical dotted borders: gaps closed only within a dotted border's spacing (never across
# text lines), and longer than any glyph stem (a 14 pt capital is ~0.14 in).
VERTICAL_GAP = 0.02
VERTICAL_DOTTED_LENGTH = 0.2
# Ink running this many times a stroke's greatest thickness up and down where a horizontal
# stroke is erased is a stroke crossing it (a vertical border, a letter's stem): it stays.
CROSSING_LENGTH = 3
# Strokes are looked for at about this resolution (dpi) or a little above: a 300 dpi image is
# reduced by half. At ~100 dpi the dots of a CSS dotted border (~0.007 in apart) merge into a
# solid line and stay (measured on a 200 dpi scan: test names garbled again).
WORK_DPI = 140


def erase_rulings(gray: Image.Image, dpi: float, ink_level: int) -> tuple[Image.Image, int]:
    """`gray` with leader dots and dotted borders painted as paper, and how many pixels were
    erased. Ink is everything darker than `ink_level` (0..255); strokes are
    found on a copy reduced towards WORK_DPI (a leader dot stays a pixel or more) and erased
    at full resolution."""
    pixels = np.asarray(gray)
    ink = pixels < ink_level
    factor = max(1, int(dpi // WORK_DPI))
    small = _reduced(ink, factor)
    per_inch = max(dpi / factor, 50.0)
    thickness = max(2, round(MAX_THICKNESS * per_inch))
    dot = max(2, round(MAX_DOT_LENGTH * per_inch))
    gap, vertical_gap = round(LEADER_GAP * per_inch), max(1, round(VERTICAL_GAP * per_inch))
    paper = int(np.percentile(pixels[::7, ::7], 90))
    halfway = (int(ink_level) + paper) // 2
    # Leaders printed grey, or small dots a deskew's resampling lightened, are ink only below
    # halfway to the paper: looked for there too.
    faint = _reduced(pixels < halfway, factor)
    length = round(DOTTED_LENGTH * per_inch)
    across = _dotted_strokes(small, gap, thickness, length, dot) | \
        (_dotted_strokes(faint, gap, thickness, length, dot) & ~_beside_solid_rule(small, length))
    down = _dotted_strokes(
        np.ascontiguousarray(small.T), vertical_gap, thickness, round(VERTICAL_DOTTED_LENGTH * per_inch), dot,
    ).T
    if not (across.any() or down.any()):
        return gray, 0
    # A faint line (a 0.4 pt grey cell border, a zebra stripe's edge on a photo) binarises
    # into dashes when it runs exactly along the pixel rows, as a straightened photo's lines
    # do: its gaps are grey, not paper. Erasing only the dashes left grey specks that
    # tesseract read as '|' and ':' beside the names; the gaps go with the dashes.
    found = across | _grey_gaps(across, pixels, factor, gap, halfway)
    # A faint rule erased whole crosses the table's vertical borders: their ink stays, or
    # each border is cut at every row and no longer reads as one stroke.
    found &= ~_in_long_columns(faint, CROSSING_LENGTH * thickness)
    found |= down | _grey_gaps(np.ascontiguousarray(down.T), pixels.T, factor, vertical_gap, halfway).T
    # Back to full resolution, one pixel wider all round: the stroke's grey anti-aliased edge
    # goes with it.
    erase = np.zeros(ink.shape, dtype=bool)
    grown = np.repeat(np.repeat(found, factor, axis=0), factor, axis=1)
    erase[: grown.shape[0], : grown.shape[1]] = grown
    erase &= pixels < halfway  # the strokes' ink and a faint line's grey gaps
    grown = erase.copy()
    grown[1:, :] |= erase[:-1, :]
    grown[:-1, :] |= erase[1:, :]
    grown[:, 1:] |= erase[:, :-1]
    grown[:, :-1] |= erase[:, 1:]
    cleaned = np.where(grown, np.uint8(paper), pixels)
    return Image.fromarray(cleaned), int(np.count_nonzero(erase))


def _beside_solid_rule(ink: np.ndarray, length: int) -> np.ndarray:
    """Pixels on or one row either side of a solid horizontal run of `ink` at least `length`
    long: below halfway to the paper, a solid rule's grey edge breaks into short pieces (the
    grain, a slight tilt), which are no leaders."""
    solid = _run_lengths(ink) >= length
    near = solid.copy()
    near[1:] |= solid[:-1]
    near[:-1] |= solid[1:]
    return near


def _grey_gaps(found: np.ndarray, pixels: np.ndarray, factor: int, gap: int, halfway: int) -> np.ndarray:
    """The gaps between the pieces of the strokes of `found` (along rows; `pixels` is the
    page `factor` times larger) whose darkest pixel is below `halfway` between ink and paper:
    the rest of a faint line (leader dots' gaps are paper), and the whole of that line along
    its row where the threshold found dashes in only part of it. Only rows holding a stroke
    are looked at."""
    gaps = np.zeros(found.shape, dtype=bool)
    rows = np.flatnonzero(found.any(axis=1))
    if rows.size == 0:
        return gaps
    part = found[rows]
    between = ~part & (_run_lengths(~part, edge=True, pad=gap + 1) <= gap)
    shade = _darkest(pixels, rows, part.shape[1], factor)
    grey = between & (shade < halfway)
    gaps[rows] = grey | _whole_faint_lines(shade < halfway, grey)
    return gaps


def _darkest(pixels: np.ndarray, rows: np.ndarray, width: int, factor: int) -> np.ndarray:
    """The darkest pixel of each `factor`-sized block of `pixels` in these reduced rows (as
    `_reduced` takes any ink)."""
    shade = np.full((rows.size, width), 255, dtype=np.uint8)
    for dy in range(factor):
        block = pixels[rows * factor + dy, : width * factor].reshape(rows.size, width, factor)
        np.minimum(shade, block.min(axis=2), out=shade)
    return shade


def _whole_faint_lines(line: np.ndarray, grey: np.ndarray) -> np.ndarray:
    """The unbroken runs of `line` (pixels darker than halfway) that hold a grey gap: a
    faint rule is dashed by the threshold only where its grey meets the paper's grain, so a
    part of it is found; erasing that part left the rest as broken strokes, which tesseract
    read as letters along a whole table row. Unbroken: leaders end at paper before the
    letters beside them."""
    starts, ends = _runs(line)
    held = np.concatenate(([0], np.cumsum(grey.ravel(), dtype=np.int32)))
    faint = held[ends] > held[starts]
    return _spans(line.shape, starts[faint], ends[faint])


def _reduced(ink: np.ndarray, factor: int) -> np.ndarray:
    """`ink` reduced `factor` times each way, a pixel inked when any of its block is."""
    if factor == 1:
        return ink
    height, width = (ink.shape[0] // factor) * factor, (ink.shape[1] // factor) * factor
    # One OR per offset in the block: ~15x faster than any() over a 4-d reshaped view.
    small = ink[0:height:factor, 0:width:factor].copy()
    for dy in range(factor):
        for dx in range(factor):
            if dy or dx:
                small |= ink[dy:height:factor, dx:width:factor]
    return small


def _dotted_strokes(ink: np.ndarray, gap: int, thickness: int, length: int, dot: int) -> np.ndarray:
    """Ink pixels of horizontal strokes (rows of `ink`) at most `thickness` tall once gaps up
    to `gap` along the row are closed, at least `length` long and made of MIN_DOTS pieces or
    more, `dot` long on average (a leader: a hyphen between two numbers is one piece, a rule
    too)."""
    closed = ink | (~ink & (_run_lengths(~ink, edge=True, pad=gap + 1) <= gap))
    thin = closed & ~_in_long_columns(closed, thickness + 1)
    pieces = np.zeros(ink.shape, dtype=bool)  # the first pixel of each piece of ink
    pieces[:, 0] = ink[:, 0]
    pieces[:, 1:] = ink[:, 1:] & ~ink[:, :-1]
    # Everything below works along rows, so only rows that could hold a stroke are looked at:
    # those with MIN_DOTS thin pieces at least (the same answer, a fraction of the work).
    rows = np.flatnonzero(np.count_nonzero(pieces & thin, axis=1) >= MIN_DOTS)
    found = np.zeros(ink.shape, dtype=bool)
    if rows.size:
        found[rows] = _strokes_in_rows(ink[rows], thin[rows], pieces[rows], length, dot)
    return found


def _strokes_in_rows(
    ink: np.ndarray, thin: np.ndarray, pieces: np.ndarray, length: int, dot: int
) -> np.ndarray:
    """The dotted strokes of `_dotted_strokes` among these rows (row-wise work only)."""
    starts, ends = _runs(thin)
    counted = np.concatenate(([0], np.cumsum((pieces & thin).ravel(), dtype=np.int32)))
    inked = np.concatenate(([0], np.cumsum((ink & thin).ravel(), dtype=np.int32)))
    count = counted[ends] - counted[starts]
    # Short pieces: a solid rule left slightly tilted also breaks into pieces along a row,
    # each as long as the rule's thickness over the tilt (hundreds of pixels).
    short = inked[ends] - inked[starts] <= count * dot
    long_enough = (ends - starts >= length) & (count >= MIN_DOTS) & short
    dotted = _spans(ink.shape, starts[long_enough], ends[long_enough])
    # Only pieces of ink wholly inside the stroke: the foot of an "E" or "L" that a leader
    # follows is thin too, but it is one piece with the letter's stem.
    starts, ends = _runs(ink)
    outside = np.concatenate(([0], np.cumsum((ink & ~dotted).ravel(), dtype=np.int32)))
    alone = outside[ends] == outside[starts]
    return dotted & _spans(ink.shape, starts[alone], ends[alone])


def _in_long_columns(mask: np.ndarray, length: int) -> np.ndarray:
    """Pixels of `mask` in a vertical run of `length` or more (an opening by a vertical line
    of `length`: shifted ANDs, then ORs; the same answer as run lengths, without a transpose)."""
    height = mask.shape[0]
    if height < length:
        return np.zeros(mask.shape, dtype=bool)
    starts = mask[: height - length + 1].copy()  # a run of `length` starts at this row
    for shift in range(1, length):
        starts &= mask[shift : height - length + 1 + shift]
    covered = np.zeros(mask.shape, dtype=bool)
    for shift in range(length):
        covered[shift : height - length + 1 + shift] |= starts
    return covered


def _spans(shape: tuple[int, int], starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """A mask of `shape` True on the flat index spans [start, end), which never overlap (runs
    of `_runs`): the running count is 0 or 1, so bytes hold it and it is the mask itself."""
    marks = np.zeros(shape[0] * shape[1] + 1, dtype=np.int8)
    marks[starts] += 1
    marks[ends] -= 1
    return np.cumsum(marks[:-1], dtype=np.int8).view(bool).reshape(shape)


def _runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (one past the last pixel) of each run of True along the rows of `mask`,
    as indexes into `mask.ravel()`; a run never continues onto the next row."""
    height, width = mask.shape
    padded = np.zeros((height, width + 1), dtype=bool)
    padded[:, :width] = mask
    step = np.diff(np.concatenate(([False], padded.ravel())).astype(np.int8))
    starts, ends = np.flatnonzero(step == 1), np.flatnonzero(step == -1)
    # Back from the padded row width to the mask's own.
    return starts - starts // (width + 1), ends - (ends - 1) // (width + 1)


def _run_lengths(mask: np.ndarray, edge: bool = False, pad: int = 1) -> np.ndarray:
    """For each True pixel, the length of the run of True along its row that holds it (0 for
    False pixels). `pad` columns of `edge` are added at both ends of each row: False keeps runs
    from joining across rows; True, with `pad` wider than any closed gap, makes a gap that
    touches the image's edge count as long (it is margin, not a gap between dots)."""
    height, width = mask.shape
    padded = np.full((height, width + 2 * pad), edge, dtype=bool)
    padded[:, pad:pad + width] = mask
    flat = np.concatenate(([False], padded.ravel(), [False]))
    step = np.diff(flat.astype(np.int8))
    starts = np.flatnonzero(step == 1)  # index in padded.ravel() of a run's first pixel
    ends = np.flatnonzero(step == -1)  # index just past its last pixel
    marks = np.zeros(flat.size - 1, dtype=np.int32)
    marks[starts] = ends - starts  # runs never share a start or an end
    marks[ends] -= ends - starts
    lengths = np.cumsum(marks[:-1], dtype=np.int32)
    return lengths.reshape(height, width + 2 * pad)[:, pad:pad + width]
