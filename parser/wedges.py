"""Tell a comparator's wedge ("<", ">") from an equals sign by its ink.

Tesseract reads a "<" printed before a range bound as "=" on scans ("< 1,2" read "= 1,2"), and a
range "= 1,2" means nothing, so the bound is lost. The ink tells them apart plainly: an "=" is
two bars with paper between them; a "<" is one stroke with ink in every row, reaching left at
its middle row and right at its top and bottom rows.
"""

from __future__ import annotations

import numpy as np

MIN_REACH = 0.4  # how far (share of the glyph's width) the middle row's ink sits from the ends'


def wedge_direction(ink: np.ndarray) -> str | None:
    """"<" or ">" when the boolean ink array (rows x columns, True = ink) is one wedge,
    else None (two bars, a blot, anything else)."""
    rows = np.flatnonzero(ink.any(axis=1))
    if rows.size < 5:
        return None
    top, bottom = int(rows[0]), int(rows[-1])
    if rows.size != bottom - top + 1:
        return None  # paper between strokes: an "=" (or two marks)
    columns = np.flatnonzero(ink.any(axis=0))
    width = int(columns[-1] - columns[0] + 1)
    if width < 4 or bottom - top + 1 < 0.6 * width:
        return None

    def centre(row: int) -> float:
        return float(np.flatnonzero(ink[row]).mean())

    middle = centre((top + bottom) // 2)
    if min(centre(top), centre(bottom)) - middle >= MIN_REACH * width:
        return "<"
    if middle - max(centre(top), centre(bottom)) >= MIN_REACH * width:
        return ">"
    return None
