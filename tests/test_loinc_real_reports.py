"""End to end on the real sample reports: parse, annotate, and check every row's top code.

Expected codes come from benchmarks/data/labelled_names.tsv (the `report` rows, labelled by
hand from the same PDFs); the parser supplies units, panel, sample type and measurement kind.
"""

from pathlib import Path

import pytest

from service.pipeline import process_document

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ["cbc_normal_drlogy.pdf", "kft_normal_drlogy.pdf", "lipid_normal_drlogy.pdf", "drlal_s056.pdf",
           "healthfirst_synthetic_sample_lab_report.pdf"]


def _accepted() -> dict[tuple[str, str], set[str]]:
    accepted: dict[tuple[str, str], set[str]] = {}
    for line in (ROOT / "benchmarks" / "data" / "labelled_names.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("report\t"):
            _, name, unit, _panel, _sample, codes = (line.split("\t") + [""] * 6)[:6]
            accepted.setdefault((name, unit.strip()), set()).update(codes.split("|"))
    return accepted


@pytest.mark.parametrize("filename", REPORTS)
def test_every_row_of_a_real_report_gets_the_right_code(filename):
    path = ROOT / "fixtures" / "real" / filename
    report = process_document(path.read_bytes(), filename=filename)
    accepted = _accepted()
    assert report.results
    for result in report.results:
        codes = accepted.get((result.test_name, result.units or ""))
        assert codes, f"row {result.test_name!r} {result.units!r} is not labelled"
        assert result.loinc_matches and result.loinc_matches[0].loinc_code in codes, result.test_name
        if result.loinc_match_status == "auto_match":
            assert result.loinc_matches[0].confidence_score >= 0.8
