"""Reviewer account administration: list, disable, reset, and changing one's own password.

Used by `labreport reviewer ...` (operators) and the review web page / API (a reviewer's own
password). A one-time password (creation or reset) sets `must_change_password`: the web page
then asks for a new one before the queue opens, and the review API refuses the session.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from service.login_throttle import clear_account
from service.review_auth import authenticate, new_password, normalize_email
from service.review_tables import Reviewer, ReviewSession

# Long enough that the argon2 hash is the weak point, short enough to type.
MIN_PASSWORD_LENGTH = 10

_hasher = PasswordHasher()


class ReviewerNotFound(LookupError):
    pass


class PasswordRejected(ValueError):
    def __init__(self, message: str, status_code: int = 422):
        self.status_code = status_code
        super().__init__(message)


def find_reviewer(session: Session, who: str) -> Reviewer:
    """A reviewer by id or e-mail."""
    reviewer = session.get(Reviewer, who) or session.scalar(
        select(Reviewer).where(Reviewer.email == normalize_email(who))
    )
    if reviewer is None:
        raise ReviewerNotFound(f"no reviewer with id or e-mail {who!r}")
    return reviewer


def list_reviewers(session: Session, team_id: str | None = None) -> list[Reviewer]:
    query = select(Reviewer).order_by(Reviewer.team_id, Reviewer.email)
    if team_id:
        query = query.where(Reviewer.team_id == team_id)
    return list(session.scalars(query))


def _end_sessions(session: Session, reviewer: Reviewer) -> None:
    session.execute(delete(ReviewSession).where(ReviewSession.reviewer_id == reviewer.id))


def set_disabled(session: Session, reviewer: Reviewer, disabled: bool) -> None:
    """Disable (logged out at once, cannot log in) or enable a reviewer."""
    reviewer.disabled = disabled
    if disabled:
        _end_sessions(session, reviewer)


def reset_password(session: Session, reviewer: Reviewer) -> str:
    """A new one-time password (returned once, stored hashed); open sessions end and the
    account's login lockout is lifted (the new password is its owner's way back in)."""
    password = new_password()
    reviewer.password_hash = _hasher.hash(password)
    reviewer.must_change_password = True
    _end_sessions(session, reviewer)
    clear_account(session, reviewer.email)
    return password


def change_password(session: Session, reviewer: Reviewer, current: str, new: str) -> None:
    """Replace the reviewer's password after checking the current one."""
    if authenticate(session, reviewer.email, current) is None:
        raise PasswordRejected("The current password is wrong.", 403)
    if len(new) < MIN_PASSWORD_LENGTH:
        raise PasswordRejected(f"The new password needs at least {MIN_PASSWORD_LENGTH} characters.")
    if new == current:
        raise PasswordRejected("The new password must differ from the current one.")
    reviewer.password_hash = _hasher.hash(new)
    reviewer.must_change_password = False
