"""European count units: G/L and T/L on cell counts, and the count's magnitude deciding the specimen."""

import pytest

from loinc.matcher import AUTO_MATCH, NEEDS_REVIEW, get_matcher
from loinc.units import count_magnitude, unit_kind, unit_kinds
from parser.models import LabReportResult
from review.evidence import unit_fits_code
from loinc.annotate import annotate_report
from parser.models import ReportData


def test_tera_per_litre_is_a_count_in_any_case():
    assert unit_kind("T/L") == unit_kind("t/l") == "count_conc"


def test_grams_per_litre_may_be_giga_cells_and_the_code_chooses():
    assert unit_kinds("G/L") == unit_kinds("g/L") == {"mass_conc", "count_conc"}
    assert unit_kinds("G/l") == {"count_conc"}  # capital G over a small l: only a count
    assert unit_kinds("mg/dL") == {"mass_conc"}


@pytest.mark.parametrize("unit, per_litre", [
    ("/nl", 1e9), ("Mio/µl", 1e12), ("Tsd/µl", 1e9), ("10^3/µL", 1e9), ("G/l", 1e9), ("T/L", 1e12),
    ("/µL", 1e6), ("x10³/µL", 1e9), ("lakhs/cumm", 1e11), ("mg/dL", None), ("%", None),
])
def test_count_magnitude(unit, per_litre):
    assert count_magnitude(unit) == per_litre


@pytest.mark.parametrize("name, unit, code", [
    ("Polynucléaires neutrophiles", "G/L", "26499-4"),  # capitals: was read as grams, no_match
    ("THROMBOZYTEN", "g/L", "26515-7"),  # OCR lower-case g: was no_match
    ("Hématies", "T/L", "26453-1"),
])
def test_giga_and_tera_counts_in_any_case_reach_the_count_code(name, unit, code):
    result = get_matcher().match(name, unit)
    assert result.status == AUTO_MATCH
    assert result.matches[0][0].code == code


@pytest.mark.parametrize("name, unit, code", [
    ("Leukozyten", "/nl", "26464-8"), ("Erythrozyten", "Mio/µl", "26453-1"), ("Globules blancs", "G/l", "26464-8"),
    ("Hématies", "T/l", "26453-1"), ("Leucocitos", "10^3/µL", "26464-8"),
])
def test_a_blood_sized_count_unit_decides_blood_without_a_panel(name, unit, code):
    result = get_matcher().match(name, unit)
    assert result.status == AUTO_MATCH  # was needs_review: blood or urine
    assert result.matches[0][0].code == code
    assert all("Urine" not in entry.system for entry, _ in result.matches)


@pytest.mark.parametrize("name", ["Leukozyten", "Erythrozyten"])
def test_a_unit_both_specimens_use_stays_undecided(name):
    assert get_matcher().match(name, "/µl").status == NEEDS_REVIEW


def test_grams_stay_grams_on_a_mass_analyte():
    assert get_matcher().match("Albumin", "G/L").matches[0][0].code == "1751-7"
    assert get_matcher().match("Hämoglobin", "G/L").matches[0][0].code == "718-7"


def test_review_reads_giga_cells_as_fitting_a_count_code():
    report = ReportData(results=[LabReportResult(test_name="Polynucléaires neutrophiles", value="4,1", units="G/L")])
    annotate_report(report)
    assert unit_fits_code(report.results[0]) is True


@pytest.mark.parametrize("unit, per_litre", [
    ("Tsd./µl", 1e9), ("Tausend/µl", 1e9), ("Mio./µl", 1e12), ("miles/mm³", 1e9), ("mila/mm³", 1e9),
    ("milliers/mm³", 1e9), ("Mill./µl", 1e12),
])
def test_thousand_and_million_words_of_five_languages_with_or_without_a_dot(unit, per_litre):
    assert unit_kind(unit) == "count_conc"
    assert count_magnitude(unit) == per_litre


_WBC, _PLT, _RBC = {"26464-8", "6690-2"}, {"26515-7", "777-3"}, {"26453-1", "789-8"}  # with the automated count


@pytest.mark.parametrize("name, unit, codes", [
    ("Leukozyten", "Tsd./µl", _WBC), ("Thrombozyten", "Tsd./µl", _PLT), ("Erythrozyten", "Mio./µl", _RBC),
    ("Plaquetas", "miles/mm³", _PLT), ("Leucocitos", "miles/mm³", _WBC),
])
def test_a_blood_count_in_such_a_unit_auto_matches(name, unit, codes):
    found = get_matcher().match(name, unit)
    assert found.status == AUTO_MATCH
    assert found.matches[0][0].code in codes
