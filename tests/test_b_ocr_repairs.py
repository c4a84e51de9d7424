"""OCR slips put right where they are unmistakable (session 5, helper B)."""

from parser.layout import RawRow, is_non_result_label
from parser.normalize import Context, normalize_row
from parser.ranges import parse_range


def test_a_point_glued_after_an_ocr_value_is_dropped():
    row = RawRow(page=1, name="GOT (AST)", value="17.", units="U/L", range_text="(10 - 40)", ocr=True)
    result = normalize_row(row, Context())
    assert result is not None and result.value == "17"


def test_a_colon_before_a_range_dash_is_a_speck():
    assert parse_range("(2,15:- 2,55)") is not None
    assert (parse_range("(2,15:- 2,55)").low, parse_range("(2,15:- 2,55)").high) == (2.15, 2.55)


def test_end_of_report_banners_of_each_language_are_not_test_names():
    for banner in ("*** Ende des Befundes ***", "*** Fin du compte rendu ***",
                   "*** Fine referto ***", "*** Fin del informe ***"):
        assert is_non_result_label(banner), banner


def test_range_cells_read_through_ocr_slips():
    from parser.ranges import repair_ocr_range

    def bounds(text):
        reading = parse_range(repair_ocr_range(text, True), decimal_comma=True)
        return reading.low, reading.high

    assert bounds("[3;:5-5;1]") == (3.5, 5.1)
    assert bounds("(2:15 à 2,55)") == (2.15, 2.55)
    assert bounds('[<"5;2]') == (None, 5.2)
    assert bounds("[2,15 2,55]") == (2.15, 2.55)
    assert parse_range(repair_ocr_range("[5,1 3,5]", True), decimal_comma=True) is None


def test_an_ocr_row_with_a_damaged_range_gets_its_bounds():
    row = RawRow(page=1, name="Potassium", value="5,8", units="mmol/L", range_text="[3;:5-5;1]",
                 ocr=True)
    result = normalize_row(row, Context(decimal_comma=True))
    assert (result.min_reference_range, result.max_reference_range) == (3.5, 5.1)
    assert result.reference_range_text == "[3;:5-5;1]"  # the printed text stays as read


def test_specimen_numbers_read_through_ocr_marks():
    from parser.metadata import read_identifier

    assert read_identifier("$98177510") == "S98177510"
    assert read_identifier("|S87561601") == "S87561601"


def test_a_decimal_point_read_as_a_colon_in_a_range():
    from parser.ranges import repair_ocr_range

    reading = parse_range(repair_ocr_range("3.5:-'5:5"))
    assert (reading.low, reading.high) == (3.5, 5.5)


def test_a_letter_flag_glued_before_an_ocr_value():
    row = RawRow(page=1, name="Harnstoff", value="L1,7 mmol/L (2,5-7,8)", ocr=True)
    result = normalize_row(row, Context(decimal_comma=True))
    assert result is not None and (result.value, result.source_flag) == ("1,7", "L")
