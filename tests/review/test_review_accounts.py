"""Operators' admin commands (teams, reviewers; a table or --json, the same way) and a
reviewer's own password: the one-time password must be replaced before any work."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cli.main import app as cli_app
from service.review_tables import Reviewer
from service.tables import Team
from tests.review.conftest import CSRF_META, LOGIN_CSRF, login

API = "/lab_report/v1/review"


@pytest.fixture
def cli(settings, monkeypatch):
    """Run `labreport ...` against the test app's LABREPORT_HOME; returns the result."""
    from service.settings import get_settings

    monkeypatch.setenv("LABREPORT_HOME", str(settings.home))
    get_settings.cache_clear()

    def run(*args: str):
        return CliRunner().invoke(cli_app, list(args))

    yield run
    get_settings.cache_clear()


def test_every_admin_command_prints_a_table_or_json(cli, team, add_reviewer):
    add_reviewer(team, "ana@example.org")
    for command in (["team", "list"], ["reviewer", "list"], ["reviewer", "disable", "ana@example.org"],
                    ["team", "rotate-webhook-secret", str(team.team_id)]):
        as_json = cli(*command, "--json")
        table = cli(*command)
        assert as_json.exit_code == 0 and table.exit_code == 0, (command, as_json.output, table.output)
        parsed = json.loads(as_json.stdout)
        record = parsed[0] if isinstance(parsed, list) else parsed
        assert "┃" in table.stdout or "│" in table.stdout  # a table, not JSON
        for key in record:  # the same fields either way
            assert key in table.stdout, (command, key)
    teams = json.loads(cli("team", "list", "--json").stdout)
    assert [(t["team_id"], t["name"], t["reviewers"]) for t in teams] == [(str(team.team_id), "alpha", 1)]
    assert "api_key" not in teams[0] and "webhook_secret" not in teams[0]


def test_team_create_prints_its_credentials_both_ways(cli):
    created = json.loads(cli("team", "create", "gamma", "--json").stdout)
    assert set(created) == {"team_id", "api_key", "webhook_secret"}
    table = cli("team", "create", "delta").stdout
    assert "api_key" in table and "lr_" in table


def test_rotating_the_api_key_retires_the_old_one(app, client, cli, team, headers):
    assert client.get(f"{API}/queue", headers=headers).status_code == 200

    rotated = json.loads(cli("team", "rotate-key", str(team.team_id), "--json").stdout)

    assert rotated["api_key"].startswith("lr_") and rotated["api_key"] != team.api_key
    assert client.get(f"{API}/queue", headers=headers).status_code == 401
    assert client.get(f"{API}/queue", headers={"x-service-api-key": rotated["api_key"]}).status_code == 200
    missing = cli("team", "rotate-key", "no-such-team")
    assert missing.exit_code == 2 and "no team" in missing.output


def test_rotating_the_webhook_secret_signs_with_the_new_one(app, cli, team):
    rotated = json.loads(cli("team", "rotate-webhook-secret", str(team.team_id), "--json").stdout)
    assert rotated["webhook_secret"].startswith("whsec_") and rotated["webhook_secret"] != team.webhook_secret
    with app.state.database.session_scope() as session:
        assert session.get(Team, str(team.team_id)).webhook_secret == rotated["webhook_secret"]


def _attempt_login(client: TestClient, email: str, password: str):
    token = LOGIN_CSRF.search(client.get("/review/login").text).group(1)
    return client.post("/review/login", data={"email": email, "password": password, "csrf_token": token},
                       follow_redirects=False)


def test_disable_enable_and_reset_a_reviewer(app, client, cli, team, add_reviewer):
    _, password = add_reviewer(team, "ana@example.org")
    login(client, "ana@example.org", password)

    assert cli("reviewer", "disable", "ana@example.org").exit_code == 0
    assert client.get("/review/queue", follow_redirects=False).status_code == 303  # logged out at once
    assert _attempt_login(client, "ana@example.org", password).status_code == 401
    assert cli("reviewer", "enable", "ana@example.org").exit_code == 0
    assert _attempt_login(client, "ana@example.org", password).status_code == 303

    reset = json.loads(cli("reviewer", "reset-password", "ana@example.org", "--json").stdout)
    assert reset["password"] != password
    assert client.get("/review/queue", follow_redirects=False).status_code == 303  # sessions ended
    assert _attempt_login(client, "ana@example.org", password).status_code == 401
    first = _attempt_login(client, "ana@example.org", reset["password"])
    assert first.headers["location"] == "/review/password"  # a one-time password again
    listed = json.loads(cli("reviewer", "list", "--team", str(team.team_id), "--json").stdout)
    assert [(r["email"], r["disabled"], r["must_change_password"]) for r in listed] == [
        ("ana@example.org", False, True)]
    assert cli("reviewer", "reset-password", "zed@example.org").exit_code == 2


def test_the_one_time_password_is_replaced_at_the_first_login(client, team, add_reviewer, pending_job):
    job_id = pending_job(team)
    _, one_time = add_reviewer(team, "new@example.org", one_time=True)

    first = _attempt_login(client, "new@example.org", one_time)

    assert first.status_code == 303 and first.headers["location"] == "/review/password"
    assert client.get("/review/queue", follow_redirects=False).headers["location"] == "/review/password"
    form = client.get("/review/password")
    assert "one-time password" in form.text
    csrf = CSRF_META.search(form.text).group(1)
    refused = client.patch(f"{API}/{job_id}/results/0", json={"value": "1"}, headers={"x-csrf-token": csrf})
    assert refused.status_code == 403 and "one-time password" in refused.json()["detail"]

    def change(current: str, new: str, repeat: str | None = None):
        return client.post("/review/password", data={"current_password": current, "new_password": new,
                                                     "repeat_password": repeat or new, "csrf_token": csrf},
                           follow_redirects=False)

    assert change("wrong-password", "a-long-new-password").status_code == 403
    assert change(one_time, "short").status_code == 422
    assert change(one_time, "a-long-new-password", "another-long-one").status_code == 422
    assert change(one_time, one_time).status_code == 422
    done = change(one_time, "a-long-new-password")
    assert done.status_code == 303 and done.headers["location"] == "/review/queue"
    assert client.get("/review/queue").status_code == 200
    assert client.patch(f"{API}/{job_id}/results/0", json={"value": "96"}, headers={"x-csrf-token": csrf}).status_code == 200
    assert _attempt_login(client, "new@example.org", one_time).status_code == 401


def test_password_change_through_the_api(app, client, team, add_reviewer):
    _, one_time = add_reviewer(team, "api@example.org", one_time=True)
    _attempt_login(client, "api@example.org", one_time)
    csrf = CSRF_META.search(client.get("/review/password").text).group(1)
    body = {"current_password": one_time, "new_password": "correct-horse-battery"}

    assert client.post(f"{API}/password", json=body).status_code == 403  # no CSRF token
    changed = client.post(f"{API}/password", json=body, headers={"x-csrf-token": csrf})

    assert changed.status_code == 204, changed.text
    with app.state.database.session_scope() as session:
        assert session.query(Reviewer).filter_by(email="api@example.org").one().must_change_password is False
