"""FHIR Bundles of parsed reports: valid, one Observation per result, codes and units only when
sure. The real samples and the digital fixtures are parsed once for the module; the expected
JSON of every fixture (scans and photos too) is built without parsing."""

from __future__ import annotations

import json

import pytest
from fhir.resources.R4B.bundle import Bundle

from benchmarks.fhir import Coverage, expected_reports, measure, parsed_reports
from loinc.ucum import UCUM_SYSTEM
from parser.models import LabReportResult, LoincMatch, ReportData, ResultMetadata
from service.fhir import (
    INTERPRETATION_SYSTEM,
    LOINC_SYSTEM,
    build_bundle,
    bundle_json,
    file_bundle,
    interpretation_code,
    ndjson_lines,
    observations_of,
)


@pytest.fixture(scope="module")
def parsed() -> list[ReportData]:
    return [report for _family, report in parsed_reports({"real", "digital"})]


def _observations(bundle: Bundle) -> list[dict]:
    return [json.loads(o.model_dump_json(exclude_none=True)) for o in observations_of(bundle)]


def _resource(bundle: Bundle, kind: str) -> dict:
    (found,) = [e.resource for e in bundle.entry if e.resource.get_resource_type() == kind]
    return json.loads(found.model_dump_json(exclude_none=True))


def _check_corpus(reports: list[ReportData], prefix: str) -> Coverage:
    total = Coverage()
    for number, report in enumerate(reports):
        bundle = build_bundle(report, key=f"{prefix}-{number}", final=True)
        cov = measure(report, bundle)  # validates the Bundle
        observations = _observations(bundle)
        assert [o["code"]["text"] for o in observations] == [r.test_name for r in report.results]
        total.add(cov)
    return total


def test_bundles_of_parsed_reports_meet_the_done_means(parsed):
    assert len(parsed) >= 20  # the real samples and the digital fixtures
    cov = _check_corpus(parsed, "parsed")
    assert cov.valid_bundles == cov.reports
    assert cov.observations == cov.results > 500
    assert cov.auto_match_coded == cov.auto_match > 0
    assert cov.ucum_quantity >= 0.95 * cov.numeric_with_unit
    assert cov.invalid_codes == 0
    assert cov.range_emitted == cov.with_range
    assert cov.interpreted == cov.abnormal > 0


def test_bundles_of_every_fixtures_expected_output():
    cov = _check_corpus(list(expected_reports()), "expected")
    assert cov.valid_bundles == cov.reports and cov.observations == cov.results
    assert cov.ucum_quantity >= 0.95 * cov.numeric_with_unit and cov.invalid_codes == 0
    assert cov.range_emitted == cov.with_range and cov.interpreted == cov.abnormal


def _row(**fields) -> LabReportResult:
    base = dict(test_name="Glucose", value="95", units="mg/dL", ucum_units="mg/dL",
                min_reference_range=70.0, max_reference_range=99.0, reference_range_text="70 - 99",
                interpretation="normal", sample_type="serum_plasma_blood")
    base.update(fields)
    return LabReportResult(**base)


_GLUCOSE = LoincMatch(loinc_code="2345-7", loinc_name="Glucose [Mass/volume] in Serum or Plasma",
                      display_name="Glucose SerPl-mCnc", confidence_score=0.6)


def _report(*rows: LabReportResult, **meta) -> ReportData:
    return ReportData(metadata=ResultMetadata(**meta), results=list(rows))


def test_observation_carries_quantity_range_interpretation_and_specimen():
    bundle = build_bundle(_report(_row()), key="job-1", final=True)
    (obs,) = _observations(bundle)
    assert obs["status"] == "final"
    assert obs["category"][0]["coding"][0]["code"] == "laboratory"
    assert obs["valueQuantity"] == {"value": 95.0, "unit": "mg/dL", "system": UCUM_SYSTEM, "code": "mg/dL"}
    (ref,) = obs["referenceRange"]
    assert ref["low"]["value"] == 70.0 and ref["high"]["value"] == 99.0 and ref["text"] == "70 - 99"
    assert obs["interpretation"][0]["coding"][0] == {
        "system": INTERPRETATION_SYSTEM, "code": "N", "display": "Normal"}
    assert obs["specimen"] == {"display": "Serum, plasma or blood"}


def test_comparator_values_and_qualitative_results():
    rows = [_row(value="<0.5", type="range", units="mg/L", ucum_units="mg/L"),
            _row(value=">=90", type="range", units="mL/min/1.73m2", ucum_units="mL/min/{1.73_m2}"),
            _row(test_name="HBsAg", value="Reactive", type="boolean", units=None, ucum_units=None,
                 min_reference_range=None, max_reference_range=None, reference_range_text="Non Reactive",
                 interpretation="abnormal")]
    less, more, reactive = _observations(build_bundle(_report(*rows), key="k", final=True))
    assert less["valueQuantity"]["comparator"] == "<" and less["valueQuantity"]["value"] == 0.5
    assert more["valueQuantity"]["comparator"] == ">=" and more["valueQuantity"]["code"] == "mL/min/{1.73_m2}"
    assert reactive["valueString"] == "Reactive" and "valueQuantity" not in reactive
    assert reactive["referenceRange"] == [{"text": "Non Reactive"}]
    assert reactive["interpretation"][0]["coding"][0]["code"] == "A"


def test_unknown_or_invalid_unit_keeps_the_printed_unit_without_a_code():
    rows = [_row(units="lakhs/cumm", ucum_units=None), _row(units="mg/dL", ucum_units="not a code")]
    for obs in _observations(build_bundle(_report(*rows), key="k", final=True)):
        assert "system" not in obs["valueQuantity"] and "code" not in obs["valueQuantity"]
        assert obs["valueQuantity"]["unit"] in ("lakhs/cumm", "mg/dL")


@pytest.mark.parametrize(
    "fields, code",
    [
        (dict(interpretation="abnormal", source_flag="H"), "H"),
        (dict(interpretation="abnormal", is_below_min_range=True), "L"),
        (dict(interpretation="critical", source_flag="HH"), "HH"),
        (dict(interpretation="critical", is_below_min_range=True), "LL"),
        (dict(interpretation="abnormal", source_flag="*"), "A"),
        (dict(interpretation="critical"), "AA"),
        (dict(interpretation="normal"), "N"),
        (dict(interpretation="unknown"), None),
    ],
)
def test_interpretation_codes(fields, code):
    assert interpretation_code(_row(**fields)) == code


def test_loinc_coding_only_when_auto_matched_or_reviewed():
    rows = [_row(loinc_matches=[_GLUCOSE], loinc_match_status="auto_match"),
            _row(loinc_matches=[_GLUCOSE], loinc_match_status="needs_review")]
    sure, doubtful = _observations(build_bundle(_report(*rows), key="k", final=False))
    assert sure["code"]["coding"] == [
        {"system": LOINC_SYSTEM, "code": "2345-7", "display": _GLUCOSE.loinc_name}]
    assert "coding" not in doubtful["code"] and doubtful["code"]["text"] == "Glucose"
    assert sure["status"] == "preliminary"
    _, reviewed = _observations(build_bundle(_report(*rows), key="k", final=True, reviewed=True))
    assert reviewed["code"]["coding"][0]["code"] == "2345-7"


def test_report_patient_and_stable_ids():
    report = _report(_row(), _row(test_name="Urea"), patient_first_name="Ada", patient_last_name="Lovelace",
                     gender="female", dob="1990-02-03", date_collected="2024-05-01",
                     date_reported="2024-05-02", lab_name="City Lab")
    bundle = build_bundle(report, key="job-7", final=True)
    assert bundle.type == "collection"
    patient = _resource(bundle, "Patient")
    assert patient["name"] == [{"family": "Lovelace", "given": ["Ada"]}]
    assert patient["birthDate"] == "1990-02-03" and patient["gender"] == "female"
    assert set(patient) == {"resourceType", "id", "name", "birthDate", "gender"}
    diagnostic = _resource(bundle, "DiagnosticReport")
    assert diagnostic["status"] == "final"
    assert diagnostic["code"]["coding"][0]["code"] == "11502-2"
    assert diagnostic["category"][0]["coding"][0]["code"] == "LAB"
    assert diagnostic["effectiveDateTime"] == "2024-05-01" and diagnostic["issued"].startswith("2024-05-02")
    assert diagnostic["subject"]["reference"] == f"urn:uuid:{patient['id']}"
    assert [r["reference"] for r in diagnostic["result"]] == [
        f"urn:uuid:{o['id']}" for o in _observations(bundle)]
    assert bundle_json(build_bundle(report, key="job-7", final=True)) == bundle_json(bundle)
    other = build_bundle(report, key="job-8", final=True)
    assert {e.resource.id for e in other.entry}.isdisjoint({e.resource.id for e in bundle.entry})


def test_dates_kept_as_printed_are_left_out():
    report = _report(_row(), dob="4/6/2021", date_collected="4/6/2021", patient_first_name=None)
    bundle = build_bundle(report, key="k", final=True)
    assert "birthDate" not in _resource(bundle, "Patient") and "name" not in _resource(bundle, "Patient")
    assert "effectiveDateTime" not in _resource(bundle, "DiagnosticReport")


def test_stored_data_without_ucum_field_derives_it_from_the_unit():
    legacy = ReportData.model_validate({"results": [{"test_name": "WBC", "value": "7.2", "units": "K/uL"}]})
    (obs,) = _observations(build_bundle(legacy, key="k", final=True))
    assert obs["valueQuantity"]["code"] == "10*3/uL"


def test_file_bundle_status_follows_routing_and_ndjson_has_one_observation_a_line(parsed):
    report = parsed[0]
    doubtful = file_bundle(report, b"same bytes", needs_review=True)
    sure = file_bundle(report, b"same bytes", needs_review=False)
    assert _resource(doubtful, "DiagnosticReport")["status"] == "preliminary"
    assert _resource(sure, "DiagnosticReport")["status"] == "final"
    assert doubtful.id == sure.id
    lines = list(ndjson_lines([sure, doubtful]))
    assert len(lines) == 2 * len(report.results)
    assert all(json.loads(line)["resourceType"] == "Observation" for line in lines)
