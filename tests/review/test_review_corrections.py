"""Corrections as pure functions: what changes, what the audit gets, what is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest

from parser.models import LoincMatch, ReportData
from review import corrections, queue
from review.corrections import CorrectionError, RowNotFound
from tests.review.conftest import glucose_row

KNOWN = {
    "2345-7": LoincMatch(loinc_code="2345-7", loinc_name="Glucose SerPl", display_name="Glucose", confidence_score=0.5),
    "2339-0": LoincMatch(loinc_code="2339-0", loinc_name="Glucose Bld", display_name="Glucose Bld", confidence_score=0.4),
}


def lookup(code: str) -> LoincMatch | None:
    return KNOWN.get(code)


def two_rows() -> ReportData:
    return ReportData(results=[glucose_row(), glucose_row(test_name="Glucose PP", value="140", source_flag="H",
                                                          interpretation="abnormal", is_above_max_range=True)])


def test_value_change_is_recorded_and_derived_fields_follow():
    report = two_rows()
    changes = corrections.update_result(report, 0, {"value": "150"}, lookup)
    row = report.results[0]
    assert row.value == "150"
    assert (row.is_above_max_range, row.interpretation) == (True, "abnormal")
    assert {(c.field, c.before, c.after) for c in changes} == {
        ("value", "95", "150"),
        ("is_above_max_range", False, True),
        ("interpretation", "normal", "abnormal"),
    }


def test_confirming_a_low_confidence_value_raises_its_confidence():
    report = ReportData(results=[glucose_row(extraction_confidence=0.4, confidence_doubts=["no_header", "value_repaired"])])
    changes = corrections.update_result(report, 0, {"value": "95"}, lookup)
    assert report.results[0].extraction_confidence == 1.0
    assert report.results[0].confidence_doubts == []  # the person answered the reader's doubts
    assert [(c.field, c.before, c.after) for c in changes] == [("extraction_confidence", 0.4, 1.0)]


def test_printed_flag_still_wins_after_a_value_change():
    report = two_rows()
    corrections.update_result(report, 1, {"value": "90"}, lookup)
    assert report.results[1].interpretation == "abnormal"  # the lab printed H


def test_loinc_code_change_puts_the_chosen_code_first_with_full_confidence():
    report = two_rows()
    changes = corrections.update_result(report, 0, {"loinc_code": " 2339-0 "}, lookup)
    row = report.results[0]
    assert [m.loinc_code for m in row.loinc_matches] == ["2339-0", "2345-7"]
    assert row.loinc_matches[0].confidence_score == 1.0 and row.loinc_match_status == "auto_match"
    assert changes[0].before == {"loinc_code": "2345-7", "loinc_match_status": "auto_match"}
    assert changes[0].after == {"loinc_code": "2339-0", "loinc_match_status": "auto_match"}
    assert corrections.learned_alias(report, 0, changes) == ("Glucose", "mg/dL", "2339-0")


def test_confirming_a_doubtful_code_is_a_change_and_teaches_it():
    report = ReportData(results=[glucose_row(loinc_match_status="needs_review")])
    changes = corrections.update_result(report, 0, {"loinc_code": "2345-7"}, lookup)
    assert report.results[0].loinc_match_status == "auto_match"
    assert corrections.learned_alias(report, 0, changes) == ("Glucose", "mg/dL", "2345-7")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"loinc_code": "0000-0"}, "unknown LOINC code"),
        ({"loinc_code": ""}, "loinc_code must be"),
        ({"loinc_matches": []}, "cannot be changed"),
        ({"bbox": [1, 2]}, "invalid bbox"),
        ({"value": "150", "type": "not-a-type"}, "invalid type"),
        ({}, "no fields"),
    ],
)
def test_refused_changes_leave_the_row_untouched(changes, message):
    report = two_rows()
    before = report.model_dump()
    with pytest.raises(CorrectionError, match=message):
        corrections.update_result(report, 0, changes, lookup)
    assert report.model_dump() == before


def test_missing_row_is_not_found():
    with pytest.raises(RowNotFound):
        corrections.update_result(two_rows(), 5, {"value": "1"}, lookup)
    with pytest.raises(RowNotFound):
        corrections.remove_result(two_rows(), -1)


def test_add_and_remove_keep_whole_rows_for_the_audit():
    report = two_rows()
    added = corrections.add_result(report, {"test_name": "Urea", "value": "30", "units": "mg/dL",
                                            "min_reference_range": 15, "max_reference_range": 43}, lookup)
    assert added.result_index == 2 and added.after["test_name"] == "Urea"
    assert report.results[2].interpretation == "normal"
    removed = corrections.remove_result(report, 0)
    assert removed.before["test_name"] == "Glucose" and removed.after is None
    assert [r.test_name for r in report.results] == ["Glucose PP", "Urea"]
    with pytest.raises(CorrectionError, match="test_name"):
        corrections.add_result(report, {"value": "1"}, lookup)


def test_claim_policy():
    now = queue.utcnow()
    mine = queue.take_claim(None, "job", "ana", now)
    assert mine.expires_at == now + queue.CLAIM_TTL
    assert queue.take_claim(mine, "job", "ana", now + timedelta(minutes=5)).reviewer == "ana"  # renew
    with pytest.raises(queue.ClaimConflict):
        queue.take_claim(mine, "job", "ben", now + timedelta(minutes=29))
    assert queue.take_claim(mine, "job", "ben", now + timedelta(minutes=31)).reviewer == "ben"
