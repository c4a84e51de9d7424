"""Signed webhook delivery from the outbox: signatures, retries, exhaustion, URL rules, scrubbing."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from standardwebhooks import Webhook

from service.app import create_app
from service.jobs import create_job, set_status
from service.outbox import envelope_json, job_envelope, scrub_job_payloads
from service.schemas import WebhookEnvelope
from service.settings import DEFAULT_RETRY_SCHEDULE
from service.tables import Job, Team, User, WebhookDelivery
from service.webhooks import (
    WebhookUrlError,
    new_webhook_secret,
    next_attempt_delay,
    sign,
    validate_webhook_url,
)
from tests.service.helpers import make_team


def _job_events(app, team_id: str, user_id: str, statuses: list[str]) -> str:
    """Create a job and move it through `statuses` the way the runner does.

    The first status is set in the creating transaction, so the job dispatcher never
    sees the job pending and the test owns every event.
    """
    with app.state.database.session_scope() as session:
        team = session.get(Team, team_id)
        user = session.get(User, user_id)
        job = create_job(session, team=team, user=user, needs_human_review=False)
        set_status(session, job, statuses[0])
        job_id = job.id
    for status in statuses[1:]:
        with app.state.database.session_scope() as session:
            set_status(session, session.get(Job, job_id), status)
    return job_id


def test_signature_matches_the_standard_webhooks_library():
    secret = new_webhook_secret()
    assert secret.startswith("whsec_")
    body = b'{"event_type":"x"}'
    signature = sign(secret, "msg_1", 1_700_000_000, body)
    moment = datetime.fromtimestamp(1_700_000_000, UTC)
    expected = Webhook(secret).sign("msg_1", moment, body.decode())
    assert signature == expected


def test_events_are_delivered_signed_in_order(client, app, team, user_id, receiver):
    job_id = _job_events(app, str(team.team_id), user_id, ["started", "completed"])
    bodies = receiver.wait_for(lambda got: len(got) >= 3)
    assert [b["event_type"] for b in bodies] == [
        "lab_report.parsing_job.created",
        "lab_report.parsing_job.updated",
        "lab_report.parsing_job.updated",
    ]
    assert [b["data"]["status"] for b in bodies] == ["upload_pending", "started", "completed"]
    verifier = Webhook(team.webhook_secret)
    for request in receiver.requests:
        headers = request["headers"]
        verified = verifier.verify(request["body"], headers)
        assert verified["data"]["id"] == job_id
        assert verified["team_id"] == str(team.team_id)
        assert verified["user_id"] == user_id
        assert verified["client_user_id"] == "patient-ref-1"
        # The svix-* aliases carry the same values.
        for name in ("id", "timestamp", "signature"):
            assert headers[f"svix-{name}"] == headers[f"webhook-{name}"]
    assert len({r["headers"]["webhook-id"] for r in receiver.requests}) == 3


def test_failed_delivery_is_retried_then_delivered(client, app, team, user_id, receiver):
    receiver.failures_per_message = 2
    _job_events(app, str(team.team_id), user_id, ["failed"])
    receiver.wait_for(lambda got: len(got) == 6, timeout=10)
    ids = [r["headers"]["webhook-id"] for r in receiver.requests]
    assert len(set(ids)) == 2 and all(ids.count(i) == 3 for i in ids), "retries keep the webhook-id"
    deliveries = client.get(
        "/lab_report/v1/webhooks/deliveries", headers={"x-service-api-key": team.api_key}
    ).json()
    deadline = time.monotonic() + 5
    while {d["status"] for d in deliveries} != {"delivered"} and time.monotonic() < deadline:
        time.sleep(0.05)
        deliveries = client.get(
            "/lab_report/v1/webhooks/deliveries", headers={"x-service-api-key": team.api_key}
        ).json()
    assert [d["status"] for d in deliveries] == ["delivered", "delivered"]
    assert [d["attempts"] for d in deliveries] == [3, 3]


def test_exhausted_delivery_is_kept_visible_and_can_be_retried(client, app, team, user_id, receiver):
    receiver.failures_per_message = 3  # the first attempt and both retries of the schedule fail
    _job_events(app, str(team.team_id), user_id, ["failed"])
    headers = {"x-service-api-key": team.api_key}
    deadline = time.monotonic() + 10
    exhausted = []
    while len(exhausted) < 2 and time.monotonic() < deadline:
        exhausted = client.get(
            "/lab_report/v1/webhooks/deliveries", params={"status": "exhausted"}, headers=headers
        ).json()
        time.sleep(0.05)
    assert exhausted, "the delivery was never marked exhausted"
    assert exhausted[0]["attempts"] == 3
    assert exhausted[0]["last_status_code"] == 500
    assert len(receiver.requests) == 6

    retried = client.post(f"/lab_report/v1/webhooks/deliveries/{exhausted[0]['id']}/retry", headers=headers)
    assert retried.status_code == 200
    receiver.wait_for(lambda got: len(got) == 7, timeout=10)
    again = client.post(f"/lab_report/v1/webhooks/deliveries/{exhausted[0]['id']}/retry", headers=headers)
    assert again.status_code == 409


def test_deliveries_are_private_to_the_team(client, app, settings, team, user_id, receiver):
    _job_events(app, str(team.team_id), user_id, ["completed"])
    other = make_team(app, settings, "beta")
    listed = client.get(
        "/lab_report/v1/webhooks/deliveries", headers={"x-service-api-key": other.api_key}
    ).json()
    assert listed == []


def test_team_without_webhook_url_gets_no_outbox_rows(client, app, settings):
    silent = make_team(app, settings, "silent")
    headers = {"x-service-api-key": silent.api_key}
    user = client.post("/v2/user", json={"client_user_id": "x"}, headers=headers).json()
    _job_events(app, str(silent.team_id), user["user_id"], ["failed"])
    with app.state.database.session_scope() as session:
        assert session.scalars(
            select(WebhookDelivery).where(WebhookDelivery.team_id == str(silent.team_id))
        ).all() == []


def test_deleting_a_job_scrubs_its_undelivered_payloads(client, app, team, user_id):
    with app.state.database.session_scope() as session:
        team_row = session.get(Team, str(team.team_id))
        team_row.webhook_url = "http://127.0.0.1:9/never"  # nothing listens: stays pending
        user = session.get(User, user_id)
        job = create_job(session, team=team_row, user=user, needs_human_review=False)
        set_status(session, job, "completed", data_json='{"metadata": {"patient_last_name": "Doe"}, "results": []}')
        scrub_job_payloads(session, job)
        rows = session.scalars(select(WebhookDelivery).where(WebhookDelivery.job_id == job.id)).all()
    assert rows
    for row in rows:
        assert json.loads(row.payload)["data"]["data"] is None
        assert "Doe" not in row.payload


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("ftp://example.com/hook", "http:// or https://"),
        ("https:///nohost", "no host"),
        ("https://user:pw@example.com/", "credentials"),
        ("http://127.0.0.1:8000/hook", "private or loopback"),
        ("http://10.1.2.3/hook", "private or loopback"),
        ("http://[::1]/hook", "private or loopback"),
        ("http://169.254.169.254/latest", "private or loopback"),
        ("http://localhost/hook", "private or loopback"),
    ],
)
def test_webhook_url_rules(url, problem):
    with pytest.raises(WebhookUrlError, match=problem.replace("+", r"\+")):
        validate_webhook_url(url, allow_private=False)


def test_private_urls_are_allowed_in_development_mode():
    assert validate_webhook_url("http://127.0.0.1:9/x", allow_private=True)
    assert validate_webhook_url("https://93.184.215.14/hook", allow_private=False)


def test_retry_schedule_of_the_contract():
    delays = [next_attempt_delay(DEFAULT_RETRY_SCHEDULE, n) for n in range(1, 9)]
    assert delays == [5, 300, 1800, 7200, 18000, 36000, 36000, None]


def test_fast_envelope_equals_the_pydantic_envelope(client, app, team, user_id):
    report = '{"metadata":{"patient_first_name":null},"results":[{"test_name":"Glucose","value":"95"}]}'
    with app.state.database.session_scope() as session:
        team_row = session.get(Team, str(team.team_id))
        job = create_job(session, team=team_row, user=session.get(User, user_id), needs_human_review=True)
        set_status(session, job, "pending_review", data_json=report)
        fast = json.loads(envelope_json(session, job, "lab_report.parsing_job.updated"))
        slow = json.loads(job_envelope(session, job, "lab_report.parsing_job.updated").model_dump_json())
    assert fast["data"]["data"]["results"][0]["test_name"] == "Glucose"
    # The stored JSON is spliced as is; validated, both say the same.
    assert WebhookEnvelope.model_validate(fast) == WebhookEnvelope.model_validate(slow)


def test_a_slow_2xx_does_not_count_as_delivered(settings, receiver):
    receiver.delay = 0.6
    slow_app = create_app(settings.model_copy(update={"webhook_timeout_seconds": 0.3}))
    with TestClient(slow_app) as client:
        team = make_team(slow_app, settings, "slow", receiver.url)
        headers = {"x-service-api-key": team.api_key}
        user = client.post("/v2/user", json={"client_user_id": "s"}, headers=headers).json()
        _job_events(slow_app, str(team.team_id), user["user_id"], ["failed"])
        deadline = time.monotonic() + 15
        rows = []
        while time.monotonic() < deadline and not (rows and all(r["status"] == "exhausted" for r in rows)):
            time.sleep(0.1)
            rows = client.get("/lab_report/v1/webhooks/deliveries", headers=headers).json()
    assert rows and all(r["status"] == "exhausted" for r in rows), rows
    assert all(r["attempts"] == 3 for r in rows)
