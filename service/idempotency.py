"""`Idempotency-Key` handling: the same key and team within the window returns the first job.

The key is reserved (committed) before the upload is read, so two concurrent requests
with one key cannot both create a job: the second gets `KeyInUse` (409) while the first
is still uploading, and the first job once it exists. A failed upload releases the key.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.tables import IdempotencyKey, utcnow

# A reservation whose upload never finished (client gone, server killed) expires after this.
RESERVATION_TIMEOUT = timedelta(minutes=10)


class KeyInUse(Exception):
    """Another request with the same key is still uploading."""


def reserve(session: Session, team_id: str, key: str, *, window: timedelta) -> str | None:
    """The job id an earlier request with `key` created, or None when this request now owns it."""
    now = utcnow()
    row = session.get(IdempotencyKey, (team_id, key))
    if row is None:
        session.add(IdempotencyKey(team_id=team_id, key=key, job_id=None, created_at=now))
        try:
            session.commit()
            return None
        except IntegrityError:
            session.rollback()  # a concurrent request reserved it first
            row = session.get(IdempotencyKey, (team_id, key))
            if row is None:
                raise KeyInUse() from None
    if row.job_id is not None and row.created_at >= now - window:
        return row.job_id
    if row.job_id is None and row.created_at >= now - RESERVATION_TIMEOUT:
        raise KeyInUse()
    # Expired: this request starts a new window with the key.
    row.job_id, row.created_at = None, now
    session.commit()
    return None


def bind(session: Session, team_id: str, key: str, job_id: str) -> None:
    """Point the reserved key at the new job (in the job's own transaction)."""
    row = session.get(IdempotencyKey, (team_id, key))
    row.job_id = job_id


def release(session: Session, team_id: str, key: str) -> None:
    """Free a reservation whose upload failed, so the client can retry with the same key."""
    row = session.get(IdempotencyKey, (team_id, key))
    if row is not None and row.job_id is None:
        session.delete(row)
        session.commit()
