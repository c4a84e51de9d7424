"""`labreport parse FILE` and `labreport batch DIR --out OUT`: thin shells over the pipeline.

`parse` prints the `data` object as JSON on stdout; on bad input it prints one line on stderr
and exits with the error's code (parser.exceptions). The batch logic lives in cli/batch.py.
"""

from __future__ import annotations

import logging
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cli.batch import default_workers
from parser.exceptions import LabReportError, ProcessingError

log = logging.getLogger(__name__)
USAGE_ERROR = 2


def pipeline():
    """The pipeline function; imported on use so `labreport --help` stays fast."""
    from service.pipeline import process_document

    return process_document


def _fail(message: str, code: int) -> None:
    typer.echo(f"labreport: error: {message}", err=True)
    raise typer.Exit(code)


def parse(
    file: Path = typer.Argument(..., help="A lab report: PDF, JPEG or PNG, at most 10 MB."),
    max_pages: int = typer.Option(30, "--max-pages", min=1, help="Refuse longer documents."),
    compact: bool = typer.Option(False, "--compact", help="One-line JSON instead of indented."),
) -> None:
    """Parse one report and print its data object (metadata and results) as JSON."""
    if not file.is_file():
        _fail(f"no such file: {file}", USAGE_ERROR)
    try:
        data = file.read_bytes()
    except OSError as error:
        _fail(f"cannot read {file}: {error.strerror}", USAGE_ERROR)
    try:
        report = pipeline()(data, filename=file.name, max_pages=max_pages)
    except LabReportError as error:
        _fail(f"{error.message} [{error.failure_reason}]", error.exit_code)
    except Exception as error:  # a bug: one line for the user, the traceback in the debug log
        log.debug("unexpected error while parsing", exc_info=True)
        _fail(f"{ProcessingError().message} ({type(error).__name__})", ProcessingError.exit_code)
    typer.echo(report.model_dump_json(indent=None if compact else 2))


def _failure_line(outcome) -> str:
    """One line per failed file, for logs and pipes: file, reason, message."""
    return f"failed: {outcome.file}: {outcome.failure_reason}: {outcome.message}"


def batch(
    directory: Path = typer.Argument(..., help="Folder searched recursively for PDF/JPEG/PNG reports."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for the JSON files, results.csv and summary.json."),
    workers: int = typer.Option(
        default_workers(), "--workers", "-w", min=1, show_default=True,
        help="Parallel processes; by default one per core this command may use.",
    ),
    force: bool = typer.Option(False, "--force", help="Parse again files whose JSON already exists."),
    max_pages: int = typer.Option(30, "--max-pages", min=1, help="Refuse longer documents."),
) -> None:
    """Parse every report under DIRECTORY into OUT. Exit code 1 when any file failed
    (each failure is in OUT/summary.json with its reason)."""
    from cli.batch import run_batch

    if not directory.is_dir():
        _fail(f"no such folder: {directory}", USAGE_ERROR)
    console = Console(stderr=True)
    if console.is_terminal:
        progress = Progress(
            TextColumn("[bold]parsing"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[failed]} failed"), TimeElapsedColumn(), console=console,
        )
        with progress:
            task = progress.add_task("batch", total=None, failed=0)
            failed = 0

            def advance(outcome) -> None:
                nonlocal failed
                failed += outcome.status == "failed"
                progress.update(task, advance=1, failed=failed)
                if outcome.status == "failed":
                    progress.console.print(_failure_line(outcome), markup=False, highlight=False)

            summary = run_batch(
                directory, out, workers=workers, force=force, max_pages=max_pages,
                on_start=lambda total: progress.update(task, total=total),
                on_progress=advance,
            )
    else:
        # Piped or logged: no bar, but every failure on its own line as it happens.
        def report_failure(outcome) -> None:
            if outcome.status == "failed":
                typer.echo(_failure_line(outcome), err=True)

        summary = run_batch(
            directory, out, workers=workers, force=force, max_pages=max_pages, on_progress=report_failure
        )
    typer.echo(
        f"{summary.total} files: {summary.parsed} parsed, {summary.skipped} skipped (already done), "
        f"{summary.failed} failed; {summary.results} results in {out / 'results.csv'}",
        err=True,
    )
    if summary.failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("parse")(parse)
    app.command("batch")(batch)
