"""Two columns of rows side by side on a page without a table header (analyzer tapes printed
next to each other, a two-column results sheet): each line holds a row of the left column and
a row of the right one. Found by a gutter, an empty band that many lines cross between two
parts that each read as a row (a name, then a number); the page is then read left column
first, then right column.
"""

from __future__ import annotations

import re
import statistics

from parser.flags import is_flag
from parser.lines import Line
from parser.units import is_unit

# A gutter is at least this many times the text size wide, and crossed by at least this many
# lines holding a row on each side.
GUTTER_SIZES = 3.0
MIN_SPLIT_LINES = 5
_NUMBER = re.compile(r"\d")
_LETTERS = re.compile(r"[^\W\d_]{2}")
_RANGE = re.compile(r"\d\s*-\s*\d|[<>≤≥]=?\s*\d")


def columns_apart(lines: list[Line]) -> list[Line]:
    """`lines` with the band of lines printing two columns side by side split at the gutter,
    the left column's lines before the right column's; the lines unchanged when there is none."""
    if len(lines) < MIN_SPLIT_LINES:
        return lines
    size = statistics.median(line.size for line in lines)
    gutter = _gutter(lines, size)
    if gutter is None:
        return lines
    split = [i for i, line in enumerate(lines) if _two_rows(line, gutter, size)]
    first, last = _widened(lines, split[0], split[-1], gutter, size)
    band = lines[first:last + 1]
    left = [part for line in band if (part := _part(line, lambda w: w.x1 <= gutter)) is not None]
    right = [part for line in band if (part := _part(line, lambda w: w.x0 >= gutter)) is not None]
    crossing = [line for line in band if any(w.x0 < gutter < w.x1 for w in line.words)]
    if len(crossing) > 0.2 * len(band):
        return lines  # text runs across the band: one column after all
    return lines[:first] + left + right + lines[last + 1:]


def _gutter(lines: list[Line], size: float) -> float | None:
    """The x most lines holding two rows leave empty between them, if enough do. Candidates are
    the starts of the wide gaps: the most-crossed x of a set of intervals is always one of them
    (one candidate a gap, not one a pixel)."""
    gaps = [(int(left.x1) + 1, int(right.x0)) for line in lines for left, right in zip(line.words, line.words[1:])
            if right.x0 - left.x1 >= GUTTER_SIZES * size]
    votes = {x: sum(start <= x < end for start, end in gaps) for x in {start for start, _ in gaps}}
    for x, count in sorted(votes.items(), key=lambda kv: (-kv[1], kv[0])):
        if count < MIN_SPLIT_LINES:
            return None
        if sum(_two_rows(line, x, size) for line in lines) >= MIN_SPLIT_LINES:
            return float(x)
    return None


def _widened(lines: list[Line], first: int, last: int, gutter: float, size: float) -> tuple[int, int]:
    """The band grown over the lines next to it that keep clear of the gutter (a longer tape's
    last rows, the tapes' titles), as long as no blank of more than two lines separates them."""
    def clear(line: Line) -> bool:
        return not any(w.x0 < gutter < w.x1 for w in line.words)

    while first > 0 and clear(lines[first - 1]) and lines[first].top - lines[first - 1].bottom < 2 * size:
        first -= 1
    while last + 1 < len(lines) and clear(lines[last + 1]) and lines[last + 1].top - lines[last].bottom < 2 * size:
        last += 1
    return first, last


def _two_rows(line: Line, x: float, size: float) -> bool:
    """Does the line hold, left and right of an empty band around x, a name followed by a number
    on each side (a row each; a name and its value alone is one row)?"""
    left = [w for w in line.words if w.x1 <= x]
    right = [w for w in line.words if w.x0 >= x]
    if not left or not right or len(left) + len(right) != len(line.words):
        return False
    if right[0].x0 - left[-1].x1 < GUTTER_SIZES * size:
        return False
    return all(_row_like(side) for side in (left, right))


def _row_like(words) -> bool:
    """A result row: a name first (two letters or more, no digit, no flag or unit: "CHOL"), then
    a number and a unit of the lexicon or a range ("ALB 3.9 g/dL 3.3-5.5"); a label and its
    value ("Fall-Nr.: 240011837") is not one."""
    first = words[0].text
    named = bool(_LETTERS.search(first)) and not _NUMBER.search(first) and not is_flag(first) \
        and not is_unit(first)
    rest = " ".join(w.text for w in words[1:])
    return named and bool(_NUMBER.search(rest)) and (
        any(is_unit(w.text) for w in words[1:]) or bool(_RANGE.search(rest)))


def _part(line: Line, keep) -> Line | None:
    words = [w for w in line.words if keep(w)]
    return Line(words, line.page, line.ocr, line.cuts) if words else None
