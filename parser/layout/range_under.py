"""Each result's range and unit printed on a line of its own under the test's name.

    Haemoglobin                                              12.8 L
      Ref 13.4 - 17.5 g/dL
    Red cell count                                           4.55 L
      Ref 4.89 - 5.11 x10^12/L

Some private pathology practices print no unit or range column: the value (and its flag) on
the name's line, and under the name, on a smaller line, a range label, the range and the unit.
Read line by line, the name's line holds only a name and a number (no row by content: a number
after a label is not enough) and the range's line no value (its label reads as a name). A
line opening with a range label ("Ref", "Normal range"), then a range, then perhaps a unit,
set right under a line of a name and a value, its words under the name and left of the value,
is that row's range. A page prints every row so: it takes at least two such pairs, and the
name's line may print nothing but the name, the value, a flag and a unit (a range of its own
would make it another layout); the unit stands on one of the two lines, not on both. The range
may be a word ("Ref Non-reactive"). On such a page a name and a value with no range line under
them, the value standing in the pairs' value column, is a row without a range (a finding in
words, a test the lab prints no range for).
"""

from __future__ import annotations

import re
from functools import lru_cache

from parser import columns as cols
from parser.flags import is_flag
from parser.layout.content import result_cell
from parser.layout.rows import NON_RESULT_NAMES, RawRow, has_name_letters, short_title
from parser.lines import Line, Phrase, is_prose
from parser.ranges import looks_like_range
from parser.units import is_unit
from parser.vocabulary import qualitative_result, range_cell_labels

# The range's line starts at most this many line heights below the name's line (its own line,
# not a line further down).
_MAX_GAP = 0.5
# A page printing its ranges this way prints at least this many rows so: one lone pair may be
# a note or a footnote under a row of another layout.
_MIN_PAIRS = 2
# A value without a range line stands in the pairs' value column: its first word starts or
# ends within this share of a line height of theirs.
_ALIGN_SHARE = 0.5
# A range label is at most this many words ("Normal range", "Ref. interval").
_MAX_LABEL_WORDS = 3


def range_under_rows(lines: list[Line]) -> tuple[list[Line], list[RawRow]]:
    """The page's lines less the rows read with their range line under them, and those rows
    (in the order printed, each with the heading above it as its panel)."""
    pairs = _pairs(lines)
    if len(pairs) < _MIN_PAIRS:
        return lines, []
    used = {id(lines[k]) for k in pairs} | {id(lines[k + 1]) for k in pairs}
    alone = _rows_without_range(lines, pairs, used)
    used |= {id(lines[k]) for k in alone}
    rows, panel = [], None
    for k, line in enumerate(lines):
        if k in pairs:
            rows.append(_row(line, lines[k + 1], pairs[k], panel))
        elif k in alone:
            rows.append(_row(line, None, alone[k], panel))
        elif id(line) not in used:
            panel = _heading(line) or panel
    return [line for line in lines if id(line) not in used], rows


def _pairs(lines: list[Line]) -> dict[int, tuple[Phrase, str, str | None, str, str | None]]:
    """By the index of each result line followed by its range line: the name's phrase, the
    value, the flag, the range and the unit."""
    found = {}
    for k in range(len(lines) - 1):
        result, under = _result_line(lines[k]), _range_of([w.text for w in lines[k + 1].words])
        if result is None or under is None or not _set_under(lines[k + 1], lines[k], result[0], result[1]):
            continue
        name, value_phrase, flag, unit = result
        if unit is not None and under[1] is not None:
            continue  # a unit on both lines: not the range's line of this row
        found[k] = (name, value_phrase.text.strip(), flag, under[0], unit or under[1])
    return found


def _rows_without_range(lines: list[Line], pairs: dict[int, tuple], used: set[int]) -> dict[int, tuple]:
    """By line index, the name-and-value lines no range line follows whose value starts or
    ends where the pairs' values do (the page's value column)."""
    edges = [(value.words[0].x0, value.words[0].x1) for _, value, *_ in (_result_line(lines[k]) for k in pairs)]
    found = {}
    for k, line in enumerate(lines):
        result = None if id(line) in used else _result_line(line)
        if result is None:
            continue
        first, tolerance = result[1].words[0], _ALIGN_SHARE * line.size
        if any(abs(first.x0 - x0) <= tolerance or abs(first.x1 - x1) <= tolerance for x0, x1 in edges):
            name, value, flag, unit = result
            found[k] = (name, value.text.strip(), flag, None, unit)
    return found


def _result_line(line: Line) -> tuple[Phrase, Phrase, str | None, str | None] | None:
    """A line of a name, a value (its flag perhaps in its cell), then perhaps a flag's cell
    and a unit's, in either order: (name, value, flag, unit)."""
    phrases = line.phrases()
    if len(phrases) not in (2, 3, 4):
        return None
    name, value = phrases[0], phrases[1]
    if not has_name_letters(name.text) or NON_RESULT_NAMES.match(name.text) or not result_cell(value.text) \
            or _range_of([w.text for w in name.words]) is not None:
        return None  # (a range's line OCR set on the value's: "Ref 12.4-17.3 %  14.9")
    rest = [p.text.strip() for p in phrases[2:]]
    flags, units = [t for t in rest if is_flag(t)], [t for t in rest if not is_flag(t) and is_unit(t)]
    if len(flags) > 1 or len(units) > 1 or len(flags) + len(units) < len(rest):
        return None
    return name, value, (flags or [None])[0], (units or [None])[0]


def _range_of(words: list[str]) -> tuple[str, str | None] | None:
    """(range, unit) of a line's words "Ref 13.4 - 17.5 g/dL": a range label, a range, perhaps a unit."""
    at = _label_end(words)
    if at is None:
        return None
    rest = words[at:]
    unit = rest[-1] if len(rest) > 1 and is_unit(rest[-1]) else None
    text = " ".join(rest[:-1] if unit else rest)
    if qualitative_result().fullmatch(text):
        return (text, None) if unit is None else None  # "Ref Non-reactive"
    if not re.search(r"\d", text) or not looks_like_range(text):
        return None
    return text, unit


def _label_end(words: list[str]) -> int | None:
    """The index after the range label the words open with; None without one."""
    for n in range(min(_MAX_LABEL_WORDS, len(words) - 1), 0, -1):
        label = words[:n]  # words of letters: a comparator or a bound is the range's
        if all(re.fullmatch(r"[^\W\d_][^\W\d_.]*\.?:?", w) for w in label) and \
                cols.label_key(" ".join(label)) in _labels():
            return n
    return None


@lru_cache(maxsize=1)
def _labels() -> frozenset[str]:
    return frozenset(cols.label_key(label) for label in range_cell_labels())


def _set_under(under: Line, line: Line, name: Phrase, value: Phrase) -> bool:
    """The range line sits right under the result's line, its words under the name's side:
    from the name's start (or indented) to left of the value."""
    return under.top - line.bottom <= _MAX_GAP * line.size and \
        under.x0 >= name.x0 - 0.5 * line.size and under.x1 < value.x0


def _row(line: Line, under: Line | None, pair: tuple, panel: str | None) -> RawRow:
    name, value, flag, range_text, unit = pair
    return RawRow(page=line.page, name=name.text.strip(), value=value, flag=flag, units=unit,
                  range_text=range_text, panel=panel, words=[*line.words, *(under.words if under else [])],
                  from_header=False, ocr=line.ocr)


def _heading(line: Line) -> str | None:
    """A panel's title over the rows: one short phrase of words without digits."""
    return None if is_prose(line) else short_title(line)
