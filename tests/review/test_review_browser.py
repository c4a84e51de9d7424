"""A reviewer works a real report in Debian's chromium, with the keyboard only.

Starts the real server (uvicorn in a thread, temp LABREPORT_HOME, loopback webhooks
allowed), uploads a real report with needs_human_review=true, then in the browser:
log in with the one-time password and replace it, pick the job from the queue by its file
name, see that opening it claims nothing, fix a value (the edit claims the job), a flag, the
report's date of birth and a LOINC code, release and re-take the claim, and complete through
the guard that asks once about fields still marked. Checks the stored result, the audit trail
(corrections and confirmations) and the signed `updated` webhook.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from service.app import create_app
from service.review_auth import create_reviewer
from service.settings import Settings
from service.teams import create_team

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPORT = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "cbc_normal_drlogy.pdf"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
OWN_PASSWORD = "rita-chose-this-one"
NEW_DOB = "1971-04-09"
FIELDS = ["test_name", "value", "units", "reference_range", "source_flag", "interpretation", "loinc_code"]


class Receiver:
    """Loopback webhook endpoint recording (headers, body) of every delivery."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[dict[str, str], bytes]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver.lock:
                    receiver.deliveries.append((dict(self.headers.items()), body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, predicate, timeout: float = 30.0) -> tuple[dict[str, str], bytes]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for headers, body in self.deliveries:
                    if predicate(json.loads(body)):
                        return headers, body
            time.sleep(0.1)
        raise AssertionError("the expected webhook never arrived")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, object]]:
    import uvicorn

    settings = Settings(
        home=tmp_path / "home", executor="thread", workers=1, allow_private_webhooks=True,
        poll_interval_seconds=0.1, webhook_retry_schedule=[0.5, 0.5],
    )
    app = create_app(settings)
    port = _free_port()
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        uv.should_exit = True
        thread.join(timeout=30)


def _pending_job(base: str, api_key: str) -> tuple[str, dict]:
    headers = {"x-service-api-key": api_key}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as http:
        user = http.post("/v2/user", json={"client_user_id": "browser-test"}).json()["user_id"]
        created = http.post(
            "/lab_report/v1/parser/job",
            data={"user_id": user, "needs_human_review": "true"},
            files={"file": (REPORT.name, REPORT.read_bytes(), "application/pdf")},
        )
        assert created.status_code == 200, created.text
        job_id = created.json()["id"]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            job = http.get(f"/lab_report/v1/parser/job/{job_id}").json()
            if job["status"] in ("pending_review", "completed", "failed"):
                break
            time.sleep(0.2)
    assert job["status"] == "pending_review", job
    return job_id, job


def _claimed_by(base: str, api_key: str) -> str | None:
    """Who holds the only job's claim, as another reviewer's queue shows it."""
    with httpx.Client(base_url=base, headers={"x-service-api-key": api_key}, timeout=30) as http:
        return http.get("/lab_report/v1/review/queue").json()[0]["claimed_by"]


def _wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.1)


def _cursor(page) -> tuple[int, int]:
    row, col = page.evaluate(
        """() => {
            const tr = document.querySelector('#results tbody tr.selected');
            const td = document.querySelector('#results td.cursor');
            return [Number(tr.dataset.index), %s.indexOf(td.dataset.field)];
        }"""
        % json.dumps(FIELDS)
    )
    return row, col


def _move_to(page, row: int, field: str) -> None:
    """Walk the cursor with j/k and h/l only, as a person at the keyboard would."""
    current_row, current_col = _cursor(page)
    target_col = FIELDS.index(field)
    for _ in range(abs(row - current_row)):
        page.keyboard.press("j" if row > current_row else "k")
    for _ in range(abs(target_col - current_col)):
        page.keyboard.press("l" if target_col > current_col else "h")
    assert _cursor(page) == (row, target_col)


def test_reviewer_fixes_a_value_and_a_loinc_code_with_the_keyboard(server):
    from playwright.sync_api import expect, sync_playwright
    from standardwebhooks import Webhook

    from loinc.matcher import get_matcher

    assert Path(CHROMIUM).exists(), "Debian's chromium is needed: bash scripts/setup.sh --dev installs it"
    base, app = server
    receiver = Receiver()
    with app.state.database.session_scope() as session:
        team = create_team(session, "browser-team", webhook_url=receiver.url, settings=app.state.settings)
        _, password = create_reviewer(session, str(team.team_id), "rita@example.org")
    job_id, job = _pending_job(base, team.api_key)
    rows = job["data"]["results"]
    assert len(rows) >= 2
    value_row, loinc_row = 0, 1
    new_value = "12.5" if rows[value_row]["value"] != "12.5" else "12.6"
    current_code = (rows[loinc_row]["loinc_matches"] or [{}])[0].get("loinc_code")
    new_code = next(c for c in ("30313-1", "718-7") if c != current_code and get_matcher().lookup(c))

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.set_default_timeout(15_000)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))

            # Log in: the e-mail field has the focus; Tab to the password, Enter submits.
            page.goto(f"{base}/review/login")
            expect(page.locator('input[name="email"]')).to_be_focused()
            page.keyboard.type("rita@example.org")
            page.keyboard.press("Tab")
            page.keyboard.type(password)
            page.keyboard.press("Enter")

            # The one-time password is replaced first.
            page.wait_for_url(f"{base}/review/password")
            expect(page.locator('input[name="current_password"]')).to_be_focused()
            page.keyboard.type(password)
            for _ in range(2):
                page.keyboard.press("Tab")
                page.keyboard.type(OWN_PASSWORD)
            page.keyboard.press("Enter")
            page.wait_for_url(f"{base}/review/queue")

            # The queue names the file; the only job is selected; Enter opens it.
            expect(page.locator("#queue tbody tr.selected")).to_contain_text(REPORT.name)
            page.keyboard.press("Enter")
            page.wait_for_url(f"{base}/review/jobs/{job_id}")
            # Looking claims nothing: another reviewer still sees the job free.
            expect(page.locator("#claim-status")).to_contain_text("Not claimed")
            assert _claimed_by(base, team.api_key) is None

            # The page image is shown with the selected row's box over it.
            _move_to(page, value_row, "value")
            page.wait_for_function("document.getElementById('page-image').naturalWidth > 0")
            expect(page.locator("#highlight")).to_be_visible()
            box = page.locator("#highlight").bounding_box()
            assert box and box["width"] > 10 and box["height"] > 2

            # Fix a value: Enter edits, type, Enter saves.
            page.keyboard.press("Enter")
            editor = page.locator("#results input.cell-editor")
            expect(editor).to_be_focused()
            page.keyboard.type(new_value)  # the old text is selected, typing replaces it
            page.keyboard.press("Enter")
            expect(page.locator("#message")).to_contain_text(f"Saved row {value_row + 1}")
            value_cell = page.locator(f'#results tr[data-index="{value_row}"] td[data-field="value"]')
            expect(value_cell).to_have_text(new_value)
            # The first change claimed the job.
            expect(page.locator("#claim-status")).to_contain_text("Claimed by you")
            assert _claimed_by(base, team.api_key) == "rita@example.org"

            # A range is typed as "low - high" (a thousands separator stays one).
            _move_to(page, value_row, "reference_range")
            page.keyboard.press("Enter")
            page.keyboard.type("1,000 - 2,500")
            page.keyboard.press("Enter")
            range_cell = page.locator(f'#results tr[data-index="{value_row}"] td[data-field="reference_range"]')
            expect(range_cell).to_have_text("1000 - 2500")
            _move_to(page, value_row, "value")

            # Escape cancels an edit without saving.
            page.keyboard.press("Enter")
            page.keyboard.type("999")
            page.keyboard.press("Escape")
            expect(value_cell).to_have_text(new_value)

            # A printed "H" next to a value below its range: the row says which to believe.
            _move_to(page, value_row, "source_flag")
            page.keyboard.press("Enter")
            page.keyboard.type("H")
            page.keyboard.press("Enter")
            notes_cell = page.locator(f'#results tr[data-index="{value_row}"] td.notes')
            expect(notes_cell).to_contain_text(f"printed flag 'H' but {new_value} is below the range 1000-2500")
            expect(notes_cell).to_contain_text("check the value and the flag")

            # Report details: m jumps to them, Tab to the date of birth, Enter saves, Esc goes back.
            page.keyboard.press("m")
            expect(page.locator('#metadata input[name="patient_first_name"]')).to_be_focused()
            page.keyboard.press("Tab")
            page.keyboard.press("Tab")
            expect(page.locator('#metadata input[name="dob"]')).to_be_focused()
            page.keyboard.press("Control+a")
            page.keyboard.type(NEW_DOB)
            page.keyboard.press("Enter")
            expect(page.locator("#message")).to_contain_text("Saved report details (dob)")
            page.keyboard.press("Escape")
            _move_to(page, value_row, "value")

            # Esc releases the claim; the next change takes it again.
            page.keyboard.press("Escape")
            expect(page.locator("#claim-status")).to_contain_text("Released")
            assert _claimed_by(base, team.api_key) is None

            # Fix a LOINC code: Enter on the LOINC cell opens the search, type the code, Enter.
            _move_to(page, loinc_row, "loinc_code")
            page.keyboard.press("Enter")
            expect(page.locator("#loinc-query")).to_be_focused()
            page.keyboard.press("Control+a")
            page.keyboard.type(new_code)
            expect(page.locator("#loinc-results li.active")).to_have_attribute("data-code", new_code)
            page.keyboard.press("Enter")
            loinc_cell = page.locator(f'#results tr[data-index="{loinc_row}"] td[data-field="loinc_code"]')
            expect(loinc_cell).to_contain_text(new_code)
            expect(loinc_cell).not_to_have_class("uncertain")

            # Add a missed row (a, type, Tab between fields, Enter), then delete it again (x x).
            page.keyboard.press("a")
            page.keyboard.type("Reticulocytes")
            page.keyboard.press("Tab")
            page.keyboard.type("1.1")
            page.keyboard.press("Tab")
            page.keyboard.type("%")
            page.keyboard.press("Enter")
            added = page.locator(f'#results tr[data-index="{len(rows)}"]')
            expect(added).to_contain_text("Reticulocytes")
            expect(added).to_have_class("selected")  # the cursor lands on the new row
            page.keyboard.press("x")
            expect(page.locator("#message")).to_contain_text("Press x again")
            page.keyboard.press("x")
            expect(page.locator("#results tbody tr")).to_have_count(len(rows))
            expect(page.locator("#results")).not_to_contain_text("Reticulocytes")

            expect(page.locator("#claim-status")).to_contain_text("Claimed by you")

            # Leaving the page releases the claim too; coming back claims nothing until a change.
            page.goto(f"{base}/review/queue")
            _wait_until(lambda: _claimed_by(base, team.api_key) is None)
            page.goto(f"{base}/review/jobs/{job_id}")
            expect(page.locator("#claim-status")).to_contain_text("Not claimed")

            # n jumps to a field still to check (the contradicting flag at least).
            page.keyboard.press("n")
            expect(page.locator("#results td.cursor")).to_have_class("uncertain cursor")

            # Ctrl+Enter with fields still marked asks once; a second Ctrl+Enter confirms them.
            marked = page.evaluate("() => document.querySelectorAll('#results td.uncertain').length")
            page.keyboard.press("Control+Enter")
            expect(page.locator("#message")).to_contain_text(f"{marked} field")
            expect(page.locator("#message")).to_contain_text("still marked uncertain")
            expect(page.locator("#complete")).to_contain_text("Confirm")
            assert page.url == f"{base}/review/jobs/{job_id}"
            page.keyboard.press("Control+Enter")
            page.wait_for_url(f"{base}/review/queue")
            expect(page.locator(".empty")).to_contain_text("Nothing to review")
            assert errors == []
        finally:
            browser.close()

    headers = {"x-service-api-key": team.api_key}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as http:
        stored = http.get(f"/lab_report/v1/parser/job/{job_id}").json()
        history = http.get(f"/lab_report/v1/review/{job_id}/history").json()
    assert stored["status"] == "completed" and stored["is_reviewed"] is True
    results = stored["data"]["results"]
    assert results[value_row]["value"] == new_value
    assert (results[value_row]["min_reference_range"], results[value_row]["max_reference_range"]) == (1000, 2500)
    assert results[loinc_row]["loinc_matches"][0]["loinc_code"] == new_code
    assert results[loinc_row]["loinc_match_status"] == "auto_match"

    edits = {(h["field"], h["result_index"]): h for h in history if h["action"] == "update"}
    value_edit = edits[("value", value_row)]
    assert (value_edit["before"], value_edit["after"]) == (rows[value_row]["value"], new_value)
    assert value_edit["who_label"] == "rita@example.org"
    assert edits[("loinc_code", loinc_row)]["after"]["loinc_code"] == new_code
    assert history[-1]["action"] == "complete"
    assert [h["action"] for h in history if h["action"] in ("add", "delete")] == ["add", "delete"]
    assert not any(h["after"] == "999" for h in history)
    assert stored["data"]["metadata"]["dob"] == NEW_DOB
    dob_edit = next(h for h in history if h["field"] == "metadata.dob")
    assert (dob_edit["after"], dob_edit["who_label"]) == (NEW_DOB, "rita@example.org")
    confirmed = [(h["result_index"], h["field"]) for h in history if h["action"] == "confirm"]
    assert len(confirmed) == marked and (value_row, "source_flag") in confirmed

    hook_headers, body = receiver.wait_for(
        lambda event: event["event_type"] == "lab_report.parsing_job.updated"
        and event["data"]["status"] == "completed"
    )
    event = Webhook(team.webhook_secret).verify(body, hook_headers)
    assert event["data"]["is_reviewed"] is True
    assert event["data"]["data"]["results"][value_row]["value"] == new_value


def test_api_docs_render_without_internet(server):
    """/docs draws the API from assets the service serves itself: every other host is cut off."""
    from playwright.sync_api import expect, sync_playwright

    base, _app = server
    foreign: list[str] = []

    def only_local(route) -> None:
        if route.request.url.startswith(base):
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.route("**/*", only_local)
            page.goto(f"{base}/docs")
            expect(page.locator(".opblock").first).to_be_visible(timeout=20_000)
            expect(page.locator(".opblock-summary-path", has_text="/lab_report/v1/parser/job").first).to_be_visible()
        finally:
            browser.close()
    assert foreign == []
