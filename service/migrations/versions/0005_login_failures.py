"""review: failed-login counts in the database, shared by every API process

Revision ID: 0005_login_failures
Revises: 0004_review_people
Create Date: 2026-11-23 21:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_login_failures"
down_revision = "0004_review_people"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("window_start", sa.Float(), nullable=False),
        sa.Column("locked_until", sa.Float(), nullable=True),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("kind", "key_hash"),
    )
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_login_failures_expires_at"), ["expires_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_login_failures_expires_at"))
    op.drop_table("login_failures")
