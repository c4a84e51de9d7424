"""The job code: claiming, crash-loop protection, recovery at start, outcomes of deleted jobs."""

from __future__ import annotations

import shutil
import time
from contextlib import contextmanager
from datetime import timedelta
from types import SimpleNamespace

from fastapi.testclient import TestClient

import service.pipeline
from service.app import create_app, open_database
from service.runner import (
    MAX_ATTEMPTS,
    JobWork,
    ParseOutcome,
    claim_job,
    finish_job,
    parse_files,
    take_over_stale,
)
from service.tables import STARTED, Job, StoredFile, utcnow
from service.workers import Dispatcher, ThreadWake
from tests.service.helpers import DIGITAL_REPORT, make_team, new_job, wait_for_job


def _job(app, settings, status: str = "upload_pending", attempts: int = 0) -> tuple[str, str]:
    """A job with a real stored report, placed directly in `status`."""
    credentials = make_team(app, settings, "runner")
    with app.state.database.session_scope() as session:
        job = new_job(session, credentials.team_id)
        job.status, job.attempts = status, attempts
        target = settings.files_dir / job.id / "0.pdf"
        target.parent.mkdir(parents=True)
        shutil.copy(DIGITAL_REPORT, target)
        session.add(StoredFile(job_id=job.id, position=0, path=f"{job.id}/0.pdf",
                               media_type="application/pdf", size=target.stat().st_size, sha256="-"))
        return job.id, credentials.api_key


def test_a_job_that_keeps_killing_its_worker_fails_instead_of_looping(client, app, settings):
    job_id, _ = _job(app, settings, status=STARTED, attempts=MAX_ATTEMPTS)
    with app.state.database.session_scope() as session:
        work = claim_job(session, job_id, files_root=settings.files_dir, max_pages=5, recovering=True)
    assert work is None
    with app.state.database.session_scope() as session:
        job = session.get(Job, job_id)
        assert job.status == "failed"
        assert job.failure_reason == "processing_error"


def test_started_jobs_are_only_reclaimed_when_recovering(client, app, settings):
    job_id, _ = _job(app, settings, status=STARTED)
    with app.state.database.session_scope() as session:
        assert claim_job(session, job_id, files_root=settings.files_dir, max_pages=5) is None
        work = claim_job(session, job_id, files_root=settings.files_dir, max_pages=5, recovering=True)
    assert work is not None and work.paths[0].endswith("0.pdf")


def test_result_of_a_job_deleted_meanwhile_is_dropped(client, app, settings):
    job_id, _ = _job(app, settings, status=STARTED)
    with app.state.database.session_scope() as session:
        session.get(Job, job_id).deleted_at = utcnow()
    with app.state.database.session_scope() as session:
        assert finish_job(session, job_id, ParseOutcome(report_json='{"results": []}')) is None
        assert session.get(Job, job_id).data_json is None


def test_jobs_left_started_by_a_crash_run_again_at_start(settings):
    first = create_app(settings)
    with TestClient(first):
        # Stop the dispatcher so the job stays as a crash would leave it.
        first.state.job_queue.stop()
        job_id, api_key = _job(first, settings, status=STARTED, attempts=1)
    second = create_app(settings)
    with TestClient(second) as client:
        done = wait_for_job(client, {"x-service-api-key": api_key}, job_id)
    assert done["status"] in ("completed", "pending_review")
    assert done["data"]["results"]


def test_unexpected_errors_fail_the_job_without_logging_report_text(monkeypatch, caplog, tmp_path):
    patient = "Jane" + " Roe"  # built at run time, so only the message can leak it

    def broken(*args, **kwargs):
        raise ValueError(f"could not read value for patient {patient}")

    monkeypatch.setattr(service.pipeline, "process_document", broken)
    report = tmp_path / "r.pdf"
    report.write_bytes(DIGITAL_REPORT.read_bytes())
    work = JobWork("job-1", [str(report)], {}, 5, review_threshold=0.9, forced_review=False)
    outcome = parse_files(work)
    assert outcome.failure_reason == "processing_error"
    assert outcome.report_json is None
    assert "ValueError" in caplog.text and "job-1" in caplog.text
    assert "Jane Roe" not in caplog.text


def test_a_started_job_is_rerun_only_once_stale(client, app, settings):
    job_id, _ = _job(app, settings, status=STARTED)
    with app.state.database.session_scope() as session:
        fresh = claim_job(session, job_id, files_root=settings.files_dir, max_pages=5,
                          stale_before=utcnow() - timedelta(minutes=30))
        assert fresh is None, "a job started moments ago is still running elsewhere"
        session.get(Job, job_id).updated_at = utcnow() - timedelta(hours=2)
        stale = claim_job(session, job_id, files_root=settings.files_dir, max_pages=5,
                          stale_before=utcnow() - timedelta(minutes=30))
    assert stale is not None


@contextmanager
def _two_dispatchers(settings, lease_seconds: float):
    """Two job dispatchers on one database, as two `serve` processes on one SQLite file, and a
    job the first has claimed (started, leased to it); the second is not started yet."""
    settings = settings.model_copy(update={"job_lease_seconds": lease_seconds})
    database = open_database(settings)
    holder = SimpleNamespace(state=SimpleNamespace(database=database))
    first, second = (Dispatcher(settings, database, ThreadWake()) for _ in range(2))
    try:
        job_id, _ = _job(holder, settings)
        first.start()
        first._fill()
        yield database, job_id, first, second
    finally:
        first.close()
        second.close()
        database.dispose()


def _attempts(database, job_id: str) -> int:
    with database.session_scope() as session:
        return session.get(Job, job_id).attempts


def test_a_dispatcher_does_not_rerun_a_job_another_live_dispatcher_runs(settings):
    with _two_dispatchers(settings, lease_seconds=60) as (database, job_id, first, second):
        assert _attempts(database, job_id) == 1
        second.start()  # a second serve starting on the same database
        second._fill()
        assert _attempts(database, job_id) == 1, "the job of a live dispatcher ran twice"


def test_a_job_whose_dispatcher_stopped_runs_again_once_its_lease_ends(settings):
    with _two_dispatchers(settings, lease_seconds=0.3) as (database, job_id, first, second):
        second.start()
        second._fill()
        assert _attempts(database, job_id) == 1  # still within the lease
        time.sleep(0.5)  # `first` died: nobody renewed its lease
        second._keep_leases()
        second._fill()
        assert _attempts(database, job_id) == 2
        with database.session_scope() as session:  # a third taker finds it leased again
            assert not take_over_stale(session, job_id, now=utcnow(), lease_until=utcnow())


def test_a_running_dispatcher_renews_its_leases(settings):
    with _two_dispatchers(settings, lease_seconds=0.3) as (database, job_id, first, second):
        for _ in range(5):  # 0.5 s in all, past the first lease, renewed every 0.1 s
            time.sleep(0.1)
            first._keep_leases()
        second.start()
        second._fill()
        assert _attempts(database, job_id) == 1


def test_a_parse_process_freezes_its_loaded_tables_after_its_first_report(monkeypatch, tmp_path):
    """The tables a first parse loads stay for the process's life: frozen once, out of the
    collector's full passes, and not again for the next reports."""
    frozen, work = _watched_freeze(monkeypatch, tmp_path)
    assert parse_files(work).report_json is not None
    assert parse_files(work).report_json is not None
    assert frozen == [True]


def _watched_freeze(monkeypatch, tmp_path):
    """A fresh process's view of the freeze (nothing frozen yet), gc.freeze recorded, and a job."""
    import gc

    import service.runner

    frozen = []
    monkeypatch.setattr(service.runner, "_tables_frozen", False)
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    report = tmp_path / "r.pdf"
    report.write_bytes(DIGITAL_REPORT.read_bytes())
    return frozen, JobWork("job-1", [str(report)], {}, 5, review_threshold=0.9, forced_review=False)


def test_a_parse_in_a_thread_of_the_api_process_freezes_nothing(monkeypatch, tmp_path):
    """Under the thread executor a parse runs beside the API's requests: their live objects must
    not be frozen with the tables (they would never be collected)."""
    import threading

    import service.runner

    frozen, work = _watched_freeze(monkeypatch, tmp_path)
    outcomes = []
    worker = threading.Thread(target=lambda: outcomes.append(parse_files(work)))
    worker.start()
    worker.join()
    assert outcomes[0].report_json is not None
    assert frozen == []
    assert service.runner._tables_frozen is False
