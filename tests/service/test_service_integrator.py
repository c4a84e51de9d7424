"""What an integrator relies on beyond the contract: offline /docs, review_reasons on the job,
and the `updated` webhook of a deletion."""

from __future__ import annotations

import re

from tests.service.helpers import DIGITAL_REPORT, upload, wait_for_job

PDF = "application/pdf"


def test_docs_pages_load_their_assets_from_the_service(client):
    for page in ("/docs", "/redoc"):
        html = client.get(page)
        assert html.status_code == 200
        urls = re.findall(r'(?:src|href)="([^"]+)"', html.text)
        assert urls, page
        for url in urls:
            assert url.startswith("/"), f"{page} loads {url} from elsewhere: it would be blank offline"
            asset = client.get(url)
            assert asset.status_code == 200 and len(asset.content) > 1000, url
    assert "SwaggerUIBundle" in client.get("/docs-assets/swagger-ui-bundle.js").text


def test_job_json_says_why_it_waits_for_review(client, headers, user_id):
    job = upload(client, headers, user_id, [("cbc.pdf", DIGITAL_REPORT.read_bytes(), PDF)],
                 needs_human_review=True).json()
    done = wait_for_job(client, headers, job["id"])
    assert done["status"] == "pending_review"
    assert "needs_human_review was requested" in done["review_reasons"]
    assert all(len(reason) < 80 for reason in done["review_reasons"])  # short labels, no values


def test_deleting_a_finished_job_sends_an_updated_webhook(client, headers, user_id, receiver):
    job = upload(client, headers, user_id, [("cbc.pdf", DIGITAL_REPORT.read_bytes(), PDF)]).json()
    done = wait_for_job(client, headers, job["id"])
    receiver.wait_for(lambda bodies: len(bodies) >= 2)  # created, then updated

    deleted = client.delete(f"/lab_report/v1/parser/job/{job['id']}", headers=headers).json()

    bodies = receiver.wait_for(
        lambda bodies: any(body["data"].get("deleted_at") for body in bodies)
    )
    event = next(body for body in bodies if body["data"].get("deleted_at"))
    assert event["event_type"] == "lab_report.parsing_job.updated"
    assert event["data"]["id"] == job["id"]
    assert event["data"]["status"] == done["status"] == deleted["status"]  # status is kept
    assert event["data"]["data"] is None
