"""Classes of printed names seen on real-like reports (batches 1-3 dev): each test is a class, not a row."""

import pytest

from loinc.matcher import AUTO_MATCH, NEEDS_REVIEW, NO_MATCH, get_matcher


@pytest.fixture(scope="module")
def matcher():
    return get_matcher()


def _codes(result):
    return [entry.code for entry, _ in result.matches]


@pytest.mark.parametrize(("name", "unit", "code"), [
    ("GOT/AST", "U/L", "1920-8"), ("GPT/ALT", "U/L", "1742-6"), ("SGPT / ALT", "U/L", "1742-6"),
    ("Hb/Hgb", "g/dL", "718-7"),
])
def test_two_names_of_one_test_joined_by_a_slash(matcher, name, unit, code):
    result = matcher.match(name, unit)
    assert result.status == AUTO_MATCH and _codes(result)[0] == code


@pytest.mark.parametrize("name", ["BUN/Creatinine Ratio", "Albumin/Globulin"])
def test_a_ratio_of_two_analytes_is_not_read_as_synonyms(matcher, name):
    result = matcher.match(name)
    assert result.matches and "/" in result.matches[0][0].component  # the ratio's code, not one part


def test_a_slash_of_two_different_tests_stays_unmatched(matcher):
    assert matcher.match("T3/T4").status == NO_MATCH


@pytest.mark.parametrize(("name", "unit", "first", "second"), [
    ("Colesterol VLDL", "mg/dL", "13458-5", "2091-7"),  # VLDL = TG/5: the calculated code is in use
    ("VLDL Cholesterol", "mg/dL", "13458-5", "2091-7"),
    ("LDL Cholesterol", "mg/dL", "13457-7", "2089-1"),
])
def test_a_derived_quantity_leads_with_its_calculated_code(matcher, name, unit, first, second):
    result = matcher.match(name, unit)
    assert _codes(result)[:2] == [first, second] and result.status == AUTO_MATCH


def test_a_named_method_still_chooses_its_code(matcher):
    assert _codes(matcher.match("LDL Direct", "mg/dL"))[0] == "18262-6"


@pytest.mark.parametrize(("name", "unit", "codes"), [
    ("WCC", "x10^9/L", {"26464-8", "6690-2"}), ("RCC", "x10^12/L", {"26453-1", "789-8"}),
    ("Glóbulos rojos", "10^6/µl", {"26453-1", "789-8"}), ("CMHC", "g/dL", {"28540-3", "786-4"}),
    ("Uremia", "mg/dl", {"3091-6"}), ("AZOTEMIA", "mg/dL", {"3091-6"}),
    ("Azoto ureico", "mg/dL", {"3094-0"}),
    ("AVERAGE BLOOD GLUCOSE (ABG)", "mg/dL", {"27353-2"}),
])
def test_names_labs_print_for_common_analytes(matcher, name, unit, codes):
    result = matcher.match(name, unit)
    assert result.status in (AUTO_MATCH, NEEDS_REVIEW) and _codes(result)[0] in codes
