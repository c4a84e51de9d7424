"""Holes of issue 11 in the review side: login guessing, concurrent edits, page previews."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy.exc import OperationalError

from parser.exceptions import LabReportError
from service import review_jobs
from service.previews import PreviewRenderer
from service.login_throttle import LoginThrottle
from tests.hostile import png_bomb
from tests.review.conftest import LOGIN_CSRF, SAMPLE_PDF

API = "/lab_report/v1/review"


def attempt(client, email: str, password: str):
    token = LOGIN_CSRF.search(client.get("/review/login").text).group(1)
    return client.post(
        "/review/login", data={"email": email, "password": password, "csrf_token": token}, follow_redirects=False
    )


def test_wrong_passwords_lock_the_account_even_for_the_right_one(client, team, add_reviewer, settings):
    _, password = add_reviewer(team, "ana@example.org")
    for _ in range(settings.login_max_failures_per_account):
        assert attempt(client, "ana@example.org", "guess").status_code == 401
    locked = attempt(client, "ana@example.org", password)
    assert locked.status_code == 429
    assert int(locked.headers["retry-after"]) > 0
    assert "Too many failed logins" in locked.text


def test_one_address_spraying_many_accounts_is_locked_out(client, team, add_reviewer, settings):
    _, password = add_reviewer(team, "bo@example.org")
    for n in range(settings.login_max_failures_per_address):
        attempt(client, f"nobody{n}@example.org", "guess")
    assert attempt(client, "bo@example.org", password).status_code == 429


def test_the_throttle_forgets_after_the_lockout_and_counts_per_key():
    now = [0.0]
    throttle = LoginThrottle(
        max_per_account=3, max_per_address=10, window_seconds=60, lockout_seconds=300, clock=lambda: now[0]
    )
    for _ in range(2):
        throttle.failed("A@x.org", "10.0.0.1")
    assert throttle.retry_after("a@x.org", "10.0.0.1") is None
    throttle.failed("a@x.org ", "10.0.0.2")  # the third, from elsewhere: the account locks
    assert throttle.retry_after("a@x.org", "10.0.0.3") == pytest.approx(300)
    assert throttle.retry_after("b@x.org", "10.0.0.1") is None  # other accounts are not
    now[0] = 301
    assert throttle.retry_after("a@x.org", "10.0.0.1") is None


def test_simultaneous_edits_of_one_job_never_answer_500(client, team, headers, pending_job):
    job_id = pending_job(team)

    def edit(i: int) -> int:
        return client.patch(f"{API}/{job_id}/results/0", json={"value": str(100 + i)}, headers=headers).status_code

    with ThreadPoolExecutor(8) as pool:
        codes = set(pool.map(edit, range(40)))
    assert codes <= {200, 409}


def test_a_locked_sqlite_database_answers_409_not_500(client, team, headers, pending_job, monkeypatch):
    job_id = pending_job(team)

    def locked(*_args, **_kwargs):
        raise OperationalError("UPDATE jobs", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(review_jobs, "update_result", locked)
    response = client.patch(f"{API}/{job_id}/results/0", json={"value": "5"}, headers=headers)
    assert response.status_code == 409
    assert "retry" in response.json()["detail"]


def test_page_previews_render_in_a_child_process_under_the_ceiling(client, team, headers, pending_job):
    job_id = pending_job(team, with_file=True)
    image = client.get(f"{API}/{job_id}/pages/1.png", headers=headers)
    assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
    # A renderer whose ceiling is far below what a render needs fails the page, not the API.
    tiny = PreviewRenderer(memory_limit=64 * 1024 * 1024)
    try:
        with pytest.raises(LabReportError):
            tiny.render(SAMPLE_PDF.read_bytes(), 1)
    finally:
        tiny.close()
    # A bomb is refused from its header before any pixel is decoded.
    with pytest.raises(LabReportError, match="pixels"):
        client.app.state.previews.render(png_bomb(), 1)
