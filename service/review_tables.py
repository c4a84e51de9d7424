"""ORM tables of the review side: reviewers, their web sessions, claims and the audit trail.

Created by the Alembic revision "0002_review" (after the service's "0001").
Times are timezone-aware UTC (UTCDateTime, also on SQLite); ids are UUID strings like the service's tables.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, mapped_column

from service.db import Base
from service.tables import UTCDateTime, new_id, utcnow


class Reviewer(Base):
    """A person of a team who may review its jobs; logs in to the web page by e-mail."""

    __tablename__ = "reviewers"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    team_id: Mapped[str] = mapped_column(ForeignKey("teams.id"), index=True)
    # Unique across teams so a login names exactly one account.
    email: Mapped[str] = mapped_column(String(320), unique=True)
    # argon2id hash (argon2-cffi); the password itself is shown once at creation.
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    disabled: Mapped[bool] = mapped_column(default=False)
    # Set with a one-time password (creation, reset): the reviewer must choose their own
    # before the queue opens. Added by revision "0004_review_people".
    must_change_password: Mapped[bool] = mapped_column(default=True, server_default=sa_false())


class ReviewSession(Base):
    """A logged-in browser: the cookie holds the token, the table only its sha256."""

    __tablename__ = "review_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    reviewer_id: Mapped[str] = mapped_column(ForeignKey("reviewers.id"), index=True)
    # Sent back in a header or form field on every state-changing request.
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ReviewClaim(Base):
    """Who works a job right now; at most one claim per job, live until `expires_at`."""

    __tablename__ = "review_claims"

    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id"), primary_key=True)
    # Reviewer id, or "api-key" for automation using the team key.
    reviewer: Mapped[str] = mapped_column(String(36))
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ReviewAudit(Base):
    """One change a reviewer made to a job: who, when, what, before and after (JSON)."""

    __tablename__ = "review_audit"
    __table_args__ = (Index("ix_review_audit_job", "job_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id"))
    team_id: Mapped[str] = mapped_column(ForeignKey("teams.id"), index=True)
    # Reviewer id, or "api-key".
    actor: Mapped[str] = mapped_column(String(36))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # "update", "add", "delete", "complete".
    action: Mapped[str] = mapped_column(String(20))
    result_index: Mapped[int | None] = mapped_column(Integer, nullable=True)
    field: Mapped[str | None] = mapped_column(String(64), nullable=True)
    before_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    after_json: Mapped[str | None] = mapped_column(Text, nullable=True)


class LoginFailures(Base):
    """Failed reviewer logins of one account or one client address (service.login_throttle).

    In the database so that every API process counts the same failures. The key is stored
    as its sha256 (bounded length; no e-mail typed by a stranger kept in clear). Times are
    seconds since the epoch: plain numbers compare the same on SQLite and PostgreSQL.
    Added by revision "0005_login_failures".
    """

    __tablename__ = "login_failures"

    kind: Mapped[str] = mapped_column(String(10), primary_key=True)  # "account" or "address"
    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    window_start: Mapped[float] = mapped_column(Float)
    locked_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    # When the row may be dropped: its window and its lockout are both over.
    expires_at: Mapped[float] = mapped_column(Float, index=True)
