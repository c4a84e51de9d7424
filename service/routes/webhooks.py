"""`/lab_report/v1/webhooks/deliveries` (ext): the team's webhook outbox, for operators."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends, HTTPException, Query, Request, status
from sqlalchemy import select
from sqlalchemy.orm import Session

from service.auth import require_team
from service.db import SessionDep
from service.schemas import ErrorBody, WebhookDeliveryOut
from service.tables import DELIVERY_EXHAUSTED, DELIVERY_PENDING, Team, WebhookDelivery, utcnow

router = APIRouter(prefix="/lab_report/v1/webhooks", tags=["webhooks"])


@router.get("/deliveries", response_model=list[WebhookDeliveryOut])
def list_deliveries(
    team: Team = Depends(require_team),
    session: Session = SessionDep,
    delivery_status: str | None = Query(default=None, alias="status", description="pending, delivered, exhausted"),
    job_id: uuid.UUID | None = None,
    limit: int = Query(default=100, ge=1, le=1000),
) -> list[WebhookDeliveryOut]:
    """The team's deliveries, newest first."""
    query = select(WebhookDelivery).where(WebhookDelivery.team_id == team.id)
    if delivery_status:
        query = query.where(WebhookDelivery.status == delivery_status)
    if job_id:
        query = query.where(WebhookDelivery.job_id == str(job_id))
    rows = session.scalars(query.order_by(WebhookDelivery.created_at.desc()).limit(limit))
    return [WebhookDeliveryOut.from_row(row) for row in rows]


@router.post(
    "/deliveries/{delivery_id}/retry",
    response_model=WebhookDeliveryOut,
    responses={404: {"model": ErrorBody}, 409: {"model": ErrorBody}},
)
def retry_delivery(
    delivery_id: str,
    request: Request,
    team: Team = Depends(require_team),
    session: Session = SessionDep,
) -> WebhookDeliveryOut:
    """Send an exhausted delivery again, starting a fresh retry schedule."""
    row = session.get(WebhookDelivery, delivery_id)
    if row is None or row.team_id != team.id:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="delivery not found")
    if row.status != DELIVERY_EXHAUSTED:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=f"the delivery is {row.status}, not exhausted")
    row.status = DELIVERY_PENDING
    row.attempts = 0
    row.next_attempt_at = utcnow()
    session.commit()
    request.app.state.webhook_sender.wake()
    return WebhookDeliveryOut.from_row(row)
