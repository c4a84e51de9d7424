"""Relations within the printed rounding of their numbers, and shares of the differential whose range the
lab prints on their absolute count ("58,3 % soit 3,57 G/l  1,80 - 7,00")."""

from __future__ import annotations

from parser.models import ReportData
from review import evidence, risk
from tests.review.result_rows import row


WBC, NEUT_PCT, NEUT_ABS = "26464-8", "26511-6", "26499-4"
SHARES = {"lymph": ("26478-8", "26474-7"), "baso": ("30180-4", "26444-0")}


def _differential(baso_count: str) -> ReportData:
    return ReportData(results=[row(WBC, "6,40", "G/l"), row(SHARES["baso"][0], "0,5", "%"),
                               row(SHARES["baso"][1], baso_count, "G/l")])


def test_a_small_count_agrees_within_its_printed_rounding():
    # 0,5 % of 6,40 G/l is 0,032: printed "0,03", 6 % off by rounding alone
    assert evidence.COUNT_RELATION in evidence.collect(_differential("0,03"))[2].confirmed
    assert evidence.COUNT_RELATION not in evidence.collect(_differential("0,05"))[2].confirmed


def test_agreement_allows_rounding_but_not_a_misread():
    assert evidence.agreement(0.03, 0.032) is None
    assert evidence.agreement(0.03, 0.032, rounding=(0.005, 0.0288, 0.0352)) is True
    assert evidence.agreement(0.05, 0.032, rounding=(0.005, 0.0288, 0.0352)) is False
    # "1 %" of 7,4 printed "0,1": too coarse to tell 0,074 from a misread, and no contradiction either
    assert evidence.agreement(0.1, 0.074, rounding=(0.05, 0.037, 0.111)) is None


def _french_differential(share_range: bool = False, count_value: str = "3,57") -> ReportData:
    """Shares printed "58,3 % soit 3,57 G/l": the range stands on the count only."""
    ranged = dict(min_reference_range=1.8, max_reference_range=7.0, reference_range_text="1,80 - 7,00")
    share = dict(min_reference_range=40.0, max_reference_range=75.0) if share_range else {}
    return ReportData(results=[
        row(WBC, "6,12", "G/l", min_reference_range=4.0, max_reference_range=10.0),
        row(NEUT_PCT, "58,3", "%", **share), row(NEUT_ABS, count_value, "G/l", **ranged),
        row("2345-7", "95", "mg/dL", min_reference_range=70.0, max_reference_range=99.0)])


def test_a_share_whose_range_stands_on_its_count_lacks_no_range():
    features = dict(zip(risk.FEATURES, risk.described(_french_differential())[1][0]))
    assert evidence.collect(_french_differential())[1].range_on_count
    assert features["range_missing"] == 0.0


def test_a_share_without_range_still_lacks_one_unless_pinned_to_a_ranged_count():
    misread = _french_differential(count_value="5,57")  # the relation fails: the share is not pinned
    assert not evidence.collect(misread)[1].range_on_count
    assert dict(zip(risk.FEATURES, risk.described(misread)[1][0]))["range_missing"] == 1.0


def test_a_share_with_a_range_means_a_missing_one_elsewhere_was_lost():
    report = _french_differential(share_range=True)
    lymph = row(SHARES["lymph"][0], "30,0", "%")
    lymph_count = row(SHARES["lymph"][1], "1,84", "G/l", min_reference_range=1.0, max_reference_range=4.0)
    report.results += [lymph, lymph_count]
    assert not evidence.collect(report)[4].range_on_count
