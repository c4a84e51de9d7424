"""scale-out: uploads in a `blobs` table, the broker outbox columns on jobs

Revision ID: 0003_scaleout
Revises: 0002
Create Date: 2026-11-23 17:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_scaleout"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "blobs",
        sa.Column("key", sa.String(length=500), nullable=False),
        sa.Column("job_id", sa.String(length=36), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"]),
        sa.PrimaryKeyConstraint("key"),
    )
    with op.batch_alter_table("blobs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_blobs_job_id"), ["job_id"], unique=False)
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("dispatch_count", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("next_dispatch_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("next_dispatch_at")
        batch_op.drop_column("dispatch_count")
    with op.batch_alter_table("blobs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_blobs_job_id"))
    op.drop_table("blobs")
