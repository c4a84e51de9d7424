"""The durable webhook outbox: events written in the same transaction as the change they report.

`enqueue_job_event` adds one `WebhookDelivery` row for the team's endpoint (none
when the team has no webhook URL); `service.webhooks.WebhookSender` delivers
the rows later, so a crash between the status change and the HTTP call loses
nothing.
"""

from __future__ import annotations

import json
import time
import uuid

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.schemas import ParsingJob, WebhookEnvelope, parsing_job_json
from service.tables import DELIVERY_PENDING, Job, Team, User, WebhookDelivery, utcnow


def new_message_id() -> str:
    """A unique id that sorts by creation time (ties between events of one transaction)."""
    return f"msg_{time.time_ns():016x}{uuid.uuid4().hex[:16]}"


def job_envelope(session: Session, job: Job, event_type: str) -> WebhookEnvelope:
    user = session.get(User, job.user_id)
    return WebhookEnvelope(
        event_type=event_type,
        data=ParsingJob.from_row(job),
        team_id=uuid.UUID(job.team_id),
        user_id=uuid.UUID(job.user_id),
        client_user_id=user.client_user_id if user else None,
    )


def envelope_json(session: Session, job: Job, event_type: str) -> str:
    """`job_envelope(...).model_dump_json()` without re-validating the stored report (see
    `parsing_job_json`): this runs on every status change."""
    user = session.get(User, job.user_id)
    return (
        f'{{"event_type":{json.dumps(event_type)},"data":{parsing_job_json(job).decode()},'
        f'"team_id":{json.dumps(job.team_id)},"user_id":{json.dumps(job.user_id)},'
        f'"client_user_id":{json.dumps(user.client_user_id if user else None)}}}'
    )


def enqueue_job_event(session: Session, job: Job, event_type: str) -> WebhookDelivery | None:
    team = session.get(Team, job.team_id)
    if team is None or not team.webhook_url:
        return None
    session.flush()  # the job's defaults (timestamps) must be set before it is serialized
    delivery = WebhookDelivery(
        id=new_message_id(),
        team_id=job.team_id,
        job_id=job.id,
        event_type=event_type,
        payload=envelope_json(session, job, event_type),
        url=team.webhook_url,
        status=DELIVERY_PENDING,
        next_attempt_at=utcnow(),
    )
    session.add(delivery)
    return delivery


def scrub_job_payloads(session: Session, job: Job) -> None:
    """Rewrite the not-yet-delivered events of a deleted job without its extracted data."""
    rows = session.scalars(
        select(WebhookDelivery).where(
            WebhookDelivery.job_id == job.id, WebhookDelivery.status == DELIVERY_PENDING
        )
    )
    for row in rows:
        envelope = WebhookEnvelope.model_validate_json(row.payload)
        envelope.data.data = None
        row.payload = envelope.model_dump_json()
