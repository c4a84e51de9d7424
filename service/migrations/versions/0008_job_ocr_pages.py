"""jobs: the pages the parser read by OCR, kept off the wire's `data`, so that routing a stored
report again knows it was read from an image (review.document) without inferring it from the
rows' confidences

Jobs stored before this revision keep NULL: routing falls back to that inference for them, so
they route as they did when they were stored.

Revision ID: 0008_job_ocr_pages
Revises: 0007_job_unread_lines
Create Date: 2026-11-24 16:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_job_ocr_pages"
down_revision = "0007_job_unread_lines"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ocr_pages_json", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("ocr_pages_json")
