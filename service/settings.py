"""The service's one settings object, read from the environment.

Every knob of the API, the workers and the webhook sender lives here so a
deployment is described by its environment alone:

    LABREPORT_HOME                    state directory (default ./.labreport): SQLite db + stored files
    DATABASE_URL                      SQLAlchemy URL; default sqlite under LABREPORT_HOME
    LABREPORT_BROKER_URL              Celery broker (Redis); unset = in-process workers
    LABREPORT_STORAGE                 where uploads live: files (under LABREPORT_HOME) or database
                                      (the `blobs` table; scale-out); default: database with a broker
    LABREPORT_DISPATCH_RETRY_SECONDS  while the broker refuses jobs, the outbox retries this often (2)
    LABREPORT_DISPATCH_RECHECK_SECONDS a job handed to the broker but still not started after this
                                      long is handed over again (a broker may lose its queue)
    LABREPORT_ALLOW_PRIVATE_WEBHOOKS  1 lets webhooks go to loopback/private addresses (dev, tests)
    LABREPORT_WORKERS                 parsing processes of the in-process pool (default: CPU count)
    LABREPORT_WORKER_NICENESS         CPU niceness of those processes (default 10)
    LABREPORT_MAX_PAGES               page limit of one report
    LABREPORT_WEBHOOK_RETRY_SCHEDULE  JSON list of seconds between attempts
    LABREPORT_WORKER_MEMORY_LIMIT_MB  address-space ceiling of a parse process (1024)
    LABREPORT_JOB_LEASE_SECONDS       a started job whose dispatcher stopped renewing it this long
                                      runs again (15)
    LABREPORT_MAX_JSON_BODY_BYTES, _MAX_HEADER_BYTES, _MAX_HEADERS, _MAX_URL_BYTES,
    _HEADER_TIMEOUT_SECONDS, _BODY_TIMEOUT_SECONDS, _MAX_CONNECTIONS, _KEEP_ALIVE_SECONDS
                                      HTTP limits of every request (service.http_limits)
    LABREPORT_LOGIN_MAX_FAILURES_PER_ACCOUNT / _PER_ADDRESS, _LOGIN_WINDOW_SECONDS,
    _LOGIN_LOCKOUT_SECONDS            reviewer login throttling (service.review_auth)
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from parser.limits import MB, WORKER_MEMORY_LIMIT

# The contract's retry schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then exhausted.
DEFAULT_RETRY_SCHEDULE = [5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LABREPORT_", extra="ignore")

    home: Path = Path(".labreport")
    database_url: str | None = Field(
        default=None, validation_alias=AliasChoices("DATABASE_URL", "LABREPORT_DATABASE_URL")
    )
    broker_url: str | None = None
    # "auto": the database when a broker is set (API and workers then share no disk), else files.
    storage: Literal["auto", "files", "database"] = "auto"
    allow_private_webhooks: bool = False

    # Parsing workers. "process" keeps CPU-heavy parsing, and the job dispatcher and webhook
    # sender (service.dispatch_process), out of the API process; "thread" runs all of it in
    # the API process (small deployments, debugging, tests).
    executor: Literal["process", "thread"] = "process"
    workers: int = Field(default_factory=lambda: os.cpu_count() or 1, ge=1)
    max_pages: int = Field(default=30, ge=1)
    # Parse processes run this much nicer than the API so polling stays fast while they work.
    worker_niceness: int = Field(default=10, ge=0, le=19)
    # Address-space ceiling of each parse process (parser.limits.WORKER_MEMORY_LIMIT).
    worker_memory_limit_mb: int = Field(default=WORKER_MEMORY_LIMIT // MB, ge=256)

    # Upload limits of the contract.
    max_upload_bytes: int = 10 * MB
    # HTTP limits of every request (service.http_limits): 413 / 431 / 414 / 408 beyond them.
    max_json_body_bytes: int = Field(default=1 * MB, ge=1024)
    max_header_bytes: int = Field(default=32 * 1024, ge=1024)
    max_headers: int = Field(default=100, ge=10)
    max_url_bytes: int = Field(default=8 * 1024, ge=256)
    header_timeout_seconds: float = Field(default=5.0, gt=0)  # trickled headers held sockets forever
    body_timeout_seconds: float = Field(default=120.0, gt=0)  # 10 MB at under 1 Mbit/s
    max_connections: int = Field(default=500, ge=1)  # uvicorn answers 503 beyond
    keep_alive_seconds: int = Field(default=5, ge=1)
    # Reviewer login throttling (service.review_auth): failures within the window lock the
    # account, or the client address, for `login_lockout_seconds`.
    login_max_failures_per_account: int = Field(default=5, ge=1)
    login_max_failures_per_address: int = Field(default=20, ge=1)
    login_window_seconds: float = Field(default=900.0, gt=0)
    login_lockout_seconds: float = Field(default=900.0, gt=0)
    max_files: int = 8
    idempotency_window_seconds: int = 24 * 3600

    # Webhooks: a 2xx within the timeout counts as delivered.
    webhook_timeout_seconds: float = 15.0
    webhook_retry_schedule: list[float] = Field(default_factory=lambda: list(DEFAULT_RETRY_SCHEDULE))
    webhook_senders: int = Field(default=8, ge=1)
    poll_interval_seconds: float = 1.0
    # A dispatcher renews the lease of its started jobs every third of this; a job whose
    # lease ran out (its dispatcher died) runs again on any dispatcher of the database.
    job_lease_seconds: float = Field(default=15.0, gt=0)

    # The broker outbox (scale-out): while the broker refuses jobs, retry every this many
    # seconds; a job handed over but not started is handed over again after the recheck
    # interval, doubling each time up to an hour (duplicates are harmless: a job runs once).
    dispatch_retry_seconds: float = Field(default=2.0, gt=0)
    dispatch_recheck_seconds: float = Field(default=300.0, gt=0)

    @model_validator(mode="after")
    def _database_storage_needs_broker(self) -> Settings:
        if self.storage == "database" and not self.broker_url:
            raise ValueError(
                "LABREPORT_STORAGE=database needs LABREPORT_BROKER_URL: the in-process workers "
                "read uploads from LABREPORT_HOME"
            )
        return self

    def resolved_database_url(self) -> str:
        if self.database_url:
            # A plain postgresql:// URL means the installed driver (psycopg 3), not psycopg2.
            for plain in ("postgresql://", "postgres://"):
                if self.database_url.startswith(plain):
                    return "postgresql+psycopg://" + self.database_url.removeprefix(plain)
            return self.database_url
        return f"sqlite:///{(self.home / 'labreport.db').resolve()}"

    @property
    def files_dir(self) -> Path:
        return self.home / "files"

    @property
    def celery_mode(self) -> bool:
        return bool(self.broker_url)

    @property
    def storage_backend(self) -> Literal["files", "database"]:
        if self.storage == "auto":
            return "database" if self.celery_mode else "files"
        return self.storage


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment."""
    return Settings()
