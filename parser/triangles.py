"""Tell a solid flag triangle ("▲" high, "▼" low) from a digit by its ink.

Tesseract has no triangles: one printed after a value comes out as a digit ("5,4▲" read
"5.4722", "3,82 ▼" read "3,82 9"), a wrong value that looks right. The ink tells plainly: a
triangle is solid, one run of ink per row, narrowing steadily from a full-width base to a tip;
no digit is solid, and none widens steadily from one end to the other.
"""

from __future__ import annotations

import numpy as np

MIN_HEIGHT = 8          # pixels: smaller marks are specks
MAX_TIP_SHARE = 0.35    # the tip row's width, as a share of the base's
MIN_FILL, MAX_FILL = 0.35, 0.7  # a triangle fills about half its box
MAX_NARROWING = 2       # pixels a row may be narrower than the one before it (scan noise)
MAX_SLOPE_DEPARTURE = 0.2  # share of the base width a row may depart from the straight sides


def triangle_direction(ink: np.ndarray) -> str | None:
    """"↑" for a ▲, "↓" for a ▼ when the boolean ink array (rows x columns, True = ink) is one
    solid triangle, else None."""
    ink = _trimmed(ink)
    if ink is None:
        return None
    height, width = ink.shape
    if height < MIN_HEIGHT or not 0.5 * width <= height <= 1.6 * width:
        return None
    lefts = ink.argmax(axis=1)
    rights = width - 1 - ink[:, ::-1].argmax(axis=1)
    widths = rights - lefts + 1
    if (ink.sum(axis=1) < widths - 1).any():
        return None  # paper inside a row: an outline, a digit's bowl
    if not MIN_FILL <= ink.sum() / ink.size <= MAX_FILL:
        return None
    for direction, ordered in (("↑", widths), ("↓", widths[::-1])):  # tip first
        if ordered[0] <= MAX_TIP_SHARE * ordered[-1] and ordered[-1] >= 0.8 * width and \
                (np.diff(ordered) >= -MAX_NARROWING).all() and _straight_sides(ordered):
            return direction
    return None


def _straight_sides(widths: np.ndarray) -> bool:
    """Whether the widths (tip first) grow about linearly to the base's: a 7's bar over its
    narrow stroke widens all at once."""
    base = float(widths[-1])
    straight = np.linspace(float(widths[0]), base, widths.size)
    return bool((np.abs(widths - straight) <= MAX_SLOPE_DEPARTURE * base + 1).all())


def _trimmed(ink: np.ndarray) -> np.ndarray | None:
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if rows.size == 0:
        return None
    if rows.size != rows[-1] - rows[0] + 1:
        return None  # paper between marks: not one solid glyph
    return ink[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]
