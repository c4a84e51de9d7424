"""Whole-document routing rules: a report read from an image goes to a person."""

from __future__ import annotations

from parser.models import ReportData
from review import document
from review.routing import REASON_OCR, REASON_TOP_UNREAD, route_report
from tests.review.conftest import glucose_row


def rows_at(*confidences: float) -> ReportData:
    return ReportData(results=[glucose_row(test_name=f"Test {i}", extraction_confidence=c)
                               for i, c in enumerate(confidences)])


def test_a_text_layer_report_is_not_read_by_ocr_even_with_doubted_rows():
    # 0.85 (no header), 0.765 (no header, missing unit), 0.7 * 0.9 (flag conflict, unread range)
    assert not document.read_by_ocr(rows_at(1.0, 0.85, 0.765, 0.63, 1.0))
    assert not document.read_by_ocr(rows_at(*[0.85] * 10))


def test_rows_carrying_recogniser_confidences_mean_ocr():
    assert document.read_by_ocr(rows_at(0.93, 0.874, 1.0, 0.961, 0.9))
    # One odd row among many is a coincidence, not a scan.
    assert not document.read_by_ocr(rows_at(0.93, *[1.0] * 9))
    assert not document.read_by_ocr(ReportData())


def test_an_ocr_report_goes_to_review_however_sure_its_rows_are():
    report = rows_at(0.99, 0.98, 0.995)
    assert route_report(report, threshold=0.0, max_expected_wrong=100.0).reasons == [REASON_OCR]
    assert route_report(report, threshold=0.0, max_expected_wrong=100.0, document_checks=False).needs_review is False


def test_a_corrected_report_is_no_longer_doubted_for_its_reading():
    # A reviewer's correction sets the row's confidence to 1.0 (review.corrections).
    assert not document.read_by_ocr(rows_at(1.0, 1.0, 1.0))


def boxed(*tops: float, page: int = 1) -> ReportData:
    return ReportData(results=[glucose_row(test_name=f"Test {i}", page=page, bbox=[0.07, top, 0.6, top + 0.012])
                               for i, top in enumerate(tops)])


def test_rows_starting_low_on_the_first_page_mean_a_table_above_went_unread():
    assert not document.first_rows_low(boxed(0.25, 0.27, 0.6))
    assert document.first_rows_low(boxed(0.52, 0.54))
    assert document.first_rows_low(boxed(0.2, 0.22, page=2))  # nothing read on page 1
    assert not document.first_rows_low(rows_at(1.0, 1.0))  # no boxes: nothing to say
    assert route_report(boxed(0.52, 0.54)).reasons == [REASON_TOP_UNREAD]
    assert route_report(boxed(0.25, 0.27)).needs_review is False


def test_a_percentage_read_into_the_test_name_is_a_hard_doubt():
    rows = ReportData(results=[glucose_row(), glucose_row(test_name="Neutrophils 71.2 %")])
    decision = route_report(rows)
    assert decision.reasons == ["row 2: a measurement was read into the test name"]
    assert (1, "test_name") in decision.uncertain
    assert route_report(ReportData(results=[glucose_row(test_name="CD4 %")])).needs_review is False
