"""The anion gap's code follows the formula its printed value agrees with (loinc/formulas.py)."""

from loinc.annotate import annotate_report
from parser.models import LabReportResult, ReportData


def _report(gap: str, gap_units: str = "mmol/L") -> ReportData:
    rows = [("Sodium", "133", "mmol/L"), ("Potassium", "3.3", "mmol/L"), ("Chloride", "97", "mmol/L"),
            ("Bicarbonate", "27", "mmol/L"), ("Anion Gap", gap, gap_units)]
    report = ReportData(results=[LabReportResult(test_name=n, value=v, units=u) for n, v, u in rows])
    annotate_report(report)
    return report


def test_a_gap_equal_to_na_minus_cl_minus_hco3_is_the_code_without_potassium():
    gap = _report("9").results[-1]  # 133 - 97 - 27
    assert gap.loinc_matches[0].loinc_code == "33037-3"
    assert gap.loinc_match_status == "auto_match"


def test_a_gap_counting_potassium_is_anion_gap_4():
    gap = _report("12").results[-1]  # 133 + 3.3 - 97 - 27 = 12.3
    assert gap.loinc_matches[0].loinc_code == "1863-0"
    assert gap.loinc_match_status == "auto_match"


def test_a_gap_neither_formula_gives_is_left_to_the_matcher():
    other = _report("20").results[-1]
    assert other.loinc_match_status != "auto_match"
    assert {m.loinc_code for m in other.loinc_matches[:2]} == {"33037-3", "1863-0"}
