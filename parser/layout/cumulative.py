"""Cumulative tables: value columns headed by dates instead of a result label.

    FULL BLOOD COUNT
                Date    12/09/23   18/07/24   04/03/25
                Time    09:05      08:40      08:15
                Lab No  23381144   24290517   48119027   Units   Reference
    Haemoglobin         128        122        109 L      g/L     (115-165)

Laboratories that print a patient's earlier episodes beside this one (Australian and New
Zealand "cumulative" reports, hospital Kumulativbefunde) head each value column with its
sampling date. The column of the latest date is this report's result; the others are previous
results, never results. The dates must put the same column last read day first and month
first; where they do not, no header is made and the rows stay unread (for a reviewer).
"""

from __future__ import annotations

import re

from parser import columns as cols
from parser.columns import Column, Header
from parser.lines import Line, Phrase
from parser.metadata_dates import read_date
from parser.page import Page
from parser.ranges import looks_like_range
from parser.units import is_unit

_DATE = re.compile(r"^\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}$")
_DATE_IN_TEXT = re.compile(r"\d[/.\-]\d{1,2}[/.\-]\d")
# The lines of labels under the dates (times, lab numbers, "Units  Reference") before the first
# row: at most this many.
_MAX_LABEL_LINES = 3


def cumulative_header(lines: list[Line], i: int, page: Page) -> tuple[Header, int] | None:
    """The header of a cumulative table whose dates are printed on line i, and how many lines
    it uses (the dates' line and the label lines under it); None if line i is not one."""
    dated = dates_line(lines[i])
    if dated is None:
        return None
    latest = _latest([d for _, d in dated])
    if latest is None:
        return None
    columns = [Column(cols.PREVIOUS if k != latest else cols.RESULT, p.x0, p.x1, "date")
               for k, (p, _) in enumerate(dated)]
    used = 1
    while used <= _MAX_LABEL_LINES and i + used < len(lines) and not _data_line(lines[i + used]):
        columns += _label_columns(lines[i + used], columns[-1].x1)
        used += 1
    if i + used >= len(lines):
        return None  # no row under the dates
    size = lines[i].size
    name = Column(cols.NAME, 0.0, max(1.0, columns[0].x0 - size), "")
    header = Header([name, *sorted(columns, key=lambda c: c.x0)], 0.0, page.width,
                    lines[i].top, lines[i + used - 1].bottom, page.number)
    return header, used


def dates_line(line: Line) -> list[tuple[Phrase, tuple[str | None, str | None]]] | None:
    """The dates of a line of an optional label ("Date") then two or more dates alone, each
    with its two readings; None for any other line."""
    if len(_DATE_IN_TEXT.findall(line.text)) < 2:
        return None  # most lines: the cheap test first
    phrases = line.phrases()
    dated = [(p, _dates(p.text)) for p in phrases]
    first = next((k for k, (_, d) in enumerate(dated) if d is not None), None)
    if first is None or first > 1 or len(dated) - first < 2 or any(d is None for _, d in dated[first:]):
        return None
    if first == 1 and re.search(r"\d", phrases[0].text):
        return None
    return [(p, d) for p, d in dated[first:] if d is not None]


def _dates(text: str) -> tuple[str | None, str | None] | None:
    """The date read day first and month first (ISO; either may fail); None if not a date."""
    if not _DATE.match(text.strip()):
        return None
    return read_date(text, "dmy", recent=True), read_date(text, "mdy", recent=True)


def _latest(readings: list[tuple[str | None, str | None]]) -> int | None:
    """The index of the latest date, the same whichever way the dates are read; None if the
    readings disagree or a date reads no way at all."""
    picks = set()
    for way in (0, 1):
        dates = [r[way] for r in readings]
        if all(d is not None for d in dates):
            picks.add(max(range(len(dates)), key=lambda k: dates[k]))
    return picks.pop() if len(picks) == 1 else None


def _data_line(line: Line) -> bool:
    """A table row: it prints a unit or a range."""
    return any(is_unit(p.text) or looks_like_range(p.text) for p in line.phrases())


def _label_columns(line: Line, after: float) -> list[Column]:
    """Units and range columns labelled right of the dates ("Units   Reference")."""
    found = []
    for phrase in line.phrases():
        kind = cols.label_kind(cols.label_key(phrase.text))
        if phrase.x0 > after and kind in (cols.UNITS, cols.RANGE, cols.FLAG):
            found.append(Column(kind, phrase.x0, phrase.x1, cols.label_key(phrase.text)))
    return found
