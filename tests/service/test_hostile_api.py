"""Issue 11 through the API (in-process app): the hostile corpus, body limits, a client that
hangs up mid-upload, odd file names, and the webhook SSRF filter and address pinning."""

from __future__ import annotations

import logging

import pytest

from service import webhooks
from service.webhooks import WebhookUrlError, validate_webhook_url, webhook_target
from tests.hostile import READ, corpus, text_pdf
from tests.service.helpers import upload as upload_files
from tests.service.helpers import wait_for_job

UPLOAD = "/lab_report/v1/parser/job"
# The whole corpus; the slow read-and-OCR kinds are covered by tests/test_hostile.py.
CASES = [case for case in corpus() if case.reason != READ or case.name.startswith("name-")]


def upload(client, headers, user_id, data, filename="r.pdf", content_type="application/octet-stream"):
    return upload_files(client, headers, user_id, [(filename, data, content_type)])


def test_every_hostile_file_gets_its_reason_and_message(client, headers, user_id):
    for case in CASES:
        response = upload(client, headers, user_id, case.data, case.filename, case.declared or "application/octet-stream")
        if response.status_code != 200:
            # Refused at upload: the reason is the status, the message the detail.
            assert case.reason in ("invalid_input", "too_many_pages"), (case.name, response.text)
            assert response.status_code in (400, 413), (case.name, response.status_code)
            assert case.message.lower() in response.json()["detail"].lower(), (case.name, response.text)
            continue
        job = wait_for_job(client, headers, response.json()["id"], timeout=60)
        if case.reason == READ:
            assert job["status"] != "failed" or job["failure_reason"] == "low_quality", (case.name, job)
        else:
            assert job["failure_reason"] == case.reason, (case.name, job)
            assert case.message.lower() in job["failure_detail"].lower(), (case.name, job)


def test_bombs_are_refused_at_upload_from_headers_or_fail_their_job_as_invalid_input(client, headers, user_id):
    for case in [c for c in corpus() if c.bomb]:
        response = upload(client, headers, user_id, case.data, case.filename)
        if response.status_code == 200:  # PDF bombs: the parse process's checks refuse them
            job = wait_for_job(client, headers, response.json()["id"], timeout=60)
            assert job["failure_reason"] == "invalid_input", (case.name, job)
            assert "sharper scan" not in job["failure_detail"]
        else:
            assert response.status_code == 400 and "pixels" in response.json()["detail"], case.name


def test_a_long_file_name_is_accepted_not_called_malformed(client, headers, user_id):
    response = upload(client, headers, user_id, text_pdf(), "a" * 5000 + ".pdf", "application/pdf")
    assert response.status_code == 200, response.text


def test_json_bodies_are_capped_before_they_are_read(client, headers, settings):
    big = b'{"client_user_id": "' + b"x" * (settings.max_json_body_bytes + 10) + b'"}'
    response = client.post("/v2/user", content=big, headers={**headers, "content-type": "application/json"})
    assert response.status_code == 413

    def chunks():  # no Content-Length: counted as it arrives
        yield b'{"client_user_id": "'
        for _ in range(settings.max_json_body_bytes // 65536 + 2):
            yield b"x" * 65536
        yield b'"}'

    response = client.post("/v2/user", content=chunks(), headers={**headers, "content-type": "application/json"})
    assert response.status_code == 413


def test_a_client_hanging_up_mid_upload_logs_no_error(app, client, headers, user_id, caplog):
    boundary = "b0undary"
    head = (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"user_id\"\r\n\r\n{user_id}\r\n"
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"r.pdf\"\r\n"
        "Content-Type: application/pdf\r\n\r\n%PDF-1.7\n"
    ).encode()
    messages = [
        {"type": "http.request", "body": head, "more_body": True},
        {"type": "http.request", "body": b"0" * 65536, "more_body": True},
        {"type": "http.disconnect"},
    ]
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": UPLOAD, "raw_path": UPLOAD.encode(), "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 5000), "server": ("testserver", 80),
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", f"multipart/form-data; boundary={boundary}".encode()),
            *[(k.encode(), v.encode()) for k, v in headers.items()],
        ],
    }
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    incoming = app.state.settings.files_dir / "incoming"
    with caplog.at_level(logging.INFO):
        client.portal.call(app, scope, receive, send)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("client disconnected" in r.getMessage() for r in caplog.records)
    assert not incoming.exists() or not any(incoming.iterdir())  # nothing half-stored


@pytest.mark.parametrize(
    "address",
    [
        "::127.0.0.1",  # IPv4-compatible
        "::ffff:127.0.0.1",  # IPv4-mapped
        "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254 (cloud metadata)
        "64:ff9b:1::a00:1",  # local-use NAT64
        "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
        "2002:c0a8:0101::1",  # 6to4 of 192.168.1.1
        "2001:0:4136:e378:8000:63bf:3f57:fefe",  # Teredo, client 192.168.1.1
    ],
)
def test_ipv6_forms_embedding_private_ipv4_are_refused(address):
    with pytest.raises(WebhookUrlError, match="private or loopback"):
        validate_webhook_url(f"http://[{address}]/hooks", allow_private=False)


def test_public_addresses_in_those_forms_pass():
    for address in ("8.8.8.8", "[2606:4700:4700::1111]", "[64:ff9b::808:808]", "[2002:808:808::1]"):
        assert validate_webhook_url(f"https://{address}/h", allow_private=False)


def test_the_sender_connects_to_the_address_it_checked(monkeypatch, receiver, app, client, settings):
    """DNS rebinding: the name is resolved once, checked, and that address is used; the HTTP
    client never resolves it again. 'hooks.invalid' resolves nowhere but through the check."""
    port = int(receiver.url.rsplit(":", 1)[1].split("/")[0])
    calls = []

    def resolve(host, _port):
        calls.append(host)
        return ["127.0.0.1"]

    monkeypatch.setattr(webhooks, "_resolve", resolve)
    target = webhook_target(f"http://hooks.invalid:{port}/hooks", allow_private=True)
    assert target.pinned()[0] == f"http://127.0.0.1:{port}/hooks"
    calls.clear()
    sender = webhooks.WebhookSender(settings, app.state.database)
    try:
        status, error = sender._post(f"http://hooks.invalid:{port}/hooks", webhooks.new_webhook_secret(), "msg_1", b"{}")
    finally:
        sender.stop()
    assert (status, error) == (200, None)
    assert calls == ["hooks.invalid"]
    sent_headers = {k.lower(): v for k, v in receiver.requests[-1]["headers"].items()}
    assert sent_headers["host"] == f"hooks.invalid:{port}"


