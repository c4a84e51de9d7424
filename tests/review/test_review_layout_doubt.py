"""The parser's layout doubt (a text-page table without a header line: x 0.85) is no doubt of the row."""

from __future__ import annotations

from parser import models
from parser.layout import RawRow
from parser.models import ReportData
from parser.normalize import Context, normalize_row
from review import risk
from review.routing import route_report
from tests.review.result_rows import row


NO_HEADER, AMBIGUOUS = models.DOUBT_NO_HEADER, models.DOUBT_AMBIGUOUS_SPLIT


def _ranged(code: str, value: str, units: str, low: float, high: float, confidence: float):
    return row(code, value, units, min_reference_range=low, max_reference_range=high,
               reference_range_text=f"{low} - {high}", extraction_confidence=confidence, page=1,
               confidence_doubts=[NO_HEADER] if confidence < 1.0 else [])


def _chemistry(confidence: float, ocr_pages: list[int] | None) -> ReportData:
    return ReportData(ocr_pages=ocr_pages, results=[
        _ranged("2345-7", "96", "mg/dL", 70.0, 99.0, confidence), _ranged("2160-0", "0.9", "mg/dL", 0.7, 1.2, confidence),
        _ranged("2951-2", "140", "mmol/L", 135.0, 145.0, confidence), _ranged("1742-6", "24", "U/L", 7.0, 56.0, confidence)])


def _read(confidence: float, doubts: list[str], text_layer: bool = True) -> float:
    glucose = row("2345-7", "96", "mg/dL", extraction_confidence=confidence, confidence_doubts=doubts)
    return risk.model_confidence(glucose, text_layer)


def test_a_text_page_row_is_read_without_its_layout_doubt():
    assert _read(0.85, [NO_HEADER]) == 1.0
    assert _read(0.722, [AMBIGUOUS, NO_HEADER]) == 1.0  # twice
    # A missing unit or a flag conflict stays; only the layout factor goes.
    assert _read(0.765, [NO_HEADER, models.DOUBT_UNIT_MISSING]) == 0.9
    assert _read(0.9, [models.DOUBT_UNIT_MISSING]) == 0.9
    assert _read(0.7, [models.DOUBT_FLAG_CONFLICT]) == 0.7
    # An OCR row's confidence is the recogniser's: read as it is.
    assert _read(0.85, [NO_HEADER], text_layer=False) == 0.85


def test_the_layout_doubt_is_the_rows_record_not_a_guess_from_the_number():
    # A repaired value with a flag conflict (0.8 x 0.7) is no layout doubt, though 0.56 / 0.85 is a product
    # of other factors (0.774 was read before the row said why).
    assert _read(0.56, [models.DOUBT_VALUE_REPAIRED, models.DOUBT_FLAG_CONFLICT]) == 0.56
    assert _read(0.729, [models.DOUBT_UNIT_MISSING, models.DOUBT_RANGE_UNREAD, models.DOUBT_RANGE_REPAIRED]) == 0.729
    # A confidence nobody explained (a row stored before rows said why) is read as it is.
    assert _read(0.85, []) == 0.85
    # A row a person read again (confidence 1) is read as sure, whatever doubts it still carries.
    assert _read(1.0, [NO_HEADER]) == 1.0


def test_the_parser_records_why_it_lowered_a_rows_confidence():
    headless = normalize_row(RawRow(page=1, name="Glucose", value="92", from_header=False, unit_column=True), Context())
    assert headless.confidence_doubts == [NO_HEADER, models.DOUBT_UNIT_MISSING]
    assert headless.extraction_confidence == round(0.85 * 0.9, 3)
    headed = normalize_row(RawRow(page=1, name="Glucose", value="92", units="mg/dL", unit_column=True), Context())
    assert (headed.confidence_doubts, headed.extraction_confidence) == ([], 1.0)


def test_a_confirmed_text_row_without_a_table_header_needs_no_person():
    digital = _chemistry(0.85, ocr_pages=[])
    assert not route_report(digital).needs_review
    assert min(r.p_right for r in risk.assess(digital)) == min(r.p_right for r in risk.assess(_chemistry(1.0, [])))
    # The same confidences on an OCR page keep their doubt (and the page sends the job to a person).
    scanned = _chemistry(0.85, ocr_pages=[1])
    assert min(r.p_right for r in risk.assess(scanned)) < min(r.p_right for r in risk.assess(digital))


def test_a_missing_unit_is_no_doubt_where_the_test_takes_none():
    # "RAPPORT CT/HDL" (9830-1, a mass ratio) and "Densidad" (2965-2, specific gravity): the parser's
    # unitless names are English; review's own check knows the test takes no unit.
    for code, name, value in (("9830-1", "RAPPORT CT/HDL", "4,0"), ("2965-2", "Densidad", "1,001")):
        unitless = row(code, value, None, test_name=name, extraction_confidence=0.9,
                       confidence_doubts=[models.DOUBT_UNIT_MISSING])
        assert risk.model_confidence(unitless, True) == 1.0
        assert risk.model_confidence(unitless, False) == 0.9  # an OCR page: measured on text pages only
    glucose = row("2345-7", "96", None, test_name="Glucose", extraction_confidence=0.765,
                  confidence_doubts=[NO_HEADER, models.DOUBT_UNIT_MISSING])
    assert risk.model_confidence(glucose, True) == 0.9  # a concentration lost its unit: the doubt stays


def test_a_row_doubted_for_its_loinc_code_alone_says_so_not_low_confidence():
    from review.routing import REASON_LOW_CONFIDENCE, route_report as route

    headless = _ranged("2345-7", "96", "mg/dL", 70.0, 99.0, 0.85)
    unsure = headless.loinc_matches[0].model_copy(update={"confidence_score": 0.4})
    headless = headless.model_copy(update={"loinc_match_status": "needs_review", "loinc_matches": [unsure]})
    reasons = route(ReportData(ocr_pages=[], results=[headless])).reasons
    assert reasons == ["row 1: LOINC unsure"] and REASON_LOW_CONFIDENCE not in " ".join(reasons)


def test_a_confidence_of_exactly_the_mark_is_no_low_confidence():
    """The reason reads the confidence the row risk carries; read back from its logit feature, 0.90
    came out 0.8999... and a row at the mark was called "read with low confidence"."""
    from review.routing import MARK_CONFIDENCE, REASON_LOW_CONFIDENCE, route_report as route

    unread = _ranged("2345-7", "96", "mg/dL", 70.0, 99.0, 1.0).model_copy(update={
        "extraction_confidence": MARK_CONFIDENCE, "confidence_doubts": [models.DOUBT_RANGE_UNREAD]})
    unsure = unread.loinc_matches[0].model_copy(update={"confidence_score": 0.4})
    unread = unread.model_copy(update={"loinc_match_status": "needs_review", "loinc_matches": [unsure]})
    report = ReportData(ocr_pages=[], results=[unread])
    assert risk.assess(report)[0].confidence == MARK_CONFIDENCE
    assert route(report).reasons == ["row 1: LOINC unsure"]
    below = unread.model_copy(update={"extraction_confidence": 0.89})
    assert route(ReportData(ocr_pages=[], results=[below])).reasons == [f"row 1: {REASON_LOW_CONFIDENCE}"]
