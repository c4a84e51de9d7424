"""PostgreSQL and Redis for the scale-out tests: the ones you point at, or throwaway ones.

    LABREPORT_TEST_DATABASE_URL   a PostgreSQL database whose user may CREATE DATABASE
                                  (each test creates and drops a database of its own)
    LABREPORT_TEST_REDIS_URL      a Redis (each test uses a database number of its own)

Whatever is not given is started by `scripts/services.sh --ephemeral` in a temp folder on
free ports, and stopped after the session. When that is impossible (not installed, no
permission) the tests skip saying why, or fail when LABREPORT_REQUIRE_SCALEOUT=1 (CI).
The broker-outage test always runs a Redis of its own, since it stops and restarts it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from sqlalchemy import make_url

REPO = Path(__file__).resolve().parents[2]
SERVICES = REPO / "scripts" / "services.sh"


def unavailable(reason: str) -> None:
    """Skip with the reason, or fail when CI requires the scale-out tests to run."""
    if os.environ.get("LABREPORT_REQUIRE_SCALEOUT") == "1":
        pytest.fail(f"{reason} (LABREPORT_REQUIRE_SCALEOUT=1: the scale-out tests must run)")
    pytest.skip(reason)


class Services:
    """Servers started by scripts/services.sh in a folder of their own."""

    def __init__(self, only: str | None = None):
        # Under /tmp, not pytest's tmp_path: as root the servers run as "postgres", which
        # cannot reach root's private pytest folders.
        self.dir = Path(tempfile.mkdtemp(prefix="labreport-services-"))
        self.only = ["--only", only] if only else []
        self.url = ""  # own_redis: the Redis URL once started

    def _run(self, action: str, *extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["bash", str(SERVICES), action, "--dir", str(self.dir), *self.only, *extra],
            capture_output=True, text=True, timeout=120,
        )

    def start(self) -> dict[str, str]:
        done = self._run("start", "--pg-port", "0", "--redis-port", "0", "--ephemeral")
        if done.returncode != 0:
            message = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "no message"
            raise RuntimeError(f"scripts/services.sh could not start them: {message}")
        return dict(line.split("=", 1) for line in done.stdout.split() if "=" in line)

    def stop(self) -> None:
        self._run("stop")

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@dataclass
class ScaleoutServers:
    database_url: str  # a database the user may create databases from
    redis_url: str


def _start_missing() -> tuple[ScaleoutServers, Services | None]:
    database_url = os.environ.get("LABREPORT_TEST_DATABASE_URL")
    redis_url = os.environ.get("LABREPORT_TEST_REDIS_URL")
    if database_url and redis_url:
        return ScaleoutServers(database_url, redis_url), None
    only = "postgres" if redis_url else "redis" if database_url else None
    services = Services(only)
    try:
        started = services.start()
    except RuntimeError as error:
        services.remove()
        wanted = {"postgres": "PostgreSQL", "redis": "Redis", None: "PostgreSQL and Redis"}[only]
        unavailable(f"no {wanted} for the scale-out tests (LABREPORT_TEST_DATABASE_URL / "
                    f"LABREPORT_TEST_REDIS_URL not set) and {error}")
    return ScaleoutServers(
        database_url or started["DATABASE_URL"], redis_url or started["LABREPORT_BROKER_URL"]
    ), services


@pytest.fixture(scope="session")
def scaleout_servers() -> Iterator[ScaleoutServers]:
    servers, started = _start_missing()
    try:
        yield servers
    finally:
        if started is not None:
            started.remove()


def _psycopg_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture
def database_url(scaleout_servers: ScaleoutServers) -> Iterator[str]:
    """A fresh PostgreSQL database for this test (SQLAlchemy URL), dropped afterwards."""
    admin = _psycopg_url(scaleout_servers.database_url)
    name = f"labreport_test_{uuid.uuid4().hex[:10]}"
    try:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        unavailable(f"cannot create a test database through {make_url(admin).render_as_string()}: "
                    f"{str(error).strip().splitlines()[0]}")
    yield make_url(scaleout_servers.database_url).set(
        drivername="postgresql+psycopg", database=name
    ).render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def redis_url(scaleout_servers: ScaleoutServers) -> str:
    """A Redis database number of this test's own on the session's Redis."""
    parts = urlsplit(scaleout_servers.redis_url)
    return f"{parts.scheme}://{parts.netloc}/{1 + uuid.uuid4().int % 15}"


@pytest.fixture
def own_redis() -> Iterator[Services]:
    """A Redis this test may stop and restart (`.stop()`, `.start()`); `.url` to reach it."""
    services = Services("redis")
    try:
        services.url = services.start()["LABREPORT_BROKER_URL"]
    except RuntimeError as error:
        services.remove()
        unavailable(f"no Redis of its own for the broker-outage test: {error}")
    try:
        yield services
    finally:
        services.remove()
