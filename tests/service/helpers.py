"""Helpers of the service tests: paths, the webhook receiver, upload and wait helpers, test files."""

from __future__ import annotations

import io
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from fastapi.testclient import TestClient
from PIL import Image, ImageDraw
from reportlab.pdfgen import canvas

from service.jobs import create_job
from service.schemas import TeamCredentials
from service.tables import Job, Team, User
from service.settings import Settings
from service.teams import create_team

REPO = Path(__file__).resolve().parents[2]
REAL_REPORTS = REPO / "fixtures" / "real"
DIGITAL_REPORT = REAL_REPORTS / "cbc_normal_drlogy.pdf"
TERMINAL = {"completed", "failed", "pending_review"}


@dataclass
class Receiver:
    """A loopback webhook endpoint that records every request it gets."""

    url: str
    requests: list[dict] = field(default_factory=list)
    # Each message (webhook-id) is answered with 500 this many times before a 200.
    failures_per_message: int = 0
    # Seconds to wait before answering each request.
    delay: float = 0.0
    seen: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def bodies(self) -> list[dict]:
        with self.lock:
            return [json.loads(item["body"]) for item in self.requests]

    def wait_for(self, predicate: Callable[[list[dict]], bool], timeout: float = 30) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            bodies = self.bodies()
            if predicate(bodies):
                return bodies
            time.sleep(0.05)
        raise AssertionError(f"webhooks never matched; got {[b['event_type'] for b in self.bodies()]}")


def make_team(app, settings: Settings, name: str = "team", webhook_url: str | None = None) -> TeamCredentials:
    with app.state.database.session_scope() as session:
        return create_team(session, name, webhook_url=webhook_url, settings=settings)


def new_job(session, team_id) -> Job:
    """A job of a new user of the team, as an upload creates it (the caller sets its status)."""
    team = session.get(Team, str(team_id))
    user = User(team_id=team.id, client_user_id="r")
    session.add(user)
    session.flush()
    return create_job(session, team=team, user=user, needs_human_review=False)


def upload(client: TestClient, headers, user_id: str, files, **fields):
    """POST a job; `files` is a list of (filename, bytes, content type)."""
    data = {"user_id": user_id, **{k: str(v).lower() for k, v in fields.items()}}
    parts = [("file", item) for item in files]
    return client.post("/lab_report/v1/parser/job", files=parts, data=data, headers=headers)


def wait_for_job(client: TestClient, headers, job_id: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/lab_report/v1/parser/job/{job_id}", headers=headers).json()
        if job["status"] in TERMINAL:
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish: {job['status']}")


def png_bytes(size=(400, 300), text: str | None = None) -> bytes:
    image = Image.new("RGB", size, "white")
    if text:
        ImageDraw.Draw(image).text((10, 10), text, fill="black")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def pdf_bytes(pages: int = 1, encrypt: str | None = None) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, encrypt=encrypt)
    for number in range(pages):
        pdf.drawString(72, 720, f"Hemoglobin 14.2 g/dL 13.0-17.0 page {number + 1}")
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()
