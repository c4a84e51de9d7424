from loinc.annotate import annotate_report, name_for_matching, value_kind
from loinc.matcher import alias_key
from parser.models import LabReportResult, ReportData


def row(name, unit=None, **fields):
    return LabReportResult(test_name=name, value="1", units=unit, **fields)


def test_every_result_gets_status_and_bounded_matches():
    report = ReportData(results=[
        row("Hemoglobin", "g/dL", source_panel_name="Complete Blood Count"),
        row("Neutrophils", "%", source_panel_name="Differential WBC count"),
        row("Neutrophils", "x10^3/uL", source_panel_name="Differential WBC count"),
        row("Sample Type"),
    ])
    annotate_report(report)
    hemoglobin, percent, absolute, furniture = report.results
    assert hemoglobin.loinc_match_status == "auto_match"
    assert hemoglobin.loinc_matches[0].loinc_code == "718-7"
    assert hemoglobin.loinc_matches[0].loinc_name == "Hemoglobin [Mass/volume] in Blood"
    assert percent.loinc_matches[0].loinc_code == "26511-6"  # Neutrophils/100 leukocytes in Blood
    assert absolute.loinc_matches[0].loinc_code == "26499-4"  # Neutrophils [#/volume] in Blood
    assert furniture.loinc_match_status == "no_match" and furniture.loinc_matches == []
    for result in report.results:
        assert len(result.loinc_matches) <= 5
        assert all(0.0 <= m.confidence_score <= 1.0 for m in result.loinc_matches)


def test_context_fields_are_used():
    urine = row("Glucose", "mg/dL", sample_type="urine")
    serum = row("Glucose", "mg/dL", sample_type="serum_plasma_blood")
    calculated = row("LDL Cholesterol", "mg/dL", measurement_kind="calculated", source_panel_name="Lipid Profile")
    report = ReportData(results=[urine, serum, calculated])
    annotate_report(report)
    assert "Urine" in urine.loinc_matches[0].loinc_name
    assert serum.loinc_matches[0].loinc_code == "2345-7"
    assert calculated.loinc_matches[0].loinc_code == "13457-7"


def test_team_aliases_win():
    report = ReportData(results=[row("Sugar (F)", "mg/dL")])
    annotate_report(report, aliases={alias_key("Sugar (F)", "mg/dL"): "1558-6"})
    result = report.results[0]
    assert result.loinc_match_status == "auto_match"
    assert result.loinc_matches[0].loinc_code == "1558-6"
    assert result.loinc_matches[0].confidence_score == 1.0


def test_annotating_twice_gives_the_same_answer():
    report = ReportData(results=[row("SGOT", "U/L")])
    annotate_report(report)
    first = report.model_dump()
    annotate_report(report)
    assert report.model_dump() == first


def test_a_flag_letter_left_in_the_name_is_not_matched_when_the_value_bears_it_out():
    urea = LabReportResult(test_name="Urea H", value="10,3", units="mmol/L", min_reference_range=2.5,
                           max_reference_range=7.8)
    iron = LabReportResult(test_name="Iron, Total L", value="7", units="µmol/L", min_reference_range=10,
                           max_reference_range=30)
    inside = LabReportResult(test_name="Factor H", value="400", units="ug/mL", min_reference_range=250,
                             max_reference_range=700)
    flagged = LabReportResult(test_name="Urea H", value="10.3", units="mmol/L", min_reference_range=2.5,
                              max_reference_range=7.8, source_flag="H")
    assert name_for_matching(urea) == "Urea"
    assert name_for_matching(iron) == "Iron, Total"
    assert name_for_matching(inside) == "Factor H"
    assert name_for_matching(flagged) == "Urea H"
    report = ReportData(results=[urea])
    annotate_report(report)
    assert (urea.loinc_matches[0].loinc_code, urea.loinc_match_status) == ("22664-7", "auto_match")
    assert urea.test_name == "Urea H"  # the printed name is left as read


def test_a_word_result_without_a_unit_asks_for_a_presence_code():
    ketones = LabReportResult(test_name="Ketones", value="Negative", type="boolean", sample_type="urine",
                              source_panel_name="Urine Routine")
    glucose = LabReportResult(test_name="Glucose", value="Trace", type="boolean", sample_type="urine")
    assert value_kind(ketones) == "ordinal"
    assert value_kind(LabReportResult(test_name="Glucose", value="95", units="mg/dL")) is None
    report = ReportData(results=[ketones, glucose])
    annotate_report(report)
    assert (ketones.loinc_matches[0].loinc_code, ketones.loinc_match_status) == ("33903-6", "auto_match")
    assert (glucose.loinc_matches[0].loinc_code, glucose.loinc_match_status) == ("2349-9", "auto_match")


def test_a_european_negative_or_positive_word_asks_for_a_presence_code_too():
    glucose = LabReportResult(test_name="GLUCOSE", value="Négatif", type="boolean", sample_type="urine")
    ketones = LabReportResult(test_name="CUERPOS CETÓNICOS", value="Positivo", type="boolean", sample_type="urine")
    assert value_kind(glucose) == value_kind(ketones) == "ordinal"
    assert value_kind(LabReportResult(test_name="FARBE", value="gelb", type="comment")) is None  # a colour
    annotate_report(ReportData(results=[glucose]))
    assert (glucose.loinc_matches[0].loinc_code, glucose.loinc_match_status) == ("2349-9", "auto_match")


def test_a_word_result_is_never_auto_matched_to_an_amount_in_blood():
    # a urine strip read without its urine heading: the strip's mg/dL kept the serum glucose code
    strip = LabReportResult(test_name="Glucosio", value="assente", units="mg/dL", source_panel_name="Chimica clinica")
    serum = LabReportResult(test_name="Glucosio", value="92", units="mg/dL", source_panel_name="Chimica clinica")
    urine = LabReportResult(test_name="Glucose", value="Negative", sample_type="urine", source_panel_name="Urinalysis")
    report = ReportData(results=[strip, serum, urine])
    annotate_report(report)
    assert strip.loinc_matches[0].loinc_code == "2345-7" and strip.loinc_match_status == "needs_review"
    assert serum.loinc_matches[0].loinc_code == "2345-7" and serum.loinc_match_status == "auto_match"
    assert urine.loinc_match_status == "auto_match"  # a finding code in urine fits a word


def test_a_urine_strip_under_a_heading_that_names_no_urine_is_read_from_its_neighbours():
    # "Chimica clinica": Colore, pH, Peso specifico, Proteine, Glucosio, Nitriti. The rows between two
    # urine-only rows (Colore ... Peso specifico ... Nitriti) are the strip's, at review status.
    from loinc.annotate import annotate_report
    from parser.models import LabReportResult, ReportData

    rows = [("Colesterolo totale", "214", "mg/dL"), ("Colore", "giallo", None), ("pH", "5,5", None),
            ("Peso specifico", "1025", None), ("Proteine", "tracce", "mg/dL"), ("Glucosio", "assente", "mg/dL"),
            ("Nitriti", "assenti", None), ("Glucosio", "92", "mg/dL")]
    results = [LabReportResult(test_name=name, value=value, units=unit, sample_type="serum_plasma_blood",
                               source_panel_name="Chimica clinica") for name, value, unit in rows]
    report = ReportData(results=results)
    annotate_report(report)
    codes = [r.loinc_matches[0].loinc_code for r in report.results]
    assert codes[2] == "2756-5" and codes[4] == "2888-6" and codes[5] in {"2350-7", "2349-9", "5792-7", "25428-4"}
    assert report.results[4].loinc_match_status == "needs_review"
    assert codes[0] == "2093-3" and codes[7] == "2345-7"  # outside the strip: blood
