"""`labreport serve | worker | db upgrade`: run the job service (teams: cli/team_cmd.py)."""

from __future__ import annotations

import typer

# The commands import the service inside their bodies: other `labreport` commands
# (parse, batch, loinc) should not load FastAPI, SQLAlchemy and Celery at start-up.

db_app = typer.Typer(no_args_is_help=True, help="Database schema.")


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
    log_level: str = typer.Option("info", help="uvicorn log level."),
) -> None:
    """Run the API with its workers (in-process unless LABREPORT_BROKER_URL is set)."""
    import uvicorn

    from service.http_limits import uvicorn_options
    from service.log_config import configure_logging
    from service.settings import get_settings

    _migrate_or_fail()
    configure_logging(log_level)
    uvicorn.run(
        "service.app:create_app", factory=True, host=host, port=port,
        log_level=log_level, access_log=False, timeout_graceful_shutdown=10,
        **uvicorn_options(get_settings()),
    )


def worker(
    concurrency: int = typer.Option(0, help="Parse processes (default LABREPORT_WORKERS)."),
    log_level: str = typer.Option("info", help="Celery log level."),
) -> None:
    """Run a Celery worker for scale-out mode (needs LABREPORT_BROKER_URL and DATABASE_URL)."""
    from service.celery_app import make_celery
    from service.log_config import configure_logging
    from service.settings import get_settings

    settings = get_settings()
    if not settings.broker_url:
        _fail("LABREPORT_BROKER_URL is not set; `labreport serve` runs jobs in-process without it")
    _migrate_or_fail()
    configure_logging(log_level)  # the job lines (ids only) of service.runner, like `serve`
    make_celery(settings).worker_main(
        [
            "worker",
            f"--concurrency={concurrency or settings.workers}",
            f"--loglevel={log_level}",
            "--without-gossip",
            "--without-mingle",
        ]
    )


def _migrate_or_fail() -> list[str]:
    """Migrate the configured database; one line and exit 2 when it cannot be opened."""
    from pydantic import ValidationError

    from service.db import DatabaseUnavailable, upgrade
    from service.settings import get_settings
    from service.storage import private_dir

    try:
        settings = get_settings()
    except ValidationError as error:
        _fail("; ".join(item["msg"].removeprefix("Value error, ") for item in error.errors()))
    try:
        private_dir(settings.home)
        return upgrade(settings.resolved_database_url())
    except DatabaseUnavailable as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"cannot use LABREPORT_HOME {settings.home} ({error.strerror}); set it to a writable folder")


def _open_database():
    from service.app import open_database
    from service.settings import get_settings

    _migrate_or_fail()
    return open_database(get_settings())


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Apply the database migrations (serve and team create do this themselves)."""
    applied = _migrate_or_fail()
    if applied:
        typer.echo(f"applied {len(applied)} migration(s): {', '.join(applied)}")
    else:
        typer.echo("database is up to date (nothing to apply)")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("worker")(worker)
    app.add_typer(db_app, name="db")
