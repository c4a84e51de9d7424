"""load_document / load_images / render_page_png: the extraction stage end to end."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image
from reportlab.lib.pagesizes import A4

from extract_samples import ROWS, encoded, image_pdf, render, report_pdf
from parser import document as document_module
from parser.document import load_document, load_images, render_page_png
from parser.exceptions import (
    FileTooLargeError,
    InvalidInputError,
    PdfInMultiUploadError,
    TooManyFilesError,
    TooManyPagesError,
    TypeMismatchError,
)

VALUES = {value for _, value, _, _ in ROWS}


def texts(page) -> set[str]:
    return {word.text for word in page.words}


def top_half(image: Image.Image) -> Image.Image:
    return image.crop((0, 0, image.width, image.height // 2))


def merged(*pdfs: bytes) -> bytes:
    """One PDF holding the pages of all `pdfs`, in order."""
    target = pdfium.PdfDocument.new()
    for data in pdfs:
        source = pdfium.PdfDocument(data)
        target.import_pages(source)
    out = io.BytesIO()
    target.save(out)
    return out.getvalue()


def test_digital_pdf_uses_the_text_layer_on_every_page():
    document = load_document(report_pdf(pages=2))
    assert document.kind == "pdf"
    assert [page.source for page in document.pages] == ["text", "text"]
    assert [page.number for page in document.pages] == [1, 2]
    assert VALUES <= texts(document.pages[1])


def test_page_limit_applies(monkeypatch):
    with pytest.raises(TooManyPagesError):
        load_document(report_pdf(pages=3), max_pages=2)


def test_declared_type_is_checked():
    with pytest.raises(TypeMismatchError):
        load_document(report_pdf(), declared_type="image/png")


@pytest.mark.slow
def test_mixed_document_is_read_page_by_page():
    digital = report_pdf()
    scanned = image_pdf([top_half(render(digital, dpi=200))], dpi=200)
    document = load_document(merged(digital, scanned))
    assert [page.source for page in document.pages] == ["text", "ocr"]
    scan = document.pages[1]
    assert VALUES <= texts(scan)
    # OCR words are in PDF points like the text layer: both pages place "Glucose" alike.
    text_glucose = next(w for w in document.pages[0].words if w.text == "Glucose")
    ocr_glucose = next(w for w in scan.words if w.text == "Glucose")
    assert ocr_glucose.x0 == pytest.approx(text_glucose.x0, abs=4)
    assert ocr_glucose.top == pytest.approx(text_glucose.top, abs=6)
    assert scan.width == pytest.approx(A4[0], abs=2)


@pytest.mark.slow
def test_photo_with_exif_rotation_is_read_upright():
    upright = top_half(render(report_pdf(), dpi=200))
    stored = upright.transpose(Image.Transpose.ROTATE_90)  # pixels as the camera stored them
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 clockwise to view"
    data = encoded(stored.convert("RGB"), "JPEG", quality=90, exif=exif.tobytes())
    document = load_document(data, filename="phone.jpg")
    assert document.kind == "jpeg"
    (page,) = document.pages
    assert page.source == "ocr" and page.rotation == 0  # EXIF, not OSD, turned it
    assert (page.width, page.height) == pytest.approx((upright.width, upright.height), abs=1)
    assert VALUES <= texts(page)


@pytest.mark.slow
def test_several_images_become_one_document_in_order():
    two_pages = report_pdf(pages=2)
    images = [encoded(top_half(render(two_pages, page, dpi=200)).crop((0, 0, 1654, 400)), "PNG") for page in (0, 1)]
    document = load_images(images)
    assert document.kind == "png"
    assert [page.number for page in document.pages] == [1, 2]
    assert "1" in texts(document.pages[0]) and "2" in texts(document.pages[1])
    # A list given to load_document is the same multi-file upload.
    assert len(load_document(images).pages) == 2


def test_multi_upload_refusals_come_before_any_ocr(monkeypatch):
    monkeypatch.setattr(document_module, "ocr_page", lambda *a, **k: pytest.fail("OCR ran"))
    png = encoded(Image.new("L", (10, 10), 255), "PNG")
    with pytest.raises(TooManyFilesError):
        load_images([png] * 9)
    with pytest.raises(PdfInMultiUploadError):
        load_images([png, report_pdf()])
    with pytest.raises(FileTooLargeError):
        load_images([png + b"\0" * (6 * 1024 * 1024), png + b"\0" * (6 * 1024 * 1024)])
    with pytest.raises(InvalidInputError):
        load_images([])


def test_render_page_png_of_a_pdf_page():
    data = report_pdf(pages=2)
    image = Image.open(io.BytesIO(render_page_png(data, 2, scale=1.5)))
    assert image.format == "PNG"
    assert image.size == (round(A4[0] * 1.5), round(A4[1] * 1.5))
    with pytest.raises(InvalidInputError):
        render_page_png(data, 3)


def test_render_page_png_of_a_photo_is_upright_and_bounded():
    stored = Image.new("RGB", (3000, 1000), "white")
    exif = Image.Exif()
    exif[0x0112] = 6
    data = encoded(stored, "JPEG", exif=exif.tobytes())
    image = Image.open(io.BytesIO(render_page_png(data, 1)))
    assert image.size[1] > image.size[0]  # turned as EXIF says
    assert max(image.size) <= document_module.MAX_PREVIEW_SIDE


def test_giant_pages_render_within_the_pixel_budget():
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    giant = canvas.Canvas(buffer, pagesize=(10_000, 10_000))
    giant.drawString(100, 100, "x")
    giant.showPage()
    giant.save()
    image = Image.open(io.BytesIO(render_page_png(buffer.getvalue(), 1, scale=4)))
    assert image.width * image.height <= document_module.MAX_RENDER_PIXELS


def _page_with_scan(header: str, invisible_text: bool) -> bytes:
    """A page whose table is a scanned image, with digital text above it (a LIS header) or
    invisible OCR text over it (a searchable scan)."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    scan = render(report_pdf(), dpi=200).crop((0, 250, 1654, 1500))  # half the page
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    width, height = A4
    pdf.setFont("Helvetica", 9)
    for i, line in enumerate(header.splitlines()):
        pdf.drawString(40, height - 40 - 12 * i, line)
    image_height = width * scan.height / scan.width
    pdf.drawImage(ImageReader(scan.convert("RGB")), 0, height - 120 - image_height, width, image_height)
    if invisible_text:
        text = pdf.beginText(80, height - 200)
        text.setTextRenderMode(3)
        for name, value, unit, ref in ROWS:
            text.textLine(f"{name} {value} {unit} {ref} invisible-ocr-layer")
        pdf.drawText(text)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


HEADER = "\n".join(
    f"Patient ID 000{i}  Ordering clinic: Northside Family Practice  Accession A-2024-{i:04d}" for i in range(4)
)


@pytest.mark.slow
def test_scan_with_a_digital_header_is_ocrd():
    document = load_document(_page_with_scan(HEADER, invisible_text=False))
    (page,) = document.pages
    assert page.source == "ocr"
    assert VALUES <= texts(page)
    assert "Northside" in texts(page)  # the digital header is read from the render too


def test_searchable_scan_keeps_its_text_layer():
    document = load_document(_page_with_scan("", invisible_text=True))
    (page,) = document.pages
    assert page.source == "text"
    assert "invisible-ocr-layer" in texts(page)


@pytest.mark.slow
def test_scanned_pages_come_back_in_order_while_ocr_runs_ahead():
    three = report_pdf(pages=3)
    crops = [render(three, page, dpi=200).crop((0, 0, 1654, 400)) for page in range(3)]
    document = load_document(image_pdf(crops, dpi=200))
    assert [page.number for page in document.pages] == [1, 2, 3]
    assert all(page.source == "ocr" for page in document.pages)
    for number, page in enumerate(document.pages, start=1):
        line = [word.text for word in page.words if word.text in {"Page", "of", "3", str(number)}]
        assert line[:4] == ["Page", str(number), "of", "3"], line
