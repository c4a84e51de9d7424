"""`labreport parse`: JSON on stdout, one line on stderr and the error's exit code on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cli import parse_cmd
from extract_samples import report_pdf
from parser.document import load_document
from parser.exceptions import (
    EmptyFileError,
    FileTooLargeError,
    TooManyPagesError,
    UnsupportedTypeError,
)
from parser.models import LabReportResult, ReportData

# The real samples, copied from ../shared/samples/real into the repository (same bytes).
SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "real"


@pytest.fixture()
def app() -> typer.Typer:
    app = typer.Typer()
    parse_cmd.register(app)
    return app


@pytest.fixture()
def extraction_only(monkeypatch):
    """The pipeline reduced to the extraction stage, so these tests check the command's own
    behaviour (exit codes, messages, output) on real input checks."""

    def process(data, *, filename=None, max_pages=30):
        document = load_document(data, filename=filename, max_pages=max_pages)
        words = sum(len(page.words) for page in document.pages)
        return ReportData(results=[LabReportResult(test_name="words", value=str(words), page=1)])

    monkeypatch.setattr(parse_cmd, "pipeline", lambda: process)


def run(app, *args):
    return CliRunner().invoke(app, ["parse", *map(str, args)])


def test_prints_the_data_object_as_json(app, extraction_only, tmp_path):
    report = tmp_path / "report.pdf"
    report.write_bytes(report_pdf())
    result = run(app, report)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"metadata", "results"}
    assert int(data["results"][0]["value"]) > 20


BAD_INPUTS = {
    "empty": (lambda: b"", EmptyFileError),
    "text": (lambda: b"just some text", UnsupportedTypeError),
    "too-large": (lambda: b"%PDF-1.4\n" + b"\0" * (10 * 1024 * 1024), FileTooLargeError),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_gives_one_line_and_the_errors_exit_code(app, extraction_only, tmp_path, case):
    make, error = BAD_INPUTS[case]
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(make())
    result = run(app, bad)
    assert result.exit_code == error.exit_code
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and error().message in lines[0]
    assert error.failure_reason in lines[0]


def test_page_limit_option(app, extraction_only, tmp_path):
    report = tmp_path / "long.pdf"
    report.write_bytes(report_pdf(pages=3))
    assert run(app, report, "--max-pages", 3).exit_code == 0
    result = run(app, report, "--max-pages", 2)
    assert result.exit_code == TooManyPagesError.exit_code
    assert "3 pages" in result.stderr


def test_missing_file(app, extraction_only, tmp_path):
    result = run(app, tmp_path / "nope.pdf")
    assert result.exit_code == 2
    assert "no such file" in result.stderr


def test_a_bug_is_one_line_not_a_traceback(app, monkeypatch, tmp_path):
    def broken(data, **_):
        raise KeyError("patient name must never be printed")

    monkeypatch.setattr(parse_cmd, "pipeline", lambda: broken)
    report = tmp_path / "report.pdf"
    report.write_bytes(report_pdf())
    result = run(app, report)
    assert result.exit_code == 7
    assert result.stderr.count("\n") == 1 and "KeyError" in result.stderr
    assert "patient name" not in result.stderr


@pytest.mark.slow
def test_real_sample_end_to_end(app):
    sample = SAMPLES / "cbc_normal_drlogy.pdf"
    result = run(app, sample)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    values = {row["test_name"]: row["value"] for row in data["results"]}
    assert any(value == "13.00" for value in values.values())
