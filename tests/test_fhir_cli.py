"""`labreport parse --format fhir` and `labreport batch --format fhir` on real samples."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import typer
from fhir.resources.R4B.bundle import Bundle
from typer.testing import CliRunner

from cli import parse_cmd
from cli.batch import OBSERVATIONS_NDJSON, RESULTS_CSV, run_batch

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
SAMPLES = ["kft_normal_drlogy.pdf", "lipid_normal_drlogy.pdf"]


def _app() -> typer.Typer:
    app = typer.Typer()
    parse_cmd.register(app)
    return app


def test_parse_prints_the_same_valid_bundle_each_time():
    runner = CliRunner()
    first = runner.invoke(_app(), ["parse", "--format", "fhir", str(REAL / SAMPLES[0])])
    assert first.exit_code == 0, first.output
    bundle = Bundle.model_validate_json(first.stdout)
    expected = json.loads((REAL / f"{SAMPLES[0]}.expected.json").read_text())
    observations = [e.resource for e in bundle.entry if e.resource.get_resource_type() == "Observation"]
    assert [o.code.text for o in observations] == [r["test_name"] for r in expected["results"]]
    again = runner.invoke(_app(), ["parse", "--format", "fhir", str(REAL / SAMPLES[0])])
    assert again.stdout == first.stdout


def test_parse_rejects_an_unknown_format():
    result = CliRunner().invoke(_app(), ["parse", "--format", "xml", str(REAL / SAMPLES[0])])
    assert result.exit_code == parse_cmd.USAGE_ERROR
    assert "unknown --format 'xml'" in result.output


def test_batch_writes_a_bundle_per_report_and_observations_ndjson(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    for name in SAMPLES:
        shutil.copy(REAL / name, source / name)
    out = tmp_path / "out"
    summary = run_batch(source, out, workers=1, fhir=True)
    assert summary.parsed == len(SAMPLES)
    ids = set()
    for name in SAMPLES:
        bundle = Bundle.model_validate_json((out / f"{name}.fhir.json").read_text())
        ids |= {e.resource.id for e in bundle.entry if e.resource.get_resource_type() == "Observation"}
    lines = (out / OBSERVATIONS_NDJSON).read_text().splitlines()
    rows = pd.read_csv(out / RESULTS_CSV)
    assert len(lines) == len(rows) == summary.results
    observations = [json.loads(line) for line in lines]
    assert {o["id"] for o in observations} == ids
    assert [o["code"]["text"] for o in observations] == list(rows["test_name"])


def test_batch_without_fhir_writes_no_fhir_files(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    shutil.copy(REAL / SAMPLES[0], source / SAMPLES[0])
    run_batch(source, tmp_path / "out", workers=1)
    assert not list((tmp_path / "out").glob("*.fhir.json"))
    assert not (tmp_path / "out" / OBSERVATIONS_NDJSON).exists()
