"""Whole-document routing rules: a report read from an image goes to a person."""

from __future__ import annotations

from parser.models import ReportData
from review import corrections, document
from review.routing import REASON_LATER_TOP_UNREAD, REASON_OCR, REASON_TOP_UNREAD, route_report
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


def on_pages(ocr_pages: list[int], *rows: tuple[int, float]) -> ReportData:
    """(page, confidence) rows of a report whose parser read `ocr_pages` by OCR."""
    return ReportData(ocr_pages=ocr_pages, results=[
        glucose_row(test_name=f"Test {i}", page=page, extraction_confidence=confidence)
        for i, (page, confidence) in enumerate(rows)])


def test_the_parsers_pages_say_whether_a_report_was_read_from_an_image():
    # Recogniser-like confidences on a text layer: the parser read no page by OCR.
    digital = on_pages([], (1, 0.93), (1, 0.874), (1, 0.961), (2, 0.9))
    assert not document.read_by_ocr(digital)
    # A scan whose rows all carry text-layer doubt products (no header 0.85, missing unit 0.9).
    scanned = on_pages([1, 2], (1, 0.85), (1, 0.9), (2, 0.765), (2, 0.85))
    assert document.read_by_ocr(scanned)
    assert route_report(scanned, threshold=0.0, max_expected_wrong=100.0).reasons == [REASON_OCR]
    # Without the parser's word (a job stored before the service kept it), the confidences decide.
    assert document.read_by_ocr(digital.model_copy(update={"ocr_pages": None}))
    assert not document.read_by_ocr(scanned.model_copy(update={"ocr_pages": None}))


def test_a_scanned_page_among_text_pages_counts_by_its_share_of_rows():
    assert not document.read_by_ocr(on_pages([3], *[(1, 1.0)] * 9, (3, 0.9)))
    assert document.read_by_ocr(on_pages([3], *[(1, 1.0)] * 4, (3, 0.9)))


def test_ocr_rows_a_reviewer_corrected_or_added_are_no_longer_ocr_doubts():
    report = on_pages([1], (1, 0.93), (1, 0.85), (1, 0.97))
    lookup = lambda code: None  # noqa: E731 (no LOINC change here)
    corrections.update_result(report, 0, {"value": "96"}, lookup)
    corrections.update_result(report, 1, {"units": "mmol/L"}, lookup)
    assert [document.read_by_person(row) for row in report.results] == [True, True, False]
    assert document.read_by_ocr(report)  # one row still as the recogniser read it
    corrections.update_result(report, 2, {"reference_range_text": "70 - 99"}, lookup)
    assert not document.read_by_ocr(report)
    # A row a person adds was read by a person, whatever page they say it is on.
    corrections.add_result(report, {"test_name": "Urea", "value": "5", "page": 1}, lookup)
    assert not document.read_by_ocr(report)
    # A correction that only re-labels (the LOINC code, the panel) leaves the reading in doubt.
    relabelled = on_pages([1], (1, 0.93))
    corrections.update_result(relabelled, 0, {"source_panel_name": "Chemistry"}, lookup)
    assert document.read_by_ocr(relabelled)


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


def two_pages(first: float, second: float) -> ReportData:
    return ReportData(results=boxed(first, first + 0.02).results + boxed(second, second + 0.02, page=2).results)


def test_rows_of_a_later_page_starting_lower_than_on_page_1_mean_a_table_above_them_went_unread():
    assert document.later_rows_low(two_pages(0.28, 0.36))  # the one-row table on top of page 2 lost
    assert not document.later_rows_low(two_pages(0.28, 0.29))  # a line lower: a heading, not a table
    assert not document.later_rows_low(two_pages(0.28, 0.21))  # page 1's longer head
    assert route_report(two_pages(0.28, 0.36)).reasons == [REASON_LATER_TOP_UNREAD]
    assert route_report(two_pages(0.28, 0.29)).needs_review is False


def test_a_percentage_read_into_the_test_name_is_a_hard_doubt():
    rows = ReportData(results=[glucose_row(), glucose_row(test_name="Neutrophils 71.2 %")])
    decision = route_report(rows)
    assert decision.reasons == ["row 2: a measurement was read into the test name"]
    assert (1, "test_name") in decision.uncertain
    assert route_report(ReportData(results=[glucose_row(test_name="CD4 %")])).needs_review is False


def test_a_blood_count_heading_read_into_the_first_rows_name_is_a_hard_doubt():
    # (A glucose row by its code and value: the name alone decides.)
    for name in ("KLEINES BLUTBILD HÄMOGLOBIN", "Complete Haemogram WBC", "Fórmula leucocitaria (%) Neutrófilos",
                 "Differential Leucocyte Count (DLC) Segmented Neutrophils"):
        decision = route_report(ReportData(results=[glucose_row(test_name=name)]))
        assert decision.reasons == ["row 1: a panel heading was read into the test name"]
        assert (0, "test_name") in decision.uncertain
    # A heading word alone, or an acronym labs print before a row's name, is no heading read in.
    for name in ("Hémogramme", "Differential (%)", "CBC Hemoglobin", "White Blood Count (WBC)"):
        assert route_report(ReportData(results=[glucose_row(test_name=name)])).needs_review is False
