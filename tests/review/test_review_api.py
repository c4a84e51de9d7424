"""The review JSON API with the team key: queue, claims, corrections, completion, history."""

from __future__ import annotations

import json
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select

from loinc.matcher import alias_key
from service.review_tables import ReviewClaim
from service.tables import TeamLoincAlias, WebhookDelivery, utcnow
from tests.review.conftest import login, make_team

API = "/lab_report/v1/review"


def test_queue_lists_pending_jobs_of_the_team_oldest_first(client, team, other_team, headers, pending_job):
    newer = pending_job(team, age=timedelta(minutes=1))
    older = pending_job(team, age=timedelta(hours=2))
    pending_job(other_team)

    queue = client.get(f"{API}/queue", headers=headers)

    assert queue.status_code == 200
    items = queue.json()
    assert [item["job_id"] for item in items] == [older, newer]
    assert items[0]["result_count"] == 2
    # The Hb row: low confidence value/units/range, implausible value, LOINC to review.
    assert items[0]["uncertain_count"] >= 4
    assert any("value implausible for the analyte" in reason for reason in items[0]["reasons"])


def test_review_api_needs_a_key_or_a_session(client, team, pending_job):
    job_id = pending_job(team)
    assert client.get(f"{API}/queue").status_code == 401
    assert client.get(f"{API}/queue", headers={"x-service-api-key": "lr_wrong"}).status_code == 401
    assert client.post(f"{API}/{job_id}/complete").status_code == 401


def test_other_teams_jobs_are_not_found(client, team, other_team, headers, pending_job):
    foreign = pending_job(other_team)
    for method, path, body in [
        ("GET", f"{API}/{foreign}", None),
        ("POST", f"{API}/{foreign}/claim", None),
        ("PATCH", f"{API}/{foreign}/results/0", {"value": "1"}),
        ("POST", f"{API}/{foreign}/results", {"test_name": "X", "value": "1"}),
        ("DELETE", f"{API}/{foreign}/results/0", None),
        ("POST", f"{API}/{foreign}/complete", None),
        ("GET", f"{API}/{foreign}/history", None),
        ("GET", f"{API}/{foreign}/pages/1.png", None),
    ]:
        response = client.request(method, path, json=body, headers=headers)
        assert response.status_code == 404, (method, path, response.text)


def test_read_job_marks_uncertain_fields_and_lists_pages(client, team, headers, pending_job):
    job_id = pending_job(team)

    body = client.get(f"{API}/{job_id}", headers=headers).json()

    assert body["job"]["status"] == "pending_review"
    assert len(body["job"]["data"]["results"]) == 2
    uncertain = {(u["index"], u["field"]) for u in body["uncertain"]}
    assert (1, "value") in uncertain and (1, "loinc_code") in uncertain
    assert not any(index == 0 for index, _ in uncertain)
    assert body["pages"] == [{"number": 1, "image_url": f"{API}/{job_id}/pages/1.png"}]


def test_patch_value_recomputes_range_flags_and_clears_the_uncertainty(client, team, headers, pending_job):
    job_id = pending_job(team)

    response = client.patch(f"{API}/{job_id}/results/1", json={"value": "18.5"}, headers=headers)

    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["value"] == "18.5"
    assert result["is_above_max_range"] is True and result["interpretation"] == "abnormal"
    # A person read it: the low-confidence marks on the row go away, the LOINC one stays.
    assert result["extraction_confidence"] == 1.0
    assert {(u["index"], u["field"]) for u in response.json()["uncertain"]} == {(1, "loinc_code")}
    stored = client.get(f"{API}/{job_id}", headers=headers).json()["job"]["data"]["results"][1]
    assert stored["value"] == "18.5"


def test_patch_loinc_code_sets_the_match_and_teaches_a_team_alias(app, client, team, headers, pending_job):
    job_id = pending_job(team)

    response = client.patch(f"{API}/{job_id}/results/1", json={"loinc_code": "718-7"}, headers=headers)

    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["loinc_match_status"] == "auto_match"
    assert result["loinc_matches"][0]["loinc_code"] == "718-7"
    assert result["loinc_matches"][0]["confidence_score"] == 1.0
    with app.state.database.session_scope() as session:
        aliases = session.scalars(select(TeamLoincAlias)).all()
        assert [(a.team_id, (a.name_key, a.unit_key), a.loinc_code) for a in aliases] == [
            (str(team.team_id), alias_key("Hb", "g/dL"), "718-7")
        ]


def test_bad_corrections_are_refused_with_a_reason(client, team, headers, pending_job):
    job_id = pending_job(team)
    cases = [
        ({"loinc_code": "99999-9"}, 422, "unknown LOINC code"),
        ({"colour": "red"}, 422, "cannot be changed"),
        ({"extraction_confidence": 7}, 422, "extraction_confidence"),
        ({}, 422, "no fields"),
    ]
    for body, code, text in cases:
        response = client.patch(f"{API}/{job_id}/results/0", json=body, headers=headers)
        assert response.status_code == code, response.text
        assert text in response.json()["detail"]
    missing = client.patch(f"{API}/{job_id}/results/9", json={"value": "1"}, headers=headers)
    assert missing.status_code == 404
    # Nothing was changed by the refused requests.
    row = client.get(f"{API}/{job_id}", headers=headers).json()["job"]["data"]["results"][0]
    assert row["value"] == "95" and row["loinc_matches"][0]["loinc_code"] == "2345-7"
    assert client.get(f"{API}/{job_id}/history", headers=headers).json() == []


def test_add_and_delete_rows_are_kept_in_history(client, team, headers, pending_job):
    job_id = pending_job(team)

    added = client.post(
        f"{API}/{job_id}/results",
        json={"test_name": "Potassium", "value": "4.1", "units": "mmol/L", "loinc_code": "2823-3"},
        headers=headers,
    )
    removed = client.delete(f"{API}/{job_id}/results/0", headers=headers)

    assert added.status_code == 201, added.text
    assert added.json()["index"] == 2
    assert added.json()["result"]["loinc_matches"][0]["loinc_code"] == "2823-3"
    assert removed.status_code == 200, removed.text
    names = [r["test_name"] for r in client.get(f"{API}/{job_id}", headers=headers).json()["job"]["data"]["results"]]
    assert names == ["Hb", "Potassium"]
    history = client.get(f"{API}/{job_id}/history", headers=headers).json()
    assert [(h["action"], h["result_index"], h["who"]) for h in history] == [
        ("add", 2, "api-key"),
        ("delete", 0, "api-key"),
    ]
    assert history[0]["after"]["test_name"] == "Potassium"
    assert history[1]["before"]["test_name"] == "Glucose"


def test_complete_marks_the_job_reviewed_and_queues_the_updated_webhook(
    app, client, settings, pending_job
):
    team = make_team(app, settings, "hooked", webhook_url="http://127.0.0.1:9/hooks")
    headers = {"x-service-api-key": team.api_key}
    job_id = pending_job(team)
    client.patch(f"{API}/{job_id}/results/1", json={"value": "13.5"}, headers=headers)
    still_marked = client.get(f"{API}/{job_id}", headers=headers).json()["uncertain"]
    assert still_marked  # the LOINC match of row 1 is still to be checked

    response = client.post(f"{API}/{job_id}/complete", json={"confirm_uncertain": True}, headers=headers)

    assert response.status_code == 200, response.text
    assert response.json()["status"] == "completed" and response.json()["is_reviewed"] is True
    with app.state.database.session_scope() as session:
        events = session.scalars(select(WebhookDelivery).where(WebhookDelivery.job_id == job_id)).all()
        # Edits send nothing; completion sends one `updated` event with the reviewed job.
        assert [e.event_type for e in events] == ["lab_report.parsing_job.updated"]
        payload = json.loads(events[0].payload)
        assert payload["data"]["status"] == "completed" and payload["data"]["is_reviewed"] is True
        assert payload["data"]["data"]["results"][1]["value"] == "13.5"
        assert session.get(ReviewClaim, job_id) is None
    # A completed job leaves the queue and can no longer be changed.
    assert client.get(f"{API}/queue", headers=headers).json() == []
    again = client.patch(f"{API}/{job_id}/results/1", json={"value": "1"}, headers=headers)
    assert again.status_code == 409
    history = client.get(f"{API}/{job_id}/history", headers=headers).json()
    assert (history[0]["field"], history[0]["before"], history[0]["after"]) == ("value", "135", "13.5")
    assert history[-1]["action"] == "complete"


def test_claims_keep_a_second_reviewer_out_until_they_expire(app, client, team, pending_job, add_reviewer):
    job_id = pending_job(team)
    _, password_a = add_reviewer(team, "ana@example.org")
    _, password_b = add_reviewer(team, "ben@example.org")
    with TestClient(app) as second:
        csrf_a = login(client, "ana@example.org", password_a)
        csrf_b = login(second, "ben@example.org", password_b)

        first_claim = client.post(f"{API}/{job_id}/claim", headers={"x-csrf-token": csrf_a})
        assert first_claim.status_code == 200, first_claim.text
        assert first_claim.json()["claimed_by"] == "ana@example.org"

        assert second.post(f"{API}/{job_id}/claim", headers={"x-csrf-token": csrf_b}).status_code == 409
        edit = second.patch(f"{API}/{job_id}/results/0", json={"value": "1"}, headers={"x-csrf-token": csrf_b})
        assert edit.status_code == 409
        assert second.get(f"{API}/queue").json()[0]["claimed_by"] == "ana@example.org"
        # Renewing one's own claim is fine.
        assert client.post(f"{API}/{job_id}/claim", headers={"x-csrf-token": csrf_a}).status_code == 200

        with app.state.database.session_scope() as session:
            claim = session.get(ReviewClaim, job_id)
            claim.expires_at = utcnow() - timedelta(seconds=1)
        taken = second.post(f"{API}/{job_id}/claim", headers={"x-csrf-token": csrf_b})
        assert taken.status_code == 200
        assert taken.json()["claimed_by"] == "ben@example.org"


def test_page_image_is_rendered_from_the_stored_upload(client, team, headers, pending_job):
    job_id = pending_job(team, with_file=True)

    image = client.get(f"{API}/{job_id}/pages/1.png", headers=headers)

    assert image.status_code == 200, image.text
    assert image.headers["content-type"] == "image/png"
    assert image.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert client.get(f"{API}/{job_id}/pages/2.png", headers=headers).status_code == 404


def test_loinc_search_finds_codes_by_name_and_code(client, headers):
    by_name = client.get(f"{API}/loinc/search", params={"q": "hemoglobin"}, headers=headers)
    by_code = client.get(f"{API}/loinc/search", params={"q": "2345-7"}, headers=headers)

    assert by_name.status_code == 200
    assert "718-7" in [m["loinc_code"] for m in by_name.json()["matches"]]
    assert [m["loinc_code"] for m in by_code.json()["matches"]] == ["2345-7"]


def test_releasing_a_claim_frees_the_job_for_others(app, client, team, pending_job, add_reviewer):
    job_id = pending_job(team)
    _, password_a = add_reviewer(team, "ana@example.org")
    _, password_b = add_reviewer(team, "ben@example.org")
    with TestClient(app) as second:
        csrf_a = login(client, "ana@example.org", password_a)
        csrf_b = login(second, "ben@example.org", password_b)
        assert client.post(f"{API}/{job_id}/claim", headers={"x-csrf-token": csrf_a}).status_code == 200
        # Someone else's release does not drop the claim.
        assert second.delete(f"{API}/{job_id}/claim", headers={"x-csrf-token": csrf_b}).status_code == 204
        assert second.post(f"{API}/{job_id}/claim", headers={"x-csrf-token": csrf_b}).status_code == 409

        assert client.delete(f"{API}/{job_id}/claim", headers={"x-csrf-token": csrf_a}).status_code == 204
        assert second.post(f"{API}/{job_id}/claim", headers={"x-csrf-token": csrf_b}).status_code == 200


def test_deleting_a_job_drops_the_values_from_its_audit_trail(app, client, team, headers, pending_job):
    from service.review_tables import ReviewAudit

    job_id = pending_job(team)
    client.patch(f"{API}/{job_id}/results/1", json={"value": "13.5"}, headers=headers)

    deleted = client.delete(f"/lab_report/v1/parser/job/{job_id}", headers=headers)

    assert deleted.status_code == 200, deleted.text
    with app.state.database.session_scope() as session:
        entries = session.scalars(select(ReviewAudit).where(ReviewAudit.job_id == job_id)).all()
        assert entries and all(e.before_json is None and e.after_json is None for e in entries)
        assert {e.field for e in entries} >= {"value"}  # who changed what is kept
        assert session.get(ReviewClaim, job_id) is None
    assert client.get(f"{API}/{job_id}/history", headers=headers).status_code == 404
