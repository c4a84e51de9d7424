"""End to end through real processes: `labreport serve`, a loopback webhook receiver, a real report.

Includes the crash test: SIGKILL the server in the middle of a run of jobs, restart it, and
every job still reaches a terminal status with every webhook delivered at least once.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import httpx
import pytest
from standardwebhooks import Webhook

from tests.service.helpers import REAL_REPORTS
from tests.service.server import CLI, REPO, Server, cli_json, service_env, wait_all_terminal

pytestmark = pytest.mark.slow


def _setup_team(env, receiver_url: str) -> dict:
    team = cli_json(["team", "create", "e2e", "--webhook-url", receiver_url], env)
    assert set(team) == {"team_id", "api_key", "webhook_secret"}
    return team


# Scanned reports take seconds each to OCR, so a kill lands while most jobs are unfinished.
SCANNED = [REPO / "fixtures" / "synthetic" / layout / f"{layout}_0_scan.pdf"
           for layout in ("us_reference", "eu_si", "indian_style")]


def _upload(client: httpx.Client, user_id: str, name: str | Path) -> dict:
    content = (REAL_REPORTS / name).read_bytes()  # an absolute path stays as it is
    name = Path(name).name
    response = client.post(
        "/lab_report/v1/parser/job",
        files={"file": (name, content, "application/pdf")},
        data={"user_id": user_id},
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_serve_upload_complete_and_signed_webhooks(tmp_path, receiver):
    env = service_env(tmp_path / "home")
    team = _setup_team(env, receiver.url)
    server = Server(env, tmp_path / "server.log").start()
    try:
        client = httpx.Client(base_url=server.base_url, headers={"x-service-api-key": team["api_key"]}, timeout=30)
        user = client.post("/v2/user", json={"client_user_id": "e2e-user"}).json()
        job = _upload(client, user["user_id"], "cbc_normal_drlogy.pdf")
        done = wait_all_terminal(client, [job["id"]], timeout=120)[job["id"]]
        assert done["status"] in ("completed", "pending_review"), done
        assert any("hemoglobin" in r["test_name"].lower() for r in done["data"]["results"])

        bodies = receiver.wait_for(
            lambda got: any(b["data"]["status"] == done["status"] for b in got), timeout=30
        )
        verifier = Webhook(team["webhook_secret"])
        for request in receiver.requests:
            envelope = verifier.verify(request["body"], request["headers"])
            assert envelope["team_id"] == team["team_id"]
            assert envelope["client_user_id"] == "e2e-user"
        statuses = [b["data"]["status"] for b in bodies]
        assert bodies[0]["event_type"] == "lab_report.parsing_job.created"
        assert statuses[0] == "upload_pending"
        assert "started" in statuses and statuses[-1] == done["status"]
        assert all(b["event_type"] == "lab_report.parsing_job.updated" for b in bodies[1:])
        # The final webhook carries the same data as GET.
        assert bodies[-1]["data"]["data"] == done["data"]

        # set-webhook rotates the secret; later events are signed with the new one.
        rotated = cli_json(["team", "set-webhook", team["team_id"], receiver.url], env)
        assert rotated["webhook_secret"].startswith("whsec_") and rotated["webhook_secret"] != team["webhook_secret"]
    finally:
        server.stop()


def test_team_create_refuses_a_private_webhook_url_by_default(tmp_path):
    env = service_env(tmp_path / "home", LABREPORT_ALLOW_PRIVATE_WEBHOOKS="0")
    done = subprocess.run(
        CLI + ["team", "create", "x", "--webhook-url", "http://127.0.0.1:9/h"],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode != 0
    assert "private or loopback" in done.stderr


def test_sigkill_mid_run_loses_no_job_and_no_webhook(tmp_path, receiver):
    env = service_env(tmp_path / "home", LABREPORT_WORKERS="2")
    team = _setup_team(env, receiver.url)
    server = Server(env, tmp_path / "server.log").start()
    client = httpx.Client(base_url=server.base_url, headers={"x-service-api-key": team["api_key"]}, timeout=30)
    user = client.post("/v2/user", json={"client_user_id": "crash-user"}).json()
    job_ids = [_upload(client, user["user_id"], SCANNED[i % 3])["id"] for i in range(8)]

    # Kill once some work is done but much is still queued or running.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        statuses = [client.get(f"/lab_report/v1/parser/job/{j}").json()["status"] for j in job_ids]
        if any(s in ("completed", "pending_review", "failed") for s in statuses):
            break
        time.sleep(0.1)
    server.kill()
    unfinished = [s for s in statuses if s in ("upload_pending", "started")]
    assert unfinished, "the kill came too late to test recovery"

    restarted = Server(env, tmp_path / "server2.log")
    restarted.port, restarted.base_url = server.port, server.base_url
    restarted.start()
    try:
        jobs = wait_all_terminal(client, job_ids, timeout=240)
        assert all(job["status"] in ("completed", "pending_review") for job in jobs.values()), [
            (job["status"], job["failure_reason"]) for job in jobs.values()
        ]

        def every_job_reported(bodies: list[dict]) -> bool:
            seen = {(b["data"]["id"], b["event_type"], b["data"]["status"]) for b in bodies}
            return all(
                (j, "lab_report.parsing_job.created", "upload_pending") in seen
                and (j, "lab_report.parsing_job.updated", jobs[j]["status"]) in seen
                for j in job_ids
            )

        receiver.wait_for(every_job_reported, timeout=60)
    finally:
        restarted.stop()
