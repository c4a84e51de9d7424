"""Does a parsed report need a person before it completes? And which fields should they check?

The job runner calls `route_report` after the pipeline: a report with any uncertain
field goes to `pending_review`, the rest complete directly. An unsure row must be
seen by a person, never silently guessed, so every rule here errs towards review.
`DEFAULT_THRESHOLD` was chosen with `benchmarks/review.py` (see that file's docstring).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parser.models import LabReportResult, ReportData
from review import plausibility

# Below this extraction confidence (the reader's confidence in the row) a value, unit or
# range is treated as unread. Chosen with `python -m benchmarks.review` over the 66 parsable
# fixtures (1,118 rows), 2026-11-21 06:05 UTC, all rules on:
#   threshold  jobs skipping review  wrong rows in them  rows missing in them  wrong rows marked
#   0.50       10.6%                 3.81%               0.0%                  76%
#   0.70        9.1%                 0.00%               0.0%                  83%
#   0.80        7.6%                 0.00%               0.0%                  88%
#   0.90        7.6%                 0.00%               0.0%                  92%
#   0.95        7.6%                 0.00%               0.0%                  97%
# From 0.70 up no skipped job has a wrong or missing row; 0.90 keeps a margin above that and
# points the reviewer at 92% of the wrong rows (the row itself is marked) for the same skip
# share as 0.75-0.95. Jobs sent to review that really had a wrong/missing row: 61%.
DEFAULT_THRESHOLD = 0.90

# Field names as the review UI and the PATCH body spell them.
VALUE = "value"
UNITS = "units"
REFERENCE_RANGE = "reference_range"
LOINC_CODE = "loinc_code"
SOURCE_FLAG = "source_flag"
TEST_NAME = "test_name"

# Reasons, short and free of patient data (they are logged and shown to reviewers).
REASON_FORCED = "needs_human_review was requested"
REASON_NO_RESULTS = "no results were extracted"
REASON_LOINC = "LOINC match needs review or is missing"
REASON_LOW_CONFIDENCE = "text read with low confidence"
REASON_IMPLAUSIBLE = "value implausible for the analyte and unit"
REASON_FAR_OUTSIDE = "value more than ten times outside its reference range"
REASON_FLAG = "printed flag contradicts the reference range"
REASON_MISSING_UNIT = "unit missing where one is expected"
REASON_MISSING_RANGE = "reference range missing while the report prints ranges"
REASON_INVERTED_RANGE = "reference range minimum is above its maximum"
REASON_EMPTY = "empty test name or value"


@dataclass
class RoutingDecision:
    needs_review: bool
    reasons: list[str] = field(default_factory=list)
    # (result index, field name) pairs a reviewer should check, in row order.
    uncertain: list[tuple[int, str]] = field(default_factory=list)


def uncertain_fields(
    result: LabReportResult, *, threshold: float = DEFAULT_THRESHOLD, ranges_usual: bool = False
) -> list[tuple[str, str]]:
    """(field, reason) pairs of one result that a person should check.

    `ranges_usual` says the rest of the report prints reference ranges, so a missing one
    is suspect (see `plausibility.ranges_are_usual`).
    """
    found: list[tuple[str, str]] = []
    if not result.test_name.strip():
        found.append((TEST_NAME, REASON_EMPTY))
    if not result.value.strip():
        found.append((VALUE, REASON_EMPTY))
    if result.extraction_confidence < threshold:
        found.append((VALUE, REASON_LOW_CONFIDENCE))
        if result.units:
            found.append((UNITS, REASON_LOW_CONFIDENCE))
        if plausibility.has_range(result):
            found.append((REFERENCE_RANGE, REASON_LOW_CONFIDENCE))
    if plausibility.value_is_plausible(result) is False:
        found.append((VALUE, REASON_IMPLAUSIBLE))
    if plausibility.far_outside_range(result):
        found.append((VALUE, REASON_FAR_OUTSIDE))
    if plausibility.flag_contradicts_range(result):
        found.append((SOURCE_FLAG, REASON_FLAG))
    if plausibility.unit_expected_but_missing(result):
        found.append((UNITS, REASON_MISSING_UNIT))
    if plausibility.range_expected_but_missing(result, ranges_usual):
        found.append((REFERENCE_RANGE, REASON_MISSING_RANGE))
    if plausibility.range_is_inverted(result):
        found.append((REFERENCE_RANGE, REASON_INVERTED_RANGE))
    if result.loinc_match_status != "auto_match":
        found.append((LOINC_CODE, REASON_LOINC))
    return found


def route_report(
    report: ReportData, *, threshold: float = DEFAULT_THRESHOLD, forced: bool = False
) -> RoutingDecision:
    """Decide whether `report` goes to review; list its uncertain fields either way.

    `threshold` is the team's extraction-confidence threshold; `forced` is the job's
    `needs_human_review` flag.
    """
    reasons: list[str] = []
    uncertain: list[tuple[int, str]] = []
    if forced:
        reasons.append(REASON_FORCED)
    if not report.results:
        reasons.append(REASON_NO_RESULTS)
    ranges_usual = plausibility.ranges_are_usual(report.results)
    for index, result in enumerate(report.results):
        for field_name, reason in uncertain_fields(result, threshold=threshold, ranges_usual=ranges_usual):
            if (index, field_name) not in uncertain:
                uncertain.append((index, field_name))
            if reason not in reasons:
                reasons.append(reason)
    return RoutingDecision(needs_review=bool(reasons), reasons=reasons, uncertain=uncertain)
