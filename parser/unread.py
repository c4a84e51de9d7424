"""Lines that read as a result by their own words but gave no result row.

A layout that finds no result column for a table drops its rows whole, and no evidence about the
rows that were read can show it. Counting the body lines whose words alone read as a test name,
a value and a unit or range (`layout.fields.read_fields`), and that no row took a word from,
lets routing send such a job to a person. Lines among the rows read that carry a name and a value
in any form count too (parser.unaccounted). Pure: the parser knows nothing of review.
"""

from __future__ import annotations

import re

from parser import vocabulary
from parser.layout import RawRow
from parser.layout.fields import Fields, read_fields
from parser.lines import Line, boilerplate_keys, is_boilerplate, is_sentence, page_lines
from parser.page import Document
from parser.unaccounted import unaccounted_lines


def unread_result_lines(doc: Document, rows: list[RawRow]) -> int:
    """How many lines the layout placed no word of in any row although they read as a result:
    by their own words (`result_shaped_lines`), or as a name and a value among the rows read
    (parser.unaccounted); a line both see counts once."""
    used = {id(word) for row in rows for word in row.words}
    lines = {id(line) for line in result_shaped_lines(doc, used)}
    lines |= {id(line) for line in unaccounted_lines(doc, used)}
    return len(lines - restatements(doc, used))


# A line opening with one of these words restates the result above it in another unit: a second
# unit of a row read, not a result left unread. Seen on real-like batch 10 dev (fr_camargue: 8 such
# lines, its only unread lines, an error-free document that went to review for them). On every
# other opened real-like dev digital document (1-4, 6-8, 10, 11) the count is unchanged.
_RESTATING = frozenset(vocabulary.RESTATING_LINE_OPENERS)


def restatements(doc: Document, used: set[int]) -> set[int]:
    """Ids of the lines that restate the row just above them (`_RESTATING`): a line opening with such
    a word, under a line holding a word of a row (ids in `used`) less than a line's height above it."""
    found = set()
    for page in doc.pages:
        lines = page_lines(page)
        taken = [line for line in lines if any(id(word) in used for word in line.words)]
        for line in lines:
            if not line.words or line.words[0].text.lower().rstrip(":,") not in _RESTATING:
                continue
            gap = line.bottom - line.top
            if any(0 <= line.top - row.bottom <= gap and row.top < line.top for row in taken):
                found.add(id(line))
    return found


def result_shaped_lines(doc: Document, used: set[int]) -> list[Line]:
    """Lines that look like a result row (name, value, and a unit or a range) although the layout
    placed none of their words (ids in `used`) in any row (a row it placed and then rejected was
    judged, as a recommendation table's "Borderline High 200 - 239" is)."""
    keys = None  # the page headers and footers, found only once a candidate line needs them
    found = []
    for page in doc.pages:
        for line in page_lines(page):
            if any(id(word) in used for word in line.words) or is_sentence(line):
                continue
            tokens = [w.text for w in line.words]
            fields = read_fields(tokens, page.source == "ocr")
            if fields is None or not _result_like(tokens, fields):
                continue
            keys = boilerplate_keys(doc) if keys is None else keys
            if not is_boilerplate(line, page, keys):
                found.append(line)
    return found


_UNIT_SIGN = re.compile(r"[^\W\d_]|%")  # a letter or a per cent sign: a unit, not a page count


def _result_like(tokens: list[str], fields: Fields) -> bool:
    """A unit with a letter or % in it ("Page 1 / 1" is no value and unit), or a range; never
    a label's line ("Validated by: ...")."""
    name = " ".join(tokens[slice(*fields.name)])
    unit = " ".join(tokens[slice(*fields.units)])
    return ":" not in name and (bool(_UNIT_SIGN.search(unit)) or fields.range[1] > fields.range[0])
