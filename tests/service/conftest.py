"""Fixtures of the service tests: a real app on a temp LABREPORT_HOME, teams, users, a webhook receiver."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fastapi.testclient import TestClient

from service.schemas import TeamCredentials
from tests.service.helpers import Receiver, make_team


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state: dict = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            length = int(self.headers.get("content-length", 0))
            body = self.rfile.read(length)
            if len(body) < length:
                return  # the sender died mid-request (crash test): nothing was delivered
            rec: Receiver = state["receiver"]
            time.sleep(rec.delay)
            with rec.lock:
                rec.requests.append({"headers": dict(self.headers.items()), "body": body.decode()})
                message_id = self.headers.get("webhook-id", "")
                rec.seen[message_id] = rec.seen.get(message_id, 0) + 1
                code = 500 if rec.seen[message_id] <= rec.failures_per_message else 200
            self.send_response(code)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    rec = Receiver(url=f"http://127.0.0.1:{server.server_address[1]}/hooks")
    state["receiver"] = rec
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield rec
    server.shutdown()
    server.server_close()


@pytest.fixture
def team(client, app, settings, receiver) -> TeamCredentials:
    return make_team(app, settings, "alpha", receiver.url)


@pytest.fixture
def headers(team: TeamCredentials) -> dict[str, str]:
    return {"x-service-api-key": team.api_key}


@pytest.fixture
def user_id(client: TestClient, headers) -> str:
    response = client.post("/v2/user", json={"client_user_id": "patient-ref-1"}, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["user_id"]




# PostgreSQL and Redis of the scale-out tests (given by env vars or started for the session).
from tests.service.scaleout import database_url, own_redis, redis_url, scaleout_servers  # noqa: E402, F401
