import csv
from pathlib import Path

import pytest

from loinc.matcher import AUTO_MATCH, NEEDS_REVIEW, NO_MATCH, alias_key, get_matcher

DATA = Path(__file__).resolve().parents[1] / "benchmarks" / "data"


@pytest.fixture(scope="module")
def matcher():
    return get_matcher()


def top_code(matcher, name, unit=None, **context):
    result = matcher.match(name, unit, **context)
    return result.matches[0][0].code if result.matches else None


def test_get_matcher_is_a_singleton():
    assert get_matcher() is get_matcher()


@pytest.mark.parametrize(
    ("name", "unit", "code"),
    [
        ("Creatinine", "mg/dL", "2160-0"),
        ("Creatinine", "µmol/L", "14682-9"),
        ("Glucose", "mmol/L", "14749-6"),
        ("Cholesterol Total", "mmol/L", "14647-2"),
        ("Neutrophils", "%", "26511-6"),  # method-less siblings of 770-8, 751-8, 731-0, 788-0
        ("Neutrophils", "x10^3/uL", "26499-4"),
        ("Lymphocytes", "10*9/L", "26474-7"),
        ("RDW-SD", "fL", "21000-5"),
        ("RDW-CV", "%", "30385-9"),
    ],
)
def test_unit_picks_the_property(matcher, name, unit, code):
    assert top_code(matcher, name, unit) == code


def test_contradicting_unit_rules_a_code_out(matcher):
    codes = [entry.code for entry, _ in matcher.match("Hemoglobin", "%", top=20).matches]
    assert "718-7" not in codes  # Hemoglobin [Mass/volume] cannot be a percentage


def test_urinalysis_panel_picks_urine_codes(matcher):
    result = matcher.match("Protein", panel="Urine Routine Examination")
    assert "Urine" in result.matches[0][0].system
    serum = matcher.match("Protein", "g/dL", panel="Liver Function Test")
    assert serum.matches[0][0].code == "2885-2"
    assert "Urine" in matcher.match("Glucose", specimen="urine").matches[0][0].system


def test_calculated_rows_prefer_calculated_codes(matcher):
    assert top_code(matcher, "LDL Cholesterol", "mg/dL", calculated=True) == "13457-7"
    assert top_code(matcher, "LDL Chol Calc (NIH)", "mg/dL") == "13457-7"


@pytest.mark.parametrize(
    ("name", "unit", "code"),
    [("Hem0globin", "g/dL", "718-7"), ("Hernoglobin", "g/dL", "718-7"), ("A1bumin", "g/dL", "1751-7"), ("Creatimine", "mg/dL", "2160-0"), ("P1atelet Count", None, "777-3"),
     ("Cho1esterol, Total", None, "2093-3"), ("Potasium", "mmol/L", "2823-3"),
     ("HbAic", "%", "4548-4"), ("Hemoglobin Aic", "%", "4548-4")],  # the digit 1 read as a letter
)
def test_ocr_and_spelling_slips_are_forgiven(matcher, name, unit, code):
    assert top_code(matcher, name, unit) == code


def test_a_guessed_correction_is_never_auto(matcher):
    # "Glutaminase" is not in the table; the nearest word (glutamine) is another analyte.
    assert matcher.match("Glutaminase").status != AUTO_MATCH


def test_a_letter_read_for_the_digit_one_is_found_but_never_auto(matcher):
    # The row's printed name stays misread ("HbAic"): a person should see it.
    assert matcher.match("HbAic", "%").status == NEEDS_REVIEW


def test_method_siblings_are_one_concept_and_the_method_less_code_leads(matcher):
    result = matcher.match("RBC", "x10^6/uL", panel="Complete Blood Count")
    codes = [entry.code for entry, _ in result.matches]
    assert codes[:2] == ["26453-1", "789-8"]  # "... in Blood", then "... in Blood by Automated count"
    assert result.status == AUTO_MATCH  # the sibling is no competitor
    # A row that names the method keeps the method's code.
    assert top_code(matcher, "HbA1c by HPLC", "%") == "17856-6"


@pytest.mark.parametrize(("name", "unit"), [("Creatinine", None), ("Triglycerides", None), ("Cholesterol", None)])
def test_mass_or_moles_without_a_unit_stays_for_review(matcher, name, unit):
    result = matcher.match(name, unit, panel="Biochemistry")
    assert result.status == NEEDS_REVIEW
    assert matcher.match(name, "mg/dL", panel="Biochemistry").status == AUTO_MATCH


@pytest.mark.parametrize("name", ["R.B.C", "Bilirubin"])
def test_blood_or_urine_without_a_specimen_stays_for_review(matcher, name):
    assert matcher.match(name).status == NEEDS_REVIEW
    assert "Urine" in matcher.match(name, panel="Urine Routine Examination").matches[0][0].system


@pytest.mark.parametrize(("name", "code"), [("Potassium", "2823-3"), ("BUN", "3094-0")])
def test_a_far_rarer_urine_test_does_not_hold_back_the_blood_one(matcher, name, code):
    # Serum potassium is Top 2000 rank 3, urine potassium 493: nothing on the row says urine.
    result = matcher.match(name)
    assert (result.status, result.matches[0][0].code) == (AUTO_MATCH, code)
    assert "Urine" in matcher.match(name, panel="Urine Chemistry").matches[0][0].system


def test_the_rarity_rule_is_off_when_the_ratio_is_infinite(matcher, monkeypatch):
    import loinc.matcher as matcher_module

    monkeypatch.setattr(matcher_module, "RARE_RATIO", float("inf"))
    assert matcher.match("Potassium").status == NEEDS_REVIEW


@pytest.mark.parametrize("name", ["", "   ", "@@@###", "Sample Type", "Thanks for Reference", "zzqx vvbn"])
def test_non_tests_get_no_match(matcher, name):
    assert matcher.match(name).status == NO_MATCH


def test_clear_rows_auto_match(matcher):
    for name, unit in [("Hemoglobin", "g/dL"), ("SGPT", "U/L"), ("Serum Sodium", "mEq/L"), ("HbA1c", "%")]:
        assert matcher.match(name, unit).status == AUTO_MATCH, name


def test_ambiguous_rows_need_review(matcher):
    # Without a unit a differential row could be the percentage or the absolute count.
    assert matcher.match("Neutrophils").status == NEEDS_REVIEW
    # A pleural-fluid row whose only candidates are generic body-fluid codes.
    assert matcher.match("Total Protein, Pleural").status != AUTO_MATCH


def test_matches_are_bounded_sorted_and_confidences_in_range(matcher):
    result = matcher.match("Cholesterol", top=5)
    confidences = [confidence for _, confidence in result.matches]
    assert 1 <= len(confidences) <= 5
    assert confidences == sorted(confidences, reverse=True)
    assert all(0.0 <= c <= 1.0 for c in confidences)
    assert len(matcher.match("Cholesterol", top=2).matches) == 2


def test_team_alias_wins_and_is_auto(matcher):
    aliases = {alias_key("House Special Sugar", "mg/dl"): "2345-7"}
    result = matcher.match("House  special sugar*", "mg/dL", aliases=aliases)
    assert result.status == AUTO_MATCH
    assert result.matches[0][0].code == "2345-7"
    assert result.matches[0][1] == 1.0
    # An alias for another unit does not fire.
    assert matcher.match("House special sugar", "mmol/L", aliases=aliases).matches[:1] != result.matches[:1]


def test_alias_key_normalizes_name_and_unit():
    assert alias_key("S. Creatinine*", " µmol / L") == alias_key("s creatinine", "umol/L")
    assert alias_key("Hb", None) == ("hb", "")


def test_lookup_and_search(matcher):
    assert matcher.lookup("718-7").long_name == "Hemoglobin [Mass/volume] in Blood"
    assert matcher.lookup("0000-0") is None
    assert matcher.search("2160-0")[0][0].code == "2160-0"
    found = [entry.code for entry, _ in matcher.search("alanine aminotransferase", top=5)]
    assert found[0] == "1742-6"
    assert matcher.search("") == []


def _labelled(which):
    rows = []
    for line in (DATA / "labelled_names.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith(which + "\t"):
            _, name, unit, panel, sample_type, codes = (line.split("\t") + [""] * 6)[:6]
            rows.append((name, unit.strip() or None, panel or None, sample_type or None, codes.split("|")))
    return rows


def test_real_report_rows_with_units_and_panels(matcher):
    rows = _labelled("report")
    assert len(rows) >= 60
    right = sum(top_code(matcher, n, u, panel=p, specimen=s) in codes for n, u, p, s, codes in rows)
    assert right / len(rows) >= 0.95


def test_held_out_mimic_labels_are_not_aliases(matcher):
    with (DATA / "mimic_heldout.tsv").open(encoding="utf-8", newline="") as handle:
        heldout = {(row["label"], row["fluid"]) for row in csv.DictReader(handle, delimiter="\t")}
    shipped = {(label, fluid) for entry in matcher.entries for label, fluid, _unit in entry.aliases}
    assert heldout and not heldout & shipped


@pytest.mark.parametrize(
    ("name", "unit", "specimen", "code"),
    [
        ("Vitamin D", "nmol/L", None, "14635-7"),   # the unit rules out the mass codes first
        ("Factor VIII", "%", None, "3209-4"),       # not factor VII: one letter is another test
        ("HDL Cholesterol Direct", "mg/dL", None, "2085-9"),  # not LDL
        ("eGFR", "mL/min/1.73m2", None, "33914-3"),
    ],
)
def test_regressions(matcher, name, unit, specimen, code):
    assert top_code(matcher, name, unit, specimen=specimen) == code


def test_singular_and_plural_names_meet(matcher):
    entry = matcher.match("Barbiturate Screen, Urine", specimen="urine").matches[0][0]
    assert entry.component == "Barbiturates" and entry.system.startswith("Urine")


def test_a_runaway_line_is_answered_and_never_auto(matcher):
    result = matcher.match("Creatinine " + "zxqv wplk " * 50000, "mg/dL")
    assert result.status != AUTO_MATCH
    assert result.matches[0][0].code == "2160-0"  # still the best guess, for a reviewer


def test_an_unreadable_printed_unit_never_auto_matches(matcher):
    # "yumol/L" is OCR's reading of µmol/L: the mass-based code would be wrong.
    assert matcher.match("Serum Iron", "umol/L").status == AUTO_MATCH
    garbled = matcher.match("Serum Iron", "yumol/L")
    assert garbled.status == NEEDS_REVIEW


@pytest.mark.parametrize(("unit", "code", "status"), [("mmol/mol", "59261-8", AUTO_MATCH), ("%", "4548-4", AUTO_MATCH),
                                                      (None, "4548-4", NEEDS_REVIEW)])
def test_hba1c_in_mmol_per_mol_is_the_ifcc_code_and_without_a_unit_it_is_undecided(matcher, unit, code, status):
    # mmol/mol cannot be a mass fraction; without a unit, % (NGSP) and mmol/mol (IFCC) are both in use.
    result = matcher.match("HbA1c", unit)
    assert (result.matches[0][0].code, result.status) == (code, status)


def test_chemistry_is_serum_unless_the_row_says_whole_blood(matcher):
    result = matcher.match("Bicarbonate", "mmol/L", specimen="serum_plasma_blood", panel="Electrolytes")
    assert (result.status, result.matches[0][0].code) == (AUTO_MATCH, "1963-8")
    assert matcher.match("Bicarbonate", "mmol/L", specimen="capillary_blood").matches[0][0].specimen == "blood"


def test_egfr_non_african_american_is_the_non_blacks_code(matcher):
    result = matcher.match("eGFR Non-Afr. American", "mL/min/1.73m2")
    assert (result.status, result.matches[0][0].code) == (AUTO_MATCH, "48642-3")


def test_red_blood_cells_in_a_urinalysis_are_urine_sediment(matcher):
    # "blood" in "Red Blood Cells" names the cells, not the specimen.
    result = matcher.match("Red Blood Cells", "/HPF", specimen="urine", panel="Urinalysis, Complete")
    assert (result.status, result.matches[0][0].code) == (AUTO_MATCH, "13945-1")


@pytest.mark.parametrize(
    ("name", "context", "code", "status"),
    [
        # "Occult blood" names what is tested for: the row's sample type or panel gives the specimen.
        ("Occult Blood", {"specimen": "urine"}, "5794-3", AUTO_MATCH),
        ("Occult Blood", {"panel": "Urine Routine Examination"}, "5794-3", AUTO_MATCH),
        ("Urine Occult Blood", {}, "5794-3", AUTO_MATCH),
        ("Occult Blood", {"panel": "Stool Examination"}, "2335-8", AUTO_MATCH),
        ("Stool Occult Blood", {}, "2335-8", AUTO_MATCH),
        ("Occult Blood", {}, "2335-8", NEEDS_REVIEW),  # nothing says urine or stool
    ],
)
def test_occult_blood_takes_the_rows_specimen(matcher, name, context, code, status):
    result = matcher.match(name, None, **context)
    assert (result.matches[0][0].code, result.status) == (code, status)


def test_blood_in_a_name_is_still_a_specimen_elsewhere(matcher):
    assert top_code(matcher, "Blood Urea", "mg/dL") == "3091-6"
    assert top_code(matcher, "Whole Blood Lead", "ug/dL") == "5671-3"


@pytest.mark.parametrize(("name", "unit"), [("Transferrin Saturation", "%"), ("% Transferrin Saturation", None)])
def test_iron_saturation_needs_no_unit_to_decide(matcher, name, unit):
    # Mass and molar fraction of a saturation are the same number: the conventional code stands.
    result = matcher.match(name, unit)
    assert (result.matches[0][0].code, result.status) == ("2502-3", AUTO_MATCH)


def test_mass_moles_twins_still_wait_for_a_unit(matcher):
    assert matcher.match("Iron", None).status == NEEDS_REVIEW
    assert matcher.match("Iron", "ug/dL").matches[0][0].code == "2498-4"


@pytest.mark.parametrize("name", ["HBsAg", "Hepatitis B Surface Antigen", "HEPATITIS B SURFACE ANTIGEN;HBsAg"])
def test_serum_antigen_screen_auto_matches_the_methodless_code(matcher, name):
    result = matcher.match(name, None, panel="Serology")
    assert (result.matches[0][0].code, result.status) == ("5195-3", AUTO_MATCH)


def test_a_serum_screen_named_by_its_method_auto_matches_that_code(matcher):
    """"VDRL" is the test and its method: Reagin Ab [Presence] in Serum by VDRL, not held back for its method."""
    result = matcher.match("VDRL", None)
    assert (result.matches[0][0].code, result.status) == ("5292-8", AUTO_MATCH)
    assert matcher.match("VDRL (CSF)", None).status == NEEDS_REVIEW  # not serum


def test_donor_screening_codes_only_when_the_name_says_donor(matcher):
    assert top_code(matcher, "HTLV Ab") != "44538-7"
    assert matcher.match("HBsAg donor", None).status == NEEDS_REVIEW


def test_serology_with_a_quantitative_twin_stays_in_review(matcher):
    # "Anti HCV" may be a presence finding or an index in U/mL: only the value would say.
    assert matcher.match("Anti HCV", None).status == NEEDS_REVIEW


def test_vitamin_d_codes_labs_use_interchangeably_do_not_hold_each_other_back(matcher):
    result = matcher.match("Vitamin D", "ng/mL")
    assert (result.matches[0][0].code, result.status) == ("1989-3", AUTO_MATCH)
    assert matcher.match("Vitamin D, 25-Hydroxy", None).status == NEEDS_REVIEW  # mass or moles: no unit


def test_a_specimen_letter_after_a_comma_is_the_specimen(matcher):
    result = matcher.match("Alkaline Phosphatase, S", None)
    assert (result.matches[0][0].code, result.status) == ("6768-6", AUTO_MATCH)
    assert top_code(matcher, "Creatinine, U", "mg/dL") == "2161-8"
    assert top_code(matcher, "Protein S", None) == "5892-5"  # no comma: part of the analyte's name


def test_a_urine_code_by_a_method_nobody_named_is_no_urine_twin(matcher):
    from loinc.matcher import _urine_twin

    ranked = matcher.rank("Globulin")
    assert any(c.entry.code == "49047-4" for c in ranked)  # Globulin in Urine by Electrophoresis
    assert not _urine_twin(ranked, matcher._much_rarer)
    assert _urine_twin(matcher.rank("RBC"), matcher._much_rarer)  # urine RBC by automated count is one


def test_a_presence_finding_by_a_method_nobody_named_is_no_kind_competitor(matcher):
    # "Platelets [Presence] in Blood by Light microscopy" does not hold back the platelet count.
    from loinc.matcher import _kind_ambiguous

    ranked = matcher.rank("Platelet Count")
    assert any(c.entry.code == "9317-9" for c in ranked[:10])
    assert not _kind_ambiguous(ranked, matcher._cell_kinds, matcher._much_rarer)
    assert matcher.match("Platelet Count", None).status == AUTO_MATCH
    assert matcher.match("Neutrophils", None).status == NEEDS_REVIEW  # % or count: only a unit says


def test_a_short_names_qualifier_is_kept_calcium_is_not_ionized_calcium(matcher):
    # "Ca-I SerPl-sCnc" read as plain "Ca" made ionized calcium a close competitor of every calcium.
    result = matcher.match("Calcium", "mmol/L")
    assert (result.matches[0][0].code, result.status) == ("2000-8", AUTO_MATCH)
    assert top_code(matcher, "Ionized Calcium", "mmol/L") == "1995-0"


def test_a_count_word_names_the_blood_count_when_no_specimen_is_named(matcher):
    # Urine has its own leukocyte and erythrocyte counts, but a printed "count" is the blood count.
    for name, code in (("White cell count", "6690-2"), ("Red blood cell count", "789-8"),
                       ("Total Leucocyte Count (TLC)", "6690-2")):
        result = matcher.match(name, None)
        assert (result.matches[0][0].code, result.status) == (code, AUTO_MATCH)
    assert matcher.match("WBC", None).status == NEEDS_REVIEW  # blood or urine: nothing says which


def test_a_white_cell_types_count_word_names_its_count_per_volume(matcher):
    for name, code in (("Neutrophil count", "751-8"), ("Lymphocyte Count", "731-0")):
        result = matcher.match(name, None)
        assert (result.matches[0][0].code, result.status) == (code, AUTO_MATCH)
    assert matcher.match("Neutrophils", None).status == NEEDS_REVIEW  # % or count: only a unit says
    assert matcher.match("Reticulocyte count", None).status == NEEDS_REVIEW  # printed in % as often


def test_a_timed_urine_amount_nobody_named_is_no_kind_tie(matcher):
    # "Microalbumin [Mass/time] in 24 hour Urine" holds back a spot urine's row only if a time is named.
    result = matcher.match("Urine Microalbumin", None)
    assert (result.matches[0][0].code, result.status) == ("14957-5", AUTO_MATCH)
    assert matcher.match("24 hr Urine Microalbumin", None).status == NEEDS_REVIEW
    assert matcher.match("Urine Microalbumin", None, panel="24 Hours Urine").status == NEEDS_REVIEW


def test_a_red_cell_width_printed_without_a_suffix_is_the_cv(matcher):
    # "RDW" alone is printed in %: RDW-SD (fL) stays in the list but does not hold back the CV.
    result = matcher.match("RDW", None)
    assert (result.matches[0][0].code, result.status) == ("30385-9", AUTO_MATCH)
    assert "21000-5" in [entry.code for entry, _ in result.matches]
    assert top_code(matcher, "RDW", "fL") == "21000-5"  # a unit still says otherwise


def test_an_unspecified_time_urine_nobody_named_is_no_competitor(matcher):
    # "Sodium [Moles/volume] in unspecified time Urine" is a collection over a period, like "24 hour
    # Urine": a row that names no collection is a spot urine, and the spot code is auto-matched.
    for name in ("Natrium (Spontanurin)", "Sodio nelle urine", "Urine Sodium"):
        result = matcher.match(name, None)
        assert (result.matches[0][0].code, result.status) == ("2955-3", AUTO_MATCH), name
    assert matcher.match("Urine Sodium", None, panel="Timed urine collection").status == NEEDS_REVIEW


def test_a_plural_or_gender_ending_is_read_not_guessed(matcher):
    # "Thrombozyt" is "Thrombozyten" in the singular: the word was read, not guessed at, so the
    # match may be automatic ("-émie" stems stay guesses: test_loinc_report_classes).
    for name, code in (("Thrombozyt", "26515-7"),):
        result = matcher.match(name, None)
        assert (result.matches[0][0].code, result.status) == (code, AUTO_MATCH), name


def test_a_relative_word_says_the_share_in_five_languages(matcher):
    for name in ("Lymphozyten relativ", "Lymphocytes relatifs", "Linfociti relativi", "Linfocitos relativos",
                 "Lymphocytes relative"):
        result = matcher.match(name, None)  # the share of the leukocytes (or its automated-count sibling)
        assert result.matches[0][0].code in {"26478-8", "736-9"} and result.status == AUTO_MATCH, name
    assert top_code(matcher, "Lymphozyten absolut", None) in {"26474-7", "731-0"}


@pytest.mark.parametrize(("name", "code"), [
    ("Fibrinogen (Clauss)", "3255-7"), ("Ferritina (chemiluminescenza)", "2276-4"),
    ("Ferritine (électrochimiluminescence)", "2276-4"), ("Ferritin (Chemilumineszenz)", "2276-4"),
    ("Ferritina (quimioluminiscencia)", "2276-4"), ("Potassium (potentiométrie)", "2823-3"),
    ("Natrium (potentiometrisch)", "2951-2"), ("Lipasi (colorimetrico)", "3040-3"),
    ("Lipase (enzymatisch)", "3040-3"), ("Ferritine (méthode immunologique)", "2276-4"),
])
def test_a_printed_method_name_is_not_an_analyte_word(matcher, name, code):
    result = matcher.match(name, None)
    assert (result.matches[0][0].code, result.status) == (code, AUTO_MATCH)


@pytest.mark.parametrize("name", ["Antigène HBs", "Ag HBs", "HBs-Antigen", "Antigeno HBs", "Antígeno HBs",
                                  "Hepatitis B Surface Antigen"])
def test_antigen_words_in_five_languages_name_the_antigen_not_the_antibody(matcher, name):
    result = matcher.match(name, None)
    assert (result.matches[0][0].code, result.status) == ("5195-3", AUTO_MATCH)


@pytest.mark.parametrize(("name", "component"), [
    ("Anticorps anti-HBs", "Hepatitis B virus surface Ab"), ("Anti-HBs Antikörper", "Hepatitis B virus surface Ab"),
    ("Anticuerpos anti-HBs", "Hepatitis B virus surface Ab"), ("Anticorpi anti-HCV", "Hepatitis C virus Ab"),
    ("Anticuerpos anti-VHC", "Hepatitis C virus Ab"), ("HCV-Antikörper", "Hepatitis C virus Ab"),
])
def test_antibody_words_in_five_languages_name_the_antibody(matcher, name, component):
    assert matcher.match(name, None).matches[0][0].component == component


def test_a_quantitative_word_in_five_languages_is_read_not_guessed(matcher):
    from loinc.names import read_name

    for name in ("Anti-HBs (quantitativ)", "Anti-HBs quantitatif", "Anticuerpos anti-HBs cuantitativo",
                 "Beta-HCG quantitativo"):
        read = read_name(name)
        assert read.quantitative and "quant" not in read.analyte and "cuant" not in read.analyte, name
        assert matcher.match(name, None).matches[0][0].kinds != {"ordinal"}, name  # a number, not presence


def test_a_unit_that_contradicts_every_code_of_the_name_leaves_the_name_s_codes_at_review(matcher):
    # "C.C.M.H. 32,4 %": MCHC printed in % (g per 100 mL), the old French way. No MCHC code takes a
    # fraction, but the name still says the test: its codes, at review, never automatically.
    result = matcher.match("C.C.M.H.", "%")
    assert result.status == NEEDS_REVIEW
    assert result.matches[0][0].code in {"28540-3", "786-4"} and result.matches[0][1] < 0.5
    # a bilingual name whose halves each match under the unit keeps their agreement
    assert top_code(matcher, "Lymphozyten / Linfociti", "%") in {"26478-8", "736-9"}
