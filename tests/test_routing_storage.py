"""A stored job is routed again (reviewer pages, corrections) from what the service keeps: the
reasons must be those of the parse, including the count of lines that read as results but gave
no row and the pages read by OCR, which the wire's `data` leaves out. The CLI batch routes the
same report the same way."""

from __future__ import annotations

import json

import service.pipeline
from cli.batch import FileOutcome
from parser.api import parse_document
from parser.models import ReportData
from review.routing import DEFAULT_THRESHOLD, REASON_OCR, REASON_UNREAD
from service.review_jobs import report_of, routing_of
from service.runner import JobWork, finish_job, parse_files
from service.schemas import parsing_job_json
from service.tables import STARTED, Job
from tests.page_builder import document, header_line, page, table_line
from tests.review.conftest import glucose_row
from tests.service.helpers import make_team, new_job

THRESHOLD = 0.9


def _started_job(app, settings) -> str:
    credentials = make_team(app, settings, "routing-storage")
    with app.state.database.session_scope() as session:
        job = new_job(session, credentials.team_id)
        job.status = STARTED
        return job.id


def _parse_and_store(app, settings, tmp_path, monkeypatch, unread: int, parsed: ReportData | None = None):
    """Run the job code on a parse with `unread` unread result lines (or on `parsed`); (outcome, job id)."""
    if parsed is None:
        parsed = ReportData(results=[glucose_row(), glucose_row(test_name="Fasting glucose")],
                            unread_result_lines=unread)
    monkeypatch.setattr(service.pipeline, "process_document", lambda *args, **kwargs: parsed.model_copy(deep=True))
    document = tmp_path / "r.pdf"
    document.write_bytes(b"%PDF-1.4 stand-in: the pipeline is replaced")
    job_id = _started_job(app, settings)
    outcome = parse_files(JobWork(job_id, [str(document)], {}, 5, review_threshold=THRESHOLD, forced_review=False))
    with app.state.database.session_scope() as session:
        finish_job(session, job_id, outcome)
    return outcome, job_id


def test_rerouting_a_stored_job_gives_the_reasons_of_the_parse(client, app, settings, tmp_path, monkeypatch):
    outcome, job_id = _parse_and_store(app, settings, tmp_path, monkeypatch, unread=3)
    assert REASON_UNREAD in outcome.review_reasons
    with app.state.database.session_scope() as session:
        job = session.get(Job, job_id)
        assert job.status == "pending_review"
        again = routing_of(job, THRESHOLD)
        assert again.reasons == list(outcome.review_reasons)
        assert json.loads(job.review_reasons_json) == list(outcome.review_reasons)
        # The wire contract's `data` stays metadata and results only.
        assert "unread_result_lines" not in json.loads(parsing_job_json(job))["data"]


def test_a_job_with_every_line_read_stays_without_the_unread_reason(client, app, settings, tmp_path, monkeypatch):
    outcome, job_id = _parse_and_store(app, settings, tmp_path, monkeypatch, unread=0)
    assert REASON_UNREAD not in outcome.review_reasons
    with app.state.database.session_scope() as session:
        job = session.get(Job, job_id)
        assert report_of(job).unread_result_lines == 0
        assert routing_of(job, THRESHOLD).reasons == list(outcome.review_reasons)


def test_the_parser_names_the_pages_it_read_by_ocr_and_keeps_them_off_the_wire():
    table = [header_line(100), table_line(120, "Hemoglobin", "14.1", "", "g/dL", "13.0 - 17.0")]
    report = parse_document(document(page(table), page(table, number=2, source="ocr")))
    assert report.ocr_pages == [2]
    assert "ocr_pages" not in report.model_dump()
    assert parse_document(document(page(table))).ocr_pages == []


def _rows(page_number: int, *confidences: float) -> list:
    return [glucose_row(test_name=f"Glucose {i}", page=page_number, extraction_confidence=c)
            for i, c in enumerate(confidences)]


# Text-layer doubt products (no header 0.85, missing unit 0.9): the old inference saw a digital report.
SCANNED = ReportData(results=_rows(1, 0.85, 0.9, 0.85), ocr_pages=[1])
# Recogniser-like confidences on a text layer: the old inference saw a scan.
DIGITAL = ReportData(results=_rows(1, 0.93, 0.961, 0.874), ocr_pages=[])


def test_a_scanned_job_keeps_its_ocr_pages_and_routes_so_again(client, app, settings, tmp_path, monkeypatch):
    outcome, job_id = _parse_and_store(app, settings, tmp_path, monkeypatch, unread=0, parsed=SCANNED)
    assert REASON_OCR in outcome.review_reasons
    with app.state.database.session_scope() as session:
        job = session.get(Job, job_id)
        assert json.loads(job.ocr_pages_json) == [1]
        assert report_of(job).ocr_pages == [1]
        assert routing_of(job, THRESHOLD).reasons == list(outcome.review_reasons)
        assert "ocr_pages" not in json.loads(parsing_job_json(job))["data"]


def test_a_digital_job_is_not_taken_for_a_scan_by_its_confidences(client, app, settings, tmp_path, monkeypatch):
    outcome, job_id = _parse_and_store(app, settings, tmp_path, monkeypatch, unread=0, parsed=DIGITAL)
    assert REASON_OCR not in outcome.review_reasons
    with app.state.database.session_scope() as session:
        job = session.get(Job, job_id)
        assert json.loads(job.ocr_pages_json) == []
        assert routing_of(job, THRESHOLD).reasons == list(outcome.review_reasons)


def test_the_cli_batch_routes_a_parse_as_the_service_does(tmp_path, monkeypatch):
    document_path = tmp_path / "r.pdf"
    document_path.write_bytes(b"%PDF-1.4 stand-in: the pipeline is replaced")
    for parsed in (SCANNED, DIGITAL):
        monkeypatch.setattr(service.pipeline, "process_document",
                            lambda *args, parsed=parsed, **kwargs: parsed.model_copy(deep=True))
        stored = parse_files(JobWork("job", [str(document_path)], {}, 5, review_threshold=DEFAULT_THRESHOLD,
                                     forced_review=False))
        batch = FileOutcome("r.pdf", "parsed")
        batch.route(parsed)
        assert (batch.needs_review, batch.review_reasons) == (stored.needs_review, list(stored.review_reasons))
        assert (REASON_OCR in batch.review_reasons) is (parsed is SCANNED)
