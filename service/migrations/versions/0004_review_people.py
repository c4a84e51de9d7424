"""review: one-time passwords must be changed; uploads keep their file name for the queue

Revision ID: 0004_review_people
Revises: 0003_scaleout
Create Date: 2026-11-23 18:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_review_people"
down_revision = "0003_scaleout"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Existing reviewers keep working; every reviewer created or reset from now on must
    # replace the one-time password at the first login (the ORM default is true).
    with op.batch_alter_table("reviewers", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("must_change_password", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("stored_files", schema=None) as batch_op:
        batch_op.add_column(sa.Column("original_name", sa.String(length=255), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("stored_files", schema=None) as batch_op:
        batch_op.drop_column("original_name")
    with op.batch_alter_table("reviewers", schema=None) as batch_op:
        batch_op.drop_column("must_change_password")
