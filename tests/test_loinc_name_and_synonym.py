"""A printed name with its synonym in brackets: both halves agreeing on one test decide it."""

import pytest

from loinc.matcher import AUTO_MATCH, NEEDS_REVIEW, get_matcher


@pytest.mark.parametrize("name, unit, code", [
    ("ASAT (TGO)", "U/L", "1920-8"),
    ("ALAT (TGP)", "U/L", "1742-6"),
    ("FREIES T4 (FT4)", "pmol/L", "14920-3"),
    ("EMOGLOBINA GLICATA (HBA1C)", "mmol/mol", "59261-8"),
])
def test_name_and_bracketed_synonym_agreeing_auto_match(name, unit, code):
    result = get_matcher().match(name, unit, panel="Biochimie")
    assert (result.status, result.matches[0][0].code) == (AUTO_MATCH, code)


def test_halves_that_do_not_both_decide_leave_the_row_for_review():
    # "(urines)" names a specimen, not a test: the halves cannot agree, but the specimen word decides
    # serum vs urine; the spot urine code (no collection time printed) is the one
    assert get_matcher().match("Protéines (urines)", "g/l").matches[0][0].code == "2888-6"
    # two different tests in one name must not auto-match either of them
    assert get_matcher().match("ASAT (ALAT)", "U/L").status == NEEDS_REVIEW


@pytest.mark.parametrize("name, unit, code", [
    ("AVERAGE BLOOD GLUCOSE (ABG)", "mg/dL", "27353-2"),  # "ABG" alone is a blood gas
])
def test_a_bracket_spelling_the_names_initials_is_left_out(name, unit, code):
    result = get_matcher().match(name, unit)
    assert (result.status, result.matches[0][0].code) == (AUTO_MATCH, code)


def test_only_a_bracket_of_initials_is_left_out():
    from loinc.matcher import _initials_dropped

    assert _initials_dropped("Red Blood Cells (RBCs)") == "Red Blood Cells"
    assert _initials_dropped("Hemoglobin (Hb)") is None  # one word: a short name, not initials
    assert _initials_dropped("Blood Sugar (Random)") is None


@pytest.mark.parametrize("name, unit, code", [
    ("TC / HDL CHOLESTEROL RATIO", "Ratio", "9830-1"),  # Indian chains' shorthand of total cholesterol
    ("ESR", "mm/1st hour", "30341-2"),  # the first hour spelled out: a velocity, as "mm/hr"
    ("Transaminasi GOT/AST", "U/L", "1920-8"),  # Italian "transaminasi" before the enzyme's short names
    ("Transaminasi GPT/ALT", "U/L", "1742-6"),
    ("Troponin I, High Sensitivity", "ng/L", "10839-9"),  # not the high-sensitivity troponin T
    ("Bili Total", "mg/dL", "1975-2"),  # not the delta bilirubin
    ("TC/H", None, "9830-1"),
])
def test_report_wordings_of_common_tests_auto_match(name, unit, code):
    result = get_matcher().match(name, unit)
    assert (result.status, result.matches[0][0].code) == (AUTO_MATCH, code)


@pytest.mark.parametrize("name, unit, code", [
    ("Microalbuminuria", "mg/L", "14957-5"),  # the "-uria" word names urine
    ("Urine Albumin/Creatinine Ratio", "mg/mmol", "14959-1"),  # 9318-7 is the same ratio, newer name
])
def test_urine_findings_auto_match(name, unit, code):
    result = get_matcher().match(name, unit)
    assert (result.status, result.matches[0][0].code) == (AUTO_MATCH, code)


def test_a_word_ending_in_uria_names_urine():
    from loinc.names import read_name

    assert read_name("Protéinurie").specimen == "urine"
    assert read_name("Glycosuria").specimen == "urine"
    assert read_name("Glucose").specimen is None


@pytest.mark.parametrize("name, unit, code", [
    ("Hämoglobin / Emoglobina", "g/dL", "718-7"),  # a bilingual (German / Italian) report's names
    ("Hämatokrit / Ematocrito", "%", "20570-8"),
])
def test_a_name_in_two_languages_joined_by_a_slash_auto_matches(name, unit, code):
    result = get_matcher().match(name, unit)
    assert (result.status, result.matches[0][0].code) == (AUTO_MATCH, code)
