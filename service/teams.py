"""Team administration (used by `labreport team ...`): create a team, set its webhook."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from service.auth import hash_api_key, new_api_key
from service.schemas import TeamCredentials
from service.settings import Settings
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
    team = session.get(Team, team_id)
    if team is None:
        raise TeamNotFoundError(f"no team with id {team_id}")
    team.webhook_url = url
    team.webhook_secret = new_webhook_secret()
    return team.webhook_secret
