"""Job state changes, each written with its webhook event in ONE transaction.

    job = create_job(session, team=team, user=user, needs_human_review=False)
    set_status(session, job, "completed", data_json=report.model_dump_json())

Both only add to the session; the caller commits, so the status change and the
outbox row land together or not at all.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from service.outbox import enqueue_job_event
from service.schemas import EVENT_JOB_CREATED, EVENT_JOB_UPDATED
from service.tables import UPLOAD_PENDING, Job, Team, User, new_id, utcnow


def create_job(
    session: Session,
    *,
    team: Team,
    user: User,
    needs_human_review: bool,
) -> Job:
    now = utcnow()
    job = Job(
        id=new_id(),
        team_id=team.id,
        user_id=user.id,
        status=UPLOAD_PENDING,
        needs_human_review=needs_human_review,
        is_reviewed=False,
        attempts=0,
        created_at=now,
        updated_at=now,
    )
    session.add(job)
    enqueue_job_event(session, job, EVENT_JOB_CREATED)
    return job


def set_status(session: Session, job: Job, status: str, **changes: Any) -> Job:
    """Move `job` to `status` (plus any column `changes`) and queue the `updated` webhook.

    Setting the status it already has is allowed (e.g. a reviewer's edit) and still
    reports the change.
    """
    for name, value in changes.items():
        if not hasattr(Job, name):
            raise AttributeError(f"Job has no column {name!r}")
        setattr(job, name, value)
    job.status = status
    job.updated_at = utcnow()
    enqueue_job_event(session, job, EVENT_JOB_UPDATED)
    return job
