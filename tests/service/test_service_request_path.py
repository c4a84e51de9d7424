"""How requests use the API process's worker threads: GET job and uploads must not queue behind
each other's thread trips (the GET job p99 of benchmarks/service.py while 20 clients upload)."""

from __future__ import annotations

import anyio.to_thread
import pytest

from tests.service.helpers import DIGITAL_REPORT, upload


@pytest.fixture
def thread_trips(monkeypatch) -> list:
    """Every call the app hands to a worker thread (FastAPI, Starlette and ours all go through
    anyio.to_thread.run_sync)."""
    trips: list = []
    real = anyio.to_thread.run_sync

    async def counting(function, *args, **kwargs):
        trips.append(function)
        return await real(function, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counting)
    return trips


def test_an_upload_takes_two_thread_trips(client, headers, user_id, thread_trips):
    response = upload(client, headers, user_id, [("r.pdf", DIGITAL_REPORT.read_bytes(), "application/pdf")])
    assert response.status_code == 200, response.text
    # Before the body (key, idempotency) and after it (user, checks, commit): seven trips before.
    assert len(thread_trips) == 2


def test_an_idempotent_upload_takes_two_thread_trips(client, headers, user_id, thread_trips):
    response = upload(client, {**headers, "Idempotency-Key": "k-1"}, user_id,
                      [("r.pdf", DIGITAL_REPORT.read_bytes(), "application/pdf")])
    assert response.status_code == 200, response.text
    assert len(thread_trips) == 2


def test_get_job_on_local_sqlite_takes_no_thread_trip(client, headers, user_id, thread_trips):
    report = [("r.pdf", DIGITAL_REPORT.read_bytes(), "application/pdf")]
    job_id = upload(client, headers, user_id, report).json()["id"]
    thread_trips.clear()
    response = client.get(f"/lab_report/v1/parser/job/{job_id}", headers=headers)
    assert response.status_code == 200 and response.json()["id"] == job_id
    assert thread_trips == []
    # The slow path keeps its answers: wrong key 401, unknown job 404.
    wrong_key = {"x-service-api-key": "lr_x"}
    assert client.get(f"/lab_report/v1/parser/job/{job_id}", headers=wrong_key).status_code == 401
    unknown = "00000000-0000-4000-8000-000000000000"
    assert client.get(f"/lab_report/v1/parser/job/{unknown}", headers=headers).status_code == 404
