"""Cumulative tables: value columns headed by dates instead of a result label.

    FULL BLOOD COUNT
                Date    12/09/23   18/07/24   04/03/25
                Time    09:05      08:40      08:15
                Lab No  23381144   24290517   48119027   Units   Reference
    Haemoglobin         128        122        109 L      g/L     (115-165)

Laboratories that print a patient's earlier episodes beside this one (Australian and New
Zealand "cumulative" reports, hospital Kumulativbefunde) head each value column with its
sampling date. The column of the latest date is this report's result; the others are previous
results, never results. A flowsheet (Cerner PowerChart) prints the other columns' labels on the
dates' line, range and unit LEFT of the dates ("Result Name  Ref Range  Units  01/14/2025 22:47
...  01/16/2025 04:30"), the latest column rightmost and headed "Current"; a hospital report
sets the dates between the names' label and the others ("Analyse  12/11/24  14/03/25
Interprétation  Unité  Valeurs de référence"), perhaps under labels naming the previous and the
current column ("Antériorité  Résultat", "Vorsorge  Aktuell"), which must agree with the dates
(or settle dates that read both ways). The dates must put the same column last read day
first and month first; where they do not, no header is made and the rows stay unread (for a
reviewer).
"""

from __future__ import annotations

import re
from functools import lru_cache

from parser import columns as cols
from parser import vocabulary
from parser.columns import Column, Header
from parser.lines import Line, Phrase
from parser.metadata_dates import read_date
from parser.page import Page
from parser.ranges import looks_like_range
from parser.units import is_unit

_MONTH = r"[A-Za-z]{3,9}\.?"
# A date as a column heading: numeric, or with the month in letters ("2025-Mar-14", "14 Mar 2025"),
# perhaps with its time after it ("2025-Mar-14 09:12").
_DATE = re.compile(r"^(?:\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}|\d{4}[\-/. ]" + _MONTH + r"[\-/. ]\d{1,2}|"
                   r"\d{1,2}[\-/. ]" + _MONTH + r"[\-/. ]\d{2,4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?$")
_DATE_IN_TEXT = re.compile(r"\d[/.\-]\d{1,2}[/.\-]\d|\d[\-/. ][A-Za-z]{3,9}\.?[\-/. ]\d")
_TIME = re.compile(r"\s+\d{1,2}:\d{2}(?::\d{2})?$")
# The lines of labels under the dates (times, lab numbers, "Units  Reference") before the first
# row: at most this many.
_MAX_LABEL_LINES = 3


def cumulative_header(lines: list[Line], i: int, page: Page) -> tuple[Header, int] | None:
    """The header of a cumulative table whose dates are printed on line i, and how many lines
    it uses (the dates' line and the label lines under it); None if line i is not one."""
    dated = dates_line(lines[i])
    if dated is None:
        return None
    latest = _agreed_result_column(_result_column(dated), _labelled_above(lines, i, dated))
    if latest is None:
        return None
    dates = [Column(cols.PREVIOUS if k != latest else cols.RESULT, p.x0, p.x1, "date")
             for k, (p, _) in enumerate(dated)]
    labels = _label_columns(lines[i], dates)
    used = 1
    while used <= _MAX_LABEL_LINES and i + used < len(lines) and _label_line(lines[i + used], dates):
        labels += _label_columns(lines[i + used], dates)
        used += 1
    if i + used >= len(lines):
        return None  # no row under the dates
    columns = sorted(dates + [c for c in labels if c.kind != cols.NAME], key=lambda c: c.x0)
    named = [c for c in labels if c.kind == cols.NAME and c.x1 < columns[0].x0]
    name = named[0] if named else Column(cols.NAME, 0.0, max(1.0, columns[0].x0 - lines[i].size), "")
    header = Header([name, *columns], 0.0, page.width, lines[i].top, lines[i + used - 1].bottom, page.number)
    return header, used


def _labelled_above(lines: list[Line], i: int, dated: list[tuple[Phrase, tuple]]) -> dict[int, bool]:
    """What the labels printed just above the dates say of their columns, by date index:
    True for this report's column ("Résultat", "Aktuell"), False for a previous one
    ("Antériorité", "Vorwert"); a label the vocabulary lacks ("Vorsorge") says nothing."""
    if i == 0 or lines[i].top - lines[i - 1].bottom > lines[i].size:
        return {}
    said: dict[int, bool] = {}
    for phrase in lines[i - 1].phrases():
        over = [k for k, (p, _) in enumerate(dated) if min(p.x1, phrase.x1) - max(p.x0, phrase.x0) > 0]
        key = cols.label_key(phrase.text)
        current = key in _current_labels() or cols.label_kind(key) == cols.RESULT
        if len(over) == 1 and (current or cols.label_kind(key) == cols.PREVIOUS):
            said[over[0]] = current
    return said


def _agreed_result_column(by_dates: int | None, said: dict[int, bool]) -> int | None:
    """This report's column: the dates' and the labels' readings must agree where both read;
    either alone decides; None when they disagree or neither reads (the rows stay unread, for
    a reviewer, rather than a previous result taken for the result)."""
    named = [k for k, current in said.items() if current]
    if by_dates is None:
        return named[0] if len(named) == 1 else None
    if said.get(by_dates) is False or (named and named != [by_dates]):
        return None
    return by_dates


def dates_line(line: Line) -> list[tuple[Phrase, tuple[str | None, ...]]] | None:
    """The dates of a line of an optional label ("Date") then two or more dates alone (the
    other columns' labels perhaps before or after them), each
    with its two readings (after CURRENT for the column headed as this report's own, which
    may print no date); None for any other line."""
    if len(_DATE_IN_TEXT.findall(line.text)) < 2:
        return None  # most lines: the cheap test first
    phrases = _cells(line)
    dated = [(p, _heading(p.text)) for p in phrases]
    first = next((k for k, (_, d) in enumerate(dated) if d is not None), None)
    if first is None:
        return None
    end = next((k for k in range(first, len(dated)) if dated[k][1] is None), len(dated))
    if end - first < 2 or not _labels_before_dates([p.text for p in phrases[:first]]):
        return None
    # The other columns' labels may follow the dates too ("Analyse  12/11/24  14/03/25
    # Interprétation  Unité  Valeurs de référence"): each phrase after them only labels.
    if any(_labels_of(p) is None for p in phrases[end:]):
        return None
    return [(p, d) for p, d in dated[first:end] if d is not None]


def _cells(line: Line) -> list[Phrase]:
    """The line's phrases, a date run on into the next column's label cut off it ("11.03.2025
    Bewertung": OCR sets a narrow column gap as a space)."""
    cells = []
    for phrase in line.phrases():
        words = phrase.words
        cut = 2 if len(words) > 2 and _TIME.fullmatch(" " + words[1].text) else 1
        if len(words) > cut and is_date(" ".join(w.text for w in words[:cut])) \
                and _labels_of(Phrase(words[cut:])) is not None:
            cells += [Phrase(words[:cut]), Phrase(words[cut:])]
        else:
            cells.append(phrase)
    return cells


def _labels_of(phrase: Phrase) -> list[Column] | None:
    """The column labels a phrase prints, one or several set close ("Interprétation Unité"),
    each with its words' extent; None unless its words are all labels of the vocabulary
    (longest label first)."""
    words, found, k = phrase.words, [], 0
    while k < len(words):
        for n in range(min(len(words) - k, cols.MAX_LABEL_WORDS), 0, -1):
            key = cols.label_key(" ".join(w.text for w in words[k:k + n]))
            if cols.label_kind(key) is not None:
                found.append(Column(cols.label_kind(key), words[k].x0, words[k + n - 1].x1, key))
                k += n
                break
        else:
            return None
    return found


# The mark `_heading` puts before a current column's readings.
CURRENT = "current"


def _heading(text: str) -> tuple[str | None, ...] | None:
    """A date column's heading read as `_dates` reads it; a heading naming this report's own
    column ("Attuale 14/03/25", "Aktuell") reads CURRENT, its date kept for the check."""
    rest, current = _without_current_label(text)
    if not current:
        return _dates(text)
    readings = _dates(rest) if rest else (None, None)
    return None if readings is None else (CURRENT, *readings)


def _without_current_label(text: str) -> tuple[str, bool]:
    """The heading less a current-column label before or after it ("Attuale 14/03/25" ->
    "14/03/25"), and whether it had one."""
    words = text.split()
    for n in (2, 1):
        if len(words) >= n and cols.label_key(" ".join(words[:n])) in _current_labels():
            return " ".join(words[n:]), True
        if len(words) > n and cols.label_key(" ".join(words[-n:])) in _current_labels():
            return " ".join(words[:-n]), True
    return text, False


@lru_cache(maxsize=1)
def _current_labels() -> frozenset[str]:
    return frozenset(vocabulary.words(vocabulary.CURRENT_COLUMN_LABELS))


def _labels_before_dates(texts: list[str]) -> bool:
    """What a dates' line prints left of its dates: nothing, one label without a digit
    ("Date", "Collected"), or the other columns' labels (a flowsheet's "Result Name  Ref Range
    Units" on the dates' line); a test name and its values is a row."""
    if len(texts) <= 1:
        return not any(re.search(r"\d", t) for t in texts)
    return all(cols.label_kind(cols.label_key(t)) in (cols.NAME, cols.UNITS, cols.RANGE, cols.FLAG)
               for t in texts)


def is_date(text: str) -> bool:
    """A date alone ("11-Mar-2025", "2025-03-11 09:20", "14/03/2025")."""
    return bool(_DATE.match(text.strip()))


def _dates(text: str) -> tuple[str | None, str | None] | None:
    """The date read day first and month first (ISO; either may fail); None if not a date."""
    if not is_date(text):
        return None
    text = _TIME.sub("", text.strip())
    return read_date(text, "dmy", recent=True), read_date(text, "mdy", recent=True)


def _result_column(dated: list[tuple[Phrase, tuple]]) -> int | None:
    """The index of this report's column: the one headed current ("Attuale"), which must not
    be older than another column by its dates, else the latest date; None when unsure."""
    current = [k for k, (_, d) in enumerate(dated) if d[0] == CURRENT]
    readings = [d[1:] if d[0] == CURRENT else d for _, d in dated]
    if len(current) > 1:
        return None
    if not current:
        return _latest(readings)
    by_date = _latest(readings)  # None too when the current column prints no date
    return current[0] if by_date in (None, current[0]) else None


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


def _label_line(line: Line, dates: list[Column]) -> bool:
    """A line of the header under (or over) the dates: times or lab numbers under the date
    columns, or column labels ("Test  C25-073-1042  ...  Units  Reference Range"); a section
    heading ("Hämatologie I") or a row is not."""
    if _data_line(line):
        return False
    phrases = line.phrases()
    return any(_under(p, dates) for p in phrases) or \
        any(cols.label_kind(cols.label_key(p.text)) is not None for p in phrases)


def _under(phrase: Phrase, dates: list[Column]) -> bool:
    return any(min(phrase.x1, c.x1) - max(phrase.x0, c.x0) > 0 for c in dates)


def _label_columns(line: Line, dates: list[Column]) -> list[Column]:
    """Names, units, flag and range columns labelled beside the dates ("Units   Reference",
    "Analyse  Einheit  Referenzbereich" left of them)."""
    found = []
    for phrase in _cells(line):
        if _under(phrase, dates):
            continue
        found += [c for c in _labels_of(phrase) or [] if c.kind in (cols.NAME, cols.UNITS, cols.RANGE, cols.FLAG)]
    return found
