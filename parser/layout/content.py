"""Rows read by content, where no header's columns place them: `name  value  [flag]  [units]
[range]` told by what each part is.

- pages without a header (content_rows);
- a line no row took a word from that reads as a whole result: recovered as a doubtful row.
"""

from __future__ import annotations

from typing import Callable

from parser import columns as cols
from parser.columns import Header
from parser.flags import is_flag, is_flag_where_set_apart
from parser.layout.cumulative import is_date
from parser.layout.fields import Fields, read_fields
from parser.layout.measures import MEASURE_JOINERS, measurement, two_measurements, with_second
from parser.layout.rows import (MAX_TITLE_WORDS, NON_RESULT_NAMES, RawRow, comment_sentence, has_name_letters,
                                heading_text, without_marks)
from parser.lines import Line, is_prose, word_size
from parser.page import Page
from parser.units import is_unit
from parser.vocabulary import qualitative_result


def content_rows(lines: list[Line], panel: str | None) -> list[RawRow]:
    """Rows of a page without a header: `name  value  [flag]  [units]  [range]` by content,
    read from the line's cells, or from its words when the cells are not spaced apart."""
    rows = []
    read = [_content_row(line) for line in lines]
    for k, (line, row) in enumerate(zip(lines, read)):
        if row is None:
            title = _heading_over_row(line, lines[k + 1] if k + 1 < len(lines) else None,
                                      read[k + 1] if k + 1 < len(read) else None)
            panel = title or panel
            continue
        row.panel = panel
        rows.append(row)
    return rows


def _content_row(line: Line) -> RawRow | None:
    row = _row_from_phrases(line)
    if row is None or (row.range_text is None and row.units is None):
        row = _row_from_words(line) or row  # "CL-  101  mmol/L 98-108": unit and range single-spaced
    if row is None or (row.range_text is None and row.units is None):
        return None  # a number after a label is not enough to call it a result
    if dated_value(row.name) or row.name.strip().lower().rstrip(":") in MEASURE_JOINERS:
        return None  # "1,02 le 12/09/24": an earlier result under the value; "soit 1,50
        # mmol/L": the row above restated in other units
    return row


def _heading_over_row(line: Line, below: Line | None, row: RawRow | None) -> str | None:
    """The panel a bold title names when a result row follows it at once, on a page without a
    header: "Full Blood Count   EDTA whole blood", a GP system's "11-Mar-2025  Full blood count
    Pathology result · Haematology" (the date first). The title is the first phrase (after a
    date alone), set bold where the row's name is not; what stands right of it (specimen,
    department) is not the panel. OCR pages know no fonts: none."""
    if below is None or row is None or line.ocr or below.top - line.bottom > 2 * line.size:
        return None
    phrases = line.phrases()
    if len(phrases) > 1 and is_date(phrases[0].text):
        phrases = phrases[1:]
    title = phrases[0]
    text = heading_text(title.text.strip())
    if not all(w.bold for w in title.words) or all(w.bold for w in below.words[:1]) or ":" in text \
            or len(text.split()) > MAX_TITLE_WORDS or sum(ch.isalpha() for ch in text) < 3 \
            or comment_sentence(text) or NON_RESULT_NAMES.match(text) or is_prose(line):
        return None
    return text


def _row_from_phrases(line: Line) -> RawRow | None:
    phrases = line.phrases()
    if len(phrases) < 2:
        return None
    name = " ".join(w.text for w in without_marks(phrases[0].words)).strip()
    if not has_name_letters(name) or NON_RESULT_NAMES.match(name):
        return None
    kinds = [cols.content_kind(p.text) for p in phrases[1:]]
    # A value may carry its unit, and a second measurement, in its phrase ("0,95 g/l").
    first = None if not kinds or kinds[0] == cols.RESULT else \
        measurement(phrases[1].text) or two_measurements(phrases[1].text) or _flagged(phrases[1].text)
    if not kinds or (kinds[0] != cols.RESULT and first is None):
        return None
    if kinds[:2] == [cols.RESULT, cols.RESULT] or (kinds[0] == cols.RESULT and len(phrases) > 2
                                                   and _flagged_number(phrases[2].text)):
        return None  # two numbers before the unit ("6,4  8,9", "3,98  3,71 bas"): which is
        # today's is not printed
    row = RawRow(page=line.page, name=name, value=phrases[1].text.strip(),
                 words=list(line.words), from_header=False, ocr=line.ocr)
    if first is not None:
        row.value, row.units, *rest = first
        row.second = rest[0] if rest else None
    for k, (phrase, kind) in enumerate(zip(phrases[2:], kinds[1:])):
        if (kind == cols.FLAG or (k == 0 and is_flag_where_set_apart(phrase.text))) and row.flag is None:
            row.flag = phrase.text.strip()  # "11,6  B  g/dL": right after the value, B is bas
        elif kind == cols.UNITS and row.units is None and (is_unit(phrase.text) or not phrase.text.istitle()):
            row.units = phrase.text.strip()  # a capitalised word is no unit ("Member No. 1108  Received")
        elif kind == cols.RANGE and row.ranges_apart and row.second_range is None:
            row.second_range = phrase.text.strip()  # the second measurement's own range
        elif kind == cols.RANGE and row.range_text is None:
            row.range_text = phrase.text.strip()
        elif kind is None and row.second is None and measurement(phrase.text) is not None:
            row.second = phrase.text.strip()  # "5,27 mmol/l", "soit 3,37 G/l"
            row.ranges_apart = row.range_text is not None  # the first has its own range
    return with_second(row)


def dated_value(text: str) -> bool:
    """An earlier result with its date ("1,02 le 12/09/24", "6,1 (12/09/2024)", "5,9 vom
    05.12.2024"): a number, at most one joining word, a date; never a test's name."""
    tokens = text.split()
    return 2 <= len(tokens) <= 3 and cols.content_kind(tokens[0]) == cols.RESULT \
        and is_date(tokens[-1].strip("()")) and (len(tokens) == 2 or tokens[1].isalpha())


def _flagged_number(text: str) -> bool:
    """A number and its printed flag in one cell ("3,71 bas", "11.9 H")."""
    return len(text.split()) > 1 and _number_and_flags(text)


def _number_and_flags(text: str) -> bool:
    """A number (perhaps after a comparator), perhaps its printed flags after it."""
    tokens = text.split()
    return bool(tokens) and cols.content_kind(tokens[0]) == cols.RESULT and all(is_flag(t) for t in tokens[1:])


def result_cell(text: str) -> bool:
    """A result cell: a number, perhaps with its printed flag after it ("12.8 L"), or a word result."""
    return _number_and_flags(text) or bool(qualitative_result().fullmatch(text.strip()))


def _flagged(text: str) -> tuple[str, str] | None:
    """("1,24 ↑", "g/L") from a value, its flag and its unit in one cell ("1,24 ↑ g/L")."""
    tokens = text.split()
    if len(tokens) < 3 or not is_flag(tokens[1]) or cols.content_kind(tokens[0]) != cols.RESULT:
        return None
    found = measurement(" ".join([tokens[0], *tokens[2:]]))
    return None if found is None else (f"{tokens[0]} {tokens[1]}", found[1])


def _row_from_words(line: Line) -> RawRow | None:
    """A line whose fields are printed with single spaces between them (fields.py)."""
    words = [w.text for w in line.words]
    fields = read_fields(words, line.ocr)
    if fields is None or _value_from_name_cell(line, fields):
        return None

    def text(span: tuple[int, int]) -> str | None:
        return " ".join(words[span[0]:span[1]]) or None

    return RawRow(page=line.page, name=text(fields.name) or "", value=text(fields.value) or "",
                  flag=text(fields.flag), units=text(fields.units), range_text=text(fields.range),
                  words=list(line.words), from_header=False, ocr=line.ocr)


def _value_from_name_cell(line: Line, fields: Fields) -> bool:
    """Was the value taken from the name's cell, the range then read over the cells after it?
    "eGFR CKD-EPI 2021  >=60  mL/min/1.73m2  52 L": the year is the name's, and ">=60
    mL/min/1.73m2  52" (a range, a unit and a value) no range. A range is one cell; a value
    single-spaced after its name ("Glucose 95  mg/dL  70-99") keeps its reading."""
    start, end = fields.range
    if end - start < 2:
        return False
    cell = {id(w): k for k, phrase in enumerate(line.phrases()) for w in phrase.words}
    words = line.words
    in_name_cell = cell.get(id(words[fields.value[0]])) == cell.get(id(words[0]))
    return in_name_cell and len({cell.get(id(w)) for w in words[start:end]}) > 1


def with_unread_rows(rows: list[RawRow], body: list[tuple[Page, list[Line]]], headed: dict[int, Header],
                     is_header: Callable[[Line, Page], bool]) -> list[RawRow]:
    """The rows, with a row for each line no row took a word from that reads by its own words
    as a whole result: a name, a number, a unit and a range (a row the tables' reading lost,
    as a layout it does not know loses them). Such a row is marked as guessed from content
    and ambiguous, so its confidence says so, and it stands where it is printed. `headed`: the
    header each line of a table was read under, by line id; `is_header`: a line of labels."""
    used = {id(word) for row in rows for word in row.words}
    found: list[RawRow] = []
    for page, lines in body:
        for line in lines:
            if any(id(word) in used for word in line.words):
                continue
            if not any(is_unit(w.text) for w in line.words[1:]):
                continue  # no unit word: no whole result (the cheapest test, most lines fail it)
            read = content_rows([line], None)
            if not read or not _whole_result(read[0]) or is_prose(line) or is_header(line, page):
                continue
            header = headed.get(id(line))
            if header is None or _in_value_column(read[0], line, header):
                read[0].ambiguous = True
                found.append(read[0])
    if not found:
        return rows
    return sorted(rows + found, key=lambda r: (r.page, min((w.top for w in r.words), default=0.0)))


def _in_value_column(row: RawRow, line: Line, header: Header) -> bool:
    """Under a header, the number read as the value must stand in a value column (or in none
    the header names): a previous result's column never gives a row its value."""
    first = row.value.split()[0]
    word = next((w for w in line.words if w.text == first and w.x0 > line.words[0].x1), None)
    if word is None:
        return False
    kind = header.assign(word.x0, word.x1, word.text, word_size(word))
    return kind is None or kind in cols.VALUE_KINDS


def _whole_result(row: RawRow) -> bool:
    # A name that is only a second measurement's joiner ("soit 6,55 mmol/L  3,89 à 6,11" under
    # "Glycémie 1,18 g/L"): the row above restated in other units, no test of its own.
    return bool(row.units and row.range_text and cols.content_kind(row.value) == cols.RESULT
                and ":" not in row.name and sum(ch.isalpha() for ch in row.name) >= 3
                and row.name.strip().lower().rstrip(":") not in MEASURE_JOINERS)
