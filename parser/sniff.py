"""Input checks: what a file is, judged from its bytes, and whether it can be read safely.

`sniff` is the cheap check (type and size) the API runs on every upload; `open_pdf` and
`open_image` open the file for real and turn every way it can be unreadable into one of the
errors in `parser.exceptions`. Nothing here trusts the file name.
"""

from __future__ import annotations

import io
import re
import zlib
from struct import error as struct_error
from collections.abc import Iterable, Iterator
from typing import Literal

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, JpegImagePlugin, PngImagePlugin

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
from parser.limits import (
    DEFAULT_MAX_PAGES,
    FLATE_MAX_RATIO,
    MAX_BYTES,
    MAX_DECODED_IMAGE_BYTES,
    MAX_IMAGE_PIXELS,
    MAX_PDF_INFLATED_BYTES,
    MAX_PDF_STREAM_BYTES,
    MB,
)

__all__ = ["DEFAULT_MAX_PAGES", "MAX_BYTES", "MAX_IMAGE_PIXELS", "sniff", "open_pdf", "open_image"]

Kind = Literal["pdf", "png", "jpeg"]

# PIL warns above this and raises above twice this; we refuse both (see open_image).
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_JPEG_MAGIC = b"\xff\xd8\xff"
# The PDF header may follow some junk; readers accept it within the first 1024 bytes. The junk
# we accept is a binary wrapper (a MacBinary or mail-gateway header), never text: an HTML page
# or a text file that merely mentions "%PDF-" is not a PDF.
_PDF_MAGIC = re.compile(rb"%PDF-\d")
_PDF_SEARCH_WINDOW = 1024
_TEXT_BYTES = bytes(range(0x20, 0x7F)) + b"\t\r\n\x0c"
_HTML = re.compile(rb"^\s*(?:\xef\xbb\xbf)?\s*<(?:!doctype\s+html|html|head|body|!--)", re.IGNORECASE)

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
    found = _PDF_MAGIC.search(data[:_PDF_SEARCH_WINDOW])
    if found and _binary_wrapper(data[: found.start()]):
        return "pdf"
    return None


def _binary_wrapper(prefix: bytes) -> bool:
    """Bytes before "%PDF-" that a reader may skip: nothing, whitespace, or binary junk.
    Printable text before it (HTML, an e-mail, a log) means the marker is only quoted."""
    stripped = prefix.strip()
    if not stripped:
        return True
    text_share = sum(1 for byte in stripped if byte in _TEXT_BYTES) / len(stripped)
    return text_share < 0.9 and not _HTML.match(prefix)


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
        if _HTML.match(data[:256]):
            raise UnsupportedTypeError(
                "the file is an HTML web page, not a PDF, JPEG or PNG; download the report "
                "itself (often a 'Download PDF' link on that page)"
            )
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


def open_pdf(data: bytes, *, max_pages: int = DEFAULT_MAX_PAGES, check_streams: bool = True) -> pdfium.PdfDocument:
    """Open a PDF with pdfium, refusing password-protected, corrupt and over-long documents,
    and (`check_streams`) documents whose streams unpack beyond the limits (parser.limits).

    A PDF encrypted with an empty user password (owner password only, as many lab systems
    print them) opens without asking and is readable: it is accepted.
    """
    if check_streams:
        check_pdf_streams(data)
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        # pdfium's error code can be stale (left by an earlier document in this process), so
        # "password" counts only when the file really has an encryption dictionary.
        code = getattr(error, "err_code", None)
        if _has_encrypt_dictionary(data) and code in (
            pdfium_c.FPDF_ERR_PASSWORD, pdfium_c.FPDF_ERR_SECURITY
        ):
            raise EncryptedPdfError() from None
        raise CorruptPdfError() from None
    try:
        pages = len(pdf)
        if pages == 0:
            raise CorruptPdfError("the PDF has no pages (its page list is empty or broken)")
        if max_pages and pages > max_pages:
            raise TooManyPagesError(
                f"the document has {pages} pages; the limit is {max_pages}"
            )
    except BaseException:
        pdf.close()
        raise
    return pdf


def pdf_page_count(data: bytes, *, check_streams: bool = True) -> int:
    """Number of pages, with the same refusals as `open_pdf` except the page limit."""
    pdf = open_pdf(data, max_pages=0, check_streams=check_streams)
    try:
        return len(pdf)
    finally:
        pdf.close()


def _has_encrypt_dictionary(data: bytes) -> bool:
    # The trailer or a cross-reference stream names /Encrypt; neither is ever compressed, so
    # a byte search finds it (a fraction of a millisecond on 10 MB).
    return b"/Encrypt" in data


# --- PDF resources: what the streams unpack to, judged before pdfium decodes them ----------

# A stream starts at the keyword `stream` (not `endstream`): a literal search, then a look at
# the byte before it, is many times faster than a look-behind in the pattern.
_STREAM_START = re.compile(rb"stream\r?\n")
_LETTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_IMAGE = re.compile(rb"/Subtype\s*/Image")
_INFLATE_CHUNK = 1 * MB
_FLATE = re.compile(rb"/(?:FlateDecode|Fl)(?![A-Za-z])")
_OTHER_FILTER = re.compile(
    rb"/(?:LZWDecode|LZW|ASCIIHexDecode|AHx|ASCII85Decode|A85|RunLengthDecode|RL|"
    rb"DCTDecode|DCT|JPXDecode|CCITTFaxDecode|CCF|JBIG2Decode|Crypt)(?![A-Za-z])"
)
_INT_KEY = {key: re.compile(rb"/" + key + rb"\s+(\d+)(?!\s+\d+\s+R)") for key in (b"Width", b"Height", b"BitsPerComponent")}
_COMPONENTS = {b"/DeviceGray": 1, b"/CalGray": 1, b"/DeviceCMYK": 4, b"/Indexed": 1}


def check_pdf_streams(data: bytes) -> None:
    """Refuse a PDF whose images hold too many pixels or whose other streams inflate beyond
    the limits, without holding more than a megabyte of inflated data at a time.

    Inflating is the cost of this check, so a stream is inflated only when its compressed
    size could unpack beyond the limits (`_flate_bound`): a real report's streams are all
    small enough to be counted by their bound, a bomb's never are."""
    counted = 0  # inflated sizes, or the bounds of the streams not inflated
    by_bound: list[tuple[int, memoryview, int]] = []  # (bound, body, layers) counted by bound
    view = memoryview(data)
    for dictionary, start, end in _pdf_streams(data):
        if _IMAGE.search(dictionary):
            _check_pdf_image(dictionary)
            continue
        filters = dictionary.split(b"/Filter", 1)[1] if b"/Filter" in dictionary else b""
        layers = len(_FLATE.findall(filters))
        if not layers or _OTHER_FILTER.search(filters):
            continue  # stored as is (at most the file's size) or filters we do not unpack here
        body = view[start:end]
        bound = _flate_bound(len(body), layers)
        if bound <= MAX_PDF_STREAM_BYTES:
            by_bound.append((bound, body, layers))
            counted += bound
            continue
        size = _inflated_size(body, layers, MAX_PDF_STREAM_BYTES + 1)
        if size > MAX_PDF_STREAM_BYTES:
            raise DecompressionBombError(
                f"a stream of the PDF unpacks to more than {MAX_PDF_STREAM_BYTES // MB} MB "
                "(a decompression bomb: real reports hold a few MB); export or scan the report again"
            )
        counted += size
    # Bounds overstate: replace the largest by real sizes until the total is known either way.
    by_bound.sort(key=lambda item: item[0], reverse=True)
    for bound, body, layers in by_bound:
        if counted <= MAX_PDF_INFLATED_BYTES:
            return
        counted += _inflated_size(body, layers, bound) - bound
    if counted > MAX_PDF_INFLATED_BYTES:
        raise DecompressionBombError(
            f"the PDF's contents unpack to more than {MAX_PDF_INFLATED_BYTES // MB} MB "
            "(a decompression bomb: real reports hold a few MB); export or scan the report again"
        )


def _flate_bound(size: int, layers: int) -> int:
    """The most `size` bytes can inflate to through `layers` Flate filters."""
    for _ in range(layers):
        size = (size + 1) * FLATE_MAX_RATIO
    return size


def _pdf_streams(data: bytes) -> Iterator[tuple[bytes, int, int]]:
    """(dictionary text, start, end of the raw body) of every stream object, found by its
    keywords. The body runs to `endstream` (a lying /Length does not matter here)."""
    for match in _STREAM_START.finditer(data):
        at = match.start()
        if at and data[at - 1] in _LETTERS:
            continue  # "endstream", not a stream's start
        head = data[max(0, at - 4096) : at]
        opened = head.rfind(b"obj")
        dictionary = head[opened + 3 :] if opened >= 0 else head[-1024:]
        end = data.find(b"endstream", match.end())
        yield dictionary, match.end(), end if end >= 0 else len(data)


def _check_pdf_image(dictionary: bytes) -> None:
    values = {}
    for key, pattern in _INT_KEY.items():
        found = pattern.search(dictionary)
        values[key] = int(found.group(1)) if found else None
    width, height = values[b"Width"], values[b"Height"]
    if width is None or height is None:
        return  # indirect sizes: pdfium's own limits apply
    components = next((n for name, n in _COMPONENTS.items() if name in dictionary), 3)
    bits = values[b"BitsPerComponent"] or 8
    _check_pixels(width, height, max(1, components * bits // 8), what="an image in the PDF")


def _inflated_size(body: bytes, layers: int, cap: int) -> int:
    """Bytes `body` inflates to through `layers` Flate filters, counting at most to `cap`."""
    chunks: Iterable[bytes] = [body]
    for _ in range(layers):
        chunks = _inflate(chunks)
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if total >= cap:
            break
    return total


def _inflate(chunks: Iterable[bytes]) -> Iterator[bytes]:
    inflater = zlib.decompressobj()
    try:
        for pending in chunks:
            while pending:
                out = inflater.decompress(pending, _INFLATE_CHUNK)
                pending = inflater.unconsumed_tail
                if out:
                    yield out
                if inflater.eof:
                    return
            while not inflater.eof:  # output held back by the chunk limit
                out = inflater.decompress(b"", _INFLATE_CHUNK)
                if not out:
                    break
                yield out
    except zlib.error:
        return  # damaged data: pdfium decides what it makes of it


# --- images ----------------------------------------------------------------------------------


def image_header(data: bytes) -> Image.Image:
    """Open a JPEG or PNG lazily and check its size from the header: no pixel is decoded, so
    the API can run this on any upload. Raises on undecodable headers and bombs."""
    # The format's own class, not Image.open: PIL's bomb check would refuse a giant image
    # before we could say how large it is; ours (_check_pixels) runs right after.
    opener = {"png": PngImagePlugin.PngImageFile, "jpeg": JpegImagePlugin.JpegImageFile}.get(kind_from_bytes(data))
    if opener is None:
        raise UndecodableImageError()
    try:
        image = opener(io.BytesIO(data))
        width, height = image.size
    except (OSError, SyntaxError, ValueError, struct_error) as error:
        raise UndecodableImageError(f"the image cannot be decoded ({_short(error)}): it is damaged or cut short; save or scan it again") from None
    if width < 1 or height < 1:
        raise UndecodableImageError("the image has no pixels (its width or height is 0)")
    _check_pixels(width, height, _bytes_per_pixel(image), what="the image")
    return image


def check_image_header(data: bytes) -> None:
    """`image_header` plus, for a PNG, its chunks' checksums (still no pixel decoded)."""
    image = image_header(data)
    try:
        if image.format == "PNG":
            image.verify()
    except (OSError, SyntaxError, ValueError, struct_error) as error:
        raise UndecodableImageError(f"the image cannot be decoded ({_short(error)}): it is damaged or cut short; save or scan it again") from None
    finally:
        image.close()


def open_image(data: bytes) -> Image.Image:
    """Decode a JPEG or PNG fully, refusing undecodable files and decompression bombs.

    The size is checked from the header before decoding; the pixels are loaded here so that
    a truncated file fails now, with a clear message, rather than half-way through OCR.
    """
    image = image_header(data)
    try:
        image.load()
    except (OSError, SyntaxError, ValueError, struct_error) as error:
        # PIL reports truncated or damaged data as OSError/SyntaxError; the detail names the
        # damage, never the content.
        raise UndecodableImageError(f"the image cannot be decoded ({_short(error)}): it is damaged or cut short; save or scan it again") from None
    return image


def _bytes_per_pixel(image: Image.Image) -> int:
    bands = len(image.getbands())
    wide = image.mode.startswith("I;16") or image.mode in ("I", "F")
    return bands * (4 if image.mode in ("I", "F") else 2 if wide else 1)


def _check_pixels(width: int, height: int, bytes_per_pixel: int, *, what: str) -> None:
    """Refuse images beyond the pixel or decoded-size limit, saying how large they are."""
    pixels = width * height
    decoded = pixels * bytes_per_pixel
    if pixels > MAX_IMAGE_PIXELS or decoded > MAX_DECODED_IMAGE_BYTES:
        raise DecompressionBombError(
            f"{what} is {width} x {height} pixels ({decoded // MB:,} MB once decoded); the "
            f"limit is {MAX_IMAGE_PIXELS // 1_000_000} megapixels and "
            f"{MAX_DECODED_IMAGE_BYTES // MB} MB: scan or photograph the report at a lower "
            "resolution (300 dpi is plenty)"
        )


def _short(error: Exception) -> str:
    text = str(error).strip() or type(error).__name__
    return text[:120]
