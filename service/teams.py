"""Team administration (used by `labreport team ...`): create, list, set the webhook, rotate
the API key or the webhook signing secret. New secrets are returned once and stored as the
service needs them (the API key hashed)."""

from __future__ import annotations

import uuid

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.auth import hash_api_key, new_api_key
from service.schemas import TeamCredentials
from service.settings import Settings
from service.review_tables import Reviewer
from service.tables import DEFAULT_REVIEW_THRESHOLD, Team
from service.webhooks import new_webhook_secret, validate_webhook_url


class TeamNotFoundError(LookupError):
    pass


def create_team(
    session: Session,
    name: str,
    *,
    webhook_url: str | None,
    settings: Settings,
    review_threshold: float | None = None,
) -> TeamCredentials:
    """A new team with a fresh API key (returned once, stored hashed) and webhook secret.

    `review_threshold` overrides the review module's default confidence threshold.
    """
    if review_threshold is not None and not 0.0 <= review_threshold <= 1.0:
        raise ValueError("the review threshold must be between 0 and 1")
    if webhook_url:
        validate_webhook_url(webhook_url, allow_private=settings.allow_private_webhooks)
    api_key = new_api_key()
    team = Team(
        name=name,
        api_key_hash=hash_api_key(api_key),
        webhook_url=webhook_url,
        webhook_secret=new_webhook_secret(),
        review_threshold=(
            review_threshold if review_threshold is not None else DEFAULT_REVIEW_THRESHOLD
        ),
    )
    session.add(team)
    session.flush()
    return TeamCredentials(
        team_id=uuid.UUID(team.id), api_key=api_key, webhook_secret=team.webhook_secret
    )


def set_webhook(session: Session, team_id: str, url: str, *, settings: Settings) -> str:
    """Point the team's webhooks at `url` with a new signing secret; returns the secret."""
    validate_webhook_url(url, allow_private=settings.allow_private_webhooks)
    team = _team(session, team_id)
    team.webhook_url = url
    team.webhook_secret = new_webhook_secret()
    return team.webhook_secret


def _team(session: Session, team_id: str) -> Team:
    team = session.get(Team, team_id)
    if team is None:
        raise TeamNotFoundError(f"no team with id {team_id}")
    return team


def list_teams(session: Session) -> list[dict]:
    """Every team with its settings and number of reviewers (no secrets)."""
    reviewers = dict(
        session.execute(select(Reviewer.team_id, func.count()).group_by(Reviewer.team_id)).all()
    )
    return [
        {
            "team_id": team.id,
            "name": team.name,
            "webhook_url": team.webhook_url,
            "review_threshold": team.review_threshold,
            "reviewers": reviewers.get(team.id, 0),
            "created_at": team.created_at,
        }
        for team in session.scalars(select(Team).order_by(Team.created_at, Team.name))
    ]


def rotate_api_key(session: Session, team_id: str) -> str:
    """A new API key for the team; the old one stops working at once. Returned once."""
    team = _team(session, team_id)
    api_key = new_api_key()
    team.api_key_hash = hash_api_key(api_key)
    return api_key


def rotate_webhook_secret(session: Session, team_id: str) -> str:
    """A new webhook signing secret; deliveries from now on are signed with it."""
    team = _team(session, team_id)
    team.webhook_secret = new_webhook_secret()
    return team.webhook_secret
