"""Specks or the range OCR read after a unit in its cell (parser.normalize._unit_and_tail)."""

import pytest

from parser.layout import RawRow
from parser.normalize import Context, normalize_row


def read(units: str, range_text: str | None = None, ocr: bool = True):
    row = RawRow(page=1, name="TSH", value="2.1", units=units, range_text=range_text, ocr=ocr)
    return normalize_row(row, Context())


@pytest.mark.parametrize("cell, unit", [
    ("ng/mL z", "ng/mL"), ("10^9/L —", "10^9/L"), ("10^9/L “ i", "10^9/L"),
    ("mmol/mol sae", "mmol/mol"), ("% S", "%"), ("g/dl \\", "g/dl"),
])
def test_specks_after_a_unit_go(cell, unit):
    assert read(cell).units.lower() == unit.lower()  # the OCR unit repair sets the litre's case


def test_a_range_after_a_unit_is_the_rows_range():
    result = read("mU/l 0.30-4.20")
    assert (result.units.lower(), result.min_reference_range, result.max_reference_range) == ("mu/l", 0.3, 4.2)
    assert read("% = 20,0 - 45,0").reference_range_text == "20,0 - 45,0"


@pytest.mark.parametrize("cell", ["% of total Hgb", "mg / dl", "µg/L FEU"])
def test_a_unit_of_several_words_stays_whole(cell):
    assert read(cell).units.replace(" ", "").lower() == cell.replace(" ", "").lower()


def test_a_text_page_is_never_touched():
    assert read("ng/mL z", ocr=False).units == "ng/mL z"
