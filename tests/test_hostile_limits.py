"""The backstop behind the input checks: a parse process's memory ceiling turns a bomb the
checks missed into an `invalid_input` failure of its job or file, not a crash."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import service.pipeline
from cli import batch
from parser.limits import MB, confine_process
from service.runner import JobWork, parse_files


def _allocate(megabytes: int) -> str:
    try:
        block = bytearray(megabytes * MB)
    except MemoryError:
        return "MemoryError"
    return f"allocated {len(block) // MB} MB"


def test_a_confined_process_cannot_take_more_than_its_ceiling():
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context, initializer=confine_process, initargs=(512 * MB,)) as pool:
        assert pool.submit(_allocate, 64).result() == "allocated 64 MB"
        assert pool.submit(_allocate, 1024).result() == "MemoryError"


def _out_of_memory(*_args, **_kwargs):
    raise MemoryError


def test_a_job_that_runs_out_of_its_ceiling_fails_as_invalid_input(monkeypatch, tmp_path):
    report = tmp_path / "r.pdf"
    report.write_bytes(b"%PDF-1.7\n")
    monkeypatch.setattr(service.pipeline, "process_document", _out_of_memory)
    work = JobWork(job_id="j", paths=[str(report)], aliases={}, max_pages=30, review_threshold=0.5, forced_review=False)
    outcome = parse_files(work)
    assert outcome.failure_reason == "invalid_input"
    assert "decompression bomb" in outcome.failure_detail


def test_a_batch_file_that_runs_out_of_its_ceiling_fails_as_invalid_input(tmp_path):
    source = tmp_path / "r.pdf"
    source.write_bytes(b"%PDF-1.7\n")
    item = batch.BatchItem(source=source, relative="r.pdf", output=tmp_path / "r.pdf.json")
    outcome = batch.parse_one(item, _out_of_memory, 30)
    assert (outcome.status, outcome.failure_reason) == ("failed", "invalid_input")
    assert "decompression bomb" in outcome.message
