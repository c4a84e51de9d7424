"""Where jobs run: an in-process pool (the default) or Celery workers (scale-out).

Both expose the same small interface to the API:
    queue.start(); queue.submit(job_id); queue.stop()

`InProcessJobQueue`: the database is the queue. A `Dispatcher` claims `upload_pending`
jobs oldest first, hands the parsing to a process pool (spawned processes at lower CPU
priority, so the API answers quickly while they work), and records each outcome. A job it
starts is leased to it (`LABREPORT_JOB_LEASE_SECONDS`), the lease renewed while the job runs;
any dispatcher on the database re-runs a `started` job whose lease ran out (its dispatcher
died), and only those: two `serve` processes on one SQLite file do not re-run each other's
jobs. A restarted `serve` re-runs its interrupted jobs once their lease ends. It runs in a
process of its own (`service.dispatch_process`), or in a thread of the API process with
executor "thread".

`BrokerJobQueue` (`service.job_outbox`): a durable outbox hands jobs to the Celery
broker (`service.celery_app`), retrying until the broker takes them.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool

from sqlalchemy import select

from parser.limits import MB, confine_process
from service.db import Database
from service.runner import (
    INTERNAL_ERROR_MESSAGE,
    ParseOutcome,
    claim_job,
    finish_job,
    parse_files,
    renew_leases,
    stale_started_jobs,
    take_over_stale,
)
from service.settings import Settings
from service.tables import UPLOAD_PENDING, Job, utcnow

log = logging.getLogger(__name__)

# Recycle a parse process after this many jobs to bound memory growth.
JOBS_PER_PROCESS = 200
# When the server is SIGKILLed its parse processes die with it (confine_process), and the
# multiprocessing resource tracker then unlinks the pool's semaphores, as it should, but
# warns "There appear to be 5 leaked semaphore objects": noise in the log of a crash that
# leaked nothing. The tracker takes its warning filters from sys.warnoptions at its start.
_QUIET_TRACKER = "ignore:resource_tracker:UserWarning"


def quiet_resource_tracker() -> None:
    """Call before this process spawns its first child (the tracker starts then)."""
    if _QUIET_TRACKER not in sys.warnoptions:
        sys.warnoptions.append(_QUIET_TRACKER)


def start_parse_process(niceness: int, memory_limit: int | None) -> None:
    """Initializer of a parse process: lower priority, a memory ceiling (a bomb the input
    checks missed fails its job, see runner.parse_files), and death with the API process."""
    confine_process(memory_limit)
    _lower_priority(niceness)


def _lower_priority(niceness: int) -> None:
    """Parse processes yield the CPU to the API: nicer, and marked as batch work (Linux)."""
    try:
        os.nice(niceness)
        if hasattr(os, "sched_setscheduler"):
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    except OSError as error:
        # Not permitted on this system: run at normal priority.
        log.debug("parse process keeps normal priority: %s", error)


class ThreadWake:
    """How a dispatcher thread hears of new uploads and of stop() in the same process."""

    def __init__(self):
        self._event = threading.Event()
        self._stop = threading.Event()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def set(self) -> None:
        self._event.set()

    def stop(self) -> None:
        self._stop.set()
        self._event.set()

    def wait(self, timeout: float) -> None:
        self._event.wait(timeout)
        self._event.clear()


class Dispatcher:
    """Claims `upload_pending` jobs, runs them on a parse pool and records their outcomes.

    Runs where `InProcessJobQueue` puts it: a thread of the API process, or a process of its
    own (`service.dispatch_process`). `wake` says when to look again and when to stop."""

    def __init__(self, settings: Settings, database: Database, wake, on_commit: Callable[[], None] | None = None):
        self.settings = settings
        self.database = database
        self.wake = wake
        # Called after a commit that may have written webhook rows (claims, outcomes).
        self.on_commit = on_commit or (lambda: None)
        # One job queued beyond the pool's size, so a process never idles while the
        # dispatcher records the previous result.
        self.capacity = settings.workers + 1
        self._executor: Executor | None = None
        self._running: dict[Future, str] = {}
        # Jobs to run again, first: (job id, taken over from a dispatcher that is gone).
        self._recover: list[tuple[str, bool]] = []
        self.lease = timedelta(seconds=settings.job_lease_seconds)
        self._next_lease_check = 0.0

    def start(self) -> None:
        """Find the jobs a crash left `started` (they run first) and open the parse pool."""
        with self.database.session_scope() as session:
            self._recover = [(job_id, True) for job_id in stale_started_jobs(session, utcnow())]
        if self._recover:
            log.info("re-running %d job(s) interrupted by a restart", len(self._recover))
        self._next_lease_check = time.monotonic() + self.lease.total_seconds() / 3
        self._executor = self._new_executor()

    def run(self) -> None:
        while not self.wake.stopped:
            try:
                self._keep_leases()
                self._fill()
            except Exception:
                log.exception("job dispatcher: claiming jobs failed")
            if self._running:
                done, _ = wait(
                    list(self._running), timeout=self.settings.poll_interval_seconds,
                    return_when=FIRST_COMPLETED,
                )
                for future in done:
                    self._finish(future)
                self.wake.wait(0)  # take pending wake-ups (and a stop) without waiting
            else:
                self.wake.wait(self.settings.poll_interval_seconds)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def _new_executor(self) -> Executor:
        if self.settings.executor == "thread":
            return ThreadPoolExecutor(max_workers=self.settings.workers, thread_name_prefix="parse")
        quiet_resource_tracker()
        return ProcessPoolExecutor(
            max_workers=self.settings.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_parse_process,
            initargs=(self.settings.worker_niceness, self.settings.worker_memory_limit_mb * MB),
            max_tasks_per_child=JOBS_PER_PROCESS,
        )

    def _keep_leases(self) -> None:
        """Every third of the lease: renew the leases of this dispatcher's jobs, and queue the
        `started` jobs whose lease ran out (their dispatcher is gone) to run here."""
        if time.monotonic() < self._next_lease_check:
            return
        self._next_lease_check = time.monotonic() + self.lease.total_seconds() / 3
        mine = list(self._running.values()) + [job_id for job_id, taken in self._recover if not taken]
        known = set(self._running.values()) | {job_id for job_id, _ in self._recover}
        now = utcnow()
        with self.database.session_scope() as session:
            renew_leases(session, mine, now + self.lease)
            stale = [job_id for job_id in stale_started_jobs(session, now) if job_id not in known]
        if stale:
            log.info("re-running %d job(s) whose dispatcher stopped", len(stale))
            self._recover += [(job_id, True) for job_id in stale]

    def _fill(self) -> None:
        free = self.capacity - len(self._running)
        if free <= 0:
            return
        busy = set(self._running.values())
        now = utcnow()
        with self.database.session_scope() as session:
            candidates = [(job_id, True, taken) for job_id, taken in self._recover[:free]]
            del self._recover[: len(candidates)]
            if len(candidates) < free:
                pending = session.scalars(
                    select(Job.id)
                    .where(Job.status == UPLOAD_PENDING, Job.deleted_at.is_(None))
                    .order_by(Job.created_at)
                    .limit(free - len(candidates))
                )
                candidates += [(job_id, False, False) for job_id in pending if job_id not in busy]
            works = []
            for job_id, recovering, taken in candidates:
                if taken and not take_over_stale(session, job_id, now=now, lease_until=now + self.lease):
                    continue  # another dispatcher took it over first, or it finished
                work = claim_job(
                    session, job_id, files_root=self.settings.files_dir,
                    max_pages=self.settings.max_pages, recovering=recovering,
                    lease_until=now + self.lease,
                )
                if work is not None:
                    works.append(work)
        if candidates:
            self.on_commit()
        for work in works:
            try:
                self._running[self._executor.submit(parse_files, work)] = work.job_id
            except BrokenProcessPool:
                self._recover.append((work.job_id, False))
                self._restart_executor()

    def _finish(self, future: Future) -> None:
        job_id = self._running.pop(future)
        try:
            outcome = future.result()
        except BrokenProcessPool:
            # A parse process died (crash, out of memory): retry the job on a fresh pool;
            # claim_job fails it after MAX_ATTEMPTS.
            log.error("job %s: its parse process died; restarting the pool", job_id)
            self._recover.append((job_id, False))
            self._restart_executor()
            return
        except Exception:
            log.exception("job %s: worker error", job_id)
            outcome = ParseOutcome(
                failure_reason="processing_error", failure_detail=INTERNAL_ERROR_MESSAGE
            )
        with self.database.session_scope() as session:
            finish_job(session, job_id, outcome)
        self.on_commit()

    def _restart_executor(self) -> None:
        broken = self._executor
        for future, job_id in list(self._running.items()):
            self._running.pop(future)
            self._recover.append((job_id, False))
        self._executor = self._new_executor()
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)


class InProcessJobQueue:
    """The embedded queue: a `Dispatcher` in a process of its own (executor "process", the
    default), so claiming and recording jobs never competes with requests for the API
    process's interpreter, or in a thread of the API process (executor "thread").

    With its own process the dispatcher hosts the webhook sender too: `webhook_sender` is
    then the API's handle on it (None: the API runs its own `WebhookSender`)."""

    def __init__(self, settings: Settings, database: Database):
        self.settings = settings
        self.database = database
        self.webhook_sender = None
        if settings.executor == "process":
            from service.dispatch_process import DispatcherProcess, RemoteWebhookSender

            self._runner = DispatcherProcess(settings, database.url)
            self.webhook_sender = RemoteWebhookSender(self._runner)
        else:
            self._runner = DispatcherThread(settings, database)

    def start(self) -> None:
        self._runner.start()

    def submit(self, job_id: str) -> None:
        self._runner.wake()

    def stop(self) -> None:
        self._runner.stop()


class DispatcherThread:
    def __init__(self, settings: Settings, database: Database):
        self._wake = ThreadWake()
        self._dispatcher = Dispatcher(settings, database, self._wake)
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._dispatcher.start()
        self._thread = threading.Thread(target=self._dispatcher.run, name="job-dispatcher", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._wake.stop()
        if self._thread is not None:
            self._thread.join(timeout=30)
        self._dispatcher.close()


def make_job_queue(settings: Settings, database: Database):
    if settings.celery_mode:
        # Scale-out: jobs reach the Celery workers through the broker outbox.
        from service.job_outbox import BrokerJobQueue

        return BrokerJobQueue(settings, database)
    return InProcessJobQueue(settings, database)
