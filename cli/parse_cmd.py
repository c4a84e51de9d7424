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
OUTPUT_FORMATS = ("json", "fhir")


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
    output_format: str = typer.Option(
        "json", "--format", help="json: the data object; fhir: a FHIR R4 Bundle (collection)."
    ),
    explain: bool = typer.Option(
        False, "--explain", help="Print per page the rows read and every line not read, with why."
    ),
) -> None:
    """Parse one report and print its data object (metadata and results) as JSON."""
    if output_format not in OUTPUT_FORMATS:
        _fail(f"unknown --format {output_format!r}; use one of: {', '.join(OUTPUT_FORMATS)}", USAGE_ERROR)
    if not file.is_file():
        _fail(f"no such file: {file}", USAGE_ERROR)
    try:
        data = file.read_bytes()
    except OSError as error:
        _fail(f"cannot read {file}: {error.strerror}", USAGE_ERROR)
    if explain:
        _explain(data, max_pages)
        return
    try:
        report = pipeline()(data, filename=file.name, max_pages=max_pages)
    except LabReportError as error:
        _fail(f"{error.message} [{error.failure_reason}]", error.exit_code)
    except Exception as error:  # a bug: one line for the user, the traceback in the debug log
        log.debug("unexpected error while parsing", exc_info=True)
        _fail(f"{ProcessingError().message} ({type(error).__name__})", ProcessingError.exit_code)
    if output_format == "fhir":
        from service.fhir import bundle_json, file_bundle  # loads the FHIR models only when asked

        typer.echo(bundle_json(file_bundle(report, data), indent=None if compact else 2))
        return
    typer.echo(report.model_dump_json(indent=None if compact else 2))


def _explain(data: bytes, max_pages: int) -> None:
    """--explain: the layout reading, to stdout only (it holds patient data: never logged)."""
    from parser.document import load_document
    from parser.explain import explain_document, format_explanation

    try:
        pages = explain_document(load_document(data, max_pages=max_pages))
    except LabReportError as error:
        _fail(f"{error.message} [{error.failure_reason}]", error.exit_code)
    typer.echo(format_explanation(pages))


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
    output_format: str = typer.Option(
        "json", "--format",
        help="fhir: also a FHIR Bundle per report (<name>.fhir.json) and observations.ndjson.",
    ),
) -> None:
    """Parse every report under DIRECTORY into OUT. Exit code 1 when any file failed
    (each failure is in OUT/summary.json with its reason)."""
    from cli.batch import run_batch

    if not directory.is_dir():
        _fail(f"no such folder: {directory}", USAGE_ERROR)
    if output_format not in OUTPUT_FORMATS:
        _fail(f"unknown --format {output_format!r}; use one of: {', '.join(OUTPUT_FORMATS)}", USAGE_ERROR)
    fhir = output_format == "fhir"
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
                directory, out, workers=workers, force=force, max_pages=max_pages, fhir=fhir,
                on_start=lambda total: progress.update(task, total=total),
                on_progress=advance,
            )
    else:
        # Piped or logged: no bar, but every failure on its own line as it happens.
        def report_failure(outcome) -> None:
            if outcome.status == "failed":
                typer.echo(_failure_line(outcome), err=True)

        summary = run_batch(
            directory, out, workers=workers, force=force, max_pages=max_pages, fhir=fhir,
            on_progress=report_failure,
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
