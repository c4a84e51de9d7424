"""Run `labreport serve` / `labreport worker` / `labreport team ...` as real subprocesses for tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "cli.main"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def service_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LABREPORT_") and k != "DATABASE_URL"}
    env.update(
        LABREPORT_HOME=str(home),
        LABREPORT_ALLOW_PRIVATE_WEBHOOKS="1",
        LABREPORT_WEBHOOK_RETRY_SCHEDULE="[0.5, 1, 1, 2, 2, 5, 5]",
        LABREPORT_POLL_INTERVAL_SECONDS="0.2",
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    )
    env.update(extra)
    return env


def cli_json(args: list[str], env: dict[str, str]) -> dict:
    if args[0] in ("team", "reviewer"):  # admin commands print a table unless told --json
        args = [*args, "--json"]
    done = subprocess.run(CLI + args, env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


class Server:
    """`labreport serve` in its own process group (so a SIGKILL takes its workers too)."""

    def __init__(self, env: dict[str, str], log_path: Path):
        self.env = env
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> Server:
        log = open(self.log_path, "ab")  # noqa: SIM115 (kept open for the child's lifetime)
        self.process = subprocess.Popen(
            CLI + ["serve", "--host", "127.0.0.1", "--port", str(self.port)],
            env=self.env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(self.base_url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("server did not start in time")

    def kill(self) -> None:
        """SIGKILL the server and everything it started, like a machine losing power."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def wait_all_terminal(client: httpx.Client, job_ids: list[str], timeout: float) -> dict[str, dict]:
    deadline = time.monotonic() + timeout
    jobs: dict[str, dict] = {}
    while time.monotonic() < deadline:
        for job_id in job_ids:
            if job_id not in jobs:
                job = client.get(f"/lab_report/v1/parser/job/{job_id}").json()
                if job["status"] in ("completed", "failed", "pending_review"):
                    jobs[job_id] = job
        if len(jobs) == len(job_ids):
            return jobs
        time.sleep(0.2)
    missing = sorted(set(job_ids) - set(jobs))
    raise AssertionError(f"{len(missing)} job(s) never finished: {missing[:3]}")
