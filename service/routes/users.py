"""`/v2/user`: the team's end users; a job belongs to one of them."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends, HTTPException, Response, status
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.auth import require_team
from service.db import SessionDep
from service.schemas import ErrorBody, UserCreate, UserOut, UserPatch
from service.tables import Team, User, utcnow

router = APIRouter(prefix="/v2/user", tags=["users"])

NOT_FOUND = {404: {"model": ErrorBody, "description": "No such user in this team"}}


def team_user(session: Session, team: Team, user_id: uuid.UUID) -> User:
    """The team's user, or 404 (another team's user is treated as nonexistent)."""
    user = session.get(User, str(user_id))
    if user is None or user.team_id != team.id:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail="user not found")
    return user


@router.post("", response_model=UserOut, responses={400: {"model": ErrorBody}})
def create_user(
    body: UserCreate, team: Team = Depends(require_team), session: Session = SessionDep
) -> UserOut:
    """Create a user; a `client_user_id` already used in this team is refused with 400."""
    existing = session.scalar(
        select(User).where(User.team_id == team.id, User.client_user_id == body.client_user_id)
    )
    if existing is not None:
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST,
            detail=f"a user with this client_user_id already exists: {existing.id}",
        )
    user = User(team_id=team.id, client_user_id=body.client_user_id)
    session.add(user)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST, detail="a user with this client_user_id already exists"
        ) from None
    return UserOut.from_row(user)


@router.get("/{user_id}", response_model=UserOut, responses=NOT_FOUND)
def read_user(
    user_id: uuid.UUID, team: Team = Depends(require_team), session: Session = SessionDep
) -> UserOut:
    return UserOut.from_row(team_user(session, team, user_id))


@router.patch(
    "/{user_id}", status_code=status.HTTP_204_NO_CONTENT, response_class=Response, responses=NOT_FOUND
)
def update_user(
    user_id: uuid.UUID,
    body: UserPatch,
    team: Team = Depends(require_team),
    session: Session = SessionDep,
) -> Response:
    """Set the fields present in the body (null clears one); 204, or 422 when invalid."""
    user = team_user(session, team, user_id)
    changes = body.model_dump(exclude_unset=True)
    if changes.get("client_user_id") is not None:
        clash = session.scalar(
            select(User).where(
                User.team_id == team.id,
                User.client_user_id == changes["client_user_id"],
                User.id != user.id,
            )
        )
        if clash is not None:
            raise HTTPException(
                422,  # Unprocessable Content (constant renamed across Starlette versions)
                detail="client_user_id is already used by another user of this team",
            )
    for name, value in changes.items():
        setattr(user, name, value.isoformat() if hasattr(value, "isoformat") else value)
    user.updated_at = utcnow()
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
