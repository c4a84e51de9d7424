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
    # "(urines)" names a specimen, not a test: the halves cannot agree, serum/urine stays open
    assert get_matcher().match("Protéines (urines)", "g/l").status == NEEDS_REVIEW
    # two different tests in one name must not auto-match either of them
    assert get_matcher().match("ASAT (ALAT)", "U/L").status == NEEDS_REVIEW
