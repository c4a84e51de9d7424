"""Wire models of a parsed lab report: the `data` object of the contract.

Defined once here and used by the API, the CLI and the tests
(see ../shared/spec/parser-api.md). Enumerations are open on input: a client
may meet values it does not know, so they are plain strings with the known
values listed as constants.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ResultType = Literal["numeric", "range", "comment", "boolean", "duration", "percentage", "ratio"]
SampleType = Literal[
    "urine", "serum_plasma_blood", "capillary_blood", "stool", "saliva", "other", "unknown"
]
MeasurementKind = Literal["direct", "calculated", "ratio", "unknown"]
Sensitivity = Literal["sensitive", "insensitive", "unknown"]
LoincMatchStatus = Literal["auto_match", "needs_review", "no_match"]
Interpretation = Literal["normal", "abnormal", "critical", "unknown"]
Gender = Literal["male", "female", "other"]
# Why a row's extraction_confidence is below 1 (LabReportResult.confidence_doubts), open like the
# enumerations above: the layout left the row in doubt ...
DOUBT_NO_HEADER = "no_header"  # its table has no header line: columns guessed from content
DOUBT_AMBIGUOUS_SPLIT = "ambiguous_split"  # its cells could be split more than one way
# ... the row itself did ...
DOUBT_UNIT_MISSING = "unit_missing"  # a numeric value without a unit in a table with a unit column
DOUBT_RANGE_UNREAD = "range_unread"  # a range text with numbers that could not be read as a range
DOUBT_FLAG_CONFLICT = "flag_conflict"  # the printed flag and the value vs range disagree
# ... or was read through a repair or by OCR.
DOUBT_VALUE_REPAIRED = "value_repaired"  # an OCR slip inside the value repaired (O for 0)
DOUBT_UNIT_REPAIRED = "unit_repaired"
DOUBT_RANGE_REPAIRED = "range_repaired"
DOUBT_DECIMAL_POINT = "decimal_point_restored"  # OCR read a decimal point as a colon
DOUBT_FAR_OUTSIDE_OCR = "far_outside_range_ocr"  # an OCR'd value far outside its range: a lost point?
DOUBT_OCR_WORDS = "ocr_word_confidence"  # the recogniser was unsure of a word of the row


class LoincMatch(BaseModel):
    loinc_code: str
    loinc_name: str
    display_name: str
    aliases: list[str] = Field(default_factory=list)
    confidence_score: float = Field(ge=0.0, le=1.0)


class ResultMetadata(BaseModel):
    patient_first_name: str | None = None
    patient_last_name: str | None = None
    dob: str | None = None
    gender: Gender | None = None
    lab_name: str | None = None
    date_reported: str | None = None
    date_collected: str | None = None
    specimen_number: str | None = None


class LabReportResult(BaseModel):
    model_config = ConfigDict(validate_assignment=True)

    test_name: str
    value: str
    type: ResultType = "numeric"
    units: str | None = None
    min_reference_range: float | None = None
    max_reference_range: float | None = None
    source_panel_name: str | None = None
    sample_type: SampleType = "unknown"
    measurement_kind: MeasurementKind = "unknown"
    sensitivity: Sensitivity = "unknown"
    loinc_matches: list[LoincMatch] = Field(default_factory=list, max_length=5)
    loinc_match_status: LoincMatchStatus = "no_match"
    interpretation: Interpretation = "unknown"
    is_above_max_range: bool | None = None
    is_below_min_range: bool | None = None
    # (ext) fields: where the row came from and how sure the reader was.
    reference_range_text: str | None = None
    page: int | None = Field(default=None, ge=1)
    bbox: list[float] | None = Field(default=None, min_length=4, max_length=4)
    extraction_confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    source_flag: str | None = None
    # (ext) the printed unit as a valid UCUM code, or None when it has no sure UCUM form;
    # set with the LOINC fields (loinc/ucum.py), not by the parser.
    ucum_units: str | None = None
    # (ext) why extraction_confidence is below 1: the DOUBT_* codes above, in the order the reader
    # applied them; empty when nothing lowered it (or a person read the row again).
    confidence_doubts: list[str] = Field(default_factory=list)


class ReportData(BaseModel):
    metadata: ResultMetadata = Field(default_factory=ResultMetadata)
    results: list[LabReportResult] = Field(default_factory=list)
    # The report's language as detected (ISO 639-1: en, fr, de, it, es); None when not known.
    # Internal: kept off the wire (the contract's `data` is metadata and results).
    language: str | None = Field(default=None, exclude=True)
    # Lines that read as a result by their own words, or as a name and a value where the rows
    # stand, but gave no row (parser/unread.py, parser/unaccounted.py): rows the layout may have
    # missed, which review.routing sends to a person. Internal like language.
    unread_result_lines: int = Field(default=0, ge=0, exclude=True)
    # Pages (1-based) the parser read by OCR from an image: a scan, a photo, a PDF page without a
    # text layer. review.document sends a report read from an image to a person. None when not
    # known: a report built by hand, or a job stored before the service kept them (migration
    # 0008). Internal like language; the service stores it with the job.
    ocr_pages: list[int] | None = Field(default=None, exclude=True)
