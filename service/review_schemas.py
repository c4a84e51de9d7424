"""Wire models of the review API (the report itself is `parser.models.ReportData`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from parser.models import LabReportResult, LoincMatch
from service.schemas import ParsingJob


class QueueItem(BaseModel):
    job_id: str
    created_at: datetime
    updated_at: datetime
    needs_human_review: bool
    result_count: int
    uncertain_count: int
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


class PageImage(BaseModel):
    number: int
    image_url: str


class ReviewJob(BaseModel):
    job: ParsingJob
    reasons: list[str]
    uncertain: list[UncertainField]
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
    changes: list[ChangeOut]
    uncertain: list[UncertainField]


class HistoryEntry(BaseModel):
    id: int
    at: datetime
    who: str = Field(description="reviewer id, or api-key")
    who_label: str = Field(description="the reviewer's e-mail, or api-key")
    action: str = Field(description="update, add, delete, complete")
    result_index: int | None
    field: str | None
    before: Any = None
    after: Any = None


class LoincSearchResult(BaseModel):
    query: str
    matches: list[LoincMatch]
