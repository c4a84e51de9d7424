"""Rows printing one result twice on a line, each with its own unit.

Two classes: the same quantity in conventional and SI units ("Glycémie 0,95 g/l 5,27 mmol/l
0,70 à 1,10"), one result, the first value with its unit; and a share with its absolute count
("Neutrophiles 55,2 % soit 3,37 G/l 1,80 à 7,50"), two results of the same test. A range
printed for both ("0,70-1,10 / 3,89-6,11") is split between them; a single range goes to the
value it fits by magnitude.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from parser import vocabulary
from parser.flags import is_flag
from parser.layout.rows import RawRow
from parser.locale_forms import merge_spaced_groups
from parser.ranges import NUMBER, parse_number, parse_range
from parser.units import is_unit, unglue

_VALUE = re.compile(r"[<>≤≥]?" + NUMBER)
MEASURE_JOINERS = frozenset(vocabulary.MEASURE_JOINERS)
_RANGE_PARTS = re.compile(r"\s+[/;|]\s+")


def measurement(text: str) -> tuple[str, str] | None:
    """(number, unit) when `text` is a number and a unit of the lexicon alone, after an
    optional joiner ("soit 3,37 G/l", "= 74 µmol/l"); None otherwise."""
    tokens = merge_spaced_groups(unglue(text.split()))  # "3 944 /mm³": one count
    if tokens and tokens[0].lower().strip(":") in MEASURE_JOINERS:
        tokens = tokens[1:]
    if len(tokens) < 2 or not _VALUE.fullmatch(tokens[0].replace(" ", "")):
        return None
    unit = " ".join(tokens[1:])
    return (tokens[0], unit) if is_unit(unit) else None


def two_measurements(text: str) -> tuple[str, str, str] | None:
    """(first value, its unit, the second measurement's text) when `text` holds a value with
    its unit and then a second measurement ("0,95 g/l 5,27 mmol/l", "55,2 % soit 3,37 G/l");
    a flag may follow the first value. None otherwise."""
    tokens = unglue(text.split())
    start = 2 if len(tokens) > 1 and is_flag(tokens[1]) else 1
    if not tokens or not _VALUE.fullmatch(tokens[0]):
        return None
    for cut in range(start + 1, len(tokens)):
        unit = " ".join(tokens[start:cut])
        second = " ".join(tokens[cut:])
        if unit.endswith(("/", "x", "*", "^")):
            continue  # "mL / min / 1.73m2": the unit runs on over the number
        if is_unit(unit) and measurement(second) is not None:
            return " ".join(tokens[:start]), unit, second
    return None


def measured_range(text: str) -> tuple[str, str] | None:
    """(measurement, range) when a range cell holds a number with its unit and then a range
    ("1,27 G/L (1,40 - 7,70)"); None otherwise."""
    tokens = text.split()
    for cut in range(2, len(tokens)):
        first, rest = " ".join(tokens[:cut]), " ".join(tokens[cut:])
        if measurement(first) is not None and parse_range(rest) is not None:
            return first, rest
    return None


def with_second(row: RawRow) -> RawRow:
    """A table row whose value and unit cells hold two measurements keeps the first as its
    value and unit and the other as `second` (split_measurements decides what it is)."""
    if row.second is None and row.range_text and (led := measured_range(row.range_text)) is not None:
        # "39,6 %  1,27 G/L (1,40 - 7,70)": the count printed where the range goes, before
        # its own range; the share has none.
        row.second, row.second_range, row.range_text, row.ranges_apart = *led, None, True
    if row.second is not None:
        if row.units is None and (own := measurement(row.value)) is not None:
            row.value, row.units = own  # "55,2 %" beside "soit 3,37 G/l"
        return row
    found = two_measurements(" ".join(filter(None, [row.value, row.units])))
    if found is not None:
        row.value, row.units, row.second = found
    return row


def split_measurements(row: RawRow) -> list[RawRow]:
    """The results of a row with a second measurement: one (another unit of the same value)
    or two (a share and its absolute count), each with the range that belongs to it."""
    if row.second is None:
        return [row]
    second = measurement(row.second)
    if second is None:
        return [replace(row, second=None)]
    value2, unit2 = second
    first_range, second_range = (row.range_text, row.second_range) if row.ranges_apart else \
        _share_ranges(row.range_text, row.value, value2)
    first = replace(row, range_text=first_range, second=None, second_range=None,
                    ranges_apart=False)
    if (row.units or "").strip() != "%" and unit2.strip() != "%":
        return [first]  # the same quantity in two units: one result
    # The flag marks the value out of its range: it goes with the range ("*  71,2 %  7,72 G/l
    # 1,50 - 7,00": the share has no range, the count is the flagged one).
    flag_second = second_range is not None and first_range is None
    if flag_second:
        first = replace(first, flag=None)
    other = replace(row, value=value2, units=unit2, range_text=second_range,
                    flag=row.flag if flag_second else None,
                    second=None, second_range=None, ranges_apart=False)
    return [first, other]


def _share_ranges(range_text: str | None, value1: str, value2: str
                  ) -> tuple[str | None, str | None]:
    """The range text of each measurement: a range printed for both in order ("0,70-1,10 /
    3,89-6,11"), or one range given to the value it fits by magnitude."""
    if not range_text:
        return None, None
    parts = _RANGE_PARTS.split(range_text.strip())
    if len(parts) == 2 and all(parse_range(p) is not None for p in parts):
        return parts[0], parts[1]
    reference = parse_range(range_text)
    if reference is None:
        return range_text, None
    misfit1, misfit2 = (_misfit(v, reference) for v in (value1, value2))
    return (range_text, None) if misfit1 <= misfit2 else (None, range_text)


def _misfit(value: str, reference) -> float:
    """How far a value lies from a range, in orders of magnitude: 0 inside; then from the
    middle of the range, so a tie goes to the value of the range's own size."""
    number = parse_number(value.lstrip("<>≤≥").strip())
    if number is None or number <= 0:
        return math.inf
    low, high = reference.low, reference.high
    bounds = [b for b in (low, high) if b is not None and b > 0]
    if not bounds:
        return math.inf
    middle = math.sqrt(low * high) if low and high else (high / 2 if high else low)
    outside = 0.0
    if (low is not None and number < low) or (high is not None and number > high):
        outside = min(abs(math.log10(number / b)) for b in bounds)
    return outside + 0.01 * abs(math.log10(number / middle))
