"""Reviewer accounts and who is calling the review API: a reviewer's session or the team key.

- Passwords: argon2id (argon2-cffi); the one-time password is printed once by
  `labreport reviewer create` and only its hash is stored.
- Sessions: a random token in an HttpOnly, SameSite=Lax cookie; the table keeps its
  sha256, so a leaked database opens no session.
- CSRF: every session has its own token; state-changing requests made with the cookie
  must echo it in the `x-csrf-token` header (JS) or a `csrf_token` form field (forms).
  Requests made with the team API key carry no cookie and need no CSRF token.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, HTTPException, Request, status
from fastapi.security import APIKeyHeader
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from review.queue import API_KEY_ACTOR
from service.auth import API_KEY_HEADER, normalize_email, sha256_hex, team_for_key
from service.db import SessionDep
from service.review_tables import Reviewer, ReviewSession
from service.tables import Team, utcnow

SESSION_COOKIE = "labreport_review_session"
CSRF_HEADER = "x-csrf-token"
SESSION_TTL = timedelta(hours=12)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


_hasher = PasswordHasher()
# Verified against when the e-mail is unknown, so a wrong e-mail costs as long as a wrong password.
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))
_api_key_header = APIKeyHeader(name=API_KEY_HEADER, auto_error=False)


class ReviewerExists(ValueError):
    pass


class UnknownTeam(ValueError):
    pass


def new_password() -> str:
    return secrets.token_urlsafe(12)


def create_reviewer(session: Session, team_id: str, email: str) -> tuple[Reviewer, str]:
    """A new reviewer of `team_id` and its one-time password (shown once, stored hashed)."""
    email = normalize_email(email)
    if "@" not in email or len(email) > 320:
        raise ValueError(f"not an e-mail address: {email!r}")
    if session.get(Team, team_id) is None:
        raise UnknownTeam(f"no team with id {team_id}")
    if session.scalar(select(Reviewer).where(Reviewer.email == email)) is not None:
        raise ReviewerExists(f"a reviewer with e-mail {email} already exists")
    password = new_password()
    reviewer = Reviewer(team_id=team_id, email=email, password_hash=_hasher.hash(password))
    session.add(reviewer)
    session.flush()
    return reviewer, password


def authenticate(session: Session, email: str, password: str) -> Reviewer | None:
    reviewer = session.scalar(
        select(Reviewer).where(Reviewer.email == normalize_email(email), Reviewer.disabled.is_(False))
    )
    try:
        _hasher.verify(reviewer.password_hash if reviewer else _DUMMY_HASH, password)
    except (VerificationError, InvalidHashError):
        return None
    if reviewer is None:
        return None
    if _hasher.check_needs_rehash(reviewer.password_hash):
        reviewer.password_hash = _hasher.hash(password)
    return reviewer


def open_session(session: Session, reviewer: Reviewer) -> str:
    """Start a web session; returns the cookie token (only its hash is stored)."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    # Expired sessions of this reviewer are dropped here rather than by a sweeper.
    session.execute(
        delete(ReviewSession).where(
            ReviewSession.reviewer_id == reviewer.id, ReviewSession.expires_at < now
        )
    )
    session.add(
        ReviewSession(
            token_hash=sha256_hex(token),
            reviewer_id=reviewer.id,
            csrf_token=secrets.token_urlsafe(32),
            created_at=now,
            expires_at=now + SESSION_TTL,
        )
    )
    return token


def close_session(session: Session, token: str | None) -> None:
    if token:
        session.execute(delete(ReviewSession).where(ReviewSession.token_hash == sha256_hex(token)))


def load_session(session: Session, token: str | None) -> tuple[ReviewSession, Reviewer] | None:
    if not token:
        return None
    web_session = session.get(ReviewSession, sha256_hex(token))
    if web_session is None or web_session.expires_at <= utcnow():
        return None
    reviewer = session.get(Reviewer, web_session.reviewer_id)
    if reviewer is None or reviewer.disabled:
        return None
    return web_session, reviewer


def csrf_matches(expected: str, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(expected.encode(), (given or "").encode())


@dataclass
class Actor:
    """Who is calling: a reviewer through their session, or automation with the team key."""

    team: Team
    actor_id: str  # reviewer id, or "api-key"
    reviewer: Reviewer | None = None
    csrf_token: str | None = None

    @property
    def label(self) -> str:
        return self.reviewer.email if self.reviewer else API_KEY_ACTOR


def reviewer_from_cookie(request: Request, session: Session) -> Actor | None:
    loaded = load_session(session, request.cookies.get(SESSION_COOKIE))
    if loaded is None:
        return None
    web_session, reviewer = loaded
    team = session.get(Team, reviewer.team_id)
    if team is None:
        return None
    return Actor(team=team, actor_id=reviewer.id, reviewer=reviewer, csrf_token=web_session.csrf_token)


def require_actor(
    request: Request,
    api_key: str | None = Depends(_api_key_header),
    session: Session = SessionDep,
) -> Actor:
    """The team key (automation) or a reviewer's session cookie with its CSRF token.

    A reviewer still on a one-time password is refused (403) until they change it.
    """
    return resolve_actor(request, api_key, session, allow_one_time=False)


def require_reviewer(request: Request, session: Session = SessionDep) -> Actor:
    """A logged-in reviewer (CSRF checked), one-time password or not: for changing it."""
    actor = resolve_actor(request, None, session, allow_one_time=True)
    if actor.reviewer is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, detail="log in at /review/login")
    return actor


def resolve_actor(request: Request, api_key: str | None, session: Session, *, allow_one_time: bool) -> Actor:
    if api_key:
        team = team_for_key(session, api_key)
        if team is None:
            raise HTTPException(status.HTTP_401_UNAUTHORIZED, detail="invalid API key")
        return Actor(team=team, actor_id=API_KEY_ACTOR)
    actor = reviewer_from_cookie(request, session)
    if actor is None:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            detail=f"log in at /review/login or send the team key in the {API_KEY_HEADER} header",
        )
    if request.method not in SAFE_METHODS and not csrf_matches(
        actor.csrf_token or "", request.headers.get(CSRF_HEADER)
    ):
        raise HTTPException(
            status.HTTP_403_FORBIDDEN, detail=f"missing or wrong CSRF token ({CSRF_HEADER} header)"
        )
    if actor.reviewer is not None and actor.reviewer.must_change_password and not allow_one_time:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            detail="replace your one-time password first (/review/password, or POST .../review/password)",
        )
    return actor
