"""The broker outbox (scale-out): jobs reach the Celery broker from the database, never lost.

An upload commits its job as `upload_pending`; that row is the outbox entry. A
dispatcher thread in each API process hands due jobs to the broker and records
it; while the broker is down it retries every `dispatch_retry_seconds`, so an
outage delays jobs by the outage, not until the next API start.

A job is due when it was never handed over, or was handed over but has still not
started after the recheck interval (doubling per hand-over, at most an hour): a
broker that restarts without its queue loses tasks it had taken. A job `started`
longer than STALE_AFTER ago has lost its worker and is handed over again too.
Duplicates are harmless: the task runs a job only from `upload_pending` (or a
stale `started`), so a job runs once.

    queue = BrokerJobQueue(settings, database)   # send=... replaces Celery in tests
    queue.start(); queue.submit(job_id); queue.stop()
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import and_, or_, select, update

from service.db import Database
from service.settings import Settings
from service.tables import STARTED, UPLOAD_PENDING, Job, utcnow

log = logging.getLogger(__name__)

# A job `started` this long ago is presumed abandoned by its worker.
STALE_AFTER = timedelta(minutes=30)
MAX_RECHECK = timedelta(hours=1)
BATCH = 100


def celery_sender(settings: Settings) -> Callable[[str], None]:
    # Celery is imported only in scale-out mode; the in-process queue never needs it.
    from service.celery_app import RUN_JOB_TASK, make_celery

    app = make_celery(settings)
    return lambda job_id: app.send_task(RUN_JOB_TASK, args=[job_id])


class BrokerJobQueue:
    def __init__(self, settings: Settings, database: Database, send: Callable[[str], None] | None = None):
        self.settings = settings
        self.database = database
        self._send = send or celery_sender(settings)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.broker_down = False

    # --- interface -------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="job-outbox", daemon=True)
        self._thread.start()

    def submit(self, job_id: str) -> None:
        """The job is already in the outbox (its committed row): hand it over now."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    # --- dispatcher ------------------------------------------------------------------------

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                more = self.dispatch_due()
            except Exception:
                log.exception("job outbox: reading due jobs failed")
                more = False
            if more:
                continue
            pause = self.settings.dispatch_retry_seconds if self.broker_down else self.settings.poll_interval_seconds
            self._wake.wait(pause)
            self._wake.clear()

    def dispatch_due(self) -> bool:
        """Hand due jobs to the broker; True when a full batch went (more may be due)."""
        now = utcnow()
        job_ids = self._claim_due(now)
        sent: list[str] = []
        for job_id in job_ids:
            try:
                self._send(job_id)
            except Exception as error:
                # The claim's short lease brings the rest back after dispatch_retry_seconds.
                if not self.broker_down:
                    log.warning("job outbox: the broker refuses jobs (%s); retrying", type(error).__name__)
                self.broker_down = True
                break
            sent.append(job_id)
        if sent:
            if self.broker_down:
                log.warning("job outbox: the broker takes jobs again")
            self.broker_down = False
            self._record_sent(sent, utcnow())
        return len(sent) == BATCH

    def _claim_due(self, now: datetime) -> list[str]:
        """Lease due jobs for a retry interval, so other API processes leave them alone."""
        due_time = or_(Job.next_dispatch_at.is_(None), Job.next_dispatch_at <= now)
        waiting = Job.status == UPLOAD_PENDING
        abandoned = and_(Job.status == STARTED, Job.updated_at < now - STALE_AFTER)
        query = (
            select(Job.id)
            .where(Job.deleted_at.is_(None), due_time, or_(waiting, abandoned))
            .order_by(Job.created_at)
            .limit(BATCH)
        )
        with self.database.session_scope() as session:
            if session.bind.dialect.name != "sqlite":
                query = query.with_for_update(skip_locked=True)
            job_ids = list(session.scalars(query))
            if job_ids:
                lease = now + timedelta(seconds=self.settings.dispatch_retry_seconds)
                session.execute(update(Job).where(Job.id.in_(job_ids)).values(next_dispatch_at=lease))
        return job_ids

    def _record_sent(self, job_ids: list[str], now: datetime) -> None:
        recheck = timedelta(seconds=self.settings.dispatch_recheck_seconds)
        with self.database.session_scope() as session:
            for job in session.scalars(select(Job).where(Job.id.in_(job_ids))):
                job.next_dispatch_at = now + min(recheck * 2**job.dispatch_count, MAX_RECHECK)
                job.dispatch_count += 1
