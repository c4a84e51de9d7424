"""European urinalysis rows: the section heading (or the parser's sample type) names urine, and the
bare names a urinalysis prints ("Protéines", "Densité", "Sang") reach the urine codes."""

import pytest

from loinc.annotate import annotate_report, value_kind
from loinc.names import fold, read_name
from loinc.specimens import panel_specimen
from parser.models import LabReportResult, ReportData

URINE_CODES = {"prot": {"20454-5", "2888-6", "5804-0"}, "sg": {"2965-2", "5811-5"}, "blood": {"5794-3", "53963-5"},
               "ket": {"5797-6", "2514-8", "49779-2", "33903-6"}}


@pytest.mark.parametrize("name, value, panel, which", [
    ("Protéines", "Négatif", "EXAMEN DES URINES", "prot"),
    ("PROTEINE", "Negativo", "Esame chimico-fisico delle urine", "prot"),
    ("PROTEÍNAS", "Negativo", "Sistemático de orina", "prot"),
    ("EIWEISS", "negativ", "Urinstatus", "prot"),
    ("Densité", "1,010", "EXAMEN DES URINES", "sg"),
    ("DENSIDAD", "1,015", "ORINA", "sg"),
    ("Sang", "Négatif", "EXAMEN DES URINES", "blood"),
    ("SANGRE", "Negativo", "Sistemático de orina", "blood"),
    ("Blut", "negativ", "Urinstatus", "blood"),
    ("CORPS CÉTONIQUES", "Traces", "Examen des urines", "ket"),
])
def test_a_urinalysis_row_auto_matches_its_urine_code(name, value, panel, which):
    row = LabReportResult(test_name=name, value=value, source_panel_name=panel)
    annotate_report(ReportData(results=[row]))
    assert row.loinc_match_status == "auto_match"
    assert row.loinc_matches[0].loinc_code in URINE_CODES[which]


def test_without_a_urine_heading_bare_protein_in_grams_is_not_decided_for_urine():
    row = LabReportResult(test_name="Protéines", value="0,2", units="g/l")
    annotate_report(ReportData(results=[row]))
    assert row.loinc_match_status == "needs_review"  # serum or urine: nothing on the row says


def test_spanish_and_german_urine_headings_but_not_urea():
    assert panel_specimen("Sistemático de orina") == panel_specimen("ORINA") == "urine"
    assert panel_specimen("Harnstatus") == "urine"
    assert panel_specimen("Harnstoff") != "urine"


def test_trace_words_are_ordinal_and_sharp_s_folds_as_ss():
    for word in ("Traces", "Tracce", "Indicios", "Spuren"):
        assert value_kind(LabReportResult(test_name="Glucose", value=word)) == "ordinal"
    assert fold("Eiweiß") == fold("EIWEISS")
    assert read_name("Sang").specimen is None and read_name("Sang").analyte == "blood"
