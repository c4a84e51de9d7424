"""Rows whose evidence decides the code auto-match; rows where nothing decides stay needs_review.

Each test is a class of printed rows (issue 10), built from names and units, not from a fixture file.
"""

import pytest

from loinc.matcher import AUTO_MATCH, NEEDS_REVIEW, get_matcher
from loinc.names import read_name


@pytest.fixture(scope="module")
def matcher():
    return get_matcher()


def _top(result):
    return result.matches[0][0].code


@pytest.mark.parametrize(("name", "unit", "code"), [
    ("Sodium Lvl", "mmol/L", "2951-2"), ("Potassium Lvl", "mmol/L", "2823-3"), ("Albumin Lvl", "g/dL", "1751-7"),
])
def test_the_short_form_lvl_is_filler_like_level(matcher, name, unit, code):
    assert read_name(name).analyte == read_name(name.replace("Lvl", "Level")).analyte
    assert read_name(name).quantitative
    result = matcher.match(name, unit, panel="Chemistry")
    assert result.status == AUTO_MATCH and _top(result) == code


def test_lvl_does_not_decide_mass_or_moles_without_a_unit(matcher):
    assert matcher.match("Creatinine Lvl").status == NEEDS_REVIEW


@pytest.mark.parametrize(("name", "unit", "code"), [
    # a translated name, the unit of one test ("DFG estimé (CKD-EPI)" now reads whole: loinc/data/abbreviations.tsv)
    ("Filtration glomérulaire estimée (CKD-EPI)", "mL/min/1,73m²", "62238-1"),
    ("Neutrófilos segmentados", "%", "26511-6"),
    ("Cholesterin total", "mmol/l", "14647-2"),
])
def test_a_unit_of_the_codes_kind_stands_in_for_a_near_name(matcher, name, unit, code):
    assert matcher.match(name, specimen="serum_plasma_blood").status == NEEDS_REVIEW  # the name alone: unsure
    result = matcher.match(name, unit, specimen="serum_plasma_blood")
    assert result.status == AUTO_MATCH and _top(result) == code


def test_a_fitting_unit_does_not_decide_between_close_tests(matcher):
    # "Plasma" in % fits plasma cells in blood and in the fluid: the lead is short, a person checks
    assert matcher.match("Plasma", "%", specimen="Ascites").status == NEEDS_REVIEW


@pytest.mark.parametrize("name", ["Microalbúmina (orina)", "Microalbumin"])
def test_a_timed_collection_nobody_printed_does_not_hold_back_the_spot_urine_code(matcher, name):
    result = matcher.match(name, "mg/L", specimen="urine")
    assert result.status == AUTO_MATCH and _top(result) == "14957-5"


@pytest.mark.parametrize(("name", "panel"), [("Microalbumin, 24 hr urine", None),
                                             ("Microalbumin", "Urine 24h collection")])
def test_a_printed_collection_time_keeps_the_timed_code_a_competitor(matcher, name, panel):
    assert matcher.match(name, "mg/L", specimen="urine", panel=panel).status == NEEDS_REVIEW


@pytest.mark.parametrize("unit", ["µ³", "μ3"])
def test_a_cubic_micron_is_an_entitic_volume(matcher, unit):
    from loinc.units import ENTITIC_VOLUME, unit_kind
    assert unit_kind(unit) == ENTITIC_VOLUME
    result = matcher.match("V.G.M.", unit, panel="HÉMOGRAMME")
    assert result.status == AUTO_MATCH and _top(result) in {"30428-7", "787-2"}


@pytest.mark.parametrize("unit", ["N/A", "n/a", "-", "--"])
def test_a_unit_cell_saying_no_unit_is_no_unit(matcher, unit):
    plain = matcher.match("Anisocytosis", None, specimen="serum_plasma_blood")
    result = matcher.match("Anisocytosis", unit, specimen="serum_plasma_blood")
    assert plain.status == AUTO_MATCH and result.status == AUTO_MATCH and _top(result) == _top(plain)


def test_an_unreadable_unit_still_holds_back_auto_match(matcher):
    assert matcher.match("Sodium", None, specimen="serum_plasma_blood").status == AUTO_MATCH
    assert matcher.match("Sodium", "mmol/X", specimen="serum_plasma_blood").status == NEEDS_REVIEW


def test_a_presence_finding_by_a_method_nobody_named_does_not_hold_back_a_count(matcher):
    result = matcher.match("Platelets")
    assert result.status == AUTO_MATCH and _top(result) in {"26515-7", "777-3"}
    assert "9317-9" in [entry.code for entry, _ in result.matches]  # the smear finding is still offered


def test_a_named_smear_method_still_chooses_the_presence_code(matcher):
    assert _top(matcher.match("Platelets, light microscopy")) == "9317-9"


def test_a_gfr_predicted_by_a_formula_is_a_calculated_value(matcher):
    result = matcher.match("GFR calculated by CKD-EPI equation", "mL/min/1.73m*2", panel="Urea and electrolytes")
    assert result.status == AUTO_MATCH and _top(result) == "62238-1"


def test_calculated_still_holds_back_a_measured_code(matcher):
    assert matcher.match("Sodium", "mmol/L").status == AUTO_MATCH
    assert matcher.match("Sodium (calculated)", "mmol/L").status == NEEDS_REVIEW
