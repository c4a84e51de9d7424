from loinc.annotate import annotate_report
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
