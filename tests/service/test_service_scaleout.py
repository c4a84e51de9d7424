"""Scale-out mode against real servers: PostgreSQL for state, Redis + `labreport worker` for jobs.

Skipped when PostgreSQL (127.0.0.1:5432) or Redis (127.0.0.1:6379) is unreachable, unless
LABREPORT_REQUIRE_SCALEOUT=1 (CI), where an unreachable server is a failure.
"""

from __future__ import annotations

import os
import socket
import subprocess
import uuid

import httpx
import psycopg
import pytest
import redis
from standardwebhooks import Webhook

from tests.service.helpers import REAL_REPORTS
from tests.service.server import CLI, REPO, Server, cli_json, service_env, wait_all_terminal

pytestmark = [pytest.mark.scaleout, pytest.mark.slow]

PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test"


def _reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def scaleout_servers():
    missing = [name for name, port in (("PostgreSQL", 5432), ("Redis", 6379)) if not _reachable(port)]
    if missing:
        message = f"{' and '.join(missing)} not reachable on 127.0.0.1"
        if os.environ.get("LABREPORT_REQUIRE_SCALEOUT") == "1":
            pytest.fail(message + " (LABREPORT_REQUIRE_SCALEOUT=1)")
        pytest.skip(message)


@pytest.fixture
def database_url(scaleout_servers):
    """A fresh PostgreSQL database for this test, dropped afterwards."""
    name = f"labreport_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_postgres_and_celery_workers_run_jobs(tmp_path, receiver, database_url):
    queue_db = 1 + uuid.uuid4().int % 15  # a Redis database of its own
    env = service_env(
        tmp_path / "home",
        DATABASE_URL=database_url,
        LABREPORT_BROKER_URL=f"redis://127.0.0.1:6379/{queue_db}",
    )
    team = cli_json(["team", "create", "scale", "--webhook-url", receiver.url], env)
    worker_log = open(tmp_path / "worker.log", "ab")  # noqa: SIM115
    worker = subprocess.Popen(
        CLI + ["worker", "--concurrency", "2", "--log-level", "warning"],
        env=env, cwd=REPO, stdout=worker_log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    server = Server(env, tmp_path / "server.log")
    try:
        server.start()
        client = httpx.Client(
            base_url=server.base_url, headers={"x-service-api-key": team["api_key"]}, timeout=30
        )
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

        bodies = receiver.wait_for(
            lambda got: {(b["data"]["id"], b["data"]["status"]) for b in got}
            >= {(j, jobs[j]["status"]) for j in job_ids},
            timeout=60,
        )
        verifier = Webhook(team["webhook_secret"])
        for request in receiver.requests:
            verifier.verify(request["body"], request["headers"])
        assert {b["data"]["id"] for b in bodies} == set(job_ids)
        # The jobs really ran on the Celery worker, not in the API process.
        assert "celery" in (tmp_path / "server.log").read_text().lower()
    finally:
        server.stop()
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
        worker_log.close()
        redis.Redis(host="127.0.0.1", port=6379, db=queue_db).delete("celery")  # leftover tasks, if any
