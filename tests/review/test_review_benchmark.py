"""The routing benchmark's judgement of rows: what counts as wrong, invented and missed."""

from __future__ import annotations

from benchmarks.review import judge, without_loinc_status
from parser.models import ReportData
from tests.review.conftest import glucose_row


def expected_row(name: str, value: str) -> dict:
    return {"test_name": name, "value": value, "units": "mg/dL", "min_reference_range": 70.0,
            "max_reference_range": 99.0, "interpretation": "normal", "page": 1}


def test_judge_counts_wrong_invented_and_missed_rows():
    expected = {"results": [expected_row("Glucose", "95"), expected_row("Urea", "30"), expected_row("Calcium", "9")]}
    predicted = ReportData(results=[
        glucose_row(),  # right
        glucose_row(test_name="Urea", value="80", interpretation="normal"),  # wrong value
        glucose_row(test_name="Invented thing", value="1"),  # not on the report
    ])

    wrong, missed = judge(expected, predicted)

    assert wrong == {1, 2}
    assert missed == 1  # Calcium


def test_without_loinc_status_leaves_the_report_untouched():
    report = ReportData(results=[glucose_row(loinc_match_status="no_match")])
    assert without_loinc_status(report).results[0].loinc_match_status == "auto_match"
    assert report.results[0].loinc_match_status == "no_match"
