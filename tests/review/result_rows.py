"""Result rows for evidence and routing tests: a row auto-matched to the LOINC code it is named by."""

from __future__ import annotations

from parser.models import LabReportResult, LoincMatch


def row(code: str, value: str, units: str | None, **changes) -> LabReportResult:
    fields = dict(test_name=code, value=value, units=units, loinc_match_status="auto_match",
                  loinc_matches=[LoincMatch(loinc_code=code, loinc_name=code, display_name=code, confidence_score=0.95)])
    fields.update(changes)
    return LabReportResult(**fields)
