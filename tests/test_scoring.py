"""The scoring module on small hand-made reports: matching, counts, field and metadata rules."""

from __future__ import annotations

import pytest

from benchmarks.scoring import (Score, match_rows, normalize_unit, same_metadata, same_value,
                                score_failure, score_report)
from parser.models import LabReportResult, ReportData, ResultMetadata


def row(name, value, units="mg/dL", lo=None, hi=None, interp="normal", page=1, **extra) -> dict:
    return {"test_name": name, "value": value, "units": units, "min_reference_range": lo,
            "max_reference_range": hi, "interpretation": interp, "page": page, **extra}


def report(*rows, **metadata) -> dict:
    return {"metadata": metadata, "results": list(rows)}


EXPECTED = report(
    row("Glucose", "92", lo=70, hi=99),
    row("Sodium", "139", "mmol/L", 136, 145),
    row("Potassium", "5.6", "mmol/L", 3.5, 5.1, "abnormal"),
    patient_first_name="Jane", patient_last_name="Doe", gender="female",
)


def test_identical_report_scores_perfectly():
    score = score_report(EXPECTED, EXPECTED)
    assert score.summary()["recall"] == score.summary()["precision"] == 1.0
    assert all(score.accuracy(f) == 1.0 for f in ("value", "unit", "range", "interpretation"))
    assert score.metadata_accuracy == 1.0 and score.differences == []


def test_missing_and_extra_rows_count_against_recall_and_precision():
    predicted = report(EXPECTED["results"][0], EXPECTED["results"][1], row("Page 1 of 2", "1"))
    score = score_report(EXPECTED, predicted)
    assert (score.expected_rows, score.predicted_rows, score.matched_rows) == (3, 3, 2)
    assert score.recall == pytest.approx(2 / 3) and score.precision == pytest.approx(2 / 3)
    assert any("missing row" in d and "Potassium" in d for d in score.differences)
    assert any("extra row" in d and "Page 1 of 2" in d for d in score.differences)


def test_accepts_pydantic_report():
    predicted = ReportData(
        metadata=ResultMetadata(patient_first_name="Jane"),
        results=[LabReportResult(test_name="Glucose", value="92", units="mg/dL", min_reference_range=70,
                                 max_reference_range=99, interpretation="normal", page=1)],
    )
    score = score_report(EXPECTED, predicted)
    assert score.matched_rows == 1 and score.accuracy("value") == 1.0


def test_fields_are_judged_separately_and_differences_name_them():
    predicted = report(
        row("Glucose", "9.2", lo=70, hi=99),  # wrong value
        row("Sodium", "139", "mEq/L", 136, 145),  # wrong unit
        row("Potassium", "5.6", "mmol/L", 3.5, 5.0, "normal"),  # wrong max and interpretation
    )
    score = score_report(EXPECTED, predicted, label="f.pdf")
    assert score.matched_rows == 3
    assert score.accuracy("value") == pytest.approx(2 / 3)
    assert score.accuracy("unit") == pytest.approx(2 / 3)
    assert score.accuracy("range") == pytest.approx(2 / 3)
    assert score.accuracy("interpretation") == pytest.approx(2 / 3)
    text = "\n".join(score.differences)
    assert "f.pdf: p1 'Glucose' value: expected ('92',) got ('9.2',)" in text
    assert "'Potassium' range" in text and "'Sodium' unit" in text


def test_range_needs_both_ends():
    one_sided = report(row("Cholesterol", "180", hi=200))
    assert score_report(one_sided, report(row("Cholesterol", "180", hi=200))).accuracy("range") == 1.0
    assert score_report(one_sided, report(row("Cholesterol", "180", lo=0, hi=200))).accuracy("range") == 0.0


def test_repeated_names_on_a_page_pair_by_value_and_order():
    expected = report(row("WBC", "7.2", "x10^3/uL"), row("Hemoglobin", "14.1"), row("WBC", "2", "/HPF"))
    predicted = report(row("WBC", "2", "/HPF"), row("Hemoglobin", "14.1"), row("WBC", "7.2", "x10^3/uL"))
    assert match_rows(expected["results"], predicted["results"]) == [(0, 2), (1, 1), (2, 0)]


def test_rows_on_different_pages_do_not_match():
    assert match_rows([row("Sodium", "139", page=1)], [row("Sodium", "139", page=2)]) == []
    # A parser that does not know the page still gets matched.
    assert match_rows([row("Sodium", "139", page=1)], [row("Sodium", "139", page=None)]) == [(0, 0)]


def test_names_match_fuzzily_but_not_across_analytes():
    assert match_rows([row("Haemoglobin", "14")], [row("Hemoglobin", "14")]) == [(0, 0)]
    assert match_rows([row("HEPATITIS B SURFACE ANTIGEN;HBsAg, SERUM", "Reactive")],
                      [row("Hepatitis B Surface Antigen; HBsAg, Serum", "Reactive")]) == [(0, 0)]
    assert match_rows([row("Sodium", "139")], [row("Potassium", "139")]) == []
    # Close in spelling, different analytes.
    assert match_rows([row("HDL Cholesterol", "45")], [row("LDL Cholesterol", "45")]) == []
    assert match_rows([row("Free T3", "3.1")], [row("Free T4", "3.1")]) == []
    assert match_rows([row("AST (SGOT)", "20")], [row("ALT (SGPT)", "20")]) == []
    # One side merely longer is still the same row.
    assert match_rows([row("Hemoglobin (Hb)", "13")], [row("Hemoglobin", "13")]) == [(0, 0)]
    assert match_rows([row("Sodium", "139")], [row("Sodium 139 mmol/L 136-145 Chloride", "139")]) == []


@pytest.mark.parametrize("expected, predicted, same", [
    ("4,2", "4.2", True), ("150,000", "150000", True), ("< 0.5", "<0.5", True),
    ("Negative", "NEGATIVE", True), ("13.00", "13", False), ("4,2", "42", False), ("1+", "1", False),
])
def test_value_equality(expected, predicted, same):
    assert same_value(expected, predicted) is same


@pytest.mark.parametrize("a, b, same", [
    ("µmol/L", "umol/l", True), ("x10^3/uL", "x10³/µL", True), ("mL/min/1.73 m2", "mL/min/1.73m2", True),
    ("mg/dL", "g/dL", False), ("", None, True), ("%", None, False),
])
def test_unit_normalization(a, b, same):
    assert (normalize_unit(a) == normalize_unit(b)) is same


def test_metadata_rules():
    assert same_metadata("patient_first_name", "Yashvi", "Yashvi M.")
    assert not same_metadata("patient_first_name", "Yashvi", "Patel")
    assert same_metadata("lab_name", "Dr Lal PathLabs", "NRL - Dr Lal PathLabs Ltd")
    assert not same_metadata("lab_name", "Dr Lal PathLabs", "Drlogy Pathology Lab")
    assert same_metadata("specimen_number", "075-483-2219-0", "0754832219 0")
    assert not same_metadata("dob", "1961-03-14", "1961-03-15")
    assert not same_metadata("dob", "1961-03-14", None)


def test_metadata_counts_only_fields_either_side_fills():
    predicted = report(*EXPECTED["results"], patient_first_name="Jane", patient_last_name="Doe",
                       gender="male", dob="1961-03-14")
    score = score_report(EXPECTED, predicted)
    # first, last, gender (wrong), dob (invented): 2 of 4; the empty fields are not counted.
    assert (score.metadata_hits, score.metadata_total) == (2, 4)


def test_failure_scoring_and_aggregation():
    right = score_failure("not_english", "not_english", label="es.pdf")
    wrong = score_failure("not_english", None, label="es2.pdf")
    assert right.failures_right == 1 and not right.differences
    assert "es2.pdf: expected failure 'not_english', got None" in wrong.differences
    total = Score().add(score_report(EXPECTED, EXPECTED)).add(score_report(EXPECTED, report())).add(wrong)
    assert (total.expected_rows, total.matched_rows, total.failures_expected, total.failures_right) == (6, 3, 1, 0)
    assert total.recall == 0.5 and total.precision == 1.0
