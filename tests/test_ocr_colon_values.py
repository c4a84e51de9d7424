"""A decimal sign OCR read as a colon in a value ("4:31" for 4.31), parser.normalize._colon_point."""

import pytest

from parser.layout import RawRow
from parser.normalize import Context, normalize_row


def read(value: str, range_text: str, name: str = "MCHC", ocr: bool = True, comma: bool = False):
    row = RawRow(page=1, name=name, value=value, range_text=range_text, ocr=ocr)
    return normalize_row(row, Context(gender="female", decimal_comma=comma))


@pytest.mark.parametrize("value, range_text, comma, number", [
    ("33:3", "32 - 36", False, "33.3"),
    ("4:31", "M: 4.5- 5.5 F: 3.8 - 4.8", False, "4.31"),  # a tier's label colon is no ratio
    ("2:31", "0,30 - 4,20", True, "2,31"),  # the report's decimal comma
    ("5:5", "3.5 - 5.0", False, "5.5"),
])
def test_a_colon_in_a_measured_value_is_its_decimal_sign(value, range_text, comma, number):
    result = read(value, range_text, comma=comma)
    assert (result.value, result.type) == (number, "numeric")
    assert result.interpretation != "unknown"


@pytest.mark.parametrize("value, range_text, name", [
    ("1:40", "< 1:40", "ANA"),  # a titre against a titre
    ("1:80", "0 - 40", "ANA titre"),  # a titre by its name
    ("3:1", "1.0 - 2.5", "Albumin/Globulin ratio"),
    ("43:5", "13.0 - 17.0", "Hemoglobin"),  # a digit misread too: far past its range
])
def test_a_ratio_or_a_far_reading_stays_as_read(value, range_text, name):
    assert read(value, range_text, name).value == value


def test_a_text_page_is_never_touched():
    assert read("33:3", "32 - 36", ocr=False).value == "33:3"
