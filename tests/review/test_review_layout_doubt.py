"""The parser's layout doubt (a text-page table without a header line: x 0.85) is no doubt of the row."""

from __future__ import annotations

from parser.models import ReportData
from review import risk
from review.routing import route_report
from tests.review.result_rows import row


def _ranged(code: str, value: str, units: str, low: float, high: float, confidence: float):
    return row(code, value, units, min_reference_range=low, max_reference_range=high,
               reference_range_text=f"{low} - {high}", extraction_confidence=confidence, page=1)


def _chemistry(confidence: float, ocr_pages: list[int] | None) -> ReportData:
    return ReportData(ocr_pages=ocr_pages, results=[
        _ranged("2345-7", "96", "mg/dL", 70.0, 99.0, confidence), _ranged("2160-0", "0.9", "mg/dL", 0.7, 1.2, confidence),
        _ranged("2951-2", "140", "mmol/L", 135.0, 145.0, confidence), _ranged("1742-6", "24", "U/L", 7.0, 56.0, confidence)])


def test_a_text_page_row_is_read_without_its_layout_doubt():
    assert risk.model_confidence(row("2345-7", "96", "mg/dL", extraction_confidence=0.85), True) == 1.0
    assert risk.model_confidence(row("2345-7", "96", "mg/dL", extraction_confidence=0.722), True) == 1.0  # twice
    # A missing unit or a flag conflict stays; only the layout factor goes.
    assert risk.model_confidence(row("2345-7", "96", "mg/dL", extraction_confidence=0.765), True) == 0.9
    assert risk.model_confidence(row("2345-7", "96", "mg/dL", extraction_confidence=0.9), True) == 0.9
    assert risk.model_confidence(row("2345-7", "96", "mg/dL", extraction_confidence=0.7), True) == 0.7
    # An OCR row's confidence is the recogniser's: read as it is.
    assert risk.model_confidence(row("2345-7", "96", "mg/dL", extraction_confidence=0.85), False) == 0.85


def test_a_confirmed_text_row_without_a_table_header_needs_no_person():
    digital = _chemistry(0.85, ocr_pages=[])
    assert not route_report(digital).needs_review
    assert min(r.p_right for r in risk.assess(digital)) == min(r.p_right for r in risk.assess(_chemistry(1.0, [])))
    # The same confidences on an OCR page keep their doubt (and the page sends the job to a person).
    scanned = _chemistry(0.85, ocr_pages=[1])
    assert min(r.p_right for r in risk.assess(scanned)) < min(r.p_right for r in risk.assess(digital))
