"""Small reports made on the fly for the extraction tests (reportlab + PIL), so each test
states exactly what is on the page it checks."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from parser.models import LabReportResult, ReportData

# (name, value, unit, range) rows of a small chemistry panel; values are distinct numbers so a
# test can tell which one it found.
ROWS = [
    ("Glucose", "97", "mg/dL", "70 - 99"),
    ("Creatinine", "1.14", "mg/dL", "0.60 - 1.30"),
    ("Sodium", "141", "mmol/L", "135 - 145"),
    ("Potassium", "4.62", "mmol/L", "3.50 - 5.10"),
    ("Chloride", "103", "mmol/L", "98 - 107"),
    ("Calcium", "9.38", "mg/dL", "8.60 - 10.30"),
]


def report_pdf(
    *,
    pages: int = 1,
    rotate: int = 0,
    values_first: bool = False,
    watermark: bool = False,
    encrypt: str | None = None,
    owner_only: bool = False,
    font_size: float = 11,
    landscape_rotated: bool = False,
) -> bytes:
    """A digital report: title, a ruled table of ROWS, one page or several.

    `values_first` draws every value before any name, as real reports often store them;
    `encrypt` sets a user password; `owner_only` encrypts with an owner password only.
    `rotate` sets /Rotate on pages drawn upright (the page then displays sideways);
    `landscape_rotated` draws the report turned on a portrait page with /Rotate 90, the way
    landscape reports are often stored, so that it displays upright and landscape.
    """
    buffer = io.BytesIO()
    options = {}
    if encrypt or owner_only:
        from reportlab.lib.pdfencrypt import StandardEncryption

        options["encrypt"] = StandardEncryption(encrypt or "", ownerPassword="owner-secret")
    pdf = canvas.Canvas(buffer, pagesize=A4, **options)
    width, height = A4
    if landscape_rotated:
        width, height = height, width
    for number in range(1, pages + 1):
        if landscape_rotated:
            pdf.translate(A4[0], 0)
            pdf.rotate(90)
        pdf.setFont("Helvetica-Bold", 16)
        pdf.drawString(72, height - 72, "CITY GENERAL LABORATORY")
        pdf.setFont("Helvetica", font_size)
        pdf.drawString(72, height - 100, f"Page {number} of {pages}")
        top = height - 150
        pdf.setFont("Helvetica-Bold", font_size)
        for x, heading in ((72, "Test"), (250, "Result"), (330, "Units"), (420, "Reference")):
            pdf.drawString(x, top, heading)
        pdf.line(72, top - 6, 520, top - 6)  # the header rule
        pdf.setFont("Helvetica", font_size)
        y_of = {i: top - 26 - 22 * i for i in range(len(ROWS))}
        order = ["values", "names"] if values_first else ["names", "values"]
        for part in order:
            for i, (name, value, unit, ref) in enumerate(ROWS):
                if part == "names":
                    pdf.drawString(72, y_of[i], name)
                else:
                    pdf.drawString(250, y_of[i], value)
                    pdf.drawString(330, y_of[i], unit)
                    pdf.drawString(420, y_of[i], ref)
        pdf.rect(60, y_of[len(ROWS) - 1] - 10, 470, top + 20 - y_of[len(ROWS) - 1])
        if watermark:
            pdf.saveState()
            pdf.setFont("Helvetica", 40)
            pdf.translate(300, 400)
            pdf.rotate(45)
            pdf.drawString(-100, 0, "SAMPLE COPY")
            pdf.restoreState()
        pdf.showPage()
    pdf.save()
    if rotate or landscape_rotated:
        return _rotated(buffer.getvalue(), rotate or 90)
    return buffer.getvalue()


def _rotated(data: bytes, rotate: int) -> bytes:
    """The same PDF with /Rotate set on every page (how scanners and printers turn pages)."""
    pdf = pdfium.PdfDocument(data)
    for page in pdf:
        page.set_rotation(rotate)
    out = io.BytesIO()
    pdf.save(out)
    pdf.close()
    return out.getvalue()


def render(data: bytes, page: int = 0, dpi: int = 300) -> Image.Image:
    pdf = pdfium.PdfDocument(data)
    try:
        return pdf[page].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        pdf.close()


def image_pdf(images: list[Image.Image], dpi: int = 300) -> bytes:
    """An image-only ("scanned") PDF, one page per image."""
    buffer = io.BytesIO()
    first, *rest = [image.convert("RGB") for image in images]
    first.save(buffer, format="PDF", resolution=dpi, save_all=True, append_images=rest)
    return buffer.getvalue()


def encoded(image: Image.Image, kind: str = "PNG", **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=kind, **options)
    return buffer.getvalue()


def fake_process(data: bytes, *, filename: str | None = None, max_pages: int = 30) -> ReportData:
    """A stand-in pipeline for the batch tests: sniffs like the real one, one result per file
    whose value is the file's size, and a crash on demand."""
    from parser.sniff import sniff

    sniff(data)
    if b"CRASH-THE-WORKER" in data:
        import os

        os._exit(3)  # a native library dying takes the whole process down like this
    return ReportData(results=[LabReportResult(test_name="Size", value=str(len(data)), page=1)])
