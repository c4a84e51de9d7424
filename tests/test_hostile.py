"""The hostile corpus (tests/hostile.py) through `labreport parse` and `labreport batch`: each
file gets its failure_reason and a message naming the problem, never a crash or a wrong
kind of error. The API's side is tests/service/test_hostile_api.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cli import parse_cmd
from cli.batch import REPORT_SUFFIXES, run_batch
from parser.exceptions import LabReportError
from parser.sniff import open_pdf
from tests.hostile import READ, Case, corpus, encrypted_pdf, pdf

# A declared MIME type exists only in the API; on disk the bytes alone decide.
CASES = [case for case in corpus() if case.declared is None]


def disk_name(case: Case) -> str:
    suffix = Path(case.filename[-20:]).suffix.lower()
    return case.name + (suffix if suffix in REPORT_SUFFIXES else ".pdf")


def assert_outcome(case: Case, reason: str | None, message: str) -> None:
    """`reason` None: the file was parsed."""
    if case.reason == READ:
        assert reason in (None, "low_quality"), f"{case.name}: {reason}: {message}"
        return
    assert reason == case.reason, f"{case.name}: {reason}: {message}"
    assert case.message.lower() in message.lower(), f"{case.name}: {message}"
    assert "sharper scan" not in message or reason == "low_quality", message


@pytest.fixture(scope="module")
def cli() -> typer.Typer:
    app = typer.Typer()
    parse_cmd.register(app)
    return app


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_labreport_parse_names_the_problem(cli, case, tmp_path):
    path = tmp_path / disk_name(case)
    path.write_bytes(case.data)
    result = CliRunner().invoke(cli, ["parse", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    if result.exit_code == 0:
        assert_outcome(case, None, "")
        assert set(json.loads(result.stdout)) >= {"metadata", "results"}
        return
    line = result.stderr.strip()
    assert line.count("\n") == 0, line  # one line, no traceback
    reason = next((r for r in ("invalid_input", "too_many_pages", "low_quality", "not_english", "processing_error") if r in line), None)
    assert_outcome(case, reason, line)


def test_labreport_batch_gives_each_file_its_answer(tmp_path):
    """Every refused kind, and a few read ones, in one batch run over worker processes (with
    their memory ceiling); the read kinds' parsing is the parse test's job."""
    cases = [case for case in CASES if case.reason != READ] + [c for c in CASES if c.reason == READ][:3]
    source = tmp_path / "in"
    source.mkdir()
    for case in cases:
        (source / disk_name(case)).write_bytes(case.data)
    summary = run_batch(source, tmp_path / "out", workers=2)
    outcomes = {Path(entry["file"]).name: entry for entry in summary.files}
    assert len(outcomes) == len(cases)
    for case in cases:
        entry = outcomes[disk_name(case)]
        reason = None if entry["status"] == "parsed" else entry["failure_reason"]
        assert_outcome(case, reason, entry["message"] or "")


def test_a_zero_page_pdf_after_an_encrypted_one_is_not_called_encrypted():
    """pdfium keeps its last error code per process: the old opener reported the encrypted
    file's code for the next, merely broken, one."""
    with pytest.raises(LabReportError, match="encrypted"):
        open_pdf(encrypted_pdf("secret"))
    empty = pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"])
    with pytest.raises(LabReportError) as caught:
        open_pdf(empty)
    assert "encrypted" not in caught.value.message
    assert caught.value.failure_reason == "invalid_input"
