"""Form fields whose caption is printed UNDER the value: the value written on a rule, its small
caption below it ("ROLLE, DWAYNE" over "PATIENT NAME (LAST, FIRST)"), as paper request forms and
the reports printed like them lay out their patient block.

A row of captions alone may caption the values above it or below it. A block of such rows
says which: a caption row with values close above and nothing close below (the block's last)
captions upward; one with values close below and nothing above (a grid's first label row)
captions downward. Rows between two value rows say nothing. Only a block whose rows say
upward, and none downward, is read upward (metadata._labelled); any other keeps the usual
label-above-value reading.
"""

from __future__ import annotations

import re

from parser.lines import Line, Phrase
from parser.metadata_split import LABELS, fits_beside, split_label

_DIGIT = re.compile(r"\d")
_CLOSE = 1.2  # a value and its caption: at most this many caption sizes apart


def captions_under(lines: list[Line]) -> set[int]:
    """The indices of `lines` that are caption rows read upward (empty for most reports)."""
    captions = [i for i, line in enumerate(lines) if _caption_row(line)]
    if not captions:
        return set()
    upward = downward = False
    for i in captions:
        above = _aligned(lines, i, _neighbour(lines, i, -1), captions)
        below = _aligned(lines, i, _neighbour(lines, i, +1), captions)
        upward |= above and not below
        downward |= below and not above
    return set(captions) if upward and not downward else set()


def value_above(lines: list[Line], index: int, caption: Phrase, field: str) -> str:
    """The value printed over `caption` (of the caption row `lines[index]`): the words of the
    line just above that start in the caption's column, up to the next caption's column, when
    they have the shape of the field's value."""
    line = lines[index]
    k = _neighbour(lines, index, -1)
    if k is None:
        return ""
    following = [p.x0 for p in line.phrases() if p.x0 > caption.x1]
    end = min(following, default=float("inf")) - line.size / 4
    words = [w for w in lines[k].words if caption.x0 - line.size / 2 <= w.x0 < end]
    if not words or words[0].x0 - caption.x0 > 1.5 * line.size:
        return ""
    text = " ".join(w.text for w in words)
    if split_label(text)[0] is not None or not fits_beside(field, text):
        return ""
    return text


def _caption_row(line: Line) -> bool:
    """Two or more captions alone (labels without a colon or a value), no digit on the line."""
    phrases = line.phrases()
    if len(phrases) < 2 or _DIGIT.search(line.text):
        return False
    alone = [p for p in phrases if not p.text.rstrip().endswith((":", "："))
             and (key := split_label(p.text.strip())[0]) is not None and key in LABELS
             and split_label(p.text.strip())[1] == ""]
    return len(alone) >= 2


def _neighbour(lines: list[Line], index: int, step: int) -> int | None:
    """The line right above (step -1) or below (+1) `lines[index]`, when close to it."""
    k = index + step
    if not 0 <= k < len(lines):
        return None
    line, other = lines[index], lines[k]
    gap = line.top - other.bottom if step < 0 else other.top - line.bottom
    return k if other.page == line.page and -line.size / 2 < gap <= _CLOSE * line.size else None


def _aligned(lines: list[Line], index: int, k: int | None, captions: list[int]) -> bool:
    """Does the line `k` (a line of values, no caption row) print words under or over at
    least half of the caption row's phrases, two at least?"""
    if k is None or k in captions:
        return False
    phrases = lines[index].phrases()
    size = lines[index].size
    hits = sum(1 for p in phrases
               if any(w.x0 < p.x1 and w.x1 > p.x0 - size / 2 for w in lines[k].words))
    return hits >= max(2, len(phrases) / 2)
