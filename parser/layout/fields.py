"""The parts of a result row read from its words alone, wherever the columns are: for lines
whose fields are separated by single spaces (no gap wide enough to cut cells)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from parser.flags import is_flag
from parser.layout.rows import NON_RESULT_NAMES
from parser.ranges import parse_range
from parser.units import is_unit

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
    """`Leucocitos 0.4 x10^3/µL 4.0 - 10.5`: the name runs to the first number; after it may
    come a flag, a unit of the lexicon and a range, and nothing else. None when the words do
    not read that way (a label and a date, a sentence with a number in it)."""
    at = next((i for i, t in enumerate(tokens) if _VALUE_TOKEN.match(t)), None)
    if not at or at >= len(tokens) - 1:
        return None
    name = " ".join(tokens[:at])
    if not re.search(r"[^\W\d_]{2}", name) or NON_RESULT_NAMES.match(name) or name.endswith(":"):
        return None
    i = at + 1
    flag_end = i + 1 if is_flag(tokens[i]) else i
    units_end = flag_end
    for n in range(min(_MAX_UNIT_TOKENS, len(tokens) - flag_end), 0, -1):
        if is_unit(" ".join(tokens[flag_end:flag_end + n]), ocr):
            units_end = flag_end + n
            break
    if units_end < len(tokens) and parse_range(" ".join(tokens[units_end:])) is None:
        return None
    return Fields((0, at), (at, at + 1), (i, flag_end), (flag_end, units_end), (units_end, len(tokens)))
