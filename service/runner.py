"""The job code, shared by the in-process workers and the Celery workers.

A job runs in three steps so the CPU-heavy middle can live in another process:
1. `claim_job` (database): move the job to `started`, collect its file paths and the
   team's learnt LOINC aliases;
2. `parse_files` (pure, picklable, no database): bytes -> `service.pipeline.process_document`,
   then routing (`review.routing.route_report` with the team's threshold and the job's
   `needs_human_review`) -- all CPU work stays in the worker process; every
   `LabReportError` becomes a failure outcome with its `failure_reason`;
3. `finish_job` (database): set `pending_review`, `completed` or `failed` -- with its
   webhook -- in one transaction.
`run_job` chains the three for workers that run a job from start to end.
"""

from __future__ import annotations

import gc
import json
import logging
import threading
import traceback
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from loinc.matcher import alias_key
from parser.exceptions import LabReportError, MemoryLimitError
from review.routing import route_report
from service.db import Database
from service.jobs import set_status
from service.tables import (
    COMPLETED,
    FAILED,
    PENDING_REVIEW,
    STARTED,
    UPLOAD_PENDING,
    Job,
    Team,
    TeamLoincAlias,
)

log = logging.getLogger(__name__)

# A job whose parsing killed its worker this many times fails instead of looping forever.
MAX_ATTEMPTS = 3
INTERNAL_ERROR_MESSAGE = "an internal error stopped the report from being processed"


@dataclass(frozen=True)
class JobWork:
    """What a worker needs to parse one job, free of database objects (picklable)."""

    job_id: str
    paths: list[str]
    aliases: dict[tuple[str, str], str]
    max_pages: int
    review_threshold: float
    forced_review: bool


@dataclass(frozen=True)
class ParseOutcome:
    report_json: str | None = None
    needs_review: bool = False
    review_reasons: tuple[str, ...] = ()
    result_count: int = 0
    unread_result_lines: int = 0  # off the wire's `data`: stored with the job for re-routing
    ocr_pages: tuple[int, ...] | None = None  # the same (ReportData.ocr_pages)
    failure_reason: str | None = None
    failure_detail: str | None = None


def team_aliases(session: Session, team_id: str) -> dict[tuple[str, str], str]:
    """The team's learnt aliases under the keys the matcher looks them up by now; where two come
    to share a key (a normalisation that folds their printed forms alike), the newest wins."""
    rows = session.scalars(
        select(TeamLoincAlias).where(TeamLoincAlias.team_id == team_id).order_by(TeamLoincAlias.id)
    )
    return {alias_lookup_key(row): row.loinc_code for row in rows}


def alias_lookup_key(alias: TeamLoincAlias) -> tuple[str, str]:
    """The key of a stored alias, computed from its printed forms with today's normalisation.
    An alias learnt before it kept them (migration 0009) has only the key of its day: that key
    is a printed form normalised once, so normalising it again gives today's key wherever
    today's rules only respell what the old ones produced ('x10^3/ul' -> '10^3/ul')."""
    if alias.printed_name is None:
        return alias_key(alias.name_key, alias.unit_key or None)
    return alias_key(alias.printed_name, alias.printed_unit or None)


def _locked_job(session: Session, job_id: str) -> Job | None:
    """The job row, locked until commit (PostgreSQL); SQLite serializes writers by itself."""
    return session.get(Job, job_id, with_for_update=session.bind.dialect.name != "sqlite")


def claim_job(
    session: Session,
    job_id: str,
    *,
    files_root: Path,
    max_pages: int,
    recovering: bool = False,
    stale_before: datetime | None = None,
    lease_until: datetime | None = None,
) -> JobWork | None:
    """Mark the job `started` and return its work, or None when it is not runnable.

    A job already `started` is taken again when `recovering` (a restart re-runs jobs a
    crash interrupted), or when it has been `started` since before `stale_before` (its
    worker is presumed dead: Celery redelivers a lost task only after its visibility
    timeout, long after any parse ends). The caller commits.
    """
    job = _locked_job(session, job_id)
    if job is None or job.deleted_at is not None:
        return None
    stale = stale_before is not None and job.updated_at < stale_before
    if job.status == UPLOAD_PENDING or (job.status == STARTED and (recovering or stale)):
        if job.attempts >= MAX_ATTEMPTS:
            log.error("job %s failed: its parsing crashed %d times", job.id, job.attempts)
            set_status(
                session, job, FAILED, failure_reason="processing_error",
                failure_detail=f"parsing stopped unexpectedly {job.attempts} times",
            )
            return None
        job.attempts += 1
        if lease_until is not None:
            job.lease_until = lease_until
        if job.status == UPLOAD_PENDING:
            set_status(session, job, STARTED)
        return JobWork(
            job_id=job.id,
            paths=[str(files_root / stored.path) for stored in job.files],
            aliases=team_aliases(session, job.team_id),
            max_pages=max_pages,
            review_threshold=session.get(Team, job.team_id).review_threshold,
            forced_review=job.needs_human_review,
        )
    return None


def _lease_ended(now: datetime) -> tuple:
    """Where-clauses of a `started` job whose lease has run out, or that never had one."""
    return Job.status == STARTED, or_(Job.lease_until.is_(None), Job.lease_until < now)


def take_over_stale(session: Session, job_id: str, *, now: datetime, lease_until: datetime) -> bool:
    """Lease a `started` job whose lease has run out (or never had one) to the caller; False
    when it is not such a job, e.g. another dispatcher took it over first. One conditional
    UPDATE, so two dispatchers cannot both win. The caller then claims it (recovering)."""
    taken = session.execute(
        update(Job)
        .where(Job.id == job_id, *_lease_ended(now))
        .values(lease_until=lease_until)
        .execution_options(synchronize_session=False)
    )
    return taken.rowcount == 1


def stale_started_jobs(session: Session, now: datetime) -> list[str]:
    """`started` jobs whose lease has run out or that never had one, oldest first."""
    return list(
        session.scalars(
            select(Job.id)
            .where(*_lease_ended(now))
            .order_by(Job.created_at)
        )
    )


def renew_leases(session: Session, job_ids: list[str], lease_until: datetime) -> None:
    if job_ids:
        session.execute(
            update(Job)
            .where(Job.id.in_(job_ids), Job.status == STARTED)
            .values(lease_until=lease_until)
            .execution_options(synchronize_session=False)
        )


def parse_files(work: JobWork) -> ParseOutcome:
    """Run the pipeline and the routing on the job's files; never raises for a bad report."""
    try:
        # Imported here: the pipeline (OCR, LOINC table) is heavy and only parse
        # processes need it, not the API process that imports this module.
        from service.pipeline import process_document

        blobs = [Path(path).read_bytes() for path in work.paths]
        data = blobs[0] if len(blobs) == 1 else blobs
        report = process_document(data, max_pages=work.max_pages, aliases=work.aliases)
        _freeze_loaded_tables()
        decision = route_report(report, threshold=work.review_threshold, forced=work.forced_review)
    except LabReportError as error:
        return ParseOutcome(failure_reason=error.failure_reason, failure_detail=error.message)
    except FileNotFoundError:
        return ParseOutcome(
            failure_reason="processing_error", failure_detail="the uploaded file is gone"
        )
    except MemoryError:
        # The parse process's memory ceiling (parser.limits) stopped a bomb the checks missed.
        log.warning("job %s: parsing ran out of its memory ceiling", work.job_id)
        error = MemoryLimitError()
        return ParseOutcome(failure_reason=error.failure_reason, failure_detail=error.message)
    except Exception as error:
        # The exception's message may quote report text (patient data): log its type and
        # where it happened, not what it says.
        log.error(
            "job %s: unexpected %s while parsing\n%s",
            work.job_id, type(error).__name__, "".join(traceback.format_tb(error.__traceback__)),
        )
        return ParseOutcome(failure_reason="processing_error", failure_detail=INTERNAL_ERROR_MESSAGE)
    return ParseOutcome(
        report_json=report.model_dump_json(),
        needs_review=decision.needs_review,
        review_reasons=tuple(decision.reasons),
        result_count=len(report.results),
        unread_result_lines=report.unread_result_lines,
        ocr_pages=None if report.ocr_pages is None else tuple(report.ocr_pages),
    )


_tables_frozen = False  # per process: set once its first parse has loaded the tables


def _freeze_loaded_tables() -> None:
    """After a parse process's first report, the tables it loaded (LOINC, vocabulary, unit
    lexicon: most of its objects) live as long as the process: moved out of the collector's
    full passes, each of which would walk them all again (about 5% of the CPU time of a run
    of digital reports). Only in a parse process's main thread: under the thread executor the
    parse runs beside the API's requests, whose live objects must not be frozen with the tables
    (the API freezes once at its own start, service.app)."""
    global _tables_frozen
    if not _tables_frozen and threading.current_thread() is threading.main_thread():
        gc.collect()
        gc.freeze()
        _tables_frozen = True


def finish_job(session: Session, job_id: str, outcome: ParseOutcome) -> str | None:
    """Record the outcome: the routed report goes to review or completion, or the job fails.

    Returns the new status, or None when the job no longer wants a result (deleted
    meanwhile, or finished by another worker). The caller commits.
    """
    job = _locked_job(session, job_id)
    if job is None or job.status != STARTED or job.deleted_at is not None:
        return None
    if outcome.report_json is None:
        log.info("job %s failed: %s", job.id, outcome.failure_reason)
        set_status(
            session, job, FAILED,
            failure_reason=outcome.failure_reason or "processing_error",
            failure_detail=outcome.failure_detail,
        )
        return FAILED
    status = PENDING_REVIEW if outcome.needs_review else COMPLETED
    set_status(
        session, job, status,
        data_json=outcome.report_json,
        unread_result_lines=outcome.unread_result_lines,
        ocr_pages_json=None if outcome.ocr_pages is None else json.dumps(list(outcome.ocr_pages)),
        failure_reason=None,
        review_reasons_json=json.dumps(list(outcome.review_reasons)) if outcome.review_reasons else None,
    )
    log.info("job %s %s (%d results)", job.id, status, outcome.result_count)
    return status


def run_job(
    database: Database,
    job_id: str,
    *,
    files_root: Path,
    max_pages: int,
    recovering: bool = False,
    stale_before: datetime | None = None,
) -> str | None:
    """Claim, parse and finish one job in this process (Celery and thread workers)."""
    with database.session_scope() as session:
        work = claim_job(
            session, job_id, files_root=files_root, max_pages=max_pages,
            recovering=recovering, stale_before=stale_before,
        )
    if work is None:
        return None
    outcome = parse_files(work)
    with database.session_scope() as session:
        return finish_job(session, job_id, outcome)
