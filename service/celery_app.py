"""Celery mode: jobs run on `labreport worker` processes, on any number of machines.

The task calls the same `service.runner.run_job` as the in-process workers. Tasks
are acknowledged late, so a worker killed mid-job leaves its task on the broker
to be run again; `run_job` is safe to run twice (the second run finds the job
finished and does nothing).
"""

from __future__ import annotations

from datetime import timedelta

from celery import Celery

from service.db import Database
from service.runner import run_job
from service.settings import Settings, get_settings
from service.tables import utcnow

RUN_JOB_TASK = "labreport.run_job"
# Unacknowledged tasks of a worker that died come back after this long (Redis transport)...
VISIBILITY_TIMEOUT = timedelta(hours=1)
# ...and a job `started` this long ago is presumed abandoned by its worker.
STALE_AFTER = timedelta(minutes=30)


_apps: dict[str, Celery] = {}


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


def _run_job_task(job_id: str) -> str | None:
    settings = get_settings()
    # A task may be a redelivery: the broker re-sends a dead worker's task after the
    # visibility timeout, and an API restart re-sends unfinished jobs. A job `started`
    # longer ago than STALE_AFTER has lost its worker and runs again; a younger one is
    # still running elsewhere and is left alone.
    return run_job(
        _worker_database(), job_id, files_root=settings.files_dir,
        max_pages=settings.max_pages, stale_before=utcnow() - STALE_AFTER,
    )
