"""Input checks: what a file is, judged from its bytes, and whether it can be read safely.

`sniff` is the cheap check (type and size) the API runs on every upload; `open_pdf` and
`open_image` open the file for real and turn every way it can be unreadable into one of the
errors in `parser.exceptions`. Nothing here trusts the file name.
"""

from __future__ import annotations

import io
import re
import warnings
from typing import Literal

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, UnidentifiedImageError

from parser.exceptions import (
    CorruptPdfError,
    DecompressionBombError,
    EmptyFileError,
    EncryptedPdfError,
    FileTooLargeError,
    TooManyPagesError,
    TypeMismatchError,
    UndecodableImageError,
    UnsupportedTypeError,
)

Kind = Literal["pdf", "png", "jpeg"]

MAX_BYTES = 10 * 1024 * 1024
DEFAULT_MAX_PAGES = 30
# A 10 MB upload may hold a 48 MP phone photo (8000 x 6000); anything far beyond that is a
# decompression bomb. PIL warns above this and raises above twice this; we refuse both.
MAX_IMAGE_PIXELS = 64_000_000
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_JPEG_MAGIC = b"\xff\xd8\xff"
# The PDF header may follow some junk; readers accept it within the first 1024 bytes.
_PDF_MAGIC = re.compile(rb"%PDF-\d")

# Declared types (file extensions or MIME types) that name one of our kinds; anything generic
# such as application/octet-stream says nothing and is ignored.
_DECLARED = {
    "pdf": "pdf",
    "application/pdf": "pdf",
    "application/x-pdf": "pdf",
    "png": "png",
    "image/png": "png",
    "jpg": "jpeg",
    "jpeg": "jpeg",
    "jpe": "jpeg",
    "image/jpeg": "jpeg",
    "image/jpg": "jpeg",
    "image/pjpeg": "jpeg",
}
_GENERIC = {"", "application/octet-stream", "binary/octet-stream", "application/unknown"}


def kind_from_bytes(data: bytes) -> Kind | None:
    """The kind the bytes announce, or None when they are none of ours."""
    if data.startswith(_PNG_MAGIC):
        return "png"
    if data.startswith(_JPEG_MAGIC):
        return "jpeg"
    if _PDF_MAGIC.search(data[:1024]):
        return "pdf"
    return None


def normalize_declared_type(declared_type: str | None) -> str | None:
    """Map '.JPG', 'image/jpeg; charset=x', 'application/pdf' to a kind; None if generic."""
    if declared_type is None:
        return None
    value = declared_type.split(";", 1)[0].strip().lower().lstrip(".")
    if value in _GENERIC:
        return None
    return _DECLARED.get(value, value)


def sniff(data: bytes, declared_type: str | None = None) -> Kind:
    """The file's kind from its bytes; raises when it is empty, too big, unknown or mislabelled.

    `declared_type` is what the uploader claims (MIME type or extension). When it names a kind
    that contradicts the bytes, the upload is refused rather than guessed at.
    """
    if not data:
        raise EmptyFileError()
    if len(data) > MAX_BYTES:
        raise FileTooLargeError()
    kind = kind_from_bytes(data)
    declared = normalize_declared_type(declared_type)
    if kind is None:
        if declared in ("pdf", "png", "jpeg"):
            raise TypeMismatchError(
                f"the file is declared as {declared.upper()} but its content is not a {declared.upper()}"
            )
        raise UnsupportedTypeError()
    if declared is not None and declared != kind:
        raise TypeMismatchError(
            f"the file is declared as {declared.upper()} but its content is {kind.upper()}"
        )
    return kind


# --- PDF -------------------------------------------------------------------------------------


def open_pdf(data: bytes, *, max_pages: int = DEFAULT_MAX_PAGES) -> pdfium.PdfDocument:
    """Open a PDF with pdfium, refusing password-protected, corrupt and over-long documents.

    A PDF encrypted with an empty user password (owner password only, as many lab systems
    print them) opens without asking and is readable: it is accepted.
    """
    encrypted = _has_encrypt_dictionary(data)
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        code = getattr(error, "err_code", None)
        if code in (pdfium_c.FPDF_ERR_PASSWORD, pdfium_c.FPDF_ERR_SECURITY) or encrypted:
            raise EncryptedPdfError() from None
        raise CorruptPdfError() from None
    try:
        pages = len(pdf)
        if pages == 0:
            raise CorruptPdfError("the PDF has no pages")
        if max_pages and pages > max_pages:
            raise TooManyPagesError(
                f"the document has {pages} pages; the limit is {max_pages}"
            )
    except BaseException:
        pdf.close()
        raise
    return pdf


def pdf_page_count(data: bytes) -> int:
    """Number of pages, with the same refusals as `open_pdf` except the page limit."""
    pdf = open_pdf(data, max_pages=0)
    try:
        return len(pdf)
    finally:
        pdf.close()


def _has_encrypt_dictionary(data: bytes) -> bool:
    # The trailer (or the cross-reference stream) names /Encrypt; scanning the tail is enough
    # for ordinary files and costs nothing compared with parsing.
    return b"/Encrypt" in data[-65536:] or b"/Encrypt" in data[:4096]


# --- images ----------------------------------------------------------------------------------


def open_image(data: bytes) -> Image.Image:
    """Decode a JPEG or PNG fully, refusing undecodable files and decompression bombs.

    The pixels are loaded here so that a truncated file fails now, with a clear message,
    rather than half-way through OCR.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width * height > MAX_IMAGE_PIXELS:
                raise DecompressionBombError(
                    f"the image is {width} x {height} pixels; the limit is "
                    f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels"
                )
            if width < 1 or height < 1:
                raise UndecodableImageError("the image has no pixels")
            image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise DecompressionBombError() from None
    except UnidentifiedImageError:
        raise UndecodableImageError() from None
    except (OSError, SyntaxError, ValueError) as error:
        # PIL reports truncated or damaged data as OSError/SyntaxError; the detail names the
        # damage, never the content.
        raise UndecodableImageError(f"the image cannot be decoded ({_short(error)})") from None
    return image


def _short(error: Exception) -> str:
    text = str(error).strip() or type(error).__name__
    return text[:120]
