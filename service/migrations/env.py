"""Alembic environment: migrates the database whose URL service.db.upgrade() passes in."""

from __future__ import annotations

from alembic import context

# Importing the table modules registers their tables on Base.metadata (for autogenerate).
import service.review_tables  # noqa: F401
import service.tables  # noqa: F401
from service.db import Base, make_engine

target_metadata = Base.metadata


def _url() -> str:
    return context.config.attributes.get("database_url") or context.config.get_main_option(
        "sqlalchemy.url"
    )


def run_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def _record_applied(ctx, step, heads, run_args) -> None:
    """Tell service.db.upgrade which revisions ran (`db upgrade` prints them)."""
    applied = context.config.attributes.get("applied")
    if applied is not None and step.is_upgrade:
        applied.append(step.up_revision_id)


def run_online() -> None:
    engine = make_engine(_url())
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            on_version_apply=_record_applied,
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
