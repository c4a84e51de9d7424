"""The review web pages over HTTP: login, session cookie, CSRF, team isolation, rendering."""

from __future__ import annotations

import json
import re

import typer
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cli import review_cmd
from service.review_auth import SESSION_COOKIE
from tests.review.conftest import LOGIN_CSRF, login

API = "/lab_report/v1/review"


def test_pages_send_strangers_to_the_login_page(client):
    for path in ("/review", "/review/queue", "/review/jobs/whatever"):
        response = client.get(path, follow_redirects=False)
        assert response.status_code == 303, path
        assert response.headers["location"] == "/review/login"


def test_login_sets_an_httponly_samesite_session_cookie(client, team, add_reviewer):
    _, password = add_reviewer(team, "ana@example.org")
    form = client.get("/review/login")
    token = LOGIN_CSRF.search(form.text).group(1)

    response = client.post(
        "/review/login",
        data={"email": "ANA@example.org ", "password": password, "csrf_token": token},
        follow_redirects=False,
    )

    assert response.status_code == 303 and response.headers["location"] == "/review/queue"
    cookie = [v for k, v in response.headers.multi_items() if k == "set-cookie" and SESSION_COOKIE in v][0]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert client.get("/review/queue").status_code == 200


def test_wrong_password_and_missing_login_token_are_refused(client, team, add_reviewer):
    _, password = add_reviewer(team, "ana@example.org")

    def attempt(email: str, password: str, token: str | None = None):
        # Every login form carries a fresh token, bound to a cookie set with it.
        fresh = LOGIN_CSRF.search(client.get("/review/login").text).group(1)
        return client.post(
            "/review/login", data={"email": email, "password": password, "csrf_token": token or fresh}
        )

    wrong = attempt("ana@example.org", "nope")
    unknown = attempt("zed@example.org", password)
    forged = attempt("ana@example.org", password, token="x")

    assert wrong.status_code == 401 and "Wrong e-mail or password" in wrong.text
    assert unknown.status_code == 401
    assert forged.status_code == 403
    assert SESSION_COOKIE not in client.cookies


def test_state_changes_with_the_cookie_need_the_csrf_token(client, team, add_reviewer, pending_job):
    job_id = pending_job(team)
    _, password = add_reviewer(team, "ana@example.org")
    csrf = login(client, "ana@example.org", password)

    assert client.get(f"{API}/queue").status_code == 200  # reads need no token
    no_token = client.patch(f"{API}/{job_id}/results/0", json={"value": "96"})
    bad_token = client.patch(f"{API}/{job_id}/results/0", json={"value": "96"}, headers={"x-csrf-token": "x"})
    good = client.patch(f"{API}/{job_id}/results/0", json={"value": "96"}, headers={"x-csrf-token": csrf})

    assert no_token.status_code == 403 and bad_token.status_code == 403
    assert good.status_code == 200
    history = client.get(f"{API}/{job_id}/history").json()
    assert [(h["field"], h["who_label"]) for h in history][0] == ("value", "ana@example.org")


def test_reviewer_sees_only_their_teams_jobs(app, client, team, other_team, add_reviewer, pending_job):
    own = pending_job(team)
    foreign = pending_job(other_team)
    _, password = add_reviewer(team, "ana@example.org")
    login(client, "ana@example.org", password)

    queue = client.get("/review/queue").text
    assert own in queue and foreign not in queue
    assert client.get(f"/review/jobs/{foreign}").status_code == 404
    assert client.get(f"{API}/{foreign}").status_code == 404
    assert [item["job_id"] for item in client.get(f"{API}/queue").json()] == [own]


def test_job_page_marks_uncertain_fields_and_embeds_the_rows(client, team, add_reviewer, pending_job):
    job_id = pending_job(team)
    _, password = add_reviewer(team, "ana@example.org")
    login(client, "ana@example.org", password)

    page = client.get(f"/review/jobs/{job_id}")

    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    payload = json.loads(re.search(r'<script type="application/json" id="job-data">(.*?)</script>', page.text, re.S).group(1))
    assert [r["test_name"] for r in payload["results"]] == ["Glucose", "Hb"]
    assert [1, "value"] in payload["uncertain"] and [1, "loinc_code"] in payload["uncertain"]
    # Server-rendered table: the Hb value cell is marked, the glucose one is not.
    rows = re.findall(r'<tr data-index="(\d)">(.*?)</tr>', page.text, re.S)
    value_cell = {index: re.search(r'<td data-field="value"([^>]*)>', body).group(1) for index, body in rows}
    assert "uncertain" in value_cell["1"] and "uncertain" not in value_cell["0"]
    assert f'src="{API}/{job_id}/pages/1.png"' in page.text


def test_logout_ends_the_session(client, team, add_reviewer):
    _, password = add_reviewer(team, "ana@example.org")
    csrf = login(client, "ana@example.org", password)
    token = client.cookies.get(SESSION_COOKIE)

    response = client.post("/review/logout", data={"csrf_token": csrf}, follow_redirects=False)

    assert response.status_code == 303
    # The old token no longer opens anything, even if a browser kept it.
    client.cookies.set(SESSION_COOKIE, token)
    assert client.get("/review/queue", follow_redirects=False).status_code == 303


def test_static_files_are_served_and_nothing_else(client):
    assert client.get("/review/static/review.js").status_code == 200
    assert client.get("/review/static/review.css").headers["content-type"].startswith("text/css")
    assert client.get("/review/static/..%2Fapp.py").status_code == 404


def test_cli_creates_a_reviewer_with_a_one_time_password(app, client, settings, team, monkeypatch):
    monkeypatch.setenv("LABREPORT_HOME", str(settings.home))
    from service.settings import get_settings

    cli_app = typer.Typer()
    review_cmd.register(cli_app)
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(
            cli_app, ["reviewer", "create", "--team", str(team.team_id), "Dee@Example.org", "--json"]
        )
        duplicate = CliRunner().invoke(cli_app, ["reviewer", "create", "--team", str(team.team_id), "dee@example.org"])
        no_team = CliRunner().invoke(cli_app, ["reviewer", "create", "--team", "nope", "eve@example.org"])
    finally:
        get_settings.cache_clear()

    assert result.exit_code == 0, result.output
    password = json.loads(result.stdout)["password"]
    assert duplicate.exit_code == 2 and "already exists" in duplicate.output
    assert no_team.exit_code == 2 and "no team" in no_team.output
    with TestClient(app) as browser:
        login(browser, "dee@example.org", password)
