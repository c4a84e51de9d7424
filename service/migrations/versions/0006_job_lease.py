"""jobs: the lease of a started job, so several dispatchers on one database re-run only the
jobs of a dispatcher that is gone

Revision ID: 0006_job_lease
Revises: 0005_login_failures
Create Date: 2026-11-24 02:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_job_lease"
down_revision = "0005_login_failures"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("lease_until")
