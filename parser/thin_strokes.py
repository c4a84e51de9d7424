"""Units made of thin strokes only, told by their ink where tesseract reads them wrong.

A litre-per-litre unit ("l/l", a haematocrit printed as a fraction) is three thin strokes of
one height: stem, slash, stem. Tesseract reads that ink as one glyph or garbage ("/", "I",
"ı", "ıy", "74}": five of five such cells on the opened Swiss scans and photos), and no text
rule can tell those readings from a real "/" or "I". The ink can: no letter, digit or other
unit is two plain stems around a slash (an L has a foot, a 1 a flag, a V or a W meets at its
base).
"""

from __future__ import annotations

import numpy as np

MIN_STROKE_HEIGHT = 8  # pixels: less is too small to tell a stem from a speck
MAX_STEM_WIDTH = 0.3  # of the stem's height (a DejaVu l at 300 dpi: 4 px by 24)
MIN_SLASH_WIDTH = 0.2  # of the slash's height: a slash leans, a stem stands
MAX_SLASH_WIDTH = 0.8
MAX_SLASH_ROW = 0.6  # of the slash's width: one row of it is a short piece of one stroke
MIN_SLASH_LEAN = 0.2  # of its height: how far the slash's top lies right of its foot
HEIGHT_TOLERANCE = 0.25  # the three strokes' heights within this share of the tallest


def stem_slash_stem(glyphs: list[np.ndarray]) -> bool:
    """Is the ink of these glyphs (each a boolean array, rows top to bottom, cropped to its
    ink) exactly a stem, a slash and a stem of one height, as "l/l" is printed?"""
    if len(glyphs) != 3 or any(g.shape[0] < MIN_STROKE_HEIGHT or not g.any(axis=1).all() for g in glyphs):
        return False
    heights = [g.shape[0] for g in glyphs]
    if min(heights) < (1 - HEIGHT_TOLERANCE) * max(heights):
        return False
    return _is_stem(glyphs[0]) and _is_slash(glyphs[1]) and _is_stem(glyphs[2])


def _row_spans(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's leftmost and rightmost inked column."""
    width = ink.shape[1]
    return ink.argmax(axis=1), width - 1 - ink[:, ::-1].argmax(axis=1)


def _is_stem(ink: np.ndarray) -> bool:
    """A plain upright stroke: narrow, of one width all down (no foot, flag or dot)."""
    height, width = ink.shape
    if width > MAX_STEM_WIDTH * height:
        return False
    lefts, rights = _row_spans(ink)
    widths = rights - lefts + 1
    return int(widths.max()) <= 2 * float(np.median(widths)) + 1


def _is_slash(ink: np.ndarray) -> bool:
    """One thin stroke leaning right: its rows are short pieces that move left going down."""
    height, width = ink.shape
    if not MIN_SLASH_WIDTH * height <= width <= MAX_SLASH_WIDTH * height:
        return False
    lefts, rights = _row_spans(ink)
    if (rights - lefts + 1).max() > MAX_SLASH_ROW * width + 1:
        return False
    middles = (lefts + rights) / 2
    quarter = max(1, height // 4)
    lean = float(np.mean(middles[:quarter]) - np.mean(middles[-quarter:]))
    return lean >= MIN_SLASH_LEAN * height
