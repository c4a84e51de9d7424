"""Bytes in, a `Document` of positioned words out: the extraction stage of the parser.

A PDF is read page by page: a page with a usable text layer is taken from it (parser.pdf),
any other page is rendered with pdfium and OCR'd (parser.ocr), so scans, digital reports and
mixed documents all work. Only a couple of page images exist at a time, which keeps a
30-page scan well under 1 GB. A JPEG or PNG is one OCR page; `load_images` merges several
photos (the API's multi-file upload) into one document in upload order.
"""

from __future__ import annotations

import io
import logging
import math
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor

import pypdfium2 as pdfium
from PIL import Image

from parser import tesseract
from parser.exceptions import (
    CorruptPdfError,
    FileTooLargeError,
    InvalidInputError,
    PdfInMultiUploadError,
    TooManyFilesError,
    TooManyPagesError,
)
from parser.image import exif_upright, straighten_photo
from parser.ocr import PreparedPage, ocr_page, prepare_page, read_page
from parser.page import Document, Page
from parser.pdf import extract_text_layer
from parser.sniff import DEFAULT_MAX_PAGES, MAX_BYTES, open_image, open_pdf, sniff

log = logging.getLogger(__name__)

# Scanned PDF pages are rendered at 300 dpi: measured against 200 dpi on the real samples and
# their degraded copies, number recall improves markedly (benchmarks/ocr_settings.py).
RENDER_DPI = 300
# A page with absurd dimensions would render into gigabytes; beyond this the dpi is lowered.
MAX_RENDER_PIXELS = 40_000_000
MAX_IMAGES = 8
# The review UI shows photos at most this large (long side, pixels).
MAX_PREVIEW_SIDE = 2400


def load_document(
    data: bytes | list[bytes],
    *,
    filename: str | None = None,
    max_pages: int = DEFAULT_MAX_PAGES,
    declared_type: str | None = None,
) -> Document:
    """Read a PDF, JPEG or PNG report into pages of positioned words.

    `filename` is accepted for the callers' convenience but never trusted for the type and
    never logged (file names often carry patient names). A list of images (a multi-file
    upload) is merged as by `load_images`.
    """
    if isinstance(data, (list, tuple)):
        return load_images(list(data), max_pages=max_pages)
    kind = sniff(data, declared_type)
    if kind == "pdf":
        return Document(kind="pdf", pages=list(_pdf_pages(data, max_pages)))
    with tesseract.Engine() as engine:
        return Document(kind=kind, pages=[_image_page(open_image(data), 1, engine)])


def load_images(images: list[bytes], *, max_pages: int = DEFAULT_MAX_PAGES) -> Document:
    """Merge up to 8 JPEG/PNG photos, in order, into one document of one page each."""
    if not images:
        raise InvalidInputError("no file was uploaded")
    if len(images) > MAX_IMAGES:
        raise TooManyFilesError(f"{len(images)} files were uploaded; at most {MAX_IMAGES} can be merged")
    if sum(len(data) for data in images) > MAX_BYTES:
        raise FileTooLargeError("the files together are larger than the 10 MB limit")
    kinds = [sniff(data) for data in images]
    if "pdf" in kinds and len(images) > 1:
        raise PdfInMultiUploadError()
    if kinds == ["pdf"]:
        return load_document(images[0], max_pages=max_pages)
    if max_pages and len(images) > max_pages:
        raise TooManyPagesError(f"the upload has {len(images)} pages; the limit is {max_pages}")
    decoded = [open_image(data) for data in images]  # all checked before any slow OCR
    pages = []
    with tesseract.Engine() as engine:  # one reader (one model load) for all the photos
        for number, image in enumerate(decoded, start=1):
            pages.append(_image_page(image, number, engine))
            image.close()
    return Document(kind=kinds[0], pages=pages)


def render_page_png(data: bytes, page_number: int, *, scale: float = 1.5, rotation: int = 0) -> bytes:
    """A PNG of one page for the review UI: PDF pages at `scale` x 72 dpi; photos upright
    (EXIF applied), a page seen whole mapped onto its rectangle as OCR maps it (its result
    boxes are fractions of that rectangle), and at most MAX_PREVIEW_SIDE pixels. `rotation`
    (clockwise degrees, as `Page.rotation`) turns the picture the way OCR read it, so result
    boxes line up."""
    kind = sniff(data)
    if kind == "pdf":
        pdf = open_pdf(data, max_pages=0)
        try:
            if not 1 <= page_number <= len(pdf):
                raise InvalidInputError(f"page {page_number} does not exist; the document has {len(pdf)}")
            image = _render(pdf[page_number - 1], dpi=72 * scale, grayscale=False)
        finally:
            pdf.close()
    else:
        if page_number != 1:
            raise InvalidInputError(f"page {page_number} does not exist; an image has one page")
        image = exif_upright(open_image(data))
        if max(image.size) > MAX_PREVIEW_SIDE:
            image.thumbnail((MAX_PREVIEW_SIDE, MAX_PREVIEW_SIDE), Image.LANCZOS)
        image = straighten_photo(image.convert("RGB") if image.mode not in ("L", "RGB") else image)
    if rotation % 360:
        image = image.rotate(-(rotation % 360), expand=True)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


# --- stages ---------------------------------------------------------------------------------


def _pdf_pages(data: bytes, max_pages: int):
    """The document's pages in order. While tesseract (a separate process, one for the whole
    document) reads one scanned page, the next is rendered and cleaned here, so a scan costs
    little more than its OCR. At most two prepared page images wait at a time."""
    pdf = open_pdf(data, max_pages=max_pages)
    try:
        with (
            tesseract.Engine() as engine,
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="ocr") as reader,
        ):
            queue: deque[Page | Future] = deque()
            for index in range(len(pdf)):
                queue.append(_read_or_submit(pdf, index, reader, engine))
                # Hand over every finished page; never hold more than one page behind OCR.
                while queue and (len(queue) > 1 or not isinstance(queue[0], Future) or queue[0].done()):
                    yield _result(queue.popleft())
            while queue:
                yield _result(queue.popleft())
    finally:
        pdf.close()


def _read_or_submit(
    pdf: pdfium.PdfDocument, index: int, reader: ThreadPoolExecutor, engine: tesseract.Engine
) -> Page | Future:
    """A text-layer page now, or the future OCR of a scanned page (prepared here)."""
    number = index + 1
    try:
        page = pdf[index]
    except pdfium.PdfiumError:
        raise CorruptPdfError(f"page {number} of the PDF is damaged and cannot be read") from None
    try:
        layer = extract_text_layer(page, number)
        if layer.usable:
            return layer.page
        image = _render(page, dpi=RENDER_DPI)
    finally:
        page.close()
    dpi = image.info["dpi"][0]
    prepared = prepare_page(image, number=number, units_per_pixel=72.0 / dpi, dpi=round(dpi))
    if prepared.image is not image:  # a clean page may come through unchanged
        image.close()
    return reader.submit(_read_with, engine, prepared)


def _read_with(engine: tesseract.Engine, prepared: PreparedPage) -> Page:
    with tesseract.using(engine):
        return read_page(prepared)


def _result(item: Page | Future) -> Page:
    return item.result() if isinstance(item, Future) else item


def _render(page: pdfium.PdfPage, *, dpi: float, grayscale: bool = True) -> Image.Image:
    """Render (for OCR in greyscale: a third of the memory of RGB), lowering the dpi of
    giant pages."""
    width, height = page.get_size()
    pixels = (width * dpi / 72) * (height * dpi / 72)
    if pixels > MAX_RENDER_PIXELS:
        dpi = dpi * math.sqrt(MAX_RENDER_PIXELS / pixels) * 0.995  # margin for rounding
    try:
        bitmap = page.render(scale=dpi / 72, grayscale=grayscale)
    except pdfium.PdfiumError:
        raise CorruptPdfError("a page of the PDF cannot be rendered") from None
    image = bitmap.to_pil().convert("L" if grayscale else "RGB")  # a copy: the buffer can go
    bitmap.close()
    image.info["dpi"] = (dpi, dpi)
    return image


def _image_page(image: Image.Image, number: int, engine: tesseract.Engine) -> Page:
    # A photo's stored dpi is usually a camera default: OCR estimates it from the pixels.
    # The document's tesseract reader serves the page's passes (the page, its doubtful numbers).
    with tesseract.using(engine):
        return ocr_page(exif_upright(image), number=number, units_per_pixel=1.0, dpi=None)
