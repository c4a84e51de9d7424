"""The result row on the wire keeps the contract's fields (../shared/spec/parser-api.md, LabReportResult):
extensions are additions, never renames."""

from __future__ import annotations

from parser.models import LabReportResult

# The contract's LabReportResult fields, seed and *(ext)*, as the spec's table names them.
CONTRACT_FIELDS = (
    "test_name", "value", "type", "units", "min_reference_range", "max_reference_range", "source_panel_name",
    "sample_type", "measurement_kind", "sensitivity", "loinc_matches", "loinc_match_status", "interpretation",
    "is_above_max_range", "is_below_min_range", "ucum_units", "reference_range_text", "page", "bbox",
    "extraction_confidence", "source_flag",
)


def test_every_contract_field_is_still_on_the_row():
    assert set(CONTRACT_FIELDS) <= set(LabReportResult.model_fields)


def test_confidence_doubts_are_an_addition_a_client_may_leave_out():
    row = LabReportResult(test_name="Glucose", value="92")  # a row written before the field existed
    assert row.confidence_doubts == []
    dumped = LabReportResult(test_name="Glucose", value="92", extraction_confidence=0.85,
                             confidence_doubts=["no_header"]).model_dump(mode="json")
    assert dumped["confidence_doubts"] == ["no_header"] and dumped["extraction_confidence"] == 0.85
    assert list(dumped)[-1] == "confidence_doubts"  # added last: the fields before it keep their order
