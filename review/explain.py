"""Row-level notes for the reviewer: what exactly is wrong with a marked field, and what to believe.

Routing (`review.routing`) gives job-level reasons that are logged and so carry no values. These
notes quote the row's value and range, so they are shown to the reviewer only, never logged.
"""

from __future__ import annotations

from parser.flags import parse_flag
from parser.models import LabReportResult
from parser.ranges import parse_number
from review.routing import MARK_CONFIDENCE, SOURCE_FLAG


def number_text(number: float) -> str:
    """150000.0 -> "150000", 3.5 -> "3.5"."""
    return str(int(number)) if float(number).is_integer() else repr(number)


def range_text(low: float | None, high: float | None, dash: str = "-") -> str:
    if low is not None and high is not None:
        return f"{number_text(low)}{dash}{number_text(high)}"
    if high is not None:
        return f"< {number_text(high)}"
    if low is not None:
        return f"> {number_text(low)}"
    return ""


def _position(number: float, low: float | None, high: float | None) -> str | None:
    if high is not None and number > high:
        return "above"
    if low is not None and number < low:
        return "below"
    if low is not None and high is not None:
        return "inside"
    return None


def flag_note(result: LabReportResult) -> str | None:
    """Why a printed flag contradicts the value and range, and which one to trust; None when
    the row has no flag, no number or no range to compare."""
    flag = parse_flag(result.source_flag)
    number = parse_number(result.value)
    if flag is None or number is None:
        return None
    low, high = result.min_reference_range, result.max_reference_range
    position = _position(number, low, high)
    if position is None:
        return None
    said = f"printed flag '{flag.printed}' but {result.value} is {position} the range {range_text(low, high)}"
    # The reader's own confidence (not the team's row-risk threshold) says whether to doubt the value.
    if result.extraction_confidence < MARK_CONFIDENCE:
        advice = "the value was read with low confidence: check the value first, then the flag"
    elif flag.interpretation == "normal":
        advice = (
            "check the value and the flag; if the value is as printed, trust the range: "
            "the result is abnormal, not normal"
        )
    else:
        advice = "check the value and the flag; if the value is as printed, trust the range over the flag"
    return f"{said}: {advice}"


def field_notes(result: LabReportResult, fields: set[str]) -> dict[str, str]:
    """Notes for a row's marked `fields` that need more than the job-level reason."""
    notes = {}
    if SOURCE_FLAG in fields:
        note = flag_note(result)
        if note:
            notes[SOURCE_FLAG] = note
    return notes
