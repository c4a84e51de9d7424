"""Printed units -> UCUM codes: the cases of issue 12, unknown units as None, and the shipped
table equal to a fresh build from ../shared/loinc."""

from __future__ import annotations

import json

import pytest

from fixtures.catalog import discover
from loinc import ucum, ucum_build
from loinc.ucum import to_ucum, valid_codes
from parser.models import LabReportResult


@pytest.mark.parametrize(
    "printed, code",
    [
        ("mg/dL", "mg/dL"), ("mg/dl", "mg/dL"), ("MG/DL", "mg/dL"), ("mg / dL", "mg/dL"),
        ("x10^3/uL", "10*3/uL"), ("X10^3/µL", "10*3/uL"), ("x 10^3 / uL", "10*3/uL"),
        ("10³/µL", "10*3/uL"), ("K/uL", "10*3/uL"), ("thou/mm3", "10*3/uL"), ("Thou/cumm", "10*3/uL"),
        ("10^9/L", "10*9/L"), ("x10⁹/L", "10*9/L"), ("x10^6/uL", "10*6/uL"), ("million/uL", "10*6/uL"),
        ("mill/cumm", "10*6/uL"), ("x10^12/L", "10*12/L"), ("/cumm", "/uL"), ("cells/uL", "{cells}/uL"),
        ("IU/L", "[IU]/L"), ("iu/l", "[IU]/L"), ("uIU/mL", "u[IU]/mL"), ("µIU/ml", "u[IU]/mL"),
        ("mIU/L", "m[IU]/L"), ("U/L", "U/L"), ("mU/L", "mU/L"),
        ("mmol/L", "mmol/L"), ("mmol/l", "mmol/L"), ("µmol/L", "umol/L"), ("mEq/L", "meq/L"),
        ("%", "%"), ("gm/dl", "g/dL"), ("g/dl", "g/dL"), ("fL", "fL"), ("fl", "fL"), ("pg", "pg"),
        ("mL/min/1.73m2", "mL/min/{1.73_m2}"), ("ml/min/1.73 m²", "mL/min/{1.73_m2}"),
        ("mL/min/1.73 sq m", "mL/min/{1.73_m2}"), ("mcg/dL", "ug/dL"), ("µg/L", "ug/L"),
        ("/HPF", "/[HPF]"), ("mm/hr", "mm/h"), ("mg/24 hr", "mg/d"), ("L/L", "L/L"),
        ("#/uL", "/uL"), ("#/hpf", "/[HPF]"), ("hrs", "h"), ("sec", "s"),
        # An ESR's first hour in the spellings labs print.
        ("mm/1st hour", "mm/h"), ("mm in 1st hr", "mm/h"), ("mm/1ª h", "mm/h"), ("mm/1ère h", "mm/h"),
        ("mm/Std.", "mm/h"), ("mm/1. Std.", "mm/h"), ("mm/60 min", "mm/h"), ("mm/1e heure", "mm/h"),
        # French counts: giga and tera per litre, told from grams by the capital letter.
        ("G/l", "10*9/L"), ("T/l", "10*12/L"), (" G / l", "10*9/L"), ("g/l", "g/L"),
    ],
)
def test_printed_unit_to_ucum(printed, code):
    assert to_ucum(printed) == code
    assert code in valid_codes()


@pytest.mark.parametrize(
    "printed",
    # No sure form: a bare volume printed for a count, Indian lakhs (10*5/uL is not among the
    # sources' codes), words, "Units" (U, [IU] or arbitrary?), nothing at all.
    # "m/uL" (million or milli?), "N/A", two units in one cell.
    [None, "", "  ", "cumm", "lakhs/cumm", "Negative", "Units", "ratio", "mg%", "per high power",
     "m/uL", "N/A", "U/mL|IU/mL",
     # "G/L" in capitals: grams on an English capitals report, a count on a French one.
     "G/L", "T/L"],
)
def test_unit_without_a_sure_form_is_none(printed):
    assert to_ucum(printed) is None


def test_every_spelling_points_to_a_valid_code():
    table = json.loads(ucum.TABLE_PATH.read_text(encoding="utf-8"))
    assert set(table["spellings"].values()) <= set(table["valid"])


def test_syntax_check_keeps_out_the_sources_slips():
    assert not ucum_build.ucum_syntax_ok("10^3/µL")
    assert not ucum_build.ucum_syntax_ok("{fraction]")
    assert not ucum_build.ucum_syntax_ok("mg/dL extra")
    assert ucum_build.ucum_syntax_ok("mL/min/{1.73_m2}")
    assert ucum_build.ucum_syntax_ok("%{tumor cells positive}")  # spaces inside an annotation


def test_shipped_table_is_what_the_build_makes():
    table, _notes = ucum_build.build_table(ucum_build.DEFAULT_SOURCE)
    assert json.loads(ucum.TABLE_PATH.read_text(encoding="utf-8")) == table


def test_every_fixture_unit_maps_to_a_valid_code_or_none():
    units = {
        row.get("units")
        for fixture in discover()
        for row in fixture.expected.get("results", [])
    } - {None}
    mapped = {unit: to_ucum(unit) for unit in units}
    assert all(code is None or code in valid_codes() for code in mapped.values())
    # Only the bare "cumm" (a count printed without its slash) has no sure form.
    unmapped = sorted(unit for unit, code in mapped.items() if code is None)
    assert unmapped == ["cumm"], (
        f"fixture units without a UCUM code: {unmapped}; teach loinc/ucum.py the spelling, "
        "or list it here when it has no sure UCUM form"
    )


def test_annotate_units_fills_the_field():
    rows = [LabReportResult(test_name="WBC", value="7.1", units="K/uL"),
            LabReportResult(test_name="Urine colour", value="Yellow")]
    ucum.annotate_units(rows)
    assert [row.ucum_units for row in rows] == ["10*3/uL", None]
