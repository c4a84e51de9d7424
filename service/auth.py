"""Team API keys: creation, hashing, and the `require_team` dependency.

Keys are 256-bit random tokens shown once; only their sha256 is stored (a slow
password hash buys nothing for keys of that entropy and would cost every
request). Lookup is by hash, then a constant-time comparison of the digests.

    from service.auth import require_team
    @router.get("/thing")
    def read(team: Team = Depends(require_team), session: Session = SessionDep): ...
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from fastapi import Depends, HTTPException, status
from fastapi.security import APIKeyHeader
from sqlalchemy import select
from sqlalchemy.orm import Session

from service.db import SessionDep
from service.tables import Team

API_KEY_HEADER = "x-service-api-key"
API_KEY_PREFIX = "lr_"

api_key_header = APIKeyHeader(
    name=API_KEY_HEADER, auto_error=False, description="The team's API key."
)


def new_api_key() -> str:
    return API_KEY_PREFIX + secrets.token_urlsafe(32)


def sha256_hex(text: str) -> str:
    """What the database keeps of a secret or a personal key: its sha256, never the text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hash_api_key(api_key: str) -> str:
    return sha256_hex(api_key)


def normalize_email(email: str) -> str:
    """The one spelling of a login name that accounts and lockouts are keyed by."""
    return email.strip().lower()


def team_for_key(session: Session, api_key: str | None) -> Team | None:
    if not api_key:
        return None
    digest = hash_api_key(api_key)
    team = session.scalar(select(Team).where(Team.api_key_hash == digest))
    if team is None or not hmac.compare_digest(team.api_key_hash, digest):
        return None
    return team


def require_team(
    api_key: str | None = Depends(api_key_header),
    session: Session = SessionDep,
) -> Team:
    """The calling team, or 401 when the key is missing or unknown."""
    return authenticate(session, api_key)


def authenticate(session: Session, api_key: str | None) -> Team:
    """`require_team` for code that holds its own session (one thread hop per request)."""
    if not api_key:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED, detail=f"missing API key: send it in the {API_KEY_HEADER} header"
        )
    team = team_for_key(session, api_key)
    if team is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, detail="invalid API key")
    return team
