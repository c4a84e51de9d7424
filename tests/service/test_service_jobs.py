"""`/lab_report/v1/parser/job`: uploads, every rejection, reading, idempotency, deletion, isolation."""

from __future__ import annotations

import uuid

import pytest

from parser.document import render_page_png
from service.schemas import ParsingJob
from tests.service.helpers import (
    DIGITAL_REPORT,
    make_team,
    pdf_bytes,
    png_bytes,
    upload,
    wait_for_job,
)

PDF = "application/pdf"


@pytest.fixture
def report() -> bytes:
    return DIGITAL_REPORT.read_bytes()


def test_upload_returns_the_job_and_it_completes_with_data(client, headers, user_id, report):
    response = upload(client, headers, user_id, [("cbc.pdf", report, PDF)])
    assert response.status_code == 200, response.text
    job = response.json()
    assert job["status"] in ("upload_pending", "started")
    assert job["user_id"] == user_id
    assert job["needs_human_review"] is False
    assert job["is_reviewed"] is False
    assert job["data"] is None

    done = wait_for_job(client, headers, job["id"])
    assert done["status"] in ("completed", "pending_review")
    assert done["failure_reason"] is None
    names = [row["test_name"].lower() for row in done["data"]["results"]]
    assert any("hemoglobin" in name for name in names)
    assert done["updated_at"] >= done["created_at"]
    # GET splices the stored report into the JSON: it must still be a valid ParsingJob.
    assert ParsingJob.model_validate(done).data.results[0].test_name == done["data"]["results"][0]["test_name"]


def test_needs_human_review_forces_pending_review(client, headers, user_id, report):
    job = upload(client, headers, user_id, [("cbc.pdf", report, PDF)], needs_human_review=True).json()
    assert job["needs_human_review"] is True
    done = wait_for_job(client, headers, job["id"])
    assert done["status"] == "pending_review"
    assert done["data"]["results"], "the draft under review is present"


def test_unreadable_report_fails_with_its_reason(client, headers, user_id):
    blank = png_bytes()
    job = upload(client, headers, user_id, [("blank.png", blank, "image/png")]).json()
    done = wait_for_job(client, headers, job["id"])
    assert done["status"] == "failed"
    assert done["failure_reason"] == "low_quality"
    assert "no readable text" in done["failure_detail"]
    assert done["data"] is None


@pytest.mark.parametrize(
    ("name", "content", "declared", "expected"),
    [
        ("empty.pdf", b"", PDF, "empty"),
        ("notes.txt", b"just some text, not a report", "text/plain", "unsupported file type"),
        ("report.pdf", png_bytes(), PDF, "declared as PDF but its content is PNG"),
        ("broken.pdf", b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage", PDF, "corrupt"),
        ("secret.pdf", pdf_bytes(encrypt="s3cret"), PDF, "encrypted"),
        ("photo.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 200, "image/png", "cannot be decoded"),
        ("long.pdf", pdf_bytes(pages=6), PDF, "6 pages; the limit is 5"),
    ],
)
def test_bad_files_are_rejected_with_400_and_a_clear_detail(
    client, headers, user_id, name, content, declared, expected
):
    response = upload(client, headers, user_id, [(name, content, declared)])
    assert response.status_code == 400, response.text
    assert expected in response.json()["detail"]


def test_multi_file_rejections(client, headers, user_id):
    image = png_bytes()
    nine = [(f"p{i}.png", image, "image/png") for i in range(9)]
    response = upload(client, headers, user_id, nine)
    assert response.status_code == 400
    assert "at most 8" in response.json()["detail"]

    mixed = [("p1.png", image, "image/png"), ("r.pdf", pdf_bytes(), PDF)]
    response = upload(client, headers, user_id, mixed)
    assert response.status_code == 400
    assert "PDF cannot be part of a multi-file upload" in response.json()["detail"]

    six = [(f"p{i}.png", image, "image/png") for i in range(6)]
    response = upload(client, headers, user_id, six)
    assert response.status_code == 400
    assert "limit is 5" in response.json()["detail"]


@pytest.mark.slow
def test_multi_image_upload_is_merged_in_order(client, headers, user_id, report):
    photo_of_report = render_page_png(report, 1, scale=2.0)
    blank = png_bytes(size=(1200, 1600))
    response = upload(
        client, headers, user_id, [("p1.png", blank, "image/png"), ("p2.png", photo_of_report, "image/png")]
    )
    assert response.status_code == 200, response.text
    done = wait_for_job(client, headers, response.json()["id"], timeout=240)
    assert done["status"] in ("completed", "pending_review"), done["failure_reason"]
    results = done["data"]["results"]
    assert any("hemoglobin" in row["test_name"].lower() for row in results)
    # The report was the second part, so its rows are on page 2 of the merged document.
    assert {row["page"] for row in results} == {2}


def test_over_10_mb_is_413_while_streaming(client, headers, user_id, app, settings):
    big = b"%PDF-1.7\n" + b"0" * (10 * 1024 * 1024)
    response = upload(client, headers, user_id, [("big.pdf", big, PDF)])
    assert response.status_code == 413
    assert "10 MB" in response.json()["detail"]
    # Nothing of the refused upload is left on disk.
    assert list((settings.files_dir / "incoming").iterdir()) == []


def test_413_without_content_length_header(client, headers, user_id, settings):
    boundary = "b0undary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n{user_id}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n'
        "Content-Type: application/pdf\r\n\r\n"
    ).encode()

    def body():
        yield head + b"%PDF-1.7\n"
        for _ in range(11):
            yield b"0" * (1024 * 1024)
        yield f"\r\n--{boundary}--\r\n".encode()

    response = client.post(
        "/lab_report/v1/parser/job",
        content=body(),
        headers={**headers, "content-type": f"multipart/form-data; boundary={boundary}"},
    )
    assert response.status_code == 413
    assert list((settings.files_dir / "incoming").iterdir()) == []


def test_missing_and_invalid_fields_are_422_lists(client, headers, user_id, report):
    no_user = client.post(
        "/lab_report/v1/parser/job", files=[("file", ("a.pdf", report, PDF))], headers=headers
    )
    assert no_user.status_code == 422
    assert no_user.json()["detail"][0]["loc"] == ["body", "user_id"]

    no_file = client.post(
        "/lab_report/v1/parser/job",
        files=[("other", ("x.txt", b"x", "text/plain"))],
        data={"user_id": user_id},
        headers=headers,
    )
    assert no_file.status_code == 422
    assert ["body", "file"] in [error["loc"] for error in no_file.json()["detail"]]

    bad = upload(client, headers, "not-a-uuid", [("a.pdf", report, PDF)])
    assert bad.status_code == 422
    assert bad.json()["detail"][0]["loc"] == ["body", "user_id"]

    bad_flag = client.post(
        "/lab_report/v1/parser/job",
        files=[("file", ("a.pdf", report, PDF))],
        data={"user_id": user_id, "needs_human_review": "maybe"},
        headers=headers,
    )
    assert bad_flag.status_code == 422
    assert bad_flag.json()["detail"][0]["loc"] == ["body", "needs_human_review"]

    not_multipart = client.post("/lab_report/v1/parser/job", json={"user_id": user_id}, headers=headers)
    assert not_multipart.status_code == 422


def test_unknown_user_is_404(client, headers, report):
    response = upload(client, headers, str(uuid.uuid4()), [("a.pdf", report, PDF)])
    assert response.status_code == 404
    assert response.json()["detail"] == "user not found"


def test_idempotency_key_returns_the_first_job(client, headers, user_id, report):
    key = {"Idempotency-Key": "upload-123"}
    first = upload(client, {**headers, **key}, user_id, [("a.pdf", report, PDF)]).json()
    second = upload(client, {**headers, **key}, user_id, [("a.pdf", report, PDF)]).json()
    assert first["id"] == second["id"]
    other = upload(client, {**headers, "Idempotency-Key": "upload-456"}, user_id, [("a.pdf", report, PDF)])
    assert other.json()["id"] != first["id"]


def test_other_teams_job_is_404(client, app, settings, headers, user_id, report):
    job = upload(client, headers, user_id, [("a.pdf", report, PDF)]).json()
    other = {"x-service-api-key": make_team(app, settings, "beta").api_key}
    assert client.get(f"/lab_report/v1/parser/job/{job['id']}", headers=other).status_code == 404
    assert client.delete(f"/lab_report/v1/parser/job/{job['id']}", headers=other).status_code == 404
    # Nor can another team upload for this team's user.
    assert upload(client, other, user_id, [("a.pdf", report, PDF)]).status_code == 404
    assert client.get(f"/lab_report/v1/parser/job/{uuid.uuid4()}", headers=headers).status_code == 404


def test_delete_removes_file_and_data_but_keeps_the_record(client, headers, user_id, report, settings):
    job = upload(client, headers, user_id, [("a.pdf", report, PDF)]).json()
    done = wait_for_job(client, headers, job["id"])
    assert done["data"] is not None
    assert (settings.files_dir / job["id"]).exists()

    deleted = client.delete(f"/lab_report/v1/parser/job/{job['id']}", headers=headers)
    assert deleted.status_code == 200
    assert deleted.json()["deleted_at"] is not None
    assert not (settings.files_dir / job["id"]).exists()
    after = client.get(f"/lab_report/v1/parser/job/{job['id']}", headers=headers).json()
    assert after["data"] is None
    assert after["status"] == done["status"]
    assert after["deleted_at"] is not None


def test_openapi_documents_the_real_schemas(client):
    spec = client.get("/openapi.json").json()
    upload_body = spec["paths"]["/lab_report/v1/parser/job"]["post"]["requestBody"]
    form = upload_body["content"]["multipart/form-data"]["schema"]
    assert form["required"] == ["file", "user_id"]
    job_schema = spec["components"]["schemas"]["ParsingJob"]
    assert {"id", "status", "failure_reason", "data", "needs_human_review", "is_reviewed"} <= set(
        job_schema["properties"]
    )
    assert "LabReportResult" in spec["components"]["schemas"]
    assert client.get("/docs").status_code == 200
