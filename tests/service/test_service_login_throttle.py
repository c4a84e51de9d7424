"""Failed-login lockout shared by every API process (issue 11): the counts live in the database.

Two app instances on one database stand for two API processes of a scale-out; each counted on
its own before, so a guesser got the limit once per process.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from typer.testing import CliRunner

from cli.main import app as cli_app
from service.app import create_app
from service.db import Database, upgrade
from service.login_throttle import LoginThrottle, clear_account
from service.review_auth import create_reviewer
from service.review_tables import LoginFailures
from service.settings import get_settings
from tests.review.conftest import LOGIN_CSRF
from tests.service.helpers import make_team


def attempt(client: TestClient, email: str, password: str):
    token = LOGIN_CSRF.search(client.get("/review/login").text).group(1)
    return client.post(
        "/review/login", data={"email": email, "password": password, "csrf_token": token}, follow_redirects=False
    )


@pytest.fixture
def two_processes(settings) -> Iterator[tuple[TestClient, TestClient]]:
    """Two API instances on one LABREPORT_HOME (one database), each with its own memory."""
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        yield first, second


@pytest.fixture
def cli(settings, monkeypatch):
    """Run `labreport ...` against the apps' LABREPORT_HOME (the settings are cached per process)."""
    monkeypatch.setenv("LABREPORT_HOME", str(settings.home))
    get_settings.cache_clear()

    def run(*args: str):
        result = CliRunner().invoke(cli_app, list(args))
        assert result.exit_code == 0, result.output
        return result

    yield run
    get_settings.cache_clear()


@pytest.fixture
def reviewer(two_processes, settings) -> tuple[str, str]:
    app = two_processes[0].app
    team = make_team(app, settings, "alpha")
    with app.state.database.session_scope() as session:
        account, password = create_reviewer(session, str(team.team_id), "ana@example.org")
        account.must_change_password = False
    return "ana@example.org", password


def test_the_account_limit_holds_across_two_api_processes(two_processes, reviewer, settings):
    email, password = reviewer
    for n in range(settings.login_max_failures_per_account):
        assert attempt(two_processes[n % 2], email, "guess").status_code == 401
    for client in two_processes:
        locked = attempt(client, email, password)
        assert locked.status_code == 429
        assert int(locked.headers["retry-after"]) > 0


def test_the_address_limit_holds_across_two_api_processes(two_processes, reviewer, settings):
    email, password = reviewer
    for n in range(settings.login_max_failures_per_address):
        attempt(two_processes[n % 2], f"nobody{n}@example.org", "guess")
    assert attempt(two_processes[0], email, password).status_code == 429
    assert attempt(two_processes[1], email, password).status_code == 429


def test_reset_password_lifts_the_lockout_in_every_process(two_processes, reviewer, settings, cli):
    email, _ = reviewer
    for n in range(settings.login_max_failures_per_account):
        attempt(two_processes[n % 2], email, "guess")
    assert attempt(two_processes[1], email, "guess").status_code == 429
    new_password = json.loads(cli("reviewer", "reset-password", email, "--json").stdout)["password"]
    answer = attempt(two_processes[1], email, new_password)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/review/password"  # a one-time password: replace it first


def test_disable_still_refuses_the_right_password(two_processes, reviewer, cli):
    email, password = reviewer
    cli("reviewer", "disable", email, "--json")
    assert attempt(two_processes[1], email, password).status_code == 401


def test_a_success_clears_the_account_count_not_the_address_count(two_processes, reviewer, settings):
    email, password = reviewer
    limit = settings.login_max_failures_per_account
    for _ in range(limit - 1):
        attempt(two_processes[0], email, "guess")
    assert attempt(two_processes[1], email, password).status_code == 303
    for _ in range(limit - 1):  # counting starts again from zero
        assert attempt(two_processes[0], email, "guess").status_code == 401
    assert attempt(two_processes[1], email, password).status_code == 303


def test_rows_expire_once_their_window_and_lockout_are_over():
    now = [1000.0]
    throttle = LoginThrottle(
        max_per_account=2, max_per_address=100, window_seconds=60, lockout_seconds=300, clock=lambda: now[0]
    )
    throttle.failed("a@x.org", "10.0.0.1")
    throttle.failed("a@x.org", "10.0.0.1")  # the account locks for 300 s
    now[0] += 200  # past the window, inside the lockout: the lock stays
    throttle.failed("b@x.org", "10.0.0.2")
    assert throttle.retry_after("a@x.org", "10.0.0.9") == pytest.approx(100)
    now[0] += 101
    assert throttle.retry_after("a@x.org", "10.0.0.9") is None
    throttle.failed("c@x.org", "10.0.0.3")  # any failure sweeps what is over

    with throttle._sessions() as session:
        remaining = session.scalar(select(func.count()).select_from(LoginFailures))
    assert remaining == 2  # c@x.org and its address; a@, b@ and their addresses are gone


def test_a_new_window_starts_after_the_old_one_ends():
    now = [0.0]
    throttle = LoginThrottle(
        max_per_account=3, max_per_address=100, window_seconds=60, lockout_seconds=300, clock=lambda: now[0]
    )
    for _ in range(2):
        throttle.failed("a@x.org", "10.0.0.1")
    now[0] = 61  # the two old failures no longer count
    for _ in range(2):
        throttle.failed("a@x.org", "10.0.0.1")
    assert throttle.retry_after("a@x.org", "10.0.0.1") is None
    throttle.failed("a@x.org", "10.0.0.1")
    assert throttle.retry_after("a@x.org", "10.0.0.1") == pytest.approx(300)


def test_postgresql_counts_every_failure_of_two_processes_failing_at_once(database_url):
    """Two engines (two API processes) on one PostgreSQL, failing concurrently: none is lost."""
    upgrade(database_url)
    databases = [Database(database_url), Database(database_url)]
    throttles = [
        LoginThrottle(max_per_account=9, max_per_address=100, window_seconds=60, lockout_seconds=300, database=d)
        for d in databases
    ]
    try:
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda n: throttles[n % 2].failed("a@x.org", f"10.0.0.{n}"), range(8)))
        assert throttles[0].retry_after("a@x.org", "10.0.1.1") is None  # 8 of 9
        throttles[1].failed("a@x.org", "10.0.0.99")
        assert throttles[0].retry_after("a@x.org", "10.0.1.1") == pytest.approx(300, abs=5)
        with databases[0].session_scope() as session:
            clear_account(session, "a@x.org")
        assert throttles[1].retry_after("a@x.org", "10.0.1.1") is None
    finally:
        for database in databases:
            database.dispose()
