"""The column-at-a-time text layer extraction (parser.pdf) gives what the word-by-word rules say."""

from __future__ import annotations

import io
from itertools import repeat

import pypdfium2 as pdfium
import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from parser import pdf as extraction
from parser.pdf import _boldness, _printed_sizes, extract_text_layer, printed_size

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def test_printed_sizes_match_printed_size_word_by_word():
    font_sizes = [0.0, -1.0, 5.0, 9.99, 10.0, 10.005, 11.5, 20.0, 20.01, 180.0, 0.3]
    heights = [0.0, -0.5, 1.0, 4.99, 5.0, 10.0, 11.495, 20.0, 40.0, 40.02, 0.15]
    pairs = [(f, h) for f in font_sizes for h in heights]
    sizes = _printed_sizes([f for f, _ in pairs], [h for _, h in pairs])
    assert sizes == [printed_size(f, h) for f, h in pairs]
    assert all(type(size) is float for size in sizes)


def _page_pdf() -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica-Bold", 12)
    pdf.drawString(72, 780, "CITY LABORATORY")
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, 740, "Glucose 95 mg/dL 70 - 99")
    pdf.drawString(72, 720, "Sodium 141 mmol/L 135 - 145")
    pdf.saveState()
    pdf.translate(300, 400)
    pdf.rotate(45)
    pdf.setFont("Helvetica", 40)
    pdf.drawString(0, 0, "SAMPLE COPY")
    pdf.restoreState()
    try:
        pdfmetrics.registerFont(TTFont("SpeedDejaVu", DEJAVU))
    except Exception:  # the font is not installed: the page keeps its ASCII words only
        pass
    else:
        pdf.setFont("SpeedDejaVu", 10)
        pdf.drawString(72, 700, "Créatinine 75 µmol/l ≤ 110")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_words_keep_level_text_and_judge_bold_per_font():
    pdf = pdfium.PdfDocument(_page_pdf())
    try:
        layer = extract_text_layer(pdf[0], 1)
    finally:
        pdf.close()
    texts = [word.text for word in layer.page.words]
    assert "SAMPLE" not in texts and "COPY" not in texts  # the 45-degree watermark
    assert {"Glucose", "95", "mg/dL", "141", "mmol/L"} <= set(texts)
    bold = {word.text: word.bold for word in layer.page.words}
    assert bold["CITY"] and bold["LABORATORY"] and not bold["Glucose"] and not bold["Sodium"]
    sizes = {word.text: word.size for word in layer.page.words}
    assert sizes["CITY"] == 12.0 and sizes["Glucose"] == 10.0
    if "Créatinine" in texts:  # non-ASCII words come through whole
        assert "µmol/l" in texts and "≤" in texts
    assert layer.garbage_chars == 0


def test_boldness_by_object_matches_asking_word_by_word():
    pdf = pdfium.PdfDocument(_page_pdf())
    try:
        page = pdf[0]
        textpage = page.get_textpage()
        handle = extraction._handle(textpage.raw)
        text = textpage.get_text_range()
        heads = [i for i, char in enumerate(text) if char.strip() and (i == 0 or not text[i - 1].strip())]
        objects = list(map(extraction._text_object, repeat(handle, len(heads)), heads))
        fast = _boldness(textpage, heads, objects)
        # A word without a text object sends the whole page word by word.
        slow = _boldness(textpage, heads + [heads[0]], objects + [None])
        textpage.close()
        page.close()
    finally:
        pdf.close()
    assert all(objects)
    assert fast == slow[:-1]
    assert True in fast and False in fast


@pytest.mark.parametrize("private", ["\ue000", "\x07"])
def test_unmapped_glyphs_are_dropped_and_counted(private, monkeypatch):
    # pdfium's text for a page with unmapped glyphs, the boxes as pdfium gives them.
    pdf = pdfium.PdfDocument(_page_pdf())
    try:
        page = pdf[0]
        textpage = page.get_textpage()
        real = textpage.get_text_range()
        # Replace the first letter of "Glucose" with the junk character: same index, same box.
        at = real.index("Glucose")
        monkeypatch.setattr(type(textpage), "get_text_range", lambda self: real[:at] + private + real[at + 1:])
        words, garbage = extraction._words(textpage, extraction.page_frame(page))
        textpage.close()
        page.close()
    finally:
        pdf.close()
    texts = [word.text for word in words]
    assert garbage == 1
    assert "lucose" in texts and "Glucose" not in texts and private not in "".join(texts)
