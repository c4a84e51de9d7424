"""A value the lab computes from other rows (eAG from HbA1c, non-HDL), printed as an aid without a range."""

from __future__ import annotations

from parser.models import ReportData
from review import evidence, risk
from review.routing import route_report
from tests.review.result_rows import row

A1C, EAG = "4548-4", "27353-2"


def _ranged(code: str, value: str, units: str, low: float, high: float):
    return row(code, value, units, min_reference_range=low, max_reference_range=high,
               reference_range_text=f"{low} - {high}")


def _diabetes_panel(eag: str = "177", eag_range: str | None = None) -> ReportData:
    eag_row = row(EAG, eag, "mg/dL")
    if eag_range:
        eag_row = row(EAG, eag, "mg/dL", reference_range_text=eag_range)
    return ReportData(results=[
        _ranged(A1C, "7.8", "%", 4.0, 5.6), eag_row,
        _ranged("2345-7", "96", "mg/dL", 70.0, 99.0), _ranged("2160-0", "0.9", "mg/dL", 0.7, 1.2)])


def test_eag_agreeing_with_the_hba1c_confirms_both():
    found = evidence.collect(_diabetes_panel("177"))  # 28.7 x 7.8 - 46.7 = 177.2
    assert "eAG from HbA1c" in found[0].confirmed and "eAG from HbA1c" in found[1].confirmed
    assert found[1].computed_agrees and not found[0].computed_agrees  # the computed row, not its part
    misread = evidence.collect(_diabetes_panel("117"))
    assert "eAG from HbA1c" not in misread[1].confirmed and not misread[1].computed_agrees
    assert not misread[1].contradicted  # confirm only: an older lab's formula may differ


def test_a_computed_value_agreeing_with_its_parts_lacks_no_range():
    features = dict(zip(risk.FEATURES, risk.described(_diabetes_panel("177"))[1][0]))
    assert features["range_missing"] == 0.0
    assert not route_report(_diabetes_panel("177")).needs_review
    # A value that does not agree, or a range text the reader could not use, still lacks one.
    misread = dict(zip(risk.FEATURES, risk.described(_diabetes_panel("117"))[1][0]))
    assert misread["range_missing"] == 1.0
    left_text = dict(zip(risk.FEATURES, risk.described(_diabetes_panel("177", "see note 3"))[1][0]))
    assert left_text["range_missing"] == 1.0
    assert route_report(_diabetes_panel("117")).needs_review


def test_a_cell_count_agreeing_with_its_share_still_lacks_its_range():
    # An analyser counts the cells and the lab prints their ranges: agreeing with % x WBC waives nothing.
    report = ReportData(results=[
        _ranged("26464-8", "6.4", "x10^3/uL", 4.0, 10.0), _ranged("26511-6", "58.0", "%", 40.0, 75.0),
        row("26499-4", "3.71", "x10^3/uL"), _ranged("2345-7", "96", "mg/dL", 70.0, 99.0)])
    found = evidence.collect(report)
    assert evidence.COUNT_RELATION in found[2].confirmed and not found[2].computed_agrees
    assert dict(zip(risk.FEATURES, risk.described(report)[2][0]))["range_missing"] == 1.0
