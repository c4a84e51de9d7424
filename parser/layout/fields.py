"""The parts of a result row read from its words alone, wherever the columns are: for lines
whose fields are separated by single spaces (no gap wide enough to cut cells)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from parser.flags import is_flag, is_flag_where_set_apart
from parser.layout.rows import NON_RESULT_NAMES, has_name_letters
from parser.ranges import SEX_WORDS_PATTERN, parse_range
from parser.units import is_unit, unglue

_VALUE_TOKEN = re.compile(r"^[<>≤≥]?=?\d+(?:[.,]\d+)*$")
_MAX_UNIT_TOKENS = 4


@dataclass(frozen=True, slots=True)
class Fields:
    """Word index spans [start, end) of each part of the row; empty spans are absent parts."""

    name: tuple[int, int]
    value: tuple[int, int]
    flag: tuple[int, int]
    units: tuple[int, int]
    range: tuple[int, int]


def read_fields(tokens: list[str], ocr: bool = False) -> Fields | None:
    """`Leucocitos 0.4 x10^3/µL 4.0 - 10.5`: the name runs to the first number (or number
    glued to its flag and unit, as OCR reads "116Lpg/mL"); after it may come a flag, a unit
    of the lexicon and a range (any sex's), and nothing else but stray marks. None when the
    words do not read that way (a label and a date, a sentence with a number in it)."""
    return _read_fields(tuple(tokens), ocr)


# A pure function of the words: the cells, the content and the unread-row stages each ask it of
# the same lines (half the calls of a document repeat one), and a Fields is immutable.
@lru_cache(maxsize=2048)
def _read_fields(tokens: tuple[str, ...], ocr: bool) -> Fields | None:
    at = next((i for i, t in enumerate(tokens) if _VALUE_TOKEN.match(t) or len(unglue([t])) > 1),
              None)
    if not at or at >= len(tokens) - 1:
        return None
    name = " ".join(tokens[:at])
    if not has_name_letters(name) or NON_RESULT_NAMES.match(name) or \
            (name.endswith(":") and not re.search(r"[.…_]{3}\s*:$", name)):
        return None  # "Date: 12 03 2024" is a label; "Urea ........: 31 mg/dL" a row
    return _after_value(tokens, at, ocr)


def read_value_fields(tokens: list[str], ocr: bool = False) -> Fields | None:
    """A value cell that also holds the row's unit and range ("105 mg/dL (70 - 99)",
    "5.6 mmol/L [3.5 - 5.3] H"): spans as read_fields gives them, the name's empty. None
    unless the cell starts with its value and a unit or a range follows it."""
    if len(tokens) < 2 or not _VALUE_TOKEN.match(tokens[0]):
        return None
    fields = _after_value(tokens, 0, ocr) or _unread_unit(tokens)
    if fields is None or (fields.units[0] == fields.units[1] and fields.range[0] == fields.range[1]):
        return None
    return fields


def _unread_unit(tokens: list[str]) -> Fields | None:
    """`7.6 x10"9/L (4.0 - 11.0)`: a value, one word with a slash the lexicon does not know
    (OCR garbled a power of ten), then a whole range: that word stands where the unit does."""
    if len(tokens) < 3 or "/" not in tokens[1] or not re.search(r"[^\W\d_]", tokens[1]) \
            or not _range_like(" ".join(tokens[2:])):
        return None
    return _trailing_flag(tokens, Fields((0, 0), (0, 1), (1, 1), (1, 2), (2, len(tokens))))


def _after_value(tokens: list[str], at: int, ocr: bool) -> Fields | None:
    """The spans of a row whose value is tokens[at]: the name before it, then a flag, a unit
    and a range, and a flag printed after the range ("(3.4 - 7.0) H")."""
    i = at + 1
    # A flag letter may also begin the unit ("0,51 L / L (0,41 - 0,53)"): the unit reading
    # that takes it is tried first.
    for flag_end in ([i, i + 1] if is_flag(tokens[i]) or is_flag_where_set_apart(tokens[i]) else [i]):
        parts = _units_and_range(tokens, flag_end, ocr, multi=flag_end == i and is_flag(tokens[i]))
        if parts is not None:
            units_end, range_start = parts
            return _trailing_flag(tokens, Fields((0, at), (at, at + 1), (i, flag_end),
                                                 (flag_end, units_end), (range_start, len(tokens))))
    return None


def _trailing_flag(tokens: list[str], fields: Fields) -> Fields:
    """A flag printed after the range ("(3.4 - 7.0) H") is the row's flag, not the range's;
    a range's own last word never is ("Up to 46 U / L")."""
    start, end = fields.range
    if end - start < 2 or fields.flag[0] != fields.flag[1] or not is_flag(tokens[end - 1]) \
            or not re.search(r"[\d)\]]$", tokens[end - 2]) \
            or not _range_like(" ".join(tokens[start:end - 1])):
        return fields
    return Fields(fields.name, fields.value, (end - 1, end), fields.units, (start, end - 1))


def _units_and_range(tokens: list[str], start: int, ocr: bool, multi: bool
                     ) -> tuple[int, int] | None:
    """(end of the unit, start of the range) after `start`; None when the rest is neither.
    `multi`: only a unit of several tokens counts (its first token is also a flag)."""
    # The longest unit that leaves a whole range after it ("x10^3/µL 0" reads as a unit, but
    # then "- 0.2" is no range: the unit is "x10^3/µL" and the range "0 - 0.2").
    for n in [*range(min(_MAX_UNIT_TOKENS, len(tokens) - start), 0, -1), 0]:
        if n and (not is_unit(" ".join(tokens[start:start + n]), ocr) or (multi and n < 2)):
            continue
        if multi and n == 0:
            return None
        range_start = start + n
        while range_start < len(tokens) and re.fullmatch(r"[=:;\-–|]+", tokens[range_start]):
            range_start += 1  # OCR marks between the cells
        rest = " ".join(tokens[range_start:])
        if not rest or _range_like(rest):
            return start + n, range_start
    return None


_SEX_TIER = re.compile(r"^(" + SEX_WORDS_PATTERN + r")\s*[:\-]?\s*", re.I)


def _range_like(text: str) -> bool:
    """A whole reference range: any sex's of a sex-specific one, or its first tier alone
    ("Male: 4.50 to 5.90", the next tier printed on the line below)."""
    return any(parse_range(text, sex) is not None for sex in (None, "male", "female")) or \
        parse_range(_SEX_TIER.sub("", text)) is not None
