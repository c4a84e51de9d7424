"""`GET /healthz`: is this API process able to take jobs, and what do its dependencies say.

    200 {"status": "ok", "database": "ok", "broker": "ok"}
    503 {"status": "unavailable", "database": "unreachable", ...}

An unreachable database is a 503 (no upload can be recorded). A broker that refuses jobs
is reported but stays 200: uploads still work and their jobs wait in the outbox
(`service.job_outbox`) until it is back. "broker" is absent without one (in-process workers).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

log = logging.getLogger(__name__)


def health_response(app: FastAPI) -> JSONResponse:
    body = {"status": "ok", "database": "ok"}
    code = 200
    try:
        with app.state.database.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        log.warning("health: the database is unreachable (%s)", type(error).__name__)
        body.update(status="unavailable", database="unreachable")
        code = 503
    broker_down = getattr(app.state.job_queue, "broker_down", None)
    if broker_down is not None:
        body["broker"] = "refusing jobs" if broker_down else "ok"
    return JSONResponse(body, status_code=code)
