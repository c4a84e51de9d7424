"""The job dispatcher and the webhook sender of `labreport serve` in a process of their own
(the default executor).

Claiming jobs, handing them to the parse pool, unpickling and recording outcomes and their
webhook rows took about a third of the API process's interpreter while uploads arrived, and
GET job waited for the GIL behind it; the webhook sender's outbox polls took another 5%.
In their own process they compete with the API for a core at most, never for the interpreter.

    runner = DispatcherProcess(settings, database_url)
    runner.start(); runner.wake(); runner.wake_webhooks(); runner.stop()

The embedded service still needs no other server: the API process starts this process
(spawned, like the parse processes), wakes it through a pipe when an upload commits, and
starts a new one if it ever dies. It dies with the API process (parent-death signal), and
its parse processes die with it; a job they were running stays `started` and runs again
when the next dispatcher starts, and a webhook being posted is posted again once its lease
ends, as after any crash.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection

from parser.limits import confine_process
from service.settings import Settings

log = logging.getLogger(__name__)

# stop() waits this long for the dispatcher to leave (webhooks being posted finish or time
# out), then kills it.
STOP_TIMEOUT_SECONDS = 20.0
JOBS, WEBHOOKS = b"j", b"w"  # what a message through the pipe asks for
# Its name in ps/top (comm), so an operator and benchmarks/memory.py can tell it apart.
PROCESS_NAME = "labreport-jobs"
# A dispatcher that died is started again after this pause (no tight loop of crashes).
RESPAWN_DELAY_SECONDS = 1.0


class PipeWake:
    """The dispatcher's side of the pipe: JOBS means "look for jobs" (any message does),
    WEBHOOKS wakes the webhook sender too, EOF means stop (the API closed its end, or died)."""

    def __init__(self, reader: Connection, wake_webhooks: Callable[[], None]):
        self._reader = reader
        self._wake_webhooks = wake_webhooks
        self.stopped = False

    def wait(self, timeout: float) -> None:
        try:
            if not self._reader.poll(timeout):
                return
            messages = set()
            while self._reader.poll(0):  # many uploads, one look
                messages.add(self._reader.recv_bytes())
        except (EOFError, OSError):
            self.stopped = True
            return
        if WEBHOOKS in messages:
            self._wake_webhooks()


def _name_process(name: str) -> None:
    try:
        with open("/proc/self/comm", "w") as comm:
            comm.write(name)
    except OSError as error:
        log.debug("process keeps its name: %s", error)  # not Linux: cosmetic only


def _leave_it_to_the_api(signum: int, _frame) -> None:
    log.debug("job dispatcher: signal %d ignored; it stops when the API process does", signum)


def dispatcher_main(settings: Settings, database_url: str, log_level: int, reader: Connection) -> None:
    """Entry point of the dispatcher process."""
    # Dies with the API process; no memory ceiling (the parse processes have theirs).
    confine_process(None)
    _name_process(PROCESS_NAME)
    # Ctrl-C, or a service manager's SIGTERM, reaches the whole process group: the API process
    # decides when this one stops (it closes the pipe). SIGINT is ignored (its parse processes
    # inherit that: no KeyboardInterrupt tracebacks); SIGTERM gets a handler, which the parse
    # processes do not inherit: the pool still stops them with it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _leave_it_to_the_api)
    from service.db import Database
    from service.log_config import configure_logging
    from service.webhooks import WebhookSender
    from service.workers import Dispatcher

    configure_logging(logging.getLevelName(log_level))
    database = Database(database_url)
    sender = WebhookSender(settings, database)
    # Job events go out as soon as the dispatcher commits them, not at the sender's next poll.
    dispatcher = Dispatcher(settings, database, PipeWake(reader, sender.wake), on_commit=sender.wake)
    try:
        sender.start()
        dispatcher.start()
        dispatcher.run()
    finally:
        dispatcher.close()
        sender.stop()
        database.dispose()
        sys.stdout.flush()
        sys.stderr.flush()
        # Without waiting for running parses: their results would have nobody to record them.
        # The parse processes die with this one (parent-death signal).
        os._exit(0)


class DispatcherProcess:
    """The API process's handle on its dispatcher process: start, wake, stop, restart."""

    def __init__(self, settings: Settings, database_url: str):
        self.settings = settings
        self.database_url = database_url
        self._context = multiprocessing.get_context("spawn")
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._writer: Connection | None = None
        self._process = None
        self._supervisor: threading.Thread | None = None

    def start(self) -> None:
        from service.workers import quiet_resource_tracker

        # The resource tracker starts with the first spawned child, and takes its warning
        # filters then (see workers._QUIET_TRACKER).
        quiet_resource_tracker()
        self._supervisor = threading.Thread(target=self._supervise, name="dispatcher-supervisor", daemon=True)
        self._supervisor.start()

    def wake(self, message: bytes = JOBS) -> None:
        """Tell the dispatcher a job was committed. Never blocks the event loop: when the pipe
        is full a wake-up is already pending; when the dispatcher is gone, its successor
        finds the job by itself."""
        with self._lock:
            writer = self._writer
            if writer is None:
                return
            try:
                writer.send_bytes(message)
            except (BlockingIOError, BrokenPipeError) as error:
                # A wake-up is pending, or the dispatcher died and its successor finds the job.
                log.debug("job dispatcher: wake-up not sent (%s)", type(error).__name__)
            except OSError as error:
                log.warning("job dispatcher: cannot wake it (%s)", error)

    def wake_webhooks(self) -> None:
        """Tell the webhook sender a delivery is due (its poll would find it later)."""
        self.wake(WEBHOOKS)

    def stop(self) -> None:
        self._stopping.set()
        self._close_writer()
        if self._supervisor is None:
            return
        self._supervisor.join(STOP_TIMEOUT_SECONDS)
        if self._supervisor.is_alive() and self._process is not None:
            log.warning("job dispatcher did not stop in %.0f s; killing it", STOP_TIMEOUT_SECONDS)
            self._process.kill()
            self._supervisor.join(STOP_TIMEOUT_SECONDS)

    # --- supervisor thread -----------------------------------------------------------------

    def _supervise(self) -> None:
        """Start the dispatcher and wait for it; start a new one if it dies before stop().
        The dispatcher is started from this thread, which lives as long as it may (Linux's
        parent-death signal follows the thread that started a process)."""
        while not self._stopping.is_set():
            self._spawn()
            self._process.join()
            self._close_writer()
            if self._stopping.is_set():
                break
            log.error("job dispatcher exited (code %s); starting a new one", self._process.exitcode)
            self._stopping.wait(RESPAWN_DELAY_SECONDS)

    def _spawn(self) -> None:
        reader, writer = self._context.Pipe(duplex=False)
        os.set_blocking(writer.fileno(), False)
        process = self._context.Process(
            target=dispatcher_main, name="labreport-dispatcher", daemon=False,
            args=(self.settings, self.database_url, logging.getLogger().getEffectiveLevel(), reader),
        )
        process.start()
        reader.close()
        with self._lock:
            self._process, self._writer = process, writer
        if self._stopping.is_set():  # stop() came while this one started
            self._close_writer()

    def _close_writer(self) -> None:
        with self._lock:
            writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()


class RemoteWebhookSender:
    """`app.state.webhook_sender` when the sender lives in the dispatcher process: the API
    only wakes it; the dispatcher process starts and stops it."""

    def __init__(self, runner: DispatcherProcess):
        self._runner = runner

    def start(self) -> None:
        pass

    def wake(self) -> None:
        self._runner.wake_webhooks()

    def stop(self) -> None:
        pass
