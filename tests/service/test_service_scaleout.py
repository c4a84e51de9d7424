"""Scale-out mode against real servers: PostgreSQL for state and uploads, Redis + `labreport worker`.

The servers come from `tests/service/scaleout.py`: LABREPORT_TEST_DATABASE_URL /
LABREPORT_TEST_REDIS_URL, or throwaway ones started by scripts/services.sh (skipped saying
why when impossible; a failure when LABREPORT_REQUIRE_SCALEOUT=1).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import httpx
import psycopg
import pytest
from standardwebhooks import Webhook

from service.schemas import EVENT_JOB_CREATED

from tests.service.helpers import REAL_REPORTS, Receiver, pdf_bytes
from tests.service.scaleout import _psycopg_url
from tests.service.server import CLI, REPO, Server, cli_json, service_env, wait_all_terminal

pytestmark = [pytest.mark.scaleout, pytest.mark.slow]


class Worker:
    """`labreport worker` with a home folder of its own (it shares no disk with the API)."""

    def __init__(self, env: dict[str, str], home: Path, log_path: Path):
        self.home = home
        self.log_path = log_path
        self._log = open(log_path, "ab")  # noqa: SIM115 (kept open for the child's lifetime)
        self.process = subprocess.Popen(
            CLI + ["worker", "--concurrency", "1", "--log-level", "info"],
            env={**env, "LABREPORT_HOME": str(home)}, cwd=REPO,
            stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True,
        )

    def pause(self) -> None:
        os.killpg(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.killpg(self.process.pid, signal.SIGCONT)

    def stop(self) -> None:
        self.resume()
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._log.close()


def _upload(client: httpx.Client, user_id: str, number: int) -> str:
    # A distinct small digital PDF per upload (pdf_bytes varies the page text by page count).
    data = pdf_bytes(pages=1 + number % 3)
    response = client.post(
        "/lab_report/v1/parser/job",
        files={"file": (f"report-{number}.pdf", data, "application/pdf")},
        data={"user_id": user_id},
    )
    assert response.status_code == 200, response.text
    return response.json()["id"]


def wait_handed_over(database_url: str, job_ids: list[str], timeout: float = 30) -> None:
    """Wait until the outbox has handed every one of the jobs to the broker."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(_psycopg_url(database_url), autocommit=True) as connection:
        while time.monotonic() < deadline:
            pending = connection.execute(
                "SELECT count(*) FROM jobs WHERE dispatch_count = 0 AND id = ANY(%s)", (job_ids,)
            ).fetchone()[0]
            if pending == 0:
                return
            time.sleep(0.1)
    raise AssertionError(f"{pending} job(s) never handed to the broker")


def _terminal_events(receiver: Receiver, job_ids: list[str]) -> list[dict]:
    return receiver.wait_for(
        lambda got: {b["data"]["id"] for b in got if b["data"]["status"] in ("completed", "pending_review", "failed")}
        >= set(job_ids),
        timeout=60,
    )


def test_two_workers_without_shared_disk_survive_a_broker_outage(tmp_path, receiver, database_url, own_redis):
    """100 uploads; mid-run Redis is stopped with 30 jobs queued in it (lost) while uploads go
    on, and restarted empty; every job ends, every event is delivered once; the uploads live
    in PostgreSQL, not on any disk."""
    env = service_env(
        tmp_path / "api-home",
        DATABASE_URL=database_url,
        LABREPORT_BROKER_URL=own_redis.url,
        LABREPORT_DISPATCH_RETRY_SECONDS="0.5",
        # The restarted Redis is empty: jobs it had taken are handed over again after this.
        LABREPORT_DISPATCH_RECHECK_SECONDS="8",
    )
    team = cli_json(["team", "create", "scale", "--webhook-url", receiver.url], env)
    workers = [Worker(env, tmp_path / f"worker-{n}-home", tmp_path / f"worker-{n}.log") for n in (1, 2)]
    server = Server(env, tmp_path / "server.log")
    started = time.monotonic()
    try:
        server.start()
        client = httpx.Client(base_url=server.base_url, headers={"x-service-api-key": team["api_key"]}, timeout=30)
        user_id = client.post("/v2/user", json={"client_user_id": "scale-user"}).json()["user_id"]

        job_ids = [_upload(client, user_id, n) for n in range(10)]
        wait_all_terminal(client, job_ids, timeout=90)  # the workers are up and running
        for worker in workers:
            worker.pause()
        queued = [_upload(client, user_id, n) for n in range(10, 40)]  # handed to Redis, waiting there
        job_ids += queued
        wait_handed_over(database_url, queued)
        own_redis.stop()  # the broker goes away mid-run, losing its queue...
        outage_started = time.monotonic()
        for worker in workers:
            worker.resume()
        job_ids += [_upload(client, user_id, n) for n in range(40, 70)]  # ...uploads still succeed
        time.sleep(max(0.0, 3 - (time.monotonic() - outage_started)))
        own_redis.start()  # back, empty
        job_ids += [_upload(client, user_id, n) for n in range(70, 100)]

        jobs = wait_all_terminal(client, job_ids, timeout=150)
        statuses = Counter(job["status"] for job in jobs.values())
        assert sum(statuses.values()) == 100
        assert statuses["failed"] == 0, [j["failure_reason"] for j in jobs.values() if j["status"] == "failed"]

        bodies = _terminal_events(receiver, job_ids)
        elapsed = time.monotonic() - started
        # Once per event id: every message was answered 200 exactly once.
        assert receiver.seen and set(receiver.seen.values()) == {1}
        events = Counter((b["data"]["id"], b["event_type"]) for b in bodies)
        assert all(events[(job_id, EVENT_JOB_CREATED)] == 1 for job_id in job_ids), events
        verifier = Webhook(team["webhook_secret"])
        for request in receiver.requests[:5]:
            verifier.verify(request["body"], request["headers"])

        with psycopg.connect(_psycopg_url(database_url)) as connection:
            blobs = connection.execute("SELECT count(*) FROM blobs").fetchone()[0]
            outbox = dict(connection.execute("SELECT status, count(*) FROM webhook_deliveries GROUP BY status").fetchall())
            handed_again = connection.execute(
                "SELECT count(*) FROM jobs WHERE dispatch_count > 1 AND id = ANY(%s)", (queued,)
            ).fetchone()[0]
        assert handed_again >= 25, handed_again  # the lost ones came back from the outbox
        assert blobs == 100  # the uploads live in PostgreSQL...
        assert outbox == {"delivered": len(receiver.seen)}
        for home in [tmp_path / "api-home"] + [w.home for w in workers]:  # ...and on no disk
            leftovers = [p for p in home.rglob("*") if p.is_file() and p.suffix in (".pdf", ".png", ".jpg")]
            leftovers += [p for p in home.rglob("*") if p.is_file() and p.parent.name == "incoming"]
            assert leftovers == [], leftovers
        for worker in workers:  # both workers ran jobs
            assert any(job_id in worker.log_path.read_text() for job_id in job_ids), worker.log_path.read_text()[-2000:]
        print(f"\nscale-out: 100 jobs {dict(statuses)}, {len(receiver.seen)} events delivered once each, "
              f"{handed_again}/30 lost jobs handed over again, {elapsed:.1f} s with a 3 s broker outage")
    finally:
        server.stop()
        for worker in workers:
            worker.stop()


def test_postgres_and_celery_workers_run_real_reports(tmp_path, receiver, database_url, redis_url):
    env = service_env(tmp_path / "home", DATABASE_URL=database_url, LABREPORT_BROKER_URL=redis_url)
    team = cli_json(["team", "create", "scale", "--webhook-url", receiver.url], env)
    worker = Worker(env, tmp_path / "worker-home", tmp_path / "worker.log")
    server = Server(env, tmp_path / "server.log")
    try:
        server.start()
        client = httpx.Client(base_url=server.base_url, headers={"x-service-api-key": team["api_key"]}, timeout=30)
        user = client.post("/v2/user", json={"client_user_id": "scale-user"}).json()
        job_ids = []
        for name in ("cbc_normal_drlogy.pdf", "lipid_normal_drlogy.pdf", "kft_normal_drlogy.pdf"):
            response = client.post(
                "/lab_report/v1/parser/job",
                files={"file": (name, (REAL_REPORTS / name).read_bytes(), "application/pdf")},
                data={"user_id": user["user_id"]},
            )
            assert response.status_code == 200, response.text
            job_ids.append(response.json()["id"])
        jobs = wait_all_terminal(client, job_ids, timeout=180)
        assert all(job["status"] in ("completed", "pending_review") for job in jobs.values()), jobs
        assert all(job["data"]["results"] for job in jobs.values())
        _terminal_events(receiver, job_ids)
        # The jobs really ran on the Celery worker, not in the API process.
        assert all(job_id in worker.log_path.read_text() for job_id in job_ids)
        # The review page's image comes from the upload kept in PostgreSQL.
        page = client.get(f"/lab_report/v1/review/{job_ids[0]}/pages/1.png")
        assert page.status_code == 200 and page.content.startswith(b"\x89PNG")
    finally:
        server.stop()
        worker.stop()


def test_a_job_uploaded_while_the_broker_is_down_runs_when_it_is_back(tmp_path, receiver, database_url, own_redis):
    """No API restart needed: the outbox retries until the broker takes the job."""
    own_redis.stop()
    env = service_env(tmp_path / "home", DATABASE_URL=database_url, LABREPORT_BROKER_URL=own_redis.url,
                      LABREPORT_DISPATCH_RETRY_SECONDS="0.5")
    team = cli_json(["team", "create", "down", "--webhook-url", receiver.url], env)
    server = Server(env, tmp_path / "server.log")
    worker = None
    try:
        server.start()  # the API starts while the broker is down
        client = httpx.Client(base_url=server.base_url, headers={"x-service-api-key": team["api_key"]}, timeout=30)
        user_id = client.post("/v2/user", json={"client_user_id": "u"}).json()["user_id"]
        job_id = _upload(client, user_id, 0)
        time.sleep(1.5)
        assert client.get(f"/lab_report/v1/parser/job/{job_id}").json()["status"] == "upload_pending"
        health = client.get("/healthz")  # still taking uploads, and saying why jobs wait
        assert health.status_code == 200 and health.json()["broker"] == "refusing jobs"
        own_redis.start()
        worker = Worker(env, tmp_path / "worker-home", tmp_path / "worker.log")
        job = wait_all_terminal(client, [job_id], timeout=90)[job_id]
        assert job["status"] in ("completed", "pending_review")
        assert client.get("/healthz").json() == {"status": "ok", "database": "ok", "broker": "ok"}
        assert "refuses jobs" in (tmp_path / "server.log").read_text()
    finally:
        server.stop()
        if worker is not None:
            worker.stop()
