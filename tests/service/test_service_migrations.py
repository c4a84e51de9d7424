"""The Alembic migrations build exactly the schema the ORM models describe, and re-run harmlessly."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

import service.review_tables  # noqa: F401  (their tables are part of the schema too)
import service.tables  # noqa: F401
from service.db import Base, make_engine, upgrade


def test_migrations_match_the_models(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    upgrade(url)
    upgrade(url)  # a second start finds nothing to do
    engine = make_engine(url)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert differences == []
