"""The tesseract reader process (parser.tesseract.Engine): the same words as the binary, one
process per document, and a reader that fails or dies fails the page, not the parse."""

from __future__ import annotations

import pytest
from PIL import Image

from extract_samples import render, report_pdf
from parser import tesseract
from parser.exceptions import ProcessingError


@pytest.fixture(scope="module")
def table_image() -> Image.Image:
    page = render(report_pdf(), dpi=300)
    return page.crop((0, 0, page.width, page.height // 2))


@pytest.mark.slow
def test_the_reader_reads_the_same_words_as_the_binary(table_image):
    cell = table_image.crop((0, table_image.height // 2, table_image.width // 2, table_image.height * 3 // 4))
    binary = [tesseract.ocr_words(table_image), tesseract.ocr_words(cell, psm=6)]
    with tesseract.Engine() as engine, tesseract.using(engine):
        read = [tesseract.ocr_words(table_image), tesseract.ocr_words(cell, psm=6)]
        process = engine._process
    if process is None:
        pytest.skip("no tesseract library here: the binary read both")
    assert read == binary and len(read[0]) > 20
    assert process.poll() is not None  # ended with its document


def test_outside_using_the_binary_reads(monkeypatch, table_image):
    monkeypatch.setattr(tesseract.Engine, "read", lambda *a, **k: pytest.fail("the reader ran"))
    words = tesseract.ocr_words(table_image.crop((0, 0, 1200, 300)))
    assert words


def test_without_the_library_the_binary_reads(monkeypatch, table_image):
    monkeypatch.setattr(tesseract, "_library", lambda: None)
    with tesseract.Engine() as engine, tesseract.using(engine):
        assert tesseract.ocr_words(table_image.crop((0, 0, 1200, 300)))
        assert engine._process is None


def test_a_reader_that_dies_fails_the_page_and_the_next_call_starts_a_new_one(table_image):
    crop = table_image.crop((0, 0, 1200, 300))
    with tesseract.Engine() as engine, tesseract.using(engine):
        first = tesseract.ocr_words(crop)
        if engine._process is None:
            pytest.skip("no tesseract library here")
        engine._process.kill()
        engine._process.wait()
        with pytest.raises(ProcessingError) as caught:
            tesseract.ocr_words(crop)
        assert caught.value.failure_reason == "processing_error"
        assert tesseract.ocr_words(crop) == first


def test_a_reader_that_overruns_is_ended(monkeypatch, table_image):
    with tesseract.Engine() as engine, tesseract.using(engine):
        if engine._started() is None:
            pytest.skip("no tesseract library here")
        monkeypatch.setattr(tesseract, "TIMEOUT_SECONDS", 0.01)
        with pytest.raises(ProcessingError) as caught:
            tesseract.ocr_words(table_image)
        assert "longer than" in caught.value.message


def test_missing_language_data_is_a_page_failure(table_image):
    with tesseract.Engine() as engine, tesseract.using(engine):
        if engine._started() is None:
            pytest.skip("no tesseract library here")
        with pytest.raises(ProcessingError):
            tesseract.ocr_words(table_image.crop((0, 0, 600, 200)), language="xxx")
        assert engine._process is not None  # the reader itself goes on
