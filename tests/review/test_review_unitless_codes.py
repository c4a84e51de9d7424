"""A number without a unit is expected when its auto-matched LOINC code is a unitless quantity."""

from loinc.annotate import annotate_report
from parser.models import LabReportResult, ReportData
from review.plausibility import unit_expected_but_missing


def _row(name: str, value: str, panel: str) -> LabReportResult:
    row = LabReportResult(test_name=name, value=value, type="numeric", source_panel_name=panel)
    annotate_report(ReportData(results=[row]))
    return row


def test_european_specific_gravity_needs_no_unit():
    for name in ("Densité", "Peso specifico", "Spezifisches Gewicht", "DENSIDAD"):
        row = _row(name, "1,015", "Examen des urines")
        assert row.loinc_match_status == "auto_match"
        assert not unit_expected_but_missing(row)


def test_a_concentration_without_its_unit_is_still_missing_one():
    row = _row("Créatinine", "80", "Biochimie")
    assert unit_expected_but_missing(row)
