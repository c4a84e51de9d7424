import pytest

from loinc.names import analyte_text, fold, read_name


@pytest.mark.parametrize(
    ("printed", "loinc_component"),
    [
        ("SGPT", "Alanine aminotransferase"),
        ("ALT (SGPT)", "Alanine aminotransferase"),
        ("S.G.O.T.", "Aspartate aminotransferase"),
        ("Hb", "Hemoglobin"),
        ("Haemoglobin (HGB)", "Hemoglobin"),
        ("P.C.V.", "Hematocrit"),
        ("Total Leucocyte Count (TLC)", "Leukocytes"),
        ("Total WBC count", "Leukocytes"),
        ("HDL Cholesterol", "Cholesterol in HDL"),
        ("LDL-C", "Cholesterol in LDL"),
        ("Free T4", "Thyroxine (T4) free"),
        ("TSH (Ultrasensitive)", "Thyrotropin"),
        ("Glycosylated Haemoglobin (HbA1c)", "Hemoglobin A1c/Hemoglobin.total"),
        ("BUN", "Urea nitrogen"),
        ("Blood Urea", "Urea"),
        ("Valproic Acid", "Valproate"),
        ("Anticardiolipin Antibody IgG", "Cardiolipin IgG Ab"),
        ("Barbiturate", "Barbiturates"),
        ("Immunoglobulin A", "IgA"),
    ],
)
def test_shorthand_reads_as_loinc_wording(printed, loinc_component):
    # Word order is the fuzzy scorer's business; the words must be LOINC's.
    assert sorted(read_name(printed).analyte.split()) == sorted(analyte_text(loinc_component).split())


def test_specimen_words_become_context_not_analyte():
    read = read_name("S. Creatinine")
    assert (read.analyte, read.specimen) == ("creatinine", "serum_plasma")
    read = read_name("Calcium, Urine")
    assert (read.analyte, read.specimen) == ("calcium", "urine")
    read = read_name("Total Protein, Pleural")
    assert read.specimen == "pleural"


def test_single_letter_specimen_only_as_prefix():
    # "Protein S" is an analyte, not protein in serum.
    assert read_name("Protein S").analyte == "protein s"
    assert read_name("U. Protein").specimen == "urine"


def test_method_and_count_hints():
    assert read_name("LDL Chol Calc (NIH)").calculated
    assert not read_name("LDL Cholesterol").calculated
    assert read_name("Lymphs (Absolute)").unit_kind == "count_conc"
    assert read_name("Basos#").unit_kind == "count_conc"
    assert read_name("CD3 %").unit_kind == "fraction"
    assert read_name("Mumps IgG Ab Value").quantitative


@pytest.mark.parametrize("printed", ["Sample Type", "Interpretation", "Page 1 of 2", "Remarks", ""])
def test_report_furniture_has_no_analyte(printed):
    assert read_name(printed).analyte == ""


def test_fold_strips_footnotes_and_punctuation():
    assert fold("Creatinine*") == "creatinine"
    assert fold("  Uric   Acid; ") == "uric acid"


def test_table_names_and_printed_names_meet():
    assert analyte_text("Cholesterol in LDL") == read_name("LDL Cholesterol").analyte
    assert analyte_text("Alanine aminotransferase") == read_name("SGPT").analyte


@pytest.mark.parametrize(
    ("printed", "unit", "code"),
    [("NEU", "10^9/L", "26499-4"), ("LYM%", "%", "26478-8"), ("MON", "10^9/L", "26484-6"),
     ("BAS%", "%", "30180-4"), ("EOS%", "%", "26450-7"), ("NEU%", "%", "26511-6")],
)
def test_analyser_short_names_match_their_cell_type(printed, unit, code):
    # A hematology analyser's three-letter names, the share's % glued to the name (gh_volta kind):
    # no code at all before (no_match), so the job went to review with every row right.
    from loinc.matcher import get_matcher

    result = get_matcher().match(printed, unit)
    assert result.status == "auto_match"
    assert result.matches[0][0].code == code


def test_a_percent_glued_to_a_name_reads_as_a_share():
    assert read_name("LYM%").unit_kind == "fraction"
    assert fold("EOS%") == fold("EOS %")


def test_a_red_cell_width_without_a_suffix_is_usually_the_cv():
    from loinc.names import read_name

    assert read_name("RDW").usual_kind == "fraction"
    assert read_name("Red Cell Distribution Width").usual_kind == "fraction"
    assert read_name("RDW").unit_kind is None  # a usual kind, not one the name states: RDW-SD stays a candidate
    assert read_name("RDW-SD").usual_kind is None and read_name("PDW").usual_kind is None


def test_total_globulin_is_the_globulin():
    from loinc.names import read_name

    assert read_name("Globulin, Total").analyte == read_name("Total Globulin").analyte == "globulin"


@pytest.mark.parametrize("printed, analyte", [
    ("ESR 1st hour", "erythrocyte sedimentation rate"), ("V.S.G. 1ª hora", "vsg"), ("VES (1ª ora)", "ves"),
    ("Vitesse de sédimentation (1ère heure)", "vitesse sedimentation"), ("BSG nach 1 Stunde", "bsg"),
    ("VS à la 1ère heure", "vs"), ("BSG 1. Std.", "bsg"),
])
def test_the_first_hour_of_a_sedimentation_is_no_analyte_word(printed, analyte):
    assert read_name(printed).analyte == analyte


def test_an_hour_beside_another_analyte_stays_a_timed_test():
    assert "1 hr" in read_name("Glucose 1 hr").analyte


@pytest.mark.parametrize("printed", ["ESR 1st hour", "V.S.G. 1ª hora", "VES (1ª ora)", "Eritrosedimentación",
                                     "Vitesse de sédimentation (1ère heure)", "BSG nach 1 Stunde"])
def test_a_sedimentation_rate_named_with_its_hour_auto_matches(printed):
    from loinc.matcher import get_matcher

    found = get_matcher().match(printed, "mm/h")
    assert found.status == "auto_match" and found.matches[0][0].code in {"30341-2", "4537-7"}


@pytest.mark.parametrize("printed", ["HbA1c (DCCT)", "HbA1c NGSP", "Hemoglobina glicada (HbA1c) DCCT"])
def test_the_hba1c_standardisation_is_no_analyte_word(printed):
    from loinc.matcher import get_matcher

    found = get_matcher().match(printed, "%")
    assert found.status == "auto_match" and found.matches[0][0].code in {"4548-4", "17856-6"}


@pytest.mark.parametrize("printed", ["LDL-Cholesterin ber.", "LDL-Cholesterin berechnet", "Cholestérol LDL calculé",
                                     "Colesterolo LDL calcolato", "Colesterol LDL calculado"])
def test_calculated_in_five_languages(printed):
    read = read_name(printed)
    assert read.calculated and not {"ber", "berechnet", "calcule", "calcolato", "calculado"} & set(read.analyte.split())


@pytest.mark.parametrize("printed, code", [
    ("Tasa de filtración glomerular (CKD-EPI)", "62238-1"), ("Glomeruläre Filtrationsrate (CKD-EPI)", "62238-1"),
    ("DFGe (CKD-EPI)", "62238-1"), ("eGFR (CKD-EPI) ber.", "62238-1"),
])
def test_an_estimated_gfr_named_in_any_of_five_languages_reads_as_the_english_name(printed, code):
    from loinc.matcher import get_matcher

    found = get_matcher().match(printed, "mL/min/1.73m²")
    assert found.status == "auto_match" and found.matches[0][0].code == code


@pytest.mark.parametrize("printed, analyte_words", [
    ("γ-GT", "gamma"), ("α1-Antitrypsin", "alpha"), ("β2-Mikroglobulin", "beta"), ("Freie κ-Leichtketten", "kappa"),
    ("Λ-Leichtketten", "lambda"),
])
def test_a_greek_letter_reads_as_the_word_loinc_spells(printed, analyte_words):
    assert analyte_words in fold(printed).split()


@pytest.mark.parametrize("printed, unit, code", [
    ("γ-GT", "U/L", "2324-2"), ("α1-Antitrypsin", "g/L", "1825-9"), ("α-Fetoprotein", "ng/mL", "1834-1"),
])
def test_a_test_named_with_a_greek_letter_auto_matches(printed, unit, code):
    from loinc.matcher import get_matcher

    found = get_matcher().match(printed, unit)
    assert found.status == "auto_match" and found.matches[0][0].code == code


@pytest.mark.parametrize("printed", ["V.S.G. 1ª hora", "Vitesse de sédimentation (1ère heure)", "BSG nach 1 Stunde"])
def test_millimetres_beside_a_sedimentation_named_with_its_hour_are_its_rate(printed):
    from loinc.matcher import get_matcher

    assert read_name(printed).unit_kind == "velocity"
    found = get_matcher().match(printed, "mm")
    assert found.status == "auto_match" and found.matches[0][0].code in {"30341-2", "4537-7"}


def test_millimetres_without_the_hour_stay_unreadable():
    from loinc.matcher import get_matcher

    assert get_matcher().match("ESR", "mm").status == "needs_review"
