"""Engine, sessions and schema migrations of the service database.

Interface for the rest of `service/` (and the review tables):
- `Base`: the declarative base every table derives from (`service.tables`,
  `service.review_tables`).
- `Database(url)`: one engine + session factory; `database.session_scope()` is a
  context manager that commits on success and rolls back on error.
- `get_session` / `SessionDep`: FastAPI dependency yielding a session of the app's database
  (`request.app.state.database`), committed when the endpoint returns.
- `upgrade(url)`: runs the Alembic migrations in `service/migrations` (revision
  "0001" is the service's tables; later revisions build on it) and returns the
  revisions it applied.
  A database that is missing or unreachable raises `DatabaseUnavailable` with one line
  saying what is wrong and what to do.

SQLite runs in WAL mode with a busy timeout so the API, the job dispatcher and
the webhook sender can write concurrently without "database is locked" errors.
Its file (patient data) is created 0600; its -wal and -shm files inherit that mode.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fastapi import Depends, Request
from sqlalchemy import create_engine, event, make_url
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, OperationalError
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


class DatabaseUnavailable(RuntimeError):
    """The database cannot be opened; the message says why and what to do (one line)."""


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for other databases and in-memory SQLite)."""
    if not url.startswith("sqlite"):
        return None
    database = make_url(url).database
    return Path(database) if database and database != ":memory:" else None


def _private_sqlite_file(url: str) -> None:
    path = sqlite_path(url)
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if file.exists():
            os.chmod(file, 0o600)


def _first_line(error: BaseException) -> str:
    cause = getattr(error, "orig", None) or error
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    return lines[0] if lines else type(cause).__name__


def explain_failure(url: str, error: BaseException) -> str:
    """One line: what is wrong with the database at `url`, and what to do (no password)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return f"DATABASE_URL is not a database URL ({error}); e.g. postgresql+psycopg://user@host:5432/labreport"
    shown = parsed.render_as_string(hide_password=True)
    reason = _first_line(error)
    if isinstance(error, ImportError):
        return (
            f"no driver for the database {shown} ({reason}): use SQLite or PostgreSQL "
            f"(postgresql+psycopg://user@host:5432/labreport)"
        )
    if parsed.get_backend_name() == "sqlite":
        return f"cannot open the SQLite database {parsed.database} ({reason}); check LABREPORT_HOME is writable"
    if "does not exist" in reason and "database" in reason:
        return (
            f"the database {parsed.database!r} does not exist on {parsed.host}:{parsed.port or 5432}: "
            f"create it (createdb -h {parsed.host} -p {parsed.port or 5432} -U {parsed.username or 'postgres'} "
            f"{parsed.database}), then run `labreport db upgrade`"
        )
    if isinstance(error, OperationalError) and ("authentication" in reason or "role" in reason):
        return f"the database {shown} refused the login ({reason}): check the user and password in DATABASE_URL"
    if isinstance(error, OperationalError):
        return (
            f"cannot connect to the database {shown} ({reason}): start it (see scripts/services.sh) "
            f"or point DATABASE_URL at a running server"
        )
    return f"cannot use the database {shown} ({reason}); check DATABASE_URL"


@contextmanager
def explained(url: str) -> Iterator[None]:
    """Turn a database that cannot be opened into `DatabaseUnavailable` with a plain message."""
    try:
        yield
    # Only "cannot open it" errors: a failing migration statement is a bug and keeps its traceback.
    except (OperationalError, ArgumentError, OSError, ImportError) as error:
        raise DatabaseUnavailable(explain_failure(url, error)) from error


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


class Database:
    def __init__(self, url: str):
        self.url = url
        # A SQLite file on this machine: a read takes about a millisecond and, in WAL mode,
        # never waits for a writer (service.routes.jobs reads GET job on the event loop).
        self.local_reads = sqlite_path(url) is not None
        _private_sqlite_file(url)
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


def upgrade(url: str) -> list[str]:
    """Bring the schema at `url` to the newest revision (idempotent); returns the revisions
    applied, oldest first (empty when it was up to date). Raises `DatabaseUnavailable`."""
    # Alembic loads only in the processes that migrate (serve, worker start, db upgrade),
    # not in the parse processes that import this module for its sessions.
    from alembic import command
    from alembic.config import Config

    config = Config(str(MIGRATIONS_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["database_url"] = url
    config.attributes["applied"] = applied = []  # filled by migrations/env.py
    with explained(url):
        _private_sqlite_file(url)
        command.upgrade(config, "heads")
    return applied
