"""Learning: a reviewer's LOINC correction auto-matches the same printed name on the team's
next report, and only on that team's reports."""

from __future__ import annotations

import time

import pytest

from tests.review.conftest import SAMPLE_PDF, make_team

pytestmark = pytest.mark.slow

API = "/lab_report/v1/review"


def _parse(client, headers) -> dict:
    user = client.post("/v2/user", json={"client_user_id": f"learn-{time.monotonic_ns()}"}, headers=headers)
    created = client.post(
        "/lab_report/v1/parser/job",
        data={"user_id": user.json()["user_id"], "needs_human_review": "true"},
        files={"file": (SAMPLE_PDF.name, SAMPLE_PDF.read_bytes(), "application/pdf")},
        headers=headers,
    )
    assert created.status_code == 200, created.text
    job_id = created.json()["id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = client.get(f"/lab_report/v1/parser/job/{job_id}", headers=headers).json()
        if job["status"] in ("pending_review", "completed", "failed"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish")


def test_a_corrected_code_becomes_the_teams_alias(app, client, settings):
    team = make_team(app, settings, "learners")
    stranger = make_team(app, settings, "strangers")
    headers = {"x-service-api-key": team.api_key}
    stranger_headers = {"x-service-api-key": stranger.api_key}

    first = _parse(client, headers)
    assert first["status"] == "pending_review"
    rows = first["data"]["results"]
    # A row the matcher was unsure of (else the first); the reviewer picks a code it did not rank first.
    index = next((i for i, r in enumerate(rows) if r["loinc_match_status"] != "auto_match"), 0)
    before = rows[index]
    current = before["loinc_matches"][0]["loinc_code"] if before["loinc_matches"] else None
    chosen = next(
        m["loinc_code"]
        for m in client.get(f"{API}/loinc/search", params={"q": before["test_name"]}, headers=headers).json()["matches"]
        if m["loinc_code"] != current
    )
    patched = client.patch(f"{API}/{first['id']}/results/{index}", json={"loinc_code": chosen}, headers=headers)
    assert patched.status_code == 200, patched.text
    done = client.post(f"{API}/{first['id']}/complete", json={"confirm_uncertain": True}, headers=headers)
    assert done.status_code == 200, done.text

    second = _parse(client, headers)
    again = next(r for r in second["data"]["results"] if r["test_name"] == before["test_name"])
    assert again["loinc_match_status"] == "auto_match"
    assert again["loinc_matches"][0]["loinc_code"] == chosen

    # Another team's reports are not affected by this team's reviewers.
    foreign = _parse(client, stranger_headers)
    theirs = next(r for r in foreign["data"]["results"] if r["test_name"] == before["test_name"])
    assert theirs["loinc_match_status"] == before["loinc_match_status"]
    assert (theirs["loinc_matches"][0]["loinc_code"] if theirs["loinc_matches"] else None) == current
