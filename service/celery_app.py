"""Celery mode: jobs run on `labreport worker` processes, on any number of machines.

The API hands jobs over through the broker outbox (`service.job_outbox`). The task
calls the same `service.runner.run_job` as the in-process workers, on the job's files
fetched from the storage (`service.storage`: the database in scale-out, so workers
need no disk shared with the API). Tasks
are acknowledged late, so a worker killed mid-job leaves its task on the broker
to be run again; `run_job` is safe to run twice (the second run finds the job
finished and does nothing).
"""

from __future__ import annotations

from datetime import timedelta

from celery import Celery
from celery.signals import worker_process_init
from sqlalchemy import select

from parser.limits import MB, confine_process
from service.db import Database
from service.job_outbox import STALE_AFTER
from service.runner import run_job
from service.settings import Settings, get_settings
from service.storage import make_storage
from service.tables import STARTED, UPLOAD_PENDING, Job, utcnow

RUN_JOB_TASK = "labreport.run_job"
# Unacknowledged tasks of a worker that died come back after this long (Redis transport);
# a job `started` longer than STALE_AFTER ago is presumed abandoned by its worker.
VISIBILITY_TIMEOUT = timedelta(hours=1)


_apps: dict[str, Celery] = {}


@worker_process_init.connect
def _confine_worker_process(**_kwargs) -> None:
    """Celery's pool processes parse under the same memory ceiling as the in-process pool's
    (a bomb the input checks missed fails its job as invalid_input), and die with their parent."""
    confine_process(get_settings().worker_memory_limit_mb * MB)


def make_celery(settings: Settings) -> Celery:
    """The Celery app for the settings' broker (one per broker URL in this process)."""
    if settings.broker_url in _apps:
        return _apps[settings.broker_url]
    app = Celery("labreport", broker=settings.broker_url)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,
        broker_connection_retry_on_startup=True,
        # A parse running when the broker connection drops finishes and records its outcome
        # in the database (the broker is not needed for that); cancelling it would leave the
        # job `started` until presumed abandoned (Celery 6 changes this default).
        worker_cancel_long_running_tasks_on_connection_loss=False,
        worker_hijack_root_logger=False,
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT.total_seconds()},
    )
    app.task(name=RUN_JOB_TASK)(_run_job_task)
    _apps[settings.broker_url] = app
    return app


_database: Database | None = None


def _worker_database() -> Database:
    """One database per worker process, opened on its first job."""
    global _database
    if _database is None:
        _database = Database(get_settings().resolved_database_url())
    return _database


def _runnable(database: Database, job_id: str) -> bool:
    """Whether the job may still want a run (cheap: the outbox may hand a job over twice)."""
    with database.session_scope() as session:
        status = session.scalar(select(Job.status).where(Job.id == job_id, Job.deleted_at.is_(None)))
    return status in (UPLOAD_PENDING, STARTED)


def _run_job_task(job_id: str) -> str | None:
    settings = get_settings()
    database = _worker_database()
    if not _runnable(database, job_id):
        return None
    # A task may be a redelivery: the broker re-sends a dead worker's task after the
    # visibility timeout, and the outbox re-sends jobs not started in time. A job `started`
    # longer ago than STALE_AFTER has lost its worker and runs again; a younger one is
    # still running elsewhere and is left alone (claim_job decides, under a row lock).
    with make_storage(settings).job_files(database, job_id) as files_root:
        return run_job(
            database, job_id, files_root=files_root,
            max_pages=settings.max_pages, stale_before=utcnow() - STALE_AFTER,
        )
