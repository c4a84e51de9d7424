"""OCR unit slips the analyte settles (parser/analyte_units.py), through normalize_row."""

import pytest

from parser.layout import RawRow
from parser.normalize import Context, normalize_row


def units(name: str, printed: str, ocr: bool = True) -> str | None:
    row = RawRow(page=1, name=name, value="4.2", units=printed, ocr=ocr)
    return normalize_row(row, Context()).units


@pytest.mark.parametrize("name, read", [
    ("Haematocrit", "UL"), ("Hematocrit", "U/L"), ("HCT", "UL"), ("Packed Cell Volume", "U / L"),
])
def test_a_haematocrit_read_as_the_enzyme_unit_is_a_litre_ratio(name, read):
    assert units(name, read) == "L/L"


def test_an_enzyme_keeps_its_unit_and_a_text_page_is_never_touched():
    assert units("ALT", "U/L") == "U/L"
    assert units("Hematocrit", "U/L", ocr=False) == "U/L"


@pytest.mark.parametrize("name, read, power", [
    ("Recuento de Glóbulos Rojos", "x10%/uL", "x10^6/uL"),  # ⁶ read as a percent sign
    ("Hematíes", "x10*/uL", "x10^6/uL"),
    ("Leucocitos", "x10”/uL", "x10^3/uL"),  # ³ read as a closing quote
    ("Recuento de Plaquetas", "x10”/uL", "x10^3/uL"),
    ("White Blood Cells", "x107/uL", "x10^3/uL"),  # ³ read as 7
    ("Leucocytes", "1073/nL", "10^3/µL"),  # a caret read as 7, µ as n
    ("Linfociti", "x10^3/HL", "x10^3/µL"),  # µ read as H
    ("Platelets", "x10”/L", "x10^9/L"),
    ("Erythrocytes", "x10”/L", "x10^12/L"),
])
def test_a_count_unit_with_its_power_garbled_takes_its_cell_kinds_power(name, read, power):
    assert units(name, read) == power


@pytest.mark.parametrize("name, read", [
    ("RBC", "x10^3/uL"),  # a power read whole is never overruled
    ("WBC", "10*9/L"),  # the UCUM star as printed
    ("Platelets", "x105/uL"),  # a digit that is no misreading of ³
    ("RBC", "x107/uL"),  # a 7 stands for ³ only
    ("NRBC", "x10”/uL"),  # nucleated red cells: no power of their kind
    ("Glucose", "x10”/uL"),  # no count
])
def test_a_power_the_analyte_cannot_settle_is_left_as_read(name, read):
    assert units(name, read) == read
