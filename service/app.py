"""The FastAPI application factory.

    app = create_app()            # settings from the environment
    app = create_app(Settings(home=tmp_path, executor="thread"))

The lifespan migrates the database, opens the file store, starts the job queue
(in-process pool or Celery producer) and the webhook sender, and stops them on
shutdown. Restart recovery lives in their `start()`: interrupted jobs run again,
pending deliveries resume from the outbox.

Routers come from `service/routes/`, one per resource.
"""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import OperationalError

from parser.exceptions import LabReportError
from parser.limits import MB
from service.api_docs import install_docs
from service.db import Database, upgrade
from service.health import health_response
from service.http_limits import BodyLimitMiddleware
from service.previews import PreviewRenderer
from service.login_throttle import LoginThrottle
from service.routes import jobs, review, review_web, users, webhooks
from service.settings import Settings, get_settings
from service.storage import make_storage
from service.webhooks import WebhookSender
from service.workers import make_job_queue

log = logging.getLogger(__name__)

# One upload's thread trip at a time: each trip is Python work (ORM flushes, checks) that the
# event loop must win the GIL back from. Server-side GET job p99 while 20 clients upload,
# interleaved runs at load 9-10, both with the 0.5 ms switch interval below: 2 at a time
# 20/23/29 ms, 1 at a time 16/15/22 ms; uploads
# accepted per second the same (51-65 vs 56-60: the parse processes are the bottleneck).
UPLOAD_CONCURRENCY = 1
# How long a thread holding the GIL keeps it while another waits (CPython's default is 5 ms).
# GET job is read on the event loop, and each SQLite call there releases the GIL and must
# win it back from an upload's thread: server-side GET job p99 while 20 clients upload,
# interleaved at load 9-10, default 32/42/36 ms, 0.5 ms 20/23/29 ms.
GIL_SWITCH_INTERVAL_SECONDS = 0.0005


def open_database(settings: Settings) -> Database:
    """Migrate the configured database to the newest schema and open it."""
    settings.home.mkdir(parents=True, exist_ok=True)
    url = settings.resolved_database_url()
    upgrade(url)
    return Database(url)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        database = open_database(settings)
        app.state.database = database
        # Failed logins counted in the database: the same count in every API process.
        app.state.login_throttle = LoginThrottle.from_settings(settings, database)
        app.state.files = make_storage(settings)
        app.state.job_queue = make_job_queue(settings, database)
        # The in-process queue's own process may send the webhooks (service.dispatch_process).
        app.state.webhook_sender = getattr(app.state.job_queue, "webhook_sender", None) or WebhookSender(
            settings, database
        )
        app.state.previews = PreviewRenderer(settings.worker_memory_limit_mb * MB)
        # Uploads doing their checks and bookkeeping at once (service.routes.jobs).
        app.state.upload_limiter = anyio.CapacityLimiter(UPLOAD_CONCURRENCY)
        app.state.job_queue.start()
        app.state.webhook_sender.start()
        # Everything loaded so far lives as long as the process: keep it out of the
        # collector's full passes, which otherwise stall requests for tens of ms.
        gc.collect()
        gc.freeze()
        switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(GIL_SWITCH_INTERVAL_SECONDS)
        log.info("labreport service started (%s workers)", "celery" if settings.celery_mode else settings.executor)
        try:
            yield
        finally:
            sys.setswitchinterval(switch_interval)
            app.state.webhook_sender.stop()
            app.state.job_queue.stop()
            app.state.previews.close()
            database.dispose()

    app = FastAPI(
        title="labreport",
        summary="Lab report parsing jobs: upload a report, get structured, LOINC-coded results.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # install_docs serves /docs and /redoc with local assets (offline)
        redoc_url=None,
    )
    app.state.settings = settings

    @app.exception_handler(LabReportError)
    async def _lab_report_error(_request: Request, error: LabReportError) -> JSONResponse:
        return JSONResponse({"detail": error.message}, status_code=error.http_status)

    @app.exception_handler(OperationalError)
    async def _database_busy(request: Request, error: OperationalError) -> JSONResponse:
        # SQLite refuses a second writer past its busy timeout ("database is locked"): two
        # simultaneous edits of one job. The loser may retry; anything else is a real 500.
        if "database is locked" not in str(error.orig):
            raise error
        log.info("%s %s: database busy (concurrent write)", request.method, request.url.path)
        return JSONResponse(
            {"detail": "another change to this item is being saved; retry in a moment"}, status_code=409
        )

    app.add_middleware(BodyLimitMiddleware, settings=settings)

    @app.get("/healthz", tags=["health"])
    def healthz(request: Request) -> JSONResponse:
        """200 when this process can take jobs; 503 when its database is unreachable."""
        return health_response(request.app)

    for module in (users, jobs, webhooks, review, review_web):
        app.include_router(module.router)
    install_docs(app)
    return app
