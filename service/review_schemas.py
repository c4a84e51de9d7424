"""Wire models of the review API (the report itself is `parser.models.ReportData`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from parser.models import LabReportResult, LoincMatch, ResultMetadata
from service.schemas import ParsingJob


class QueueItem(BaseModel):
    job_id: str
    created_at: datetime
    updated_at: datetime
    needs_human_review: bool
    file_name: str | None = Field(None, description="the uploaded file's name (the first of several, with +N)")
    lab_name: str | None = None
    date_collected: str | None = None
    page_count: int | None = None
    result_count: int
    uncertain_count: int = Field(description="fields marked for checking")
    rows_to_check: int = Field(0, description="rows with at least one marked field")
    reasons: list[str]
    claimed_by: str | None = Field(None, description="e-mail of the reviewer (or api-key) holding a live claim")
    claim_expires_at: datetime | None = None


class ClaimOut(BaseModel):
    job_id: str
    claimed_by: str
    expires_at: datetime


class UncertainField(BaseModel):
    index: int
    field: str


class RowNote(BaseModel):
    """What is wrong with one marked field, quoting the row (shown to reviewers, never logged)."""

    index: int
    field: str
    note: str


class PageImage(BaseModel):
    number: int
    image_url: str


class ReviewJob(BaseModel):
    job: ParsingJob
    reasons: list[str]
    uncertain: list[UncertainField]
    notes: list[RowNote] = Field(default_factory=list)
    pages: list[PageImage]
    claimed_by: str | None = None
    claim_expires_at: datetime | None = None


class ChangeOut(BaseModel):
    action: str
    result_index: int | None
    field: str | None
    before: Any = None
    after: Any = None


class ResultChanged(BaseModel):
    index: int | None
    result: LabReportResult | None
    changes: list[ChangeOut] = Field(
        description="each field changed; a corrected name or unit adds a `rematch` of loinc_code, "
        "whose `after` is the matcher's new best code (all candidates are in `result.loinc_matches`)"
    )
    uncertain: list[UncertainField]
    notes: list[RowNote] = Field(default_factory=list)


class MetadataChanged(BaseModel):
    metadata: ResultMetadata
    changes: list[ChangeOut]
    uncertain: list[UncertainField]


class CompleteRequest(BaseModel):
    confirm_uncertain: bool = Field(
        False,
        description="complete although fields are still marked uncertain; each is recorded in the "
        "history as confirmed as read (without it such a completion answers 409)",
    )


class PasswordChange(BaseModel):
    current_password: str = Field(max_length=500)
    new_password: str = Field(max_length=500)


class HistoryEntry(BaseModel):
    id: int
    at: datetime
    who: str = Field(description="reviewer id, or api-key")
    who_label: str = Field(description="the reviewer's e-mail, or api-key")
    action: str = Field(description="update, rematch (LOINC re-run after a name/unit fix), add, delete, "
                        "confirm (a marked field accepted as read at completion), complete")
    result_index: int | None
    field: str | None
    before: Any = None
    after: Any = None


class LoincSearchResult(BaseModel):
    query: str
    matches: list[LoincMatch]
