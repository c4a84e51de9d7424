"""team_loinc_aliases: the printed name and unit an alias was learnt from, so that its key is
computed when the aliases are loaded and a change of the matcher's normalisation keeps it
matching; unique per printed (name, unit) instead of per key

Aliases stored before this revision keep printed_name NULL: they are looked up by the key they
were stored with (service.runner.team_aliases), so they match as they did until their printed
name is corrected again, which gives them printed forms (service.review_jobs._learn_alias).

Revision ID: 0009_alias_printed_forms
Revises: 0008_job_ocr_pages
Create Date: 2026-11-24 16:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_alias_printed_forms"
down_revision = "0008_job_ocr_pages"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("team_loinc_aliases", schema=None) as batch_op:
        batch_op.add_column(sa.Column("printed_name", sa.String(length=300), nullable=True))
        batch_op.add_column(sa.Column("printed_unit", sa.String(length=100), server_default="", nullable=False))
        batch_op.drop_constraint("uq_team_loinc_alias", type_="unique")
        batch_op.create_unique_constraint("uq_team_loinc_alias_printed", ["team_id", "printed_name", "printed_unit"])


def downgrade() -> None:
    # Aliases stored under the same key (printed forms that fold alike) cannot all stay under the
    # key's constraint: the newest of them stays.
    op.execute(
        "DELETE FROM team_loinc_aliases WHERE id NOT IN "
        "(SELECT MAX(id) FROM team_loinc_aliases GROUP BY team_id, name_key, unit_key)"
    )
    with op.batch_alter_table("team_loinc_aliases", schema=None) as batch_op:
        batch_op.drop_constraint("uq_team_loinc_alias_printed", type_="unique")
        batch_op.create_unique_constraint("uq_team_loinc_alias", ["team_id", "name_key", "unit_key"])
        batch_op.drop_column("printed_unit")
        batch_op.drop_column("printed_name")
