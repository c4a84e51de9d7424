"""Clotting tests: the same test coded in plasma and in blood, and method variants nobody printed."""

import pytest

from loinc.matcher import AUTO_MATCH, get_matcher

_APTT = {"14979-9", "3173-2"}  # in platelet-poor plasma, in blood: labs use either


@pytest.mark.parametrize("name, unit", [("aPTT", "s"), ("PTT", "sec"), ("APTT", "seconds"),
                                        ("Activated partial thromboplastin time", "s")])
def test_an_aptt_in_seconds_auto_matches_despite_its_blood_twin_and_the_mixing_step(name, unit):
    found = get_matcher().match(name, unit)
    assert found.status == AUTO_MATCH
    assert found.matches[0][0].code in _APTT


def test_a_variant_by_a_named_method_still_competes():
    """The twin rule lets only an UNNAMED method pass: a row naming the saline mix is not the plain aPTT."""
    found = get_matcher().match("aPTT 1:1 saline", "s")
    assert not (found.status == AUTO_MATCH and found.matches[0][0].code in _APTT)


def test_blood_and_plasma_twins_of_other_classes_still_compete():
    """Only clotting tests: lactate in blood and in serum are different samples."""
    found = get_matcher().match("Lactate", "mmol/L")
    assert found.status != AUTO_MATCH


@pytest.mark.parametrize("name", ["Thromboplastinzeit (Quick)", "Prothrombinzeit (Quick)", "Tempo di protrombina",
                                  "Thromboplastinzeit (Quick) / Tempo di protrombina"])
def test_a_prothrombin_time_printed_in_percent_is_its_ratio_to_normal(name):
    """The names of the time name its ratio to the normal too (the Quick value): the unit chooses."""
    found = get_matcher().match(name, "%")
    assert found.status == AUTO_MATCH and found.matches[0][0].code == "5894-1"


@pytest.mark.parametrize("name", ["Thromboplastinzeit", "Tempo di protrombina", "Temps de Quick"])
def test_a_prothrombin_time_in_seconds_stays_the_time(name):
    found = get_matcher().match(name, "s")
    assert found.status == AUTO_MATCH and found.matches[0][0].code == "5902-2"
