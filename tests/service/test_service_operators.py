"""What an operator sees from `labreport db upgrade` and `serve`: what happened, or one line on what is wrong."""

from __future__ import annotations

import subprocess

import pytest

from service.db import Database
from tests.service.server import CLI, REPO, free_port, service_env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(CLI + args, env=env, cwd=REPO, capture_output=True, text=True, timeout=120)


def test_db_upgrade_names_the_revisions_it_applied_then_says_up_to_date(tmp_path):
    env = service_env(tmp_path / "home")
    first = _run(["db", "upgrade"], env)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("applied ") and "0001" in first.stdout
    assert "up to date" not in first.stdout
    second = _run(["db", "upgrade"], env)
    assert second.returncode == 0 and "up to date" in second.stdout


def test_an_unreachable_database_is_one_line_and_a_failing_exit(tmp_path):
    closed = free_port()  # nothing listens there
    env = service_env(tmp_path / "home", DATABASE_URL=f"postgresql://labreport:secret@127.0.0.1:{closed}/labreport")
    for command in (["db", "upgrade"], ["serve", "--port", str(free_port())]):
        done = _run(command, env)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, (command, done.stderr)
        assert lines[0].startswith("error: cannot connect to the database")
        assert f":{closed}/labreport" in lines[0] and "secret" not in lines[0]
        assert "DATABASE_URL" in lines[0]  # what to do


@pytest.mark.scaleout
def test_a_missing_postgres_database_says_to_create_it(tmp_path, scaleout_servers):
    from sqlalchemy import make_url

    missing = make_url(scaleout_servers.database_url).set(database="labreport_missing_db")
    env = service_env(tmp_path / "home", DATABASE_URL=missing.render_as_string(hide_password=False))
    done = _run(["db", "upgrade"], env)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "'labreport_missing_db' does not exist" in done.stderr and "createdb" in done.stderr


def test_health_says_the_database_is_unreachable_with_a_503(client, app):
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok"}
    working = app.state.database
    app.state.database = Database(f"postgresql+psycopg://labreport@127.0.0.1:{free_port()}/labreport")
    try:
        response = client.get("/healthz")
    finally:
        app.state.database.dispose()
        app.state.database = working
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "unreachable"}
