"""The row risk model: features, fitting, the stored weights."""

from __future__ import annotations

import json
import random

import pytest

from parser.models import ReportData
from review import risk
from tests.review.conftest import glucose_row


def test_fit_recovers_the_weights_that_made_the_labels():
    rng = random.Random(7)
    truth = (1.5, -2.0, 0.8)
    features, labels = [], []
    for _ in range(4000):
        x = [1.0, rng.choice([0.0, 1.0]), rng.gauss(0, 1)]
        labels.append(rng.random() < risk.probability(x, truth))
        features.append(x)
    fitted = risk.fit(features, labels, l2=0.0)
    assert fitted == pytest.approx(truth, abs=0.25)


def test_the_shipped_model_matches_the_features():
    stored = json.loads(risk.MODEL_PATH.read_text())
    assert tuple(stored["features"]) == risk.FEATURES
    assert len(stored["weights"]) == len(risk.FEATURES)
    assert "benchmarks.review --fit" in stored["fitted_by"]


def test_a_model_for_other_features_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "risk_model.json"
    path.write_text(json.dumps({"features": ["bias"], "weights": [1.0]}))
    monkeypatch.setattr(risk, "MODEL_PATH", path)
    risk.weights.cache_clear()
    try:
        with pytest.raises(ValueError, match="--fit"):
            risk.weights()
    finally:
        risk.weights.cache_clear()


def test_empty_value_and_inverted_range_are_never_right():
    report = ReportData(results=[glucose_row(value=" "), glucose_row(min_reference_range=99.0, max_reference_range=70.0)])
    assessed = risk.assess(report)
    assert [a.p_right for a in assessed] == [0.0, 0.0]
    assert assessed[0].hard_doubts and assessed[1].hard_doubts


def test_features_follow_the_row():
    clean, misread = risk.assess(ReportData(results=[
        glucose_row(source_flag=None),
        glucose_row(value="50", source_flag="H", extraction_confidence=0.5),
    ]))
    names = risk.FEATURES
    assert clean.features[names.index("own_confirmed")] == 3.0  # flag vs range, plausible, unit fits code
    assert misread.features[names.index("own_confirmed")] == 2.0  # the flag check fails
    assert misread.features[names.index("reader_confidence")] < clean.features[names.index("reader_confidence")]
    assert clean.features[names.index("low_reader_confidence")] == 0.0  # read with confidence 1.0
    assert misread.features[names.index("low_reader_confidence")] > 2.0  # 0.5: far below 0.9
    assert misread.hard_doubts == ["value contradicts range and flag"] and misread.p_right == 0.0
    assert clean.p_right > 0.9


def _calcium(low, high):
    from parser.models import LabReportResult, LoincMatch

    return LabReportResult(test_name="Calcium", value="8.5", units="mg/dL", min_reference_range=low,
                           max_reference_range=high, source_flag="L", loinc_match_status="auto_match",
                           loinc_matches=[LoincMatch(loinc_code="17861-6", loinc_name="Calcium", display_name="Calcium",
                                                     confidence_score=0.97)])


def test_a_range_no_calcium_can_have_is_a_hard_doubt_though_value_and_flag_agree_with_it():
    # "19-59 y: 8.6 - 10.3" read as 19 - 59 mg/dL: the value is below it and flagged L, so nothing else objects.
    from review import plausibility
    from review.routing import route_report

    wrong, right = _calcium(19.0, 59.0), _calcium(8.6, 10.3)
    assert plausibility.range_is_implausible(wrong) and not plausibility.range_is_implausible(right)
    assert risk.assess(ReportData(results=[wrong]))[0].hard_doubts == ["reference range impossible for the analyte"]
    assert not risk.assess(ReportData(results=[right]))[0].hard_doubts
    assert route_report(ReportData(results=[wrong])).needs_review


def test_a_zero_bound_or_an_analyte_without_limits_says_nothing():
    from review import plausibility

    assert not plausibility.range_is_implausible(_calcium(0.0, 10.3))  # limits start above 0; "0 - x" is printed
    unknown = _calcium(19.0, 59.0).model_copy(update={"loinc_matches": []})
    assert not plausibility.range_is_implausible(unknown)
