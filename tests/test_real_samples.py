"""The real English sample reports parse to their hand-written expected output, field by field."""

import json
from pathlib import Path

import pytest

from parser.api import parse_report

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
ENGLISH = ["cbc_normal_drlogy.pdf", "kft_normal_drlogy.pdf", "lipid_normal_drlogy.pdf", "drlal_s056.pdf",
           "healthfirst_synthetic_sample_lab_report.pdf"]
FIELDS = ["test_name", "value", "type", "units", "min_reference_range", "max_reference_range",
          "interpretation", "is_above_max_range", "is_below_min_range", "source_panel_name",
          "reference_range_text", "source_flag", "page"]


def load(name: str):
    path = REAL / name
    expected = json.loads((REAL / f"{name}.expected.json").read_text())
    return path.read_bytes(), expected


@pytest.mark.parametrize("name", ENGLISH)
def test_real_sample_rows_match_expected(name):
    data, expected = load(name)
    report = parse_report(data, filename=name)
    got = [{field: getattr(r, field) for field in FIELDS} for r in report.results]
    want = [{field: row.get(field) for field in FIELDS} for row in expected["results"]]
    assert [g["test_name"] for g in got] == [w["test_name"] for w in want]
    for g, w in zip(got, want):
        differing = {f: (g[f], w[f]) for f in FIELDS if g[f] != w[f]}
        assert not differing, f"{g['test_name']}: {differing}"


@pytest.mark.parametrize("name", ENGLISH)
def test_real_sample_metadata_matches_expected(name):
    data, expected = load(name)
    assert parse_report(data, filename=name).metadata.model_dump() == expected["metadata"]


@pytest.mark.parametrize("name", ENGLISH)
def test_real_sample_rows_carry_position_and_confidence(name):
    data, _ = load(name)
    for result in parse_report(data, filename=name).results:
        x0, y0, x1, y1 = result.bbox
        assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
        assert 0 < result.extraction_confidence <= 1


def test_printed_normal_contradicted_by_numbers_is_sent_to_review():
    data, _ = load("kft_normal_drlogy.pdf")
    sodium = next(r for r in parse_report(data).results if r.test_name == "Sodium")
    assert sodium.is_below_min_range is True
    assert sodium.extraction_confidence < 0.8


def test_spanish_report_is_read_as_spanish_not_refused():
    path = REAL.parent / "real_i18n" / "sample_lab_report_2025_06_24.pdf"
    report = parse_report(path.read_bytes(), filename=path.name)  # no NotEnglishError any more
    assert report.language == "es"
