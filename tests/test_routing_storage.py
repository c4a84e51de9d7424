"""A stored job is routed again (reviewer pages, corrections) from what the service keeps: the
reasons must be those of the parse, including the count of lines that read as results but gave
no row, which the wire's `data` leaves out."""

from __future__ import annotations

import json

import service.pipeline
from parser.models import ReportData
from review.routing import REASON_UNREAD
from service.review_jobs import report_of, routing_of
from service.runner import JobWork, finish_job, parse_files
from service.schemas import parsing_job_json
from service.tables import STARTED, Job
from tests.review.conftest import glucose_row
from tests.service.helpers import make_team, new_job

THRESHOLD = 0.9


def _started_job(app, settings) -> str:
    credentials = make_team(app, settings, "routing-storage")
    with app.state.database.session_scope() as session:
        job = new_job(session, credentials.team_id)
        job.status = STARTED
        return job.id


def _parse_and_store(app, settings, tmp_path, monkeypatch, unread: int):
    """Run the job code on a parse with `unread` unread result lines; (outcome, job id)."""
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
