"""ORM tables of the service: teams, users, jobs, stored files, webhook outbox, learnt aliases.

Ids are UUID strings (portable between SQLite and PostgreSQL). Times are
timezone-aware UTC. A job's extracted report is kept as JSON text in
`Job.data_json` (the `ReportData` wire model); `service.schemas` turns a row
into the wire `ParsingJob`.

Job statuses (open set): upload_pending -> started -> completed | failed | pending_review;
pending_review -> completed (after review). Change them only through
`service.jobs.set_status`, which also writes the webhook outbox.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from review.routing import DEFAULT_THRESHOLD
from service.db import Base

UPLOAD_PENDING = "upload_pending"
STARTED = "started"
PENDING_REVIEW = "pending_review"
COMPLETED = "completed"
FAILED = "failed"

# The measured default of review.routing (benchmarks/review.py); teams may change theirs.
DEFAULT_REVIEW_THRESHOLD = DEFAULT_THRESHOLD


class UTCDateTime(TypeDecorator):
    """Timezone-aware UTC datetimes on every backend (SQLite drops the zone on storage)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC)
        return value

    def process_result_value(self, value, dialect):
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value


def new_id() -> str:
    return str(uuid.uuid4())


def utcnow() -> datetime:
    return datetime.now(UTC)


class Team(Base):
    __tablename__ = "teams"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    # sha256 hex of the API key; the key itself is shown once at creation.
    api_key_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    webhook_url: Mapped[str | None] = mapped_column(String(2000), nullable=True)
    webhook_secret: Mapped[str] = mapped_column(String(100))
    # Rows read with a confidence below this go to human review.
    review_threshold: Mapped[float] = mapped_column(Float, default=DEFAULT_REVIEW_THRESHOLD)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class User(Base):
    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("team_id", "client_user_id", name="uq_users_team_client"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    team_id: Mapped[str] = mapped_column(ForeignKey("teams.id"), index=True)
    client_user_id: Mapped[str | None] = mapped_column(String(200), nullable=True)
    fallback_time_zone: Mapped[str | None] = mapped_column(String(100), nullable=True)
    fallback_birth_date: Mapped[str | None] = mapped_column(String(10), nullable=True)
    ingestion_start: Mapped[str | None] = mapped_column(String(10), nullable=True)
    ingestion_end: Mapped[str | None] = mapped_column(String(10), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), default=utcnow, onupdate=utcnow
    )


class Job(Base):
    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_status_created", "status", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    team_id: Mapped[str] = mapped_column(ForeignKey("teams.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    status: Mapped[str] = mapped_column(String(32), default=UPLOAD_PENDING)
    failure_reason: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # A human-readable reason for a failure (no patient data); not on the wire contract.
    failure_detail: Mapped[str | None] = mapped_column(Text, nullable=True)
    data_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    needs_human_review: Mapped[bool] = mapped_column(Boolean, default=False)
    is_reviewed: Mapped[bool] = mapped_column(Boolean, default=False)
    # Why routing sent the job to review (JSON list of strings).
    review_reasons_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    # Lines of the document that read as results but gave no row (ReportData.unread_result_lines):
    # off the wire's `data`, kept here so routing from the stored report gives the parse's reasons.
    unread_result_lines: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Pages the parser read by OCR (ReportData.ocr_pages) as a JSON list, off the wire's `data` like
    # the count above. NULL for jobs stored before migration 0008: review.document then tells a
    # report read from an image from its rows' confidences, as routing did when they were stored.
    ocr_pages_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    page_count: Mapped[int | None] = mapped_column(Integer, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # The broker outbox (scale-out, `service.job_outbox`): a job `upload_pending` is due to be
    # handed to the broker when `next_dispatch_at` is null (never handed over) or past.
    dispatch_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    next_dispatch_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # A `started` job of the in-process dispatcher is its until then (renewed while it runs):
    # another dispatcher on the same database re-runs it only once the lease has run out.
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    files: Mapped[list[StoredFile]] = relationship(
        back_populates="job", order_by="StoredFile.position", cascade="all, delete-orphan"
    )


class IdempotencyKey(Base):
    """A team's `Idempotency-Key`, reserved before its upload is read (24 h window).

    `job_id` is null while the first request is still uploading; a second request with
    the same key then gets 409 instead of creating a second job.
    """

    __tablename__ = "idempotency_keys"

    team_id: Mapped[str] = mapped_column(ForeignKey("teams.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    job_id: Mapped[str | None] = mapped_column(ForeignKey("jobs.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class StoredFile(Base):
    """One uploaded part of a job; `path` is its storage ref (`service.storage`): relative to
    LABREPORT_HOME/files, or the key of its `Blob`."""

    __tablename__ = "stored_files"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    path: Mapped[str] = mapped_column(String(500))
    media_type: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    # The name the client uploaded it under (shown to the team's reviewers; never logged).
    original_name: Mapped[str | None] = mapped_column(String(255), nullable=True)

    job: Mapped[Job] = relationship(back_populates="files")


class Blob(Base):
    """An uploaded file's bytes, kept in the database when API and workers share no disk."""

    __tablename__ = "blobs"

    key: Mapped[str] = mapped_column(String(500), primary_key=True)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id"), index=True)
    size: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


DELIVERY_PENDING = "pending"
DELIVERY_DELIVERED = "delivered"
DELIVERY_EXHAUSTED = "exhausted"


class WebhookDelivery(Base):
    """The durable outbox: one row per event per endpoint, written with the status change."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),)

    # The Standard Webhooks message id (`webhook-id`), stable across retries.
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    team_id: Mapped[str] = mapped_column(ForeignKey("teams.id"), index=True)
    job_id: Mapped[str | None] = mapped_column(ForeignKey("jobs.id"), index=True, nullable=True)
    event_type: Mapped[str] = mapped_column(String(100))
    payload: Mapped[str] = mapped_column(Text)
    url: Mapped[str] = mapped_column(String(2000))
    status: Mapped[str] = mapped_column(String(16), default=DELIVERY_PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_status_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class TeamLoincAlias(Base):
    """A LOINC code a team's reviewers taught the matcher for a printed (name, unit).

    The alias keeps the name and unit as the corrected row holds them (`printed_*`, '' for no
    unit); the key the matcher looks it up by (loinc.matcher.alias_key) is computed when the
    aliases are loaded (service.runner.team_aliases), so a change of the matcher's normalisation
    does not orphan it. `name_key`/`unit_key` are the key when it was learnt: aliases learnt before
    migration 0009 kept only those (`printed_name` NULL): a key is a normalised printed form, so
    it is normalised again when loaded (service.runner.alias_lookup_key).
    """

    __tablename__ = "team_loinc_aliases"
    __table_args__ = (
        UniqueConstraint("team_id", "printed_name", "printed_unit", name="uq_team_loinc_alias_printed"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    team_id: Mapped[str] = mapped_column(ForeignKey("teams.id"), index=True)
    name_key: Mapped[str] = mapped_column(String(300))
    unit_key: Mapped[str] = mapped_column(String(100), default="")
    printed_name: Mapped[str | None] = mapped_column(String(300), nullable=True)
    printed_unit: Mapped[str] = mapped_column(String(100), default="", server_default="")
    loinc_code: Mapped[str] = mapped_column(String(20))
    created_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
