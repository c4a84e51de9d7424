"""A reviewer's corrections applied to a report, each returned as an audit-ready change.

Pure functions over `ReportData`: the service loads the job's data, calls these, stores
the data and one audit entry per `Change`. Errors are `CorrectionError` with a message
a person can act on (the API answers 422, or 404 for a missing row).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from pydantic import ValidationError

from parser.flags import interpret, parse_flag
from parser.models import LabReportResult, LoincMatch, LoincMatchStatus, ReportData, ResultMetadata
from parser.ranges import Range
from review.document import PERSON_READ_CONFIDENCE
from review.routing import LOINC_CODE, REFERENCE_RANGE

# A LOINC code to its match (or None when the code is unknown); injected by the service.
LoincLookup = Callable[[str], LoincMatch | None]
# A row to the matcher's answer for its (corrected) name and unit: status and candidates.
LoincRematch = Callable[[LabReportResult], tuple[LoincMatchStatus, list[LoincMatch]]]

# Report metadata a reviewer may correct; audit entries name them "metadata.<field>".
METADATA_FIELDS = frozenset(ResultMetadata.model_fields)
METADATA_PREFIX = "metadata."
_DATE_FIELDS = frozenset({"dob", "date_reported", "date_collected"})
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# Row fields whose correction changes what the LOINC matcher sees.
_MATCHER_INPUTS = frozenset({"test_name", "units"})

# Fields a reviewer may set directly; the LOINC match is set through `loinc_code`.
EDITABLE_FIELDS = frozenset(LabReportResult.model_fields) - {"loinc_matches"}
# Fields derived from value and range; recomputed unless the reviewer sets them.
_DERIVED = ("is_above_max_range", "is_below_min_range", "interpretation")
_RANGE_INPUTS = frozenset({"value", "min_reference_range", "max_reference_range", "source_flag", "type"})
# Fields a person reads off the page: once corrected, the row was read with full confidence
# (and is no longer an OCR doubt: review.document.read_by_person).
_READ_FIELDS = frozenset(
    {"value", "units", "min_reference_range", "max_reference_range", "reference_range_text"}
)


class CorrectionError(Exception):
    status_code = 422

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class RowNotFound(CorrectionError):
    status_code = 404


@dataclass(frozen=True)
class Change:
    """One field of one row changed: what the audit trail keeps."""

    action: str  # "update", "rematch", "add", "delete", "confirm", "complete"
    result_index: int | None
    field: str | None
    before: Any
    after: Any


def _row(report: ReportData, index: int) -> LabReportResult:
    if not 0 <= index < len(report.results):
        raise RowNotFound(f"result {index} does not exist; the report has {len(report.results)} rows")
    return report.results[index]


def _loinc_state(result: LabReportResult) -> dict[str, Any]:
    """The LOINC choice of a row as the audit shows it: best code and its status."""
    code = result.loinc_matches[0].loinc_code if result.loinc_matches else None
    return {"loinc_code": code, "loinc_match_status": result.loinc_match_status}


def _recompute_derived(result: LabReportResult) -> None:
    """Range flags and interpretation follow the corrected value, by the parser's own rules."""
    low, high = result.min_reference_range, result.max_reference_range
    reference = None if low is None and high is None else Range(low, high)
    derived = interpret(result.value, reference, parse_flag(result.source_flag))
    result.is_above_max_range = derived.is_above_max_range
    result.is_below_min_range = derived.is_below_min_range
    result.interpretation = derived.interpretation


def _set_loinc(result: LabReportResult, code: str, lookup: LoincLookup) -> None:
    code = code.strip()
    match = lookup(code)
    if match is None:
        raise CorrectionError(f"unknown LOINC code {code!r}")
    chosen = match.model_copy(update={"confidence_score": 1.0})
    others = [m for m in result.loinc_matches if m.loinc_code != chosen.loinc_code]
    result.loinc_matches = [chosen, *others][:5]
    result.loinc_match_status = "auto_match"


def _rematch(row: LabReportResult, index: int, rematch: LoincRematch) -> Change:
    """The matcher's new candidates for a corrected name or unit (a person still confirms them)."""
    before = _rematch_state(row)
    status, matches = rematch(row)
    row.loinc_matches, row.loinc_match_status = matches[:5], status
    return Change("rematch", index, LOINC_CODE, before, _rematch_state(row))


def _rematch_state(row: LabReportResult) -> dict[str, Any]:
    """Best code, status and its score: a re-match may keep the code with another confidence."""
    score = row.loinc_matches[0].confidence_score if row.loinc_matches else None
    return {**_loinc_state(row), "confidence_score": score}


def update_result(
    report: ReportData,
    index: int,
    changes: dict[str, Any],
    lookup: LoincLookup,
    rematch: LoincRematch | None = None,
) -> list[Change]:
    """Apply `changes` (field -> new value, `loinc_code` for the match) to row `index`.

    A corrected test name or unit runs the LOINC matcher again (`rematch`) unless the same
    change sets the code.
    """
    if not changes:
        raise CorrectionError("no fields to change were given")
    unknown = sorted(set(changes) - EDITABLE_FIELDS - {LOINC_CODE})
    if unknown:
        raise CorrectionError(f"these fields cannot be changed: {', '.join(unknown)}")
    original = _row(report, index)
    # Work on a copy so a rejected change leaves the row as it was.
    row = original.model_copy(deep=True)
    recorded: list[Change] = []
    try:
        for name, new in changes.items():
            if name == LOINC_CODE:
                if not isinstance(new, str) or not new.strip():
                    raise CorrectionError("loinc_code must be a non-empty string")
                before = _loinc_state(row)
                _set_loinc(row, new, lookup)
                recorded.append(Change("update", index, LOINC_CODE, before, _loinc_state(row)))
                continue
            before = getattr(row, name)
            setattr(row, name, new)
            recorded.append(Change("update", index, name, before, getattr(row, name)))
    except ValidationError as error:
        first = error.errors()[0]
        raise CorrectionError(f"invalid {first['loc'][0] if first['loc'] else 'value'}: {first['msg']}") from None
    if _READ_FIELDS & set(changes) and "extraction_confidence" not in changes:
        before = row.extraction_confidence
        row.extraction_confidence = PERSON_READ_CONFIDENCE
        recorded.append(Change("update", index, "extraction_confidence", before, PERSON_READ_CONFIDENCE))
        row.confidence_doubts = []  # the reader's doubts, answered by the person (the change above says so)
    if _RANGE_INPUTS & set(changes) and not set(_DERIVED) & set(changes):
        derived_before = {name: getattr(row, name) for name in _DERIVED}
        _recompute_derived(row)
        for name, before in derived_before.items():
            recorded.append(Change("update", index, name, before, getattr(row, name)))
    matcher_input_changed = any(c.field in _MATCHER_INPUTS for c in recorded if c.before != c.after)
    if rematch is not None and matcher_input_changed and LOINC_CODE not in changes:
        recorded.append(_rematch(row, index, rematch))
    report.results[index] = row
    return [c for c in recorded if c.before != c.after]


def add_result(report: ReportData, fields: dict[str, Any], lookup: LoincLookup) -> Change:
    """Append a row the parser missed; returns the change with the full new row as `after`."""
    fields = dict(fields)
    code = fields.pop(LOINC_CODE, None)
    unknown = sorted(set(fields) - EDITABLE_FIELDS)
    if unknown:
        raise CorrectionError(f"these fields cannot be set: {', '.join(unknown)}")
    # A row added by a person was read by a person: full confidence.
    fields.setdefault("extraction_confidence", PERSON_READ_CONFIDENCE)
    try:
        row = LabReportResult(**fields)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "row"
        raise CorrectionError(f"invalid {where}: {first['msg']}") from None
    if code:
        _set_loinc(row, str(code), lookup)
    if not set(_DERIVED) & set(fields):
        _recompute_derived(row)
    report.results.append(row)
    index = len(report.results) - 1
    return Change("add", index, None, None, row.model_dump(mode="json"))


def remove_result(report: ReportData, index: int) -> Change:
    """Remove a row the parser invented; the audit keeps the whole row as `before`."""
    row = _row(report, index)
    del report.results[index]
    return Change("delete", index, None, row.model_dump(mode="json"), None)


def update_metadata(report: ReportData, changes: dict[str, Any]) -> list[Change]:
    """Correct report metadata (patient, dates, lab, specimen); "" clears a field.

    Dates must be written `YYYY-MM-DD`: a person reading the page can resolve what the parser
    could not, and the contract carries no other form.
    """
    if not changes:
        raise CorrectionError("no fields to change were given")
    unknown = sorted(set(changes) - METADATA_FIELDS)
    if unknown:
        raise CorrectionError(f"these report fields cannot be changed: {', '.join(unknown)}")
    values = {}
    for name, new in changes.items():
        if isinstance(new, str):
            new = new.strip() or None
        if name in _DATE_FIELDS and new is not None:
            _check_date(name, new)
        values[name] = new
    try:
        updated = ResultMetadata.model_validate({**report.metadata.model_dump(), **values})
    except ValidationError as error:
        first = error.errors()[0]
        raise CorrectionError(f"invalid {first['loc'][0] if first['loc'] else 'value'}: {first['msg']}") from None
    recorded = [
        Change("update", None, METADATA_PREFIX + name, getattr(report.metadata, name), getattr(updated, name))
        for name in changes
    ]
    report.metadata = updated
    return [c for c in recorded if c.before != c.after]


def _check_date(name: str, text: Any) -> None:
    try:
        valid = isinstance(text, str) and bool(_ISO_DATE.match(text)) and bool(date.fromisoformat(text))
    except ValueError:
        valid = False
    if not valid:
        raise CorrectionError(f"{name} must be a real date written YYYY-MM-DD (for example 1980-02-28)")


def field_value(row: LabReportResult, field: str) -> Any:
    """A marked field's current value as the audit keeps it (the range as [low, high])."""
    if field == REFERENCE_RANGE:
        return [row.min_reference_range, row.max_reference_range]
    if field == LOINC_CODE:
        return _loinc_state(row)
    return getattr(row, field, None)


def confirmations(report: ReportData, uncertain: list[tuple[int, str]]) -> list[Change]:
    """One "confirm" change per field still marked uncertain at completion: the reviewer
    confirmed it was read as it stands (the value confirmed is kept as `before`)."""
    return [
        Change("confirm", index, field, field_value(report.results[index], field), "confirmed as read")
        for index, field in uncertain
        if 0 <= index < len(report.results)
    ]


def learned_alias(report: ReportData, index: int, changes: list[Change]) -> tuple[str, str | None, str] | None:
    """(printed test name, printed unit, code) when a reviewer set a row's LOINC code.

    The service stores it as a team alias so the same printed name auto-matches next time.
    A re-run of the matcher ("rematch") teaches nothing: no person chose that code.
    """
    for change in changes:
        if change.action == "update" and change.field == LOINC_CODE and change.result_index == index and change.after:
            row = report.results[index]
            return row.test_name, row.units, change.after["loinc_code"]
    return None
