"""The risk model's session-7 features: a report without ranges, a range cell printing tiers."""

from __future__ import annotations

from parser.models import ReportData
from review import risk
from tests.review.conftest import glucose_row

NAMES = risk.FEATURES


def feature(assessed: risk.RowRisk, name: str) -> float:
    return assessed.features[NAMES.index(name)]


def bare(**changes):
    """A glucose row whose range the reader did not find."""
    return glucose_row(min_reference_range=None, max_reference_range=None, reference_range_text=None,
                       interpretation="unknown", is_above_max_range=None, is_below_min_range=None, **changes)


def test_a_report_without_ranges_marks_its_bare_numbers():
    none_ranged = risk.assess(ReportData(results=[bare(), bare(test_name="Fasting glucose")]))
    assert [feature(a, "range_absent_in_report") for a in none_ranged] == [1.0, 1.0]
    # Where most rows have a range, the bare one is `range_missing` instead, not both.
    mostly = risk.assess(ReportData(results=[glucose_row(), glucose_row(), bare()]))
    assert feature(mostly[2], "range_absent_in_report") == 0.0
    assert feature(mostly[2], "range_missing") == 1.0
    assert feature(mostly[0], "range_absent_in_report") == 0.0


def test_tiered_range_text_is_told_from_one_pair_of_bounds():
    tiers = glucose_row(reference_range_text="Male: 4.50 - 5.90 Female: 4.00 - 5.20")
    ages = glucose_row(reference_range_text="19-59 y: 8.6 - 10.3 >=60 y: 8.8 - 10.2")
    plain = glucose_row(reference_range_text="70 - 99")
    one_sided = glucose_row(reference_range_text="< 35")
    assessed = risk.assess(ReportData(results=[tiers, ages, plain, one_sided]))
    assert [feature(a, "tiered_range") for a in assessed] == [1.0, 1.0, 0.0, 0.0]


def test_the_fitted_model_doubts_lost_ranges_and_chosen_tiers():
    ranged = risk.assess(ReportData(results=[glucose_row(), glucose_row(test_name="Fasting glucose")]))[0]
    lost = risk.assess(ReportData(results=[bare(), bare(test_name="Fasting glucose")]))[0]
    tiered = risk.assess(ReportData(results=[
        glucose_row(reference_range_text="Fasting: 70 - 99 Random: 70 - 139"), glucose_row()]))[0]
    assert lost.p_right < ranged.p_right
    assert tiered.p_right < ranged.p_right


def test_routing_names_the_range_doubt_and_marks_the_range_field():
    from review.routing import REASON_NO_RANGES, REASON_TIERED, route_report

    rangeless = route_report(ReportData(results=[bare(), bare(test_name="Fasting glucose")]))
    assert rangeless.needs_review is True
    assert rangeless.reasons == [f"row 1: {REASON_NO_RANGES}", f"row 2: {REASON_NO_RANGES}"]
    assert rangeless.uncertain == [(0, "reference_range"), (1, "reference_range")]
    tiered = glucose_row(reference_range_text="Male: 13.5 - 17.5 Female: 12.0 - 15.5", extraction_confidence=0.95)
    decision = route_report(ReportData(results=[tiered, glucose_row()]), threshold=0.999)
    assert f"row 1: {REASON_TIERED}" in decision.reasons
    assert (0, "reference_range") in decision.uncertain
