"""jobs: the count of lines that read as results but gave no row, kept off the wire's `data`, so
that routing a stored report again gives the reasons of the parse

Revision ID: 0007_job_unread_lines
Revises: 0006_job_lease
Create Date: 2026-11-24 08:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_job_unread_lines"
down_revision = "0006_job_lease"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("unread_result_lines", sa.Integer(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("unread_result_lines")
