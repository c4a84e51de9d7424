"""Wire models of the service: ParsingJob, users, webhook envelope and deliveries.

The report inside a job (`data`) is `parser.models.ReportData`, defined once
for the API, the CLI and the tests.
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, field_validator

from parser.models import ReportData
from service.tables import DELIVERY_PENDING, Job, User, WebhookDelivery

EVENT_JOB_CREATED = "lab_report.parsing_job.created"
EVENT_JOB_UPDATED = "lab_report.parsing_job.updated"


class ErrorBody(BaseModel):
    detail: str


class ParsingJob(BaseModel):
    id: uuid.UUID
    status: str = Field(
        description="upload_pending, started, pending_review, completed, failed (open set)"
    )
    failure_reason: str | None = Field(
        default=None,
        description="invalid_input, low_quality, not_english, too_many_pages, processing_error",
    )
    data: ReportData | None = None
    needs_human_review: bool = False
    is_reviewed: bool = False
    user_id: uuid.UUID
    created_at: datetime
    updated_at: datetime
    # (ext) set when the job's file and extracted data were deleted on request.
    deleted_at: datetime | None = None
    # (ext) why a failed job failed, for a person (never report content).
    failure_detail: str | None = None
    review_reasons: list[str] = Field(
        default_factory=list,
        description="(ext) why the job went to pending_review (review.routing; short, no patient "
        "data), kept after the review; empty when it completed without review",
    )

    @classmethod
    def from_row(cls, job: Job, *, with_data: bool = True) -> ParsingJob:
        data = (
            ReportData.model_validate_json(job.data_json) if job.data_json and with_data else None
        )
        return cls(
            id=uuid.UUID(job.id),
            status=job.status,
            failure_reason=job.failure_reason,
            data=data,
            needs_human_review=job.needs_human_review,
            is_reviewed=job.is_reviewed,
            user_id=uuid.UUID(job.user_id),
            created_at=job.created_at,
            updated_at=job.updated_at,
            deleted_at=job.deleted_at,
            failure_detail=job.failure_detail,
            review_reasons=json.loads(job.review_reasons_json) if job.review_reasons_json else [],
        )


def parsing_job_json(job: Job) -> bytes:
    """The job's wire JSON without re-validating its stored report.

    `data_json` was produced by `ReportData.model_dump_json` when it was written, so it is
    spliced in as is: re-parsing a large report on every poll would dominate GET latency.
    """
    head = ParsingJob.from_row(job, with_data=False).model_dump_json()
    if not job.data_json:
        return head.encode()
    before, marker, after = head.partition('"data":null')
    if not marker:
        raise ValueError("ParsingJob JSON lost its data field")
    return f'{before}"data":{job.data_json}{after}'.encode()


# client_user_id must not carry personal data such as an e-mail address or a phone number.
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_PHONE = re.compile(r"^\+?[\d\s().-]{7,}$")


def _check_client_user_id(value: str | None) -> str | None:
    if value is None:
        return value
    if not value.strip():
        raise ValueError("client_user_id must not be blank")
    if _EMAIL.search(value) or _PHONE.match(value):
        raise ValueError(
            "client_user_id must not hold personal data such as an e-mail address or phone number"
        )
    return value


class UserCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    client_user_id: str = Field(min_length=1, max_length=200)

    _check = field_validator("client_user_id")(_check_client_user_id)


class UserPatch(BaseModel):
    """The seed's user patch body: every field optional and nullable."""

    model_config = ConfigDict(extra="forbid")

    fallback_time_zone: str | None = None
    fallback_birth_date: date | None = None
    ingestion_start: date | None = None
    ingestion_end: date | None = None
    client_user_id: str | None = Field(default=None, max_length=200)

    _check = field_validator("client_user_id")(_check_client_user_id)

    @field_validator("fallback_time_zone")
    @classmethod
    def _known_time_zone(cls, value: str | None) -> str | None:
        if value is None:
            return value
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as error:
            raise ValueError(f"unknown IANA time zone: {value!r}") from error
        return value


class UserOut(BaseModel):
    user_id: uuid.UUID
    client_user_id: str | None
    fallback_time_zone: str | None = None
    fallback_birth_date: date | None = None
    ingestion_start: date | None = None
    ingestion_end: date | None = None
    created_at: datetime

    @classmethod
    def from_row(cls, user: User) -> UserOut:
        return cls(
            user_id=uuid.UUID(user.id),
            client_user_id=user.client_user_id,
            fallback_time_zone=user.fallback_time_zone,
            fallback_birth_date=user.fallback_birth_date,
            ingestion_start=user.ingestion_start,
            ingestion_end=user.ingestion_end,
            created_at=user.created_at,
        )


class WebhookEnvelope(BaseModel):
    """The seed's webhook envelope around a ParsingJob."""

    event_type: str
    data: ParsingJob
    team_id: uuid.UUID
    user_id: uuid.UUID
    client_user_id: str | None


class WebhookDeliveryOut(BaseModel):
    id: str
    event_type: str
    job_id: uuid.UUID | None
    url: str
    status: str = Field(description="pending, delivered, exhausted")
    attempts: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None

    @classmethod
    def from_row(cls, row: WebhookDelivery) -> WebhookDeliveryOut:
        return cls(
            id=row.id,
            event_type=row.event_type,
            job_id=uuid.UUID(row.job_id) if row.job_id else None,
            url=row.url,
            status=row.status,
            attempts=row.attempts,
            next_attempt_at=row.next_attempt_at if row.status == DELIVERY_PENDING else None,
            last_status_code=row.last_status_code,
            last_error=row.last_error,
            created_at=row.created_at,
            delivered_at=row.delivered_at,
        )


class TeamCredentials(BaseModel):
    team_id: uuid.UUID
    api_key: str
    webhook_secret: str
