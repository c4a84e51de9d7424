"""Lines among the result rows read that carry a test name and a value but gave no row.

The class: a table whose rows the layout read but for a few (a row printing a second measurement
or an earlier result the columns did not expect, "Glicemia ..... 1,24 ↑ g/L V.R.: 0,70 - 1,10
Ant.: 1,16 (12/09/2024)", a row whose flag sits in a column of its own, a table's last rows under a
page break, a later page's first table). Such a line need not read as a whole result by its own
words (parser.unread's test wants a unit of the lexicon or a range); here a short name and then
a value, a number or a printed qualitative word, is enough, because the line stands where the
report prints its results: between the first and last row read on its page (a later page from
where page 1's rows start), or below the last row above the footers. Above a page's rows, a
letterhead prints street numbers and postcodes: lines there count only when at least
`LEAST_TABLE_ABOVE` of them hold their values in one column (a table the layout skipped); so do
the lines of a text page without any row in a report with rows (a page the layout skipped whole: one
older parse of opened material, no complete parse).

Measured with `python -m benchmarks.review_unaccounted` (digital documents; the figures are in
that module's docstring). Pages read by OCR are left out: such reports go to a person anyway
(review.document), and OCR noise would make many lines look like this.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from operator import attrgetter

from parser.language import fold
from parser.layout.rows import NON_RESULT_NAMES, has_name_letters
from parser.lines import Line, boilerplate_keys, is_boilerplate, is_prose, is_sentence, page_lines
from parser.page import Document, Page
from parser.vocabulary import PREVIOUS, header_labels, qualitative_result

# A value as a cell prints it: a number with a comparator, a decimal point or comma, a trailing
# mark ("5.6*"), or a number glued to a high/low letter ("182H").
_VALUE = re.compile(r"^[<>≤≥]?=?\d+(?:[.,]\d+)?[*!]?[HL]?$")
# A date (one separator twice: "4.0-11.0" is a range, "12.03.2024" a date) or a time of day: in
# the name part it makes a collection or validation line, never a result.
_DATE_OR_TIME = re.compile(r"\b\d{1,4}([/.-])\d{1,2}\1\d{2,4}\b|\b\d{4}-[^\W\d_]{3,4}-\d{1,2}\b|\b\d{1,2}[:h]\d{2}\b")
# A test name is a few words; more before the value make a sentence ("Results below 5 ...").
MOST_NAME_WORDS = 8
# A label's colon ("Obs.: ...", "Tel: ..."); a dotted leader before it is a row's ("Urea ......: 31").
_LABEL = re.compile(r"(?<![.…_][.…_])\s*:(?!\d)")
# "1 of 2", "1 / 2", "1 von 2": a page counter's numbers (the words are languages' vocabulary).
_COUNTER_WORDS = frozenset({"of", "/", "de", "von", "di", "sur", "da"})
# An identifier or a telephone number, never a measurement: a leading zero before more digits
# ("0123456789"), or more digits than a measurement prints before its decimal point.
_IDENTIFIER = re.compile(r"^0\d|^\d{7,}")
# Result-like lines above a page's first row that make a skipped table rather than a letterhead.
# Measured (benchmarks.review_unaccounted): no page of the 266 complete parses had 3 such lines
# above its rows in one column (a letterhead's 3 wandered); 13 in each of the two older parses
# that skipped a page's first table.
LEAST_TABLE_ABOVE = 3
# Values in one column start (or end) within this many letters' widths (a font size) of each other.
COLUMN_SLACK = 2.0


def unaccounted_lines(doc: Document, used: set[int], *, below: bool = True, above: str = "column",
                      qualitative: bool = True, empty_pages: bool = True) -> list[Line]:
    """Lines of text pages that hold no word of `used` (ids of the words the rows took) and read
    as a name and then a value, where the page's results stand. The options are the variants
    benchmarks.review_unaccounted measures; the defaults are the parser's:
    `below` takes the lines under the page's last row too; `above` says which lines over the
    page's first row count: "none"; "later" (a later page's from the height page 1's rows start
    at); "column" (those, and lines above that when enough hold their values in one column);
    "all"; `qualitative` takes a printed qualitative word as a value; `empty_pages` takes a text
    page without a row like the lines above a page's rows (a column of them counts)."""
    keys = boilerplate_keys(doc)
    found: list[Line] = []
    first_top = None  # where page 1's rows start, a share of its height
    for page in doc.pages:
        if page.source == "ocr":
            continue
        taken: list[Line] = []
        free: list[Line] = []
        for line in page_lines(page):
            (taken if any(id(word) in used for word in line.words) else free).append(line)
        if not taken:
            if empty_pages and used:
                over = _valued(free, qualitative, page, keys)
                found += [line for line, _ in over] if _one_column(over) >= LEAST_TABLE_ABOVE else []
            continue  # a page without rows: only a column of result lines says rows were lost
        top, bottom = min(line.top for line in taken), max(line.bottom for line in taken)
        if page.number == 1 and page.height:
            first_top = top / page.height
        elif above != "none" and first_top is not None:
            top = min(top, first_top * page.height)
        candidates = _valued([line for line in free if below or line.top <= bottom], qualitative, page, keys)
        over = [(line, at) for line, at in candidates if line.bottom < top]
        found += [line for line, _ in candidates if line.bottom >= top]
        if above == "all" or (above == "column" and _one_column(over) >= LEAST_TABLE_ABOVE):
            found += [line for line, _ in over]
    return found


def _valued(lines: list[Line], qualitative: bool, page: Page, keys: set[tuple[str, int]]) -> list[tuple[Line, int]]:
    """The `lines` that read as a name and a value and are no page header or footer, each with
    the index of its value's first word (`_value_at`)."""
    valued = []
    for line in lines:
        at = _value_at(line, qualitative)
        if at is not None and not is_boilerplate(line, page, keys):
            valued.append((line, at))
    return valued


def _one_column(valued: list[tuple[Line, int]]) -> int:
    """How many of the `valued` lines (`_valued`) hold their values in one column: value words
    starting, or ending, within COLUMN_SLACK font sizes of each other (a letterhead's numbers wander)."""
    if not valued:
        return 0
    values = [line.words[at] for line, at in valued]
    width = COLUMN_SLACK * (sorted(line.size for line, _ in valued)[len(valued) // 2] or 1.0)
    best = 0
    for edge in (attrgetter("x0"), attrgetter("x1")):
        xs = sorted(map(edge, values))
        best = max([best] + [bisect_right(xs, x + width) - i for i, x in enumerate(xs)])
    return best


def _value_at(line: Line, qualitative: bool) -> int | None:
    """The index of the value's first word when the line reads as a short test name and then a
    value (a number, or a second cell that is a qualitative result); None for a label's line
    ("Collected: ..."), a line whose name holds a date, a sentence, a page counter, an identifier.
    A date after the value is an earlier result's ("Ant.: 1,16 (12/09/2024)"): still a row."""
    if is_prose(line) or is_sentence(line):
        return None
    tokens = [word.text for word in line.words]
    at = next((i for i, token in enumerate(tokens) if _VALUE.match(token)), None)
    if at is not None and _counter_or_identifier(tokens, at):
        return None
    if at is None and qualitative:
        at = _qualitative_at(line)
    if not at or at > MOST_NAME_WORDS:
        return None
    name = " ".join(tokens[:at])
    named = has_name_letters(name) and not NON_RESULT_NAMES.match(name) and not _DATE_OR_TIME.search(name)
    return at if named and not _LABEL.search(name) and not _previous_label(name) else None


def _previous_label(name: str) -> bool:
    """Does the name start with an earlier result's label ("Previous result 5.4", "Vorwert 12"),
    any language's (the heading vocabulary's PREVIOUS labels, folded)?"""
    words = " ".join(_LETTERS.findall(fold(name)))
    return any(words == label or words.startswith(label + " ") for label in _previous_labels())


_LETTERS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=1)
def _previous_labels() -> tuple[str, ...]:
    return tuple(label for label, kind in header_labels().items() if kind == PREVIOUS)


def _counter_or_identifier(tokens: list[str], at: int) -> bool:
    """Is the line's first number a page counter's ("Page 1 of 2") or an identifier?"""
    counter = at + 2 < len(tokens) and tokens[at + 1].lower() in _COUNTER_WORDS and tokens[at + 2].isdigit()
    return counter or bool(_IDENTIFIER.match(tokens[at]))


def _qualitative_at(line: Line) -> int | None:
    """The index of the first word of the line's second cell when it is a qualitative result
    (right after the name; a header's "Low Normal High" starts with no such cell)."""
    phrases = line.phrases()
    if len(phrases) > 1 and qualitative_result().match(phrases[1].text):
        return line.words.index(phrases[1].words[0])
    return None
