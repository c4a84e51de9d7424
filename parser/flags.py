"""Printed flags and the contract's interpretation rules. Pure functions.

A printed flag wins (H/L/A -> abnormal; HH/LL/critical/panic -> critical); otherwise a
numeric value conclusively outside the range is abnormal, inside is normal, and anything
else is unknown. `>2000` against a max of 1100 is conclusively above; `>500` is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parser import vocabulary
from parser.ranges import COMPARATORS, NUMBER, Range, parse_number

# Printed flag (normalised to upper case) -> (interpretation, direction).
_FLAGS: dict[str, tuple[str, str | None]] = vocabulary.flags()
# Flags only in brackets after a value ("10,6 (B)"), by the same key.
_BRACKETED_FLAGS = vocabulary.BRACKETED_FLAGS

_COMPARATOR_VALUE = re.compile(r"^\s*(<=|>=|=<|=>|<|>|≤|≥)\s*(" + NUMBER + r")\s*$")


@dataclass(frozen=True, slots=True)
class Flag:
    printed: str
    interpretation: str  # "normal" | "abnormal" | "critical"
    direction: str | None  # "high" | "low" | None


def parse_flag(text: str | None, bare_letters: bool = False) -> Flag | None:
    """A printed flag such as `H`, `LL`, `*`, `High`, `↑`; None if the text is not a flag.
    `bare_letters`: the text stands where only flags can (after a value in an out-of-range
    column), so a letter that is a flag only in brackets elsewhere ("B", bas) is one alone."""
    if not text:
        return None
    printed = " ".join(text.split())
    key = printed.upper().strip("()[]")
    key = key.replace("[", "").replace("]", "")
    if key in _FLAGS:
        interpretation, direction = _FLAGS[key]
        return Flag(printed, interpretation, direction)
    if (bare_letters or printed[:1] in "([" and printed[-1:] in ")]") and key in _BRACKETED_FLAGS:
        interpretation, direction = _BRACKETED_FLAGS[key]
        return Flag(printed, interpretation, direction)
    return None


def is_flag(text: str) -> bool:
    return parse_flag(text) is not None


def is_flag_where_set_apart(text: str) -> bool:
    """A letter that is a flag only when set apart ("B", bas: in brackets, a box, or alone
    between a value and its unit, where nothing but a flag stands)."""
    return parse_flag(text, bare_letters=True) is not None


# Signs German and Swiss labs print after a value ("12,4 +", "512 ++", "3,2 -"): above or
# below the range. Only a mark after a number: alone, "+" and "++" are dipstick results and
# "-" an empty cell, so they are never flags of their own (is_flag).
_VALUE_MARKS: dict[str, tuple[str, str | None]] = {
    "+": ("abnormal", "high"), "++": ("abnormal", "high"), "+++": ("abnormal", "high"),
    "-": ("abnormal", "low"), "--": ("abnormal", "low"), "---": ("abnormal", "low"),
}


def parse_value_mark(text: str | None) -> Flag | None:
    """A sign printed after a value (`+`, `++`, `-`, `--`); None for anything else."""
    if not text or text.strip() not in _VALUE_MARKS:
        return None
    interpretation, direction = _VALUE_MARKS[text.strip()]
    return Flag(text.strip(), interpretation, direction)


@dataclass(frozen=True, slots=True)
class Interpretation:
    interpretation: str
    is_above_max_range: bool | None
    is_below_min_range: bool | None
    conflict: bool = False  # a printed "normal" contradicted by the numbers: worth a review


def value_bounds(value: str, decimal_comma: bool = False) -> tuple[float, str] | None:
    """A printed value as (number, comparator): `5.2` -> (5.2, ""), `<0.5` -> (0.5, "<")."""
    text = value.strip().rstrip("%").strip()
    number = parse_number(text, decimal_comma)
    if number is not None:
        return number, ""
    if m := _COMPARATOR_VALUE.match(text):
        bound = parse_number(m.group(2), decimal_comma)
        if bound is None:
            return None
        return bound, COMPARATORS[m.group(1)]
    return None


def interpret(
    value: str,
    reference: Range | None,
    flag: Flag | None = None,
    out_of_range_column: bool = False,
    decimal_comma: bool = False,
) -> Interpretation:
    """Interpretation and above/below per the contract's rules."""
    above, below = _position(value, reference, decimal_comma)
    if flag is not None:
        # The printed flag wins; a printed "normal" the numbers contradict is kept as printed
        # but marked, so the row goes to a reviewer.
        conflict = flag.interpretation == "normal" and bool(above or below)
        return Interpretation(flag.interpretation, above, below, conflict=conflict)
    if out_of_range_column or above or below:
        return Interpretation("abnormal", above, below)
    settled = [side for side, bound in ((above, reference and reference.high),
                                         (below, reference and reference.low)) if bound is not None]
    if settled and all(side is False for side in settled):
        return Interpretation("normal", above, below)
    return Interpretation("unknown", above, below)


def _position(value: str, reference: Range | None,
              decimal_comma: bool = False) -> tuple[bool | None, bool | None]:
    """(is_above_max, is_below_min), each None unless the printed value settles it."""
    parsed = value_bounds(value, decimal_comma)
    if reference is None or parsed is None:
        return None, None
    number, op = parsed
    high, low = reference.high, reference.low
    above = below = None
    if op == "":
        if high is not None:
            above = number > high or (number == high and not reference.high_inclusive)
        if low is not None:
            below = number < low or (number == low and not reference.low_inclusive)
    elif op.startswith("<"):  # the true value is below `number`
        if high is not None and number <= high:
            above = False
        if low is not None and (number <= low if op == "<" else number < low):
            below = True
    else:  # ">" or ">=": the true value is above `number`
        if high is not None and (number >= high if op == ">" else number > high):
            above = True
        if low is not None and number >= low:
            below = False
    return above, below
