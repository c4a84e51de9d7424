"""A parsed report as a FHIR Bundle (`collection`): one Patient, one DiagnosticReport and one
Observation per result, in report order (../shared/spec/parser-api.md, "FHIR R4").

The resources are `fhir.resources` models, so every Bundle is checked by the library as it is
built. The library's releases for pydantic 2 (7.x, 8.x) carry R5 and R4B (4.3.0) but no R4
(4.0.1; its last home, 6.x, needs pydantic 1): we use R4B, whose Patient, Observation,
DiagnosticReport and Bundle have the same elements as R4's, so the JSON is valid R4.

Ids are uuid5 of a key and the resource's place, so a re-read gives the same Bundle: the job
id in the API, the file's SHA-256 in the CLI.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Iterable

from fhir.resources.R4B.bundle import Bundle, BundleEntry
from fhir.resources.R4B.codeableconcept import CodeableConcept
from fhir.resources.R4B.coding import Coding
from fhir.resources.R4B.diagnosticreport import DiagnosticReport
from fhir.resources.R4B.humanname import HumanName
from fhir.resources.R4B.observation import Observation, ObservationReferenceRange
from fhir.resources.R4B.patient import Patient
from fhir.resources.R4B.quantity import Quantity
from fhir.resources.R4B.reference import Reference

from loinc.ucum import UCUM_SYSTEM, is_valid, to_ucum
from parser.flags import parse_flag, value_bounds
from parser.models import LabReportResult, ReportData
from parser.ranges import uses_decimal_comma
from review.routing import route_report

FHIR_JSON = "application/fhir+json"
LOINC_SYSTEM = "http://loinc.org"
INTERPRETATION_SYSTEM = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation"
CATEGORY_OBSERVATION = "http://terminology.hl7.org/CodeSystem/observation-category"
CATEGORY_REPORT = "http://terminology.hl7.org/CodeSystem/v2-0074"
LAB_REPORT_CODE = ("11502-2", "Laboratory report")
FINAL, PRELIMINARY = "final", "preliminary"

_NAMESPACE = uuid.UUID("6f1c1e5e-3f64-5c8e-9d6a-6c61627265f7")  # fixed: ids stay stable
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_SPECIMENS = {
    "urine": "Urine",
    "serum_plasma_blood": "Serum, plasma or blood",
    "capillary_blood": "Capillary blood",
    "stool": "Stool",
    "saliva": "Saliva",
}
_INTERPRETATION_DISPLAY = {
    "N": "Normal", "A": "Abnormal", "AA": "Critical abnormal", "H": "High", "L": "Low",
    "HH": "Critical high", "LL": "Critical low",
}


def resource_id(key: str, name: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{key}/{name}"))


def _ref(resource_id_: str, display: str | None = None) -> Reference:
    return Reference(reference=f"urn:uuid:{resource_id_}", display=display)


def _iso(date: str | None) -> str | None:
    """A contract date (`YYYY-mm-dd`) or None; dates kept as printed are not FHIR dates."""
    return date if date and _ISO_DATE.match(date) else None


def build_patient(report: ReportData, key: str) -> Patient:
    """Only what the report prints: name, birth date, gender."""
    meta = report.metadata
    name = None
    if meta.patient_first_name or meta.patient_last_name:
        name = [HumanName(
            family=meta.patient_last_name,
            given=[meta.patient_first_name] if meta.patient_first_name else None,
        )]
    return Patient(id=resource_id(key, "patient"), name=name, birthDate=_iso(meta.dob), gender=meta.gender)


def _quantity(number: float, unit: str | None, ucum: str | None, comparator: str | None = None) -> Quantity:
    """A FHIR Quantity: the printed unit, and the UCUM system/code only for a valid code."""
    code = ucum if is_valid(ucum) else None
    return Quantity(
        value=number, comparator=comparator or None, unit=unit,
        system=UCUM_SYSTEM if code else None, code=code,
    )


def _ucum_of(result: LabReportResult) -> str | None:
    # Data stored before `ucum_units` existed has no such field: derive it from the unit.
    return result.ucum_units if "ucum_units" in result.model_fields_set else to_ucum(result.units)


def decimal_comma_of(report: ReportData) -> bool:
    """Does the report write decimals with a comma? The parser's own test, on its values and ranges."""
    return uses_decimal_comma([t for r in report.results for t in (r.value, r.reference_range_text or "")])


def numeric_value(result: LabReportResult, decimal_comma: bool) -> tuple[float, str] | None:
    """(number, comparator) of a row whose value is a number (`5.2`, `<0.5`), else None."""
    if result.type in ("ratio", "comment", "boolean"):
        return None
    return value_bounds(result.value, decimal_comma)


def _value(result: LabReportResult, decimal_comma: bool) -> dict:
    """`valueQuantity` for a number (with its comparator), `valueString` otherwise."""
    parsed = numeric_value(result, decimal_comma)
    if parsed is None:
        return {"valueString": result.value}
    number, comparator = parsed
    unit, ucum = result.units, _ucum_of(result)
    if unit is None and result.value.strip().endswith("%"):
        unit, ucum = "%", "%"
    return {"valueQuantity": _quantity(number, unit, ucum, comparator)}


def _reference_range(result: LabReportResult) -> list[ObservationReferenceRange] | None:
    low, high, text = result.min_reference_range, result.max_reference_range, result.reference_range_text
    if low is None and high is None and not text:
        return None
    ucum = _ucum_of(result)
    return [ObservationReferenceRange(
        low=None if low is None else _quantity(low, result.units, ucum),
        high=None if high is None else _quantity(high, result.units, ucum),
        text=text or None,
    )]


def interpretation_code(result: LabReportResult) -> str | None:
    """The v3 ObservationInterpretation code of a row, or None when it is unknown."""
    if result.interpretation == "normal":
        return "N"
    if result.interpretation not in ("abnormal", "critical"):
        return None
    flag = parse_flag(result.source_flag)
    direction = flag.direction if flag else None
    if direction is None and result.is_above_max_range:
        direction = "high"
    elif direction is None and result.is_below_min_range:
        direction = "low"
    critical = result.interpretation == "critical"
    if direction == "high":
        return "HH" if critical else "H"
    if direction == "low":
        return "LL" if critical else "L"
    return "AA" if critical else "A"


def _code(result: LabReportResult, reviewed: bool) -> CodeableConcept:
    """The printed name; the LOINC coding only when it is sure (auto_match) or a person saw it."""
    coding = None
    if result.loinc_matches and (result.loinc_match_status == "auto_match" or reviewed):
        best = result.loinc_matches[0]
        coding = [Coding(system=LOINC_SYSTEM, code=best.loinc_code, display=best.loinc_name)]
    return CodeableConcept(coding=coding, text=result.test_name)


def build_observation(
    result: LabReportResult, *, key: str, index: int, status: str, reviewed: bool,
    patient_id: str, decimal_comma: bool = False, effective: str | None = None,
) -> Observation:
    code = interpretation_code(result)
    specimen = _SPECIMENS.get(result.sample_type)
    return Observation(
        id=resource_id(key, f"observation/{index}"),
        status=status,
        category=[CodeableConcept(coding=[Coding(
            system=CATEGORY_OBSERVATION, code="laboratory", display="Laboratory")])],
        code=_code(result, reviewed),
        subject=_ref(patient_id),
        effectiveDateTime=effective,
        **_value(result, decimal_comma),
        interpretation=None if code is None else [CodeableConcept(coding=[Coding(
            system=INTERPRETATION_SYSTEM, code=code, display=_INTERPRETATION_DISPLAY[code])])],
        referenceRange=_reference_range(result),
        specimen=None if specimen is None else Reference(display=specimen),
    )


def build_bundle(report: ReportData, *, key: str, final: bool, reviewed: bool = False) -> Bundle:
    """The report's Bundle. `final`: the job completed (else it waits for review);
    `reviewed`: a person completed its review, so every row's chosen LOINC code is coded."""
    status = FINAL if final else PRELIMINARY
    meta = report.metadata
    patient = build_patient(report, key)
    collected = _iso(meta.date_collected)
    decimal_comma = decimal_comma_of(report)
    observations = [
        build_observation(
            result, key=key, index=index, status=status, reviewed=reviewed,
            patient_id=patient.id, decimal_comma=decimal_comma, effective=collected,
        )
        for index, result in enumerate(report.results)
    ]
    reported = _iso(meta.date_reported)
    diagnostic = DiagnosticReport(
        id=resource_id(key, "report"),
        status=status,
        category=[CodeableConcept(coding=[Coding(system=CATEGORY_REPORT, code="LAB", display="Laboratory")])],
        code=CodeableConcept(
            coding=[Coding(system=LOINC_SYSTEM, code=LAB_REPORT_CODE[0], display=LAB_REPORT_CODE[1])],
            text=LAB_REPORT_CODE[1],
        ),
        subject=_ref(patient.id),
        effectiveDateTime=collected,
        # `issued` is an instant; the report prints a day only, so it is that day at 00:00 UTC.
        issued=f"{reported}T00:00:00Z" if reported else None,
        performer=[Reference(display=meta.lab_name)] if meta.lab_name else None,
        result=[_ref(obs.id) for obs in observations] or None,
    )
    resources = [patient, diagnostic, *observations]
    return Bundle(
        id=resource_id(key, "bundle"),
        type="collection",
        entry=[BundleEntry(fullUrl=f"urn:uuid:{r.id}", resource=r) for r in resources],
    )


def file_bundle(report: ReportData, data: bytes, *, needs_review: bool | None = None) -> Bundle:
    """The Bundle of a report parsed outside the service (`labreport parse`/`batch`): ids from
    the file's SHA-256; `preliminary` when the service's routing would send it to review."""
    if needs_review is None:
        needs_review = route_report(report).needs_review
    return build_bundle(report, key=hashlib.sha256(data).hexdigest(), final=not needs_review)


def bundle_json(bundle: Bundle, *, indent: int | None = None) -> str:
    return bundle.model_dump_json(indent=indent, exclude_none=True)


def observations_of(bundle: Bundle) -> list[Observation]:
    return [e.resource for e in bundle.entry or [] if e.resource.get_resource_type() == "Observation"]


def ndjson_lines(bundles: Iterable[Bundle]) -> Iterable[str]:
    """One Observation a line, the FHIR bulk data format."""
    for bundle in bundles:
        for observation in observations_of(bundle):
            yield observation.model_dump_json(exclude_none=True)
