"""Interpretive tiers in a range cell: the normal tier is the reference range."""
import pytest

from parser.ranges import parse_range


@pytest.mark.parametrize("text, bounds", [
    ("Below 6.0% : Normal 6.0% - 6.5% : Prediabetic >6.5% : Diabetic", (None, 6.0)),
    ("Desirable : < 200 Borderline High : 200 - 239 High : >= 240", (None, 200.0)),
    ("Deficiency < 20 Insufficiency 20 - 30 Sufficiency 30 - 100", (30.0, 100.0)),
    ("Low: <2 Normal: 2-4 High: >4", (2.0, 4.0)),
    ("Souhaitable : < 2,00 Limite : 2,00 - 2,39 Élevé : > 2,40", (None, 2.0)),
])
def test_the_normal_tier_gives_the_range(text, bounds):
    r = parse_range(text, decimal_comma="," in text)
    assert (r.low, r.high) == bounds


def test_tiers_without_a_normal_one_give_no_range():
    # Only the abnormal tiers were read (the normal one lost): no range rather than a wrong one.
    assert parse_range("6.0% - 6.5% : Prediabetic >6.5% : Diabetic") is None


def test_a_tier_line_under_a_result_is_no_test():
    from parser.ranges import names_a_tier
    assert names_a_tier("Vitamin D Status: Deficiency")
    assert not names_a_tier("HDL Cholesterol")
    assert not names_a_tier("Glucose, Fasting")
    assert not names_a_tier("High Sensitivity CRP")
