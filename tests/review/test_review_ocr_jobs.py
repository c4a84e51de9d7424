"""A job whose parse read its pages by OCR stays doubted for it (review.document) until a reviewer
has read its rows: corrected value, unit or range, through the review API like any correction."""

from __future__ import annotations

from parser.models import ReportData
from review.routing import REASON_OCR
from service.tables import Job
from tests.review.conftest import glucose_row

API = "/lab_report/v1/review"


def _ocr_job(app, team, pending_job) -> str:
    # Text-layer doubt products (0.85, 0.9): only the stored OCR pages say these rows were recognised.
    report = ReportData(results=[glucose_row(test_name=f"Glucose {i}", extraction_confidence=c)
                                 for i, c in enumerate((0.85, 0.9, 0.85))])
    job_id = pending_job(team, report)
    with app.state.database.session_scope() as session:
        session.get(Job, job_id).ocr_pages_json = "[1]"
    return job_id


def _reasons(client, headers, job_id) -> list[str]:
    return client.get(f"{API}/{job_id}", headers=headers).json()["reasons"]


def test_an_ocr_job_is_doubted_until_a_reviewer_has_read_its_rows(app, client, team, headers, pending_job):
    job_id = _ocr_job(app, team, pending_job)
    assert REASON_OCR in _reasons(client, headers, job_id)
    for index, change in enumerate(({"value": "96"}, {"units": "mg/dL"})):
        assert client.patch(f"{API}/{job_id}/results/{index}", json=change, headers=headers).status_code == 200
    assert REASON_OCR in _reasons(client, headers, job_id)  # one row of three still as recognised
    # The LOINC code is not a reading of the page: the row stays an OCR doubt.
    client.patch(f"{API}/{job_id}/results/2", json={"loinc_code": "2345-7"}, headers=headers)
    assert REASON_OCR in _reasons(client, headers, job_id)
    client.patch(f"{API}/{job_id}/results/2", json={"reference_range_text": "70 - 99"}, headers=headers)
    assert REASON_OCR not in _reasons(client, headers, job_id)
    with app.state.database.session_scope() as session:
        assert session.get(Job, job_id).ocr_pages_json == "[1]"  # what the parser read stays recorded
