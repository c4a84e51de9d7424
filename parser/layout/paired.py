"""Two tests printed on one line, each a whole result, where no table header places them: a
grid of results set two to a line ("Hb ...... 10.9 g/dL (12.0 - 16.0)   WBC ...... 6.4
x10^9/L (4.0 - 10.0)"), common for blood counts. Read as one row, the second test is lost
in the first one's range.

Told by content and alignment: the line parts at a phrase into two parts that each read as
a result row (a name, a number, a unit or a range), and the second part's name starts at the
same x on several lines (the grid's second column). Unlike the gutter of two columns side by
side (gutter.py) the band between them need not be empty or wide: each test's cells are set
one after the other, so a long range runs up close to the second name.
"""

from __future__ import annotations

import re

from parser import columns as cols
from parser.layout.content import content_rows
from parser.layout.rows import RawRow, has_name_letters
from parser.lines import Line, Phrase
from parser.units import is_unit
from parser.vocabulary import qualitative_result

# A dotted leader, a word of its own between a name and its value.
_LEADER = re.compile(r"[.…·_]{3,}")

# Lines whose second test starts at one x, for a grid of two tests a line to be read as one.
MIN_PAIRED_LINES = 3


def grid_rows(lines: list[Line], panel: str | None, every: bool) -> list[RawRow]:
    """The rows of `lines` read by content, a grid's lines read as two tests each; only the
    grid's rows unless `every` (the other lines are then read by content as they are)."""
    split = pairs_apart(lines)
    if split is lines:
        return content_rows(lines, panel) if every else []
    rows = content_rows(split, panel)
    kept = {id(line) for line in lines}
    parts = [line for line in split if id(line) not in kept]
    read = {id(w) for row in rows for w in row.words[:1]}
    leaders = [row for part in parts if not any(id(w) in read for w in part.words)
               and (row := leader_row(part)) is not None]
    if not every:
        in_parts = {id(w) for part in parts for w in part.words}
        rows = [row for row in rows if row.words and id(row.words[0]) in in_parts]
    order = {id(w): n for n, line in enumerate(split) for w in line.words}
    rows = sorted(rows + leaders, key=lambda row: order.get(id(row.words[0]), -1) if row.words else -1)
    added = {id(row) for row in leaders}
    for before, row in zip([None, *rows], rows):
        if id(row) in added:
            row.panel = before.panel if before is not None else panel  # the grid's panel
    return rows


def leader_row(line: Line) -> RawRow | None:
    """"Malaria (thick film) ...... No MPs seen": a name, a dotted leader, and a printed
    qualitative result (the leader says where the name ends); None for any other line."""
    words = line.words
    at = next((k for k, w in enumerate(words) if _LEADER.fullmatch(w.text)), None)
    if not at or at == len(words) - 1:
        return None
    name = " ".join(w.text for w in words[:at])
    value = " ".join(w.text for w in words[at + 1:])
    if not has_name_letters(name) or not qualitative_result().match(value):
        return None
    return RawRow(page=line.page, name=name, value=value, words=list(words), from_header=False, ocr=line.ocr)


def pairs_apart(lines: list[Line]) -> list[Line]:
    """`lines` with each line of a grid of two tests a line replaced by its two parts, first
    test first (the grid's reading order); the same list when no grid is found."""
    splits = {id(line): at for line in lines if (at := _split(line)) is not None}
    if len(splits) < MIN_PAIRED_LINES:
        return lines
    column = _grid_column(lines, splits)
    if column is None:
        return lines
    out: list[Line] = []
    for line in lines:
        at = splits.get(id(line))
        if at is None or abs(at - column) > line.size:
            out.append(line)
            continue
        out.append(Line([w for w in line.words if w.x0 < at], line.page, line.ocr, line.cuts))
        out.append(Line([w for w in line.words if w.x0 >= at], line.page, line.ocr, line.cuts))
    return out


def _grid_column(lines: list[Line], splits: dict[int, float]) -> float | None:
    """The x where the second tests start, within a text size, on at least MIN_PAIRED_LINES
    lines; None when they start nowhere in common (no grid)."""
    size = min(line.size for line in lines if id(line) in splits)
    starts = list(splits.values())
    column = max(starts, key=lambda x: (sum(abs(a - x) <= size for a in starts), -x))
    return column if sum(abs(a - column) <= size for a in starts) >= MIN_PAIRED_LINES else None


def _split(line: Line) -> float | None:
    """The x0 of the second test on a line holding two whole results, or None."""
    phrases = line.phrases()
    if sum(any(ch.isdigit() for ch in p.text) for p in phrases) < 2:
        return None  # one number or none: one result at most (most lines; the cheap test)
    for k in range(2, len(phrases)):
        head = phrases[k].text.strip()
        if cols.content_kind(head) in (cols.RESULT, cols.RANGE, cols.FLAG) or is_unit(head) or \
                not has_name_letters(head) or not head[:1].isalpha():
            continue  # the second part starts with a name ("WBC"), never a range or a unit
        if _reads_as_row(phrases[:k], line) and (_reads_as_row(phrases[k:], line) or leader_row(
                Line([w for p in phrases[k:] for w in p.words], line.page, line.ocr, line.cuts)) is not None):
            return phrases[k].x0
    return None


def _reads_as_row(phrases: list[Phrase], line: Line) -> bool:
    part = Line([w for p in phrases for w in p.words], line.page, line.ocr, line.cuts)
    rows = content_rows([part], None)
    return len(rows) == 1 and bool(rows[0].value) and bool(rows[0].units or rows[0].range_text)
