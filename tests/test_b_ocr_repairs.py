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
