"""One test read twice, once as something else: a line that is not a result was read as a row."""

from __future__ import annotations

from parser.models import ReportData
from review import repeats
from review.routing import route_report
from tests.review.conftest import glucose_row


def report(*rows) -> ReportData:
    return ReportData(ocr_pages=[], results=list(rows))


def clean(read: ReportData) -> bool:
    return not route_report(read, threshold=0.0, max_expected_wrong=100.0).needs_review


def test_an_interpretation_line_read_as_a_second_row_of_a_test_sends_the_job_to_review():
    # "Diagnosis of diabetes: glucose >= 126 mg/dL" under the results: a number without a range.
    quoted = glucose_row(test_name="Diagnosis of diabetes: glucose >=", value="126", min_reference_range=None,
                         max_reference_range=None, bbox=[0.1, 0.5, 0.9, 0.55])
    read = report(glucose_row(), quoted)
    assert repeats.repeated_tests(read) == [repeats.REASON]
    decision = route_report(read, threshold=0.0, max_expected_wrong=100.0)
    assert decision.needs_review and decision.reasons == [repeats.REASON]
    # A whole-document rule: "rows only" leaves it out.
    assert not route_report(read, threshold=0.0, max_expected_wrong=100.0, document_checks=False).needs_review


def test_a_word_or_a_censored_value_under_the_tests_code_is_something_else():
    word = glucose_row(test_name="Glucose, urine", value="absent", min_reference_range=None, max_reference_range=None)
    assert repeats.repeated_tests(report(glucose_row(), word)) == [repeats.REASON]
    censored = glucose_row(test_name="Diabetes if", value=">=126")
    assert repeats.repeated_tests(report(glucose_row(), censored)) == [repeats.REASON]


def test_a_test_printed_twice_the_same_way_is_not_an_extra_row():
    # Two panels sharing the analyte: each a number in its unit with its range.
    assert clean(report(glucose_row(), glucose_row(test_name="Glycaemia", value="101")))
    assert clean(report(glucose_row(), glucose_row(test_name="Glycaemia (SI)", value="5.6", units="mmol/L",
                                                   min_reference_range=3.9, max_reference_range=5.5)))
    # A repeated measurement under one name (case and spaces aside), and one value under two names
    # (a summary of the results out of range repeating a row).
    assert clean(report(glucose_row(test_name="GLU"), glucose_row(test_name=" glu ", value="absent")))
    assert clean(report(glucose_row(value="126"), glucose_row(test_name="Glucose, fasting", value="126", units="")))


def test_rows_of_different_tests_or_without_a_code_say_nothing():
    other = glucose_row(test_name="Glucose, urine", value="absent")
    other.loinc_matches = [other.loinc_matches[0].model_copy(update={"loinc_code": "2350-7"})]
    assert repeats.repeated_tests(report(glucose_row(), other)) == []
    assert repeats.repeated_tests(report(glucose_row(), glucose_row(test_name="Glycemia", value="<5",
                                                                    loinc_matches=[]))) == []
