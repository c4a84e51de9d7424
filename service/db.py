"""Engine, sessions and schema migrations of the service database.

Interface for the rest of `service/` (and the review tables):
- `Base`: the declarative base every table derives from (`service.tables`,
  `service.review_tables`).
- `Database(url)`: one engine + session factory; `database.session_scope()` is a
  context manager that commits on success and rolls back on error.
- `get_session` / `SessionDep`: FastAPI dependency yielding a session of the app's database
  (`request.app.state.database`), committed when the endpoint returns.
- `upgrade(url)`: runs the Alembic migrations in `service/migrations` (revision
  "0001" is the service's tables; later revisions build on it).

SQLite runs in WAL mode with a busy timeout so the API, the job dispatcher and
the webhook sender can write concurrently without "database is locked" errors.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fastapi import Depends, Request
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

MIGRATIONS_DIR = Path(__file__).parent / "migrations"


class Base(DeclarativeBase):
    pass


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


class Database:
    def __init__(self, url: str):
        self.url = url
        self.engine = make_engine(url)
        self.sessionmaker = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session_scope(self) -> Iterator[Session]:
        session = self.sessionmaker()
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    def dispose(self) -> None:
        self.engine.dispose()


def get_session(request: Request) -> Iterator[Session]:
    database: Database = request.app.state.database
    with database.session_scope() as session:
        yield session


# The session commits before the response leaves (FastAPI ends yield dependencies after
# sending by default): a client acting on an answer, or a browser following a redirect,
# must find what the request wrote, and a failed commit must not answer 2xx.
SessionDep = Depends(get_session, scope="function")


def upgrade(url: str) -> None:
    """Bring the schema at `url` to the newest revision (idempotent)."""
    # Alembic loads only in the processes that migrate (serve, worker start, db upgrade),
    # not in the parse processes that import this module for its sessions.
    from alembic import command
    from alembic.config import Config

    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    config = Config(str(MIGRATIONS_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["database_url"] = url
    command.upgrade(config, "heads")
