import pytest

from loinc import confidence
from loinc.matcher import get_matcher
from loinc.specimens import panel_specimen, specimen_fits, specimen_hint, specimen_score


@pytest.mark.parametrize(
    ("panel", "group"),
    [("Urine Routine Examination", "urine"), ("URINE R/M", "urine"), ("Complete Blood Count (CBC)", "blood"),
     ("Differential WBC count", "blood"), ("Stool examination", "stool"), ("LIPID PROFILE", "any_blood"),
     (None, None), ("", None)],
)
def test_panel_headings_name_a_specimen(panel, group):
    assert panel_specimen(panel) == group


def test_the_printed_name_beats_the_sample_type_and_the_panel():
    assert specimen_hint("Urine Creatinine", "serum_plasma_blood", "Kidney Function Test") == "urine"
    assert specimen_hint("Creatinine", "urine", "Kidney Function Test") == "urine"
    assert specimen_hint("Creatinine", None, "Urine Routine") == "urine"
    assert specimen_hint("Creatinine", "unknown", None) is None


def test_scores_prefer_the_named_specimen_and_punish_others():
    assert specimen_score("urine", "urine") > specimen_score("urine", "unspecified") > specimen_score("urine", "serum_plasma")
    assert specimen_score(None, "serum_plasma") > specimen_score(None, "blood") > specimen_score(None, "csf")
    assert specimen_score("pleural", "pleural") > specimen_score("pleural", "body_fluid") > specimen_score("pleural", "csf")


def test_auto_match_needs_a_fitting_specimen():
    assert specimen_fits("serum_plasma", None) and specimen_fits("blood", "any_blood")
    assert not specimen_fits("body_fluid", "pleural")
    assert not specimen_fits("urine", None)


def test_confidence_file_matches_the_features():
    assert len(confidence.weights()) == len(confidence.FEATURES)
    assert 0.0 < confidence.probability([1.0] + [0.0] * (len(confidence.FEATURES) - 1)) < 1.0


def test_confidence_follows_the_status():
    matcher = get_matcher()
    auto = matcher.match("Creatinine", "mg/dL", panel="Kidney Function Test")
    review = matcher.match("Neutrophils")
    weak = matcher.match("Glutaminase")
    assert auto.status == "auto_match" and review.status == "needs_review"
    assert auto.matches[0][1] >= 0.85
    assert auto.matches[0][1] > review.matches[0][1] > weak.matches[0][1]


def test_a_row_of_a_urine_strip_named_in_five_languages_is_no_sediment_finding():
    from loinc.matcher import get_matcher
    from loinc.specimens import mentions_strip

    assert mentions_strip("Leukozyten (Urin-Stix)", None, None)
    assert mentions_strip("Leucocitos", "ORINA · Orina reciente, tira reactiva", None)
    assert mentions_strip("Leucocytes", "Bandelette urinaire", None)
    assert not mentions_strip("Leucocytes", "Bandelette et sédiment urinaire", None)  # both: no say
    matcher = get_matcher()
    for name, panel in (("Leucocitos", "ORINA · Orina reciente, tira reactiva"),
                        ("Leukozyten (Urin-Stix)", "Urinstatus (Mittelstrahlurin)")):
        found = matcher.match(name, None, panel=panel, specimen="urine", value_kind="ordinal")
        assert found.matches[0][0].code == "5799-2", name  # the strip's leukocyte esterase pad
    # a sediment count still gets its sediment code
    assert matcher.match("Leucocitos", "/campo", panel="tira reactiva", specimen="urine").matches[0][0].code == "5821-4"
