"""A sidebar set off by a long vertical rule: the lab's addresses, sites and opening hours
printed down one side of the page beside the report's body.

Its lines fall at any height beside the body's lines, so words on both sides of the rule
would merge into one line ("6h30–17h, samedi  Hématies 4,02 T/L"); a table header beside a
sidebar line stops reading as a header. The words on either side are read as lines apart.
A ruled table's border is told apart by its rows: a name and its value share a baseline
across the rule, a sidebar's text only by chance.
"""

from __future__ import annotations

from bisect import bisect_left

from parser.page import Page, Word

# The rule runs down at least this share of the page's height.
SIDEBAR_RULE_SHARE = 0.5
# The sidebar takes at most this share of the page's width.
SIDEBAR_WIDTH_SHARE = 0.35
# Each side holds at least this many words.
SIDEBAR_MIN_WORDS = 8
# At most this share of the sidebar's words share a baseline with a word across the rule
# (a table's rows do on nearly every line).
SIDEBAR_SHARED_BASELINES = 0.4
# Two words share a baseline when their bottoms are this close (text layer, points).
_BASELINE_TOLERANCE = 0.5
_MAX_RULE_WIDTH = 2.5  # as lines.MAX_RULE_WIDTH: a drawn line, not a box


def sidebar_split(words: list[Word], page: Page) -> tuple[list[Word], list[Word]] | None:
    """The words left and right of a sidebar's rule, or None when the page has none.
    Text-layer pages only (the rules are the PDF's own drawing)."""
    if page.source != "text" or not page.height:
        return None
    for x, top, bottom in _long_verticals(page):
        if not (x <= SIDEBAR_WIDTH_SHARE * page.width or x >= (1 - SIDEBAR_WIDTH_SHARE) * page.width):
            continue
        beside = [w for w in words if w.bottom > top and w.top < bottom]
        if any(w.x0 < x < w.x1 for w in beside):
            continue  # text runs across it: not a divider
        left = [w for w in words if w.x1 <= x]
        right = [w for w in words if w.x0 >= x]
        if min(len(left), len(right)) < SIDEBAR_MIN_WORDS:
            continue
        narrow, wide = (left, right) if x <= page.width / 2 else (right, left)
        if _shared_baselines(narrow, wide) <= SIDEBAR_SHARED_BASELINES:
            return left, right
    return None


def _long_verticals(page: Page) -> list[tuple[float, float, float]]:
    return [((x0 + x1) / 2, top, bottom) for x0, top, x1, bottom in page.rules
            if x1 - x0 <= _MAX_RULE_WIDTH and bottom - top >= SIDEBAR_RULE_SHARE * page.height]


def _shared_baselines(narrow: list[Word], wide: list[Word]) -> float:
    bottoms = sorted(w.bottom for w in wide)
    shared = 0
    for word in narrow:
        at = bisect_left(bottoms, word.bottom - _BASELINE_TOLERANCE)
        shared += at < len(bottoms) and bottoms[at] <= word.bottom + _BASELINE_TOLERANCE
    return shared / len(narrow)
