"""Evidence on units printed the European way (G/l, T/l, mg/l, g/l, "1,73 m²"), on absolute counts
and on codes printed without a unit."""

from __future__ import annotations

import pytest

from parser.models import ReportData, ResultMetadata
from review import evidence, plausibility, risk
from tests.review.result_rows import row


WBC, NEUT_PCT, NEUT_ABS = "26464-8", "26511-6", "26499-4"


def test_giga_per_litre_is_a_count_on_a_count_row():
    report = ReportData(results=[row(WBC, "7,48", "G/l"), row(NEUT_PCT, "63,2", "%"), row(NEUT_ABS, "4,73", "G/l")])
    found = evidence.collect(report)
    assert all(evidence.COUNT_RELATION in item.confirmed for item in found)
    assert plausibility.value_is_plausible(row(WBC, "7,48", "G/l")) is True
    misread = ReportData(results=[row(WBC, "7,48", "G/l"), row(NEUT_PCT, "63,2", "%"), row(NEUT_ABS, "7,73", "G/l")])
    assert not any(evidence.COUNT_RELATION in item.confirmed for item in evidence.collect(misread))


def test_tera_per_litre_red_cells_pin_the_mch():
    report = ReportData(results=[row("718-7", "14,0", "g/dl"), row("789-8", "4,67", "T/l"), row("785-6", "30,0", "pg")])
    assert all("MCH = Hb/RBC" in item.confirmed for item in evidence.collect(report))


@pytest.mark.parametrize("units", ["Tsd/µl", "/nl"])
def test_german_thousands_per_microlitre_are_counts(units):
    assert plausibility.value_is_plausible(row(WBC, "7.4", units)) is True
    assert plausibility.value_is_plausible(row(WBC, "7400", units)) is False


def test_creatinine_in_milligrams_per_litre_gives_the_egfr_check():
    meta = ResultMetadata(dob="1970-05-20", date_collected="2025-05-20", gender="female")
    report = ReportData(metadata=meta, results=[row("2160-0", "10", "mg/l"), row("98979-8", "66", "mL/min/1,73 m²")])
    assert "eGFR from creatinine" in evidence.collect(report)[1].confirmed


@pytest.mark.parametrize("units", ["ml/min/1,73 m²", "mL/min/1.73m*2", "mL/min/1,73m2"])
def test_egfr_body_surface_spellings_have_the_egfr_limits(units):
    assert plausibility.value_is_plausible(row("62238-1", "62", units)) is True
    assert plausibility.value_is_plausible(row("62238-1", "620", units)) is False


def test_lipids_in_grams_per_litre_give_friedewald():
    lipids = [row("2093-3", "2,00", "g/l"), row("2085-9", "0,50", "g/l"), row("2571-8", "1,50", "g/l"),
              row("13457-7", "1,20", "g/l")]
    assert "Friedewald LDL" in evidence.collect(ReportData(results=lipids))[3].confirmed


@pytest.mark.parametrize(("code", "value", "units", "plausible"), [
    ("751-8", "3.9", "10*9/L", True), ("26499-4", "3900", "x10^9/L", False), ("26444-0", "0.0", "x10^9/L", True),
    ("2132-9", "388", "ng/L", True), ("2132-9", "388000", "ng/L", False),  # ng/L is pg/mL
    ("787-2", "84", "µ³", True),  # a cubic micrometre is a femtolitre
    ("6301-6", "1.3", None, True), ("6301-6", "130", None, False),  # INR
    ("2753-2", "7.40", None, True), ("2753-2", "5.5", None, False),  # a urine pH is no serum pH
])
def test_limits_for_counts_unit_synonyms_and_unitless_analytes(code, value, units, plausible):
    assert plausibility.value_is_plausible(row(code, value, units)) is plausible


def test_no_unit_fits_a_code_printed_without_one():
    assert evidence.unit_fits_code(row("6301-6", "1.3", None)) is True  # INR
    assert evidence.unit_fits_code(row("2345-7", "95", None)) is None  # glucose: its unit was not read
    assert evidence.unit_fits_code(row("6301-6", "1.3", None, loinc_match_status="needs_review")) is None
