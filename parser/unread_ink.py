"""Ink tesseract read no word from: the boxes of text-like marks left on a page image once
every OCR word's box is blanked.

On photos, tesseract's page layout analysis skips parts of sparse columns (a units column
whose rows sit a little off the values' lines, a column of "%" signs): the ink is there, no
word covers it. Blank the words, rule lines and specks; what is left at the height of a line
of text is a cell worth reading again (parser.ocr.read_unread_cells).
"""

from __future__ import annotations

import statistics

import numpy as np
from PIL import Image

from parser.image import otsu_threshold
from parser.page import Word

REDUCTION = 2  # the mask is searched at half resolution: enough for text-line-sized marks
MIN_TEXT_WORDS = 8
# Around a read word, this much (in line heights) is blanked too: ink touching a word is part
# of it (a glyph tesseract left out of its box), never a cell of its own.
PAD_ACROSS = 0.8
PAD_DOWN = 0.25
# A mark is a cell when its band is this tall (in line heights) and it is this wide.
MIN_BAND, MAX_BAND = 0.5, 1.8
MIN_WIDTH = 0.3
GAP_IN_CELL = 0.8  # blank columns (in line heights) that still join marks into one cell
LONG_RULE = 3.0  # ink runs longer than this many line heights are rules, not text
MAX_CELLS = 60


def unread_boxes(image: Image.Image, words: list[Word]) -> list[tuple[float, float, float, float]]:
    """(x0, top, x1, bottom) in `image` pixels of each text-like mark no word covers, inside
    the area the words span."""
    sure = [w for w in words if w.conf >= 0.6 and any(c.isalnum() for c in w.text)]
    if len(sure) < MIN_TEXT_WORDS:
        return []
    height = statistics.median(w.bottom - w.top for w in sure) / REDUCTION
    if height < 4:
        return []
    gray = np.asarray(image.convert("L").reduce(REDUCTION))
    ink = gray < otsu_threshold(gray)
    area = np.zeros_like(ink)
    area[int(min(w.top for w in sure) / REDUCTION):int(max(w.bottom for w in sure) / REDUCTION) + 1,
         int(min(w.x0 for w in sure) / REDUCTION):int(max(w.x1 for w in sure) / REDUCTION) + 1] = True
    ink &= area
    across, down = round(PAD_ACROSS * height), round(PAD_DOWN * height)
    for w in words:
        ink[max(0, int(w.top / REDUCTION) - down):int(w.bottom / REDUCTION) + down + 1,
            max(0, int(w.x0 / REDUCTION) - across):int(w.x1 / REDUCTION) + across + 1] = False
    ink &= ~_long_runs(ink, round(LONG_RULE * height), axis=0)
    ink &= ~_long_runs(ink, round(2 * LONG_RULE * height), axis=1)
    boxes = []
    for top, bottom in _runs(ink.any(axis=1)):
        if not MIN_BAND * height <= bottom - top <= MAX_BAND * height:
            continue
        columns = _runs(ink[top:bottom].any(axis=0), join=round(GAP_IN_CELL * height))
        boxes += [(x0 * REDUCTION, top * REDUCTION, x1 * REDUCTION, bottom * REDUCTION)
                  for x0, x1 in columns if x1 - x0 >= MIN_WIDTH * height]
    return boxes[:MAX_CELLS]


def _runs(flags: np.ndarray, join: int = 0) -> list[tuple[int, int]]:
    """(start, end) of each run of True in a 1-D array, runs closer than `join` merged."""
    padded = np.concatenate(([False], flags, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    runs: list[tuple[int, int]] = []
    for start, end in zip(edges[::2].tolist(), edges[1::2].tolist()):
        if runs and start - runs[-1][1] < join:
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
    return runs


def _long_runs(ink: np.ndarray, length: int, axis: int) -> np.ndarray:
    """Pixels on a straight run of ink at least `length` long along `axis` (a rule line)."""
    if length < 2 or ink.shape[axis] < length:
        return np.zeros_like(ink)
    sums = np.cumsum(ink, axis=axis, dtype=np.int32)
    sums = np.concatenate([np.zeros_like(np.take(sums, [0], axis=axis)), sums], axis=axis)
    count = ink.shape[axis] - length + 1
    full = (np.take(sums, range(length, length + count), axis=axis) -
            np.take(sums, range(count), axis=axis)) == length  # a full window starts here
    starts = np.cumsum(full, axis=axis, dtype=np.int32)
    starts = np.concatenate([np.zeros_like(np.take(starts, [0], axis=axis)), starts], axis=axis)
    # A pixel is on a rule when a full window starts within `length` before it.
    index = np.arange(ink.shape[axis])
    upper = np.minimum(index + 1, count)
    lower = np.clip(index - length + 1, 0, count)
    return (np.take(starts, upper, axis=axis) - np.take(starts, lower, axis=axis)) > 0
