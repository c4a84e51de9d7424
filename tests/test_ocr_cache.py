"""benchmarks/ocr_cache.py: a second parse of a scan reads its pages from the cache, gives the same
report, and an edit to the OCR stage's source makes the entries stale."""

import pytest

import parser.document as document_stage
from benchmarks import ocr_cache
from parser.api import parse_report
from fixtures.catalog import ROOT

SCAN = ROOT / "synthetic" / "side_by_side" / "side_by_side_1_scan.pdf"
PHOTO = ROOT / "synthetic" / "hospital_grid" / "hospital_grid_1_photo.png"


@pytest.fixture
def restored_stage():
    read_page, ocr_page = document_stage.read_page, document_stage.ocr_page
    yield
    document_stage.read_page, document_stage.ocr_page = read_page, ocr_page


def test_the_ocr_stage_covers_the_modules_ocr_imports():
    modules = ocr_cache._imported_parser_modules("ocr", set())
    assert {"ocr", "tesseract", "units", "page", "image"} <= modules
    assert "layout.table" not in modules  # work after OCR keeps its entries


@pytest.mark.parametrize("path", [SCAN, PHOTO], ids=["scan", "photo"])
def test_a_cached_page_parses_the_same_without_tesseract(tmp_path, restored_stage, monkeypatch, path):
    data = path.read_bytes()
    first = parse_report(data, path.name)
    folder = ocr_cache.install(tmp_path)
    cached_once = parse_report(data, path.name)
    assert len(list(folder.glob("*.pickle"))) == 1

    def no_tesseract(*_args, **_kwargs):
        raise AssertionError("tesseract was called for a cached page")

    monkeypatch.setattr("parser.tesseract.ocr_words", no_tesseract)
    cached_twice = parse_report(data, path.name)
    assert first.model_dump() == cached_once.model_dump() == cached_twice.model_dump()


def test_an_edit_to_the_ocr_stage_changes_the_digest(tmp_path, monkeypatch):
    before = ocr_cache.ocr_code_digest()
    copy = tmp_path / "parser"
    copy.mkdir()
    for path in ocr_cache.PARSER_DIR.glob("*.py"):
        (copy / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(ocr_cache, "PARSER_DIR", copy)
    assert ocr_cache.ocr_code_digest() == before
    (copy / "units.py").write_text((copy / "units.py").read_text() + "\n# edited\n")
    assert ocr_cache.ocr_code_digest() != before
