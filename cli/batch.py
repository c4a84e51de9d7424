"""The batch run behind `labreport batch`: every report under a folder, in parallel processes.

For each PDF/JPEG/PNG under the source folder (recursively) the pipeline's `data` object is
written to `OUT/<relative path>.json` (the file's full name plus `.json`: `in/a/report.pdf` ->
`out/a/report.pdf.json`, so two files sharing a stem never collide); at the end
`OUT/results.csv` holds one row per result of every parsed file, with the report's patient
and lab fields and `source_file`, and `OUT/summary.json` the counts, every failure with its
`failure_reason`, and per file the review routing the service would apply. A bad file is recorded and the run goes on; files whose JSON is
already there (and newer than the file) are skipped unless `force`.
"""

from __future__ import annotations

import importlib
import json
import logging
import multiprocessing
import os
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from parser.exceptions import LabReportError, MemoryLimitError
from parser.limits import confine_process
from parser.models import ReportData
from review.routing import route_report

log = logging.getLogger(__name__)

REPORT_SUFFIXES = {".pdf", ".jpg", ".jpeg", ".png"}
DEFAULT_PROCESS = "service.pipeline:process_document"
RESULTS_CSV = "results.csv"
SUMMARY_JSON = "summary.json"
OBSERVATIONS_NDJSON = "observations.ndjson"  # with fhir: every Observation, one a line (FHIR bulk data)
FHIR_SUFFIX = ".fhir.json"  # with fhir: `<report>.fhir.json` beside `<report>.json`

CSV_COLUMNS = [
    "source_file", "page", "test_name", "value", "type", "units", "ucum_units",
    "min_reference_range", "max_reference_range", "reference_range_text",
    "interpretation", "is_above_max_range", "is_below_min_range", "source_flag",
    "source_panel_name", "sample_type", "measurement_kind", "sensitivity",
    "loinc_code", "loinc_name", "loinc_confidence", "loinc_match_status",
    "extraction_confidence", "patient_first_name", "patient_last_name", "dob", "gender",
    "lab_name", "date_collected", "date_reported", "specimen_number",
]


@dataclass(frozen=True, slots=True)
class BatchItem:
    source: Path
    relative: str  # path under the source folder, '/'-separated, as shown to the user
    output: Path


@dataclass(slots=True)
class FileOutcome:
    file: str
    status: str  # "parsed", "skipped" or "failed"
    results: int = 0
    failure_reason: str | None = None
    message: str | None = None
    seconds: float = 0.0
    # What the service's routing decides for this report (null for a failed file).
    needs_review: bool | None = None
    review_reasons: list[str] = field(default_factory=list)

    def route(self, report: ReportData) -> None:
        """The same decision the service makes for a job (team default threshold, not forced)."""
        decision = route_report(report)
        self.needs_review, self.review_reasons = decision.needs_review, list(decision.reasons)


@dataclass(slots=True)
class BatchSummary:
    source: str
    output: str
    workers: int
    total: int = 0
    parsed: int = 0
    skipped: int = 0
    failed: int = 0
    results: int = 0
    seconds: float = 0.0
    failures: list[dict] = field(default_factory=list)
    files: list[dict] = field(default_factory=list)


# --- planning -------------------------------------------------------------------------------


def find_reports(source: Path, *, exclude: Path | None = None) -> list[Path]:
    """Report files under `source`, sorted; hidden files and the output folder are left out."""
    exclude = exclude.resolve() if exclude else None
    found = []
    for path in source.rglob("*"):
        if not path.is_file() or path.suffix.lower() not in REPORT_SUFFIXES:
            continue
        relative = path.relative_to(source)
        if any(part.startswith(".") for part in relative.parts):
            continue
        if exclude and (exclude == path.resolve().parent or exclude in path.resolve().parents):
            continue
        found.append(path)
    return sorted(found, key=lambda p: p.relative_to(source).as_posix())


def plan(source: Path, out: Path) -> list[BatchItem]:
    """Pair every report with its JSON path: one rule, the file's relative path plus `.json`
    (`a.pdf` -> `a.pdf.json`), so `a.pdf` and `a.png` in one folder never share an output."""
    items = []
    for path in find_reports(source, exclude=out):
        relative = path.relative_to(source).as_posix()
        items.append(BatchItem(path, relative, out / (relative + ".json")))
    return items


def is_done(item: BatchItem) -> bool:
    """Parsed on an earlier run: the JSON exists and is not older than the report."""
    try:
        return item.output.stat().st_mtime >= item.source.stat().st_mtime
    except FileNotFoundError:
        return False


# --- one file (runs in a worker process) ----------------------------------------------------


def resolve(process: str | Callable) -> Callable:
    """'module:function' -> the function (names travel to worker processes, functions may not)."""
    if callable(process):
        return process
    module, _, name = process.partition(":")
    return getattr(importlib.import_module(module), name)


def parse_one(item: BatchItem, process: str | Callable, max_pages: int) -> FileOutcome:
    """Parse one report and write its JSON atomically; every failure becomes an outcome."""
    start = time.perf_counter()
    try:
        data = item.source.read_bytes()
        report: ReportData = resolve(process)(data, filename=item.source.name, max_pages=max_pages)
        item.output.parent.mkdir(parents=True, exist_ok=True)
        partial = item.output.with_name(item.output.name + ".part")
        partial.write_text(report.model_dump_json(indent=2), encoding="utf-8")
        os.replace(partial, item.output)
        outcome = FileOutcome(item.relative, "parsed", results=len(report.results))
        outcome.route(report)
    except LabReportError as error:
        outcome = FileOutcome(item.relative, "failed", failure_reason=error.failure_reason, message=error.message)
    except OSError as error:
        outcome = FileOutcome(
            item.relative, "failed", failure_reason="processing_error",
            message=f"file could not be read or written: {error.strerror or type(error).__name__}",
        )
    except MemoryError:  # the worker's memory ceiling (parser.limits) stopped a bomb
        error = MemoryLimitError()
        outcome = FileOutcome(item.relative, "failed", failure_reason=error.failure_reason, message=error.message)
    except Exception as error:  # a bug must not stop the other files
        # The message may quote report text (patient data): log the type and where, not what.
        log.error(
            "unexpected %s on a batch file\n%s",
            type(error).__name__, "".join(traceback.format_tb(error.__traceback__)),
        )
        outcome = FileOutcome(
            item.relative, "failed", failure_reason="processing_error",
            message=f"unexpected error ({type(error).__name__})",
        )
    outcome.seconds = round(time.perf_counter() - start, 3)
    return outcome


# --- the run --------------------------------------------------------------------------------


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def run_batch(
    source: Path,
    out: Path,
    *,
    workers: int | None = None,
    force: bool = False,
    max_pages: int = 30,
    process: str | Callable | None = None,
    on_progress: Callable[[FileOutcome], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    fhir: bool = False,
) -> BatchSummary:
    """Parse every report under `source` into `out`; returns (and writes) the summary.

    `fhir`: also write each report's FHIR Bundle and `observations.ndjson`.

    `process` is the pipeline, as 'module:function' so worker processes can import it
    (default: service.pipeline.process_document).
    """
    started = time.perf_counter()
    process = process or DEFAULT_PROCESS
    source, out = Path(source), Path(out)
    if not source.is_dir():
        raise NotADirectoryError(f"{source} is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    workers = workers or default_workers()
    items = plan(source, out)
    summary = BatchSummary(source=str(source), output=str(out), workers=workers, total=len(items))
    if on_start:
        on_start(len(items))

    outcomes: dict[str, FileOutcome] = {}
    todo = []
    for item in items:
        if not force and is_done(item):
            outcomes[item.relative] = FileOutcome(item.relative, "skipped")
            if on_progress:
                on_progress(outcomes[item.relative])
        else:
            todo.append(item)

    def record(outcome: FileOutcome) -> None:
        outcomes[outcome.file] = outcome
        if on_progress:
            on_progress(outcome)

    if workers == 1 or len(todo) <= 1:
        for item in todo:
            record(parse_one(item, process, max_pages))
    else:
        _run_parallel(todo, workers, process, max_pages, record)

    # Results of every file that has a JSON now, parsed in this run or skipped as done.
    rows, bundles = [], []
    for item in items:
        outcome = outcomes[item.relative]
        if outcome.status in ("parsed", "skipped"):
            report = _read_back(item)
            if report is None:
                continue
            if outcome.status == "skipped":
                outcome.results = len(report.results)
                outcome.route(report)
            rows.extend(_csv_rows(item, report))
            if fhir:
                bundles.append(_write_bundle(item, report, outcome.needs_review))
    _write_csv(out / RESULTS_CSV, rows)
    if fhir:
        _write_ndjson(out / OBSERVATIONS_NDJSON, [b for b in bundles if b is not None])

    for item in items:
        outcome = outcomes[item.relative]
        setattr(summary, outcome.status, getattr(summary, outcome.status) + 1)
        summary.results += outcome.results
        summary.files.append(asdict(outcome))
        if outcome.status == "failed":
            summary.failures.append(
                {"file": outcome.file, "failure_reason": outcome.failure_reason, "message": outcome.message}
            )
    summary.seconds = round(time.perf_counter() - started, 3)
    _write_json(out / SUMMARY_JSON, asdict(summary))
    return summary


def _run_parallel(todo: list[BatchItem], workers: int, process, max_pages: int, record) -> None:
    """Spread files over worker processes. A worker that dies (a crash in a native library)
    breaks the whole pool: the files that may have been running then are re-run one process
    each, which names the culprit, and the others go on in a fresh pool."""
    # spawn: the parent may run a progress-bar thread, and forking a threaded process is unsafe.
    context = multiprocessing.get_context("spawn")
    pending = list(todo)
    while pending:
        finished: set[str] = set()
        broken = False
        with ProcessPoolExecutor(
            max_workers=min(workers, len(pending)), mp_context=context, initializer=confine_process
        ) as pool:
            futures = {pool.submit(parse_one, item, process, max_pages): item for item in pending}
            waiting = set(futures)
            while waiting and not broken:
                done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
                for future in done:
                    try:
                        outcome = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    finished.add(futures[future].relative)
                    record(outcome)
        if not broken:
            return
        for future, item in futures.items():  # finished just before the break: keep them
            if item.relative not in finished and future.done() and future.exception() is None:
                finished.add(item.relative)
                record(future.result())
        unfinished = [item for item in pending if item.relative not in finished]
        # The pool hands out at most one call beyond its workers, in submission order: only
        # these can have been running when it broke.
        suspects, pending = unfinished[: workers + 1], unfinished[workers + 1 :]
        log.warning("a batch worker process died; %d files are re-run one by one", len(suspects))
        _run_isolated(suspects, workers, process, max_pages, record, context)


def _run_isolated(items: list[BatchItem], workers: int, process, max_pages: int, record, context) -> None:
    """Each file in a process of its own (`workers` at a time): a crash fails only its file."""
    pending = list(items)
    running: dict = {}
    while pending or running:
        while pending and len(running) < workers:
            item = pending.pop(0)
            pool = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=confine_process)
            running[pool.submit(parse_one, item, process, max_pages)] = (item, pool)
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in done:
            item, pool = running.pop(future)
            try:
                record(future.result())
            except BrokenProcessPool:
                record(FileOutcome(
                    item.relative, "failed", failure_reason="processing_error",
                    message="parsing this file crashed its worker process",
                ))
            pool.shutdown(wait=True)


def _read_back(item: BatchItem) -> ReportData | None:
    try:
        return ReportData.model_validate_json(item.output.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        log.warning("a batch output JSON could not be read back; its rows are left out")
        return None


def _csv_rows(item: BatchItem, report: ReportData) -> list[dict]:
    """One row per result, each carrying the report's metadata: the CSV stands alone."""
    meta = report.metadata
    rows = []
    for result in report.results:
        top = result.loinc_matches[0] if result.loinc_matches else None
        rows.append({
            "source_file": item.relative,
            "page": result.page,
            "test_name": result.test_name,
            "value": result.value,
            "type": result.type,
            "units": result.units,
            "ucum_units": result.ucum_units,
            "min_reference_range": result.min_reference_range,
            "max_reference_range": result.max_reference_range,
            "reference_range_text": result.reference_range_text,
            "interpretation": result.interpretation,
            "is_above_max_range": result.is_above_max_range,
            "is_below_min_range": result.is_below_min_range,
            "source_flag": result.source_flag,
            "source_panel_name": result.source_panel_name,
            "sample_type": result.sample_type,
            "measurement_kind": result.measurement_kind,
            "sensitivity": result.sensitivity,
            "loinc_code": top.loinc_code if top else None,
            "loinc_name": top.loinc_name if top else None,
            "loinc_confidence": top.confidence_score if top else None,
            "loinc_match_status": result.loinc_match_status,
            "extraction_confidence": result.extraction_confidence,
            "patient_first_name": meta.patient_first_name,
            "patient_last_name": meta.patient_last_name,
            "dob": meta.dob,
            "gender": meta.gender,
            "lab_name": meta.lab_name,
            "date_collected": meta.date_collected,
            "date_reported": meta.date_reported,
            "specimen_number": meta.specimen_number,
        })
    return rows


def _write_csv(path: Path, rows: Iterable[dict]) -> None:
    import pandas as pd  # here, not at the top: `labreport --help` should not load pandas

    frame = pd.DataFrame(list(rows), columns=CSV_COLUMNS)
    partial = path.with_name(path.name + ".part")
    frame.to_csv(partial, index=False)
    os.replace(partial, path)


def _write_bundle(item: BatchItem, report: ReportData, needs_review: bool | None):
    """Write the report's Bundle beside its JSON; None when the report file cannot be read."""
    from service.fhir import bundle_json, file_bundle  # the FHIR models load only when asked

    try:
        bundle = file_bundle(report, item.source.read_bytes(), needs_review=needs_review)
    except OSError:
        log.warning("a batch report could not be read back for its FHIR Bundle; it is left out")
        return None
    path = item.output.with_name(item.output.name.removesuffix(".json") + FHIR_SUFFIX)
    partial = path.with_name(path.name + ".part")
    partial.write_text(bundle_json(bundle, indent=2), encoding="utf-8")
    os.replace(partial, path)
    return bundle


def _write_ndjson(path: Path, bundles: list) -> None:
    from service.fhir import ndjson_lines

    partial = path.with_name(path.name + ".part")
    with partial.open("w", encoding="utf-8") as handle:
        for line in ndjson_lines(bundles):
            handle.write(line + "\n")
    os.replace(partial, path)


def _write_json(path: Path, payload: dict) -> None:
    partial = path.with_name(path.name + ".part")
    partial.write_text(json.dumps(payload, indent=2), encoding="utf-8")
    os.replace(partial, path)
