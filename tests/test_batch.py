"""`labreport batch`: every report under a folder, outputs, failures, re-runs, crashes."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
import typer
from PIL import Image
from typer.testing import CliRunner

from cli import batch as batch_module
from cli import parse_cmd
from cli.batch import plan, run_batch
from extract_samples import encoded, report_pdf

FAKE = "extract_samples:fake_process"
# The real samples, copied from ../shared/samples/real into the repository (same bytes).
SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "real"


@pytest.fixture()
def reports(tmp_path) -> Path:
    """A folder tree: two good reports in subfolders, an image with an upper-case extension,
    an empty (bad) file, and files that are not reports."""
    source = tmp_path / "in"
    (source / "clinic" / "2024").mkdir(parents=True)
    (source / "clinic" / "2024" / "smith.pdf").write_bytes(report_pdf())
    (source / "clinic" / "scan.PNG").write_bytes(encoded(Image.new("L", (20, 20), 255), "PNG"))
    (source / "photo.jpg").write_bytes(encoded(Image.new("RGB", (20, 20), "white"), "JPEG"))
    (source / "broken.pdf").write_bytes(b"")
    (source / "notes.txt").write_text("not a report")
    (source / ".cache").mkdir()
    (source / ".cache" / "hidden.pdf").write_bytes(report_pdf())
    return source


def test_outputs_mirror_the_folder_tree(reports, tmp_path):
    out = tmp_path / "out"
    summary = run_batch(reports, out, workers=2, process=FAKE)
    assert (summary.total, summary.parsed, summary.failed, summary.skipped) == (4, 3, 1, 0)
    assert (out / "clinic" / "2024" / "smith.pdf.json").is_file()
    assert (out / "clinic" / "scan.PNG.json").is_file()
    assert (out / "photo.jpg.json").is_file()
    assert not (out / "broken.pdf.json").exists()
    data = json.loads((out / "clinic" / "2024" / "smith.pdf.json").read_text())
    assert set(data) == {"metadata", "results"}
    assert data["results"][0]["value"] == str(len(report_pdf()))

    written = json.loads((out / "summary.json").read_text())
    assert written["parsed"] == 3 and written["failed"] == 1 and written["total"] == 4
    assert written["failures"] == [
        {"file": "broken.pdf", "failure_reason": "invalid_input", "message": "the file is empty"}
    ]
    table = pd.read_csv(out / "results.csv")
    assert sorted(table["source_file"]) == ["clinic/2024/smith.pdf", "clinic/scan.PNG", "photo.jpg"]
    assert list(table["test_name"].unique()) == ["Size"]


def test_rerun_skips_done_files_and_force_redoes_them(reports, tmp_path):
    out = tmp_path / "out"
    run_batch(reports, out, workers=1, process=FAKE)
    again = run_batch(reports, out, workers=1, process=FAKE)
    assert (again.parsed, again.skipped, again.failed) == (0, 3, 1)  # the bad file is retried
    assert again.results == 3  # skipped files still count in the tables
    assert len(pd.read_csv(out / "results.csv")) == 3

    forced = run_batch(reports, out, workers=1, force=True, process=FAKE)
    assert (forced.parsed, forced.skipped) == (3, 0)


def test_a_changed_report_is_parsed_again(reports, tmp_path):
    out = tmp_path / "out"
    run_batch(reports, out, workers=1, process=FAKE)
    changed = reports / "photo.jpg"
    changed.write_bytes(encoded(Image.new("RGB", (30, 30), "white"), "JPEG"))
    later = (out / "photo.jpg.json").stat().st_mtime + 10
    os.utime(changed, (later, later))
    summary = run_batch(reports, out, workers=1, process=FAKE)
    assert summary.parsed == 1
    assert json.loads((out / "photo.jpg.json").read_text())["results"][0]["value"] == str(changed.stat().st_size)


def test_same_name_with_different_extensions_loses_nothing(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.pdf").write_bytes(report_pdf())
    (source / "a.png").write_bytes(encoded(Image.new("L", (5, 5), 255), "PNG"))
    (source / "b.pdf").write_bytes(report_pdf())
    outputs = {item.relative: item.output.name for item in plan(source, tmp_path / "out")}
    # One rule for every file, not only for those sharing a stem.
    assert outputs == {"a.pdf": "a.pdf.json", "a.png": "a.png.json", "b.pdf": "b.pdf.json"}


def test_output_folder_inside_the_source_is_not_read(reports):
    out = reports / "results"
    run_batch(reports, out, workers=1, process=FAKE)
    (out / "copy.pdf").write_bytes(report_pdf())
    assert all(not item.relative.startswith("results/") for item in plan(reports, out))


def test_batch_command(reports, tmp_path, monkeypatch):
    monkeypatch.setattr(batch_module, "DEFAULT_PROCESS", FAKE)
    app = typer.Typer()
    parse_cmd.register(app)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["batch", str(reports), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 1  # one file failed
    assert "4 files: 3 parsed, 0 skipped (already done), 1 failed" in result.stderr
    # Not a terminal: no progress bar, but each failure on a line of its own.
    assert "failed: broken.pdf: invalid_input: the file is empty\n" in result.stderr
    assert (out / "summary.json").is_file() and (out / "results.csv").is_file()
    missing = CliRunner().invoke(app, ["batch", str(tmp_path / "nope"), "--out", str(out)])
    assert missing.exit_code == 2 and "no such folder" in missing.stderr


@pytest.mark.slow
def test_real_reports_through_the_real_pipeline(tmp_path):
    names = ["cbc_normal_drlogy.pdf", "lipid_normal_drlogy.pdf"]
    source = tmp_path / "in"
    source.mkdir()
    for name in names:
        shutil.copy(SAMPLES / name, source / name)
    summary = run_batch(source, tmp_path / "out", workers=2)
    assert (summary.parsed, summary.failed) == (2, 0)
    table = pd.read_csv(tmp_path / "out" / "results.csv", dtype={"value": str})
    assert set(table["source_file"]) == set(names)
    hemoglobin = table[table["test_name"].str.startswith("Hemoglobin")]
    assert list(hemoglobin["value"]) == ["13.00"]  # as printed, not re-formatted as a float


@pytest.mark.slow
def test_crashes_fail_only_their_own_files(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    for i in range(6):
        (source / f"good{i}.pdf").write_bytes(report_pdf())
    for i in range(2):
        (source / f"crash{i}.pdf").write_bytes(report_pdf() + b"CRASH-THE-WORKER")
    summary = run_batch(source, tmp_path / "out", workers=2, process=FAKE)
    assert summary.parsed == 6  # good files that shared a pool with a crash are not blamed
    assert sorted(f["file"] for f in summary.failures) == ["crash0.pdf", "crash1.pdf"]
    for failure in summary.failures:
        assert failure["failure_reason"] == "processing_error"
        assert "crashed" in failure["message"]


def _crash_quoting_the_report(data: bytes, **_options):
    quoted = " ".join(["Hemoglobin", "13.5", "for", "JANE", "DOE"])  # as if read from the report
    raise ValueError(f"could not read {quoted}")


def test_an_unexpected_error_is_logged_without_its_message(tmp_path, caplog):
    item = plan(_sources_with_one_report(tmp_path), tmp_path / "out")[0]

    outcome = batch_module.parse_one(item, _crash_quoting_the_report, max_pages=30)

    assert outcome.status == "failed"
    assert outcome.failure_reason == "processing_error"
    assert "ValueError" in caplog.text
    assert "JANE DOE" not in caplog.text and "13.5" not in caplog.text


def _sources_with_one_report(tmp_path: Path) -> Path:
    source = tmp_path / "in"
    source.mkdir()
    (source / "report.pdf").write_bytes(report_pdf())
    return source


def test_workers_help_shows_its_default():
    app = typer.Typer()
    parse_cmd.register(app)
    app.command("other")(lambda: None)  # a group, so `batch --help` is a subcommand's help
    result = CliRunner().invoke(app, ["batch", "--help"], env={"COLUMNS": "200"})
    assert f"[default: {batch_module.default_workers()}]" in result.stdout


def _metadata_process(data: bytes, **_options):
    from parser.models import LabReportResult, ReportData, ResultMetadata

    metadata = ResultMetadata(patient_first_name="Ann", patient_last_name="Lee", dob="1980-02-03",
                              gender="female", lab_name="North Lab", date_collected="2024-05-06")
    from parser.models import LoincMatch

    code = LoincMatch(loinc_code="14749-6", loinc_name="Glucose [Moles/volume] in Serum or Plasma",
                      display_name="Glucose", confidence_score=0.95)
    rows = [LabReportResult(test_name="Glucose", value="5.1", units="mmol/L", min_reference_range=3.9,
                            max_reference_range=5.6, loinc_match_status="auto_match", interpretation="normal",
                            loinc_matches=[code])]
    if len(data) % 2:  # an unread unit on odd-sized files: the service would send these to review
        sodium = LoincMatch(loinc_code="2951-2", loinc_name="Sodium [Moles/volume] in Serum or Plasma",
                            display_name="Sodium", confidence_score=0.95)
        rows.append(LabReportResult(test_name="Sodium", value="140", extraction_confidence=0.2,
                                    loinc_match_status="auto_match", loinc_matches=[sodium]))
    return ReportData(metadata=metadata, results=rows)


def test_csv_stands_alone_and_summary_carries_the_routing(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    (source / "even.pdf").write_bytes(b"%PDF" + b"x" * 10)
    (source / "odd.pdf").write_bytes(b"%PDF" + b"x" * 11)
    out = tmp_path / "out"
    run_batch(source, out, workers=1, process=_metadata_process)

    table = pd.read_csv(out / "results.csv", dtype=str)
    assert list(table.columns[:2]) == ["source_file", "page"]
    first = table.iloc[0]
    assert (first["source_file"], first["patient_first_name"], first["patient_last_name"]) == ("even.pdf", "Ann", "Lee")
    assert (first["dob"], first["gender"], first["lab_name"]) == ("1980-02-03", "female", "North Lab")

    files = {entry["file"]: entry for entry in json.loads((out / "summary.json").read_text())["files"]}
    assert files["even.pdf"]["needs_review"] is False and files["even.pdf"]["review_reasons"] == []
    assert files["odd.pdf"]["needs_review"] is True
    assert any("low confidence" in reason for reason in files["odd.pdf"]["review_reasons"])
    # A re-run skips both files and still reports their routing, read back from the JSON.
    again = run_batch(source, out, workers=1, process=_metadata_process)
    assert [(f["status"], f["needs_review"]) for f in again.files] == [("skipped", False), ("skipped", True)]


def test_a_failed_file_has_no_routing(reports, tmp_path):
    summary = run_batch(reports, tmp_path / "out", workers=1, process=FAKE)
    broken = next(entry for entry in summary.files if entry["file"] == "broken.pdf")
    assert broken["needs_review"] is None and broken["review_reasons"] == []
