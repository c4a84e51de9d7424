"""A corpus of hostile and careless inputs, generated (nothing stored), with the answer each
must get: empty, mislabelled, truncated, encrypted, 0 / 31 / 1000 pages, decompression bombs
(PDF content stream, PDF image, PNG), self-referencing PDFs, damaged and exotic images,
10 MiB + 1 byte, odd file names.

    from tests.hostile import corpus
    for case in corpus(): ...   # case.data, case.filename, case.reason, case.message

`reason` is the contract's failure_reason ("invalid_input", "too_many_pages", ...), or
"parsed" / "low_quality" for files that must be read (a mislabelled JPEG, a blank page).
`message` is a fragment the error message must contain (what was wrong, in words a person
can act on). Used by tests/test_hostile*.py and benchmarks/fuzz.py, benchmarks/memory.py.
"""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

MIB = 1024 * 1024
# Outcomes a readable-but-empty file may get: blank pages are "low_quality", never invalid.
READ = "read"


@dataclass(frozen=True)
class Case:
    name: str
    data: bytes
    reason: str  # failure_reason, or READ: the file is read (it may then be low_quality)
    message: str = ""  # fragment of the message (case-insensitive)
    filename: str = "report.bin"
    declared: str | None = None  # the MIME type an API client declares
    bomb: bool = False  # a decompression bomb: peak memory is what the test is about


# --- PDF building --------------------------------------------------------------------------


def pdf(objects: list[bytes], *, root: int = 1, trailer: bytes = b"", header: bytes = b"%PDF-1.7\n") -> bytes:
    """A PDF of `objects` (object i+1 is objects[i]) with a correct xref table."""
    out = bytearray(header + b"%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root %d 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, root, trailer, xref,
    )
    return bytes(out)


def stream(dictionary: bytes, data: bytes) -> bytes:
    return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def text_pdf(pages: int = 1, text: bytes = b"Glucose 95 mg/dL 70-99 Sodium 140 mmol/L 135-145") -> bytes:
    """`pages` pages of one line of Helvetica text each."""
    content = stream(b"", b"BT /F1 12 Tf 72 720 Td (" + text + b") Tj ET")
    kids = b" ".join(b"%d 0 R" % (4 + i) for i in range(pages))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages,
        content,
    ]
    objects += [
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R "
        b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>"
    ] * pages
    return pdf(objects)


def deflated_zeros(size: int, layers: int = 1) -> bytes:
    """`size` zero bytes, deflated `layers` times, made in well under a second: after a full
    flush the compressor forgets its history, so every MiB of zeros deflates to the same bytes."""
    zero = bytes(MIB)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate; zlib framing below
    block = compressor.compress(zero) + compressor.flush(zlib.Z_FULL_FLUSH)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    tail = compressor.compress(bytes(size % MIB)) + compressor.flush()
    adler = 1
    for _ in range(size // MIB):
        adler = zlib.adler32(zero, adler)
    adler = zlib.adler32(bytes(size % MIB), adler)
    data = b"\x78\xda" + block * (size // MIB) + tail + struct.pack(">I", adler)
    for _ in range(layers - 1):
        data = zlib.compress(data, 9)
    return data


@lru_cache
def content_bomb() -> bytes:
    """~2 KB of PDF whose page content inflates to 1 GiB (two Flate layers)."""
    body = deflated_zeros(1024 * MIB, layers=2)
    return pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        stream(b"/Filter [/FlateDecode /FlateDecode]", body),
    ])


@lru_cache
def image_bomb_pdf() -> bytes:
    """A page showing a 30000 x 30000 grey image (900 MB of pixels) stored in a few KB."""
    side = 30000
    body = deflated_zeros(side * side, layers=2)
    return pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /XObject << /Im1 5 0 R >> >> >>",
        stream(b"", b"q 612 0 0 792 0 0 cm /Im1 Do Q"),
        stream(
            b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Filter [/FlateDecode /FlateDecode]" % (side, side),
            body,
        ),
    ])


@lru_cache
def png_bomb(side: int = 8000) -> bytes:
    """An RGBA PNG of side x side white pixels (~265 KB for 8000)."""
    raw_row = b"\x00" + b"\xff" * (4 * side)
    compressor = zlib.compressobj(9)
    idat = b"".join(compressor.compress(raw_row) for _ in range(side)) + compressor.flush()
    return png_chunks(side, side, color_type=6, idat=idat)


def png_chunks(width: int, height: int, *, color_type: int = 0, depth: int = 8, idat: bytes = b"", extra: bytes = b"") -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def image_bytes(fmt: str, mode: str = "L", size=(400, 300), color=255, **save) -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, color).save(buffer, format=fmt, **save)
    return buffer.getvalue()


def jpeg_with_size(width: int, height: int) -> bytes:
    """A small JPEG whose SOF header claims width x height."""
    data = bytearray(image_bytes("JPEG", size=(16, 16)))
    sof = data.find(b"\xff\xc0")
    data[sof + 5 : sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def encrypted_pdf(user_password: str) -> bytes:
    from reportlab.lib import pdfencrypt
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    encryption = pdfencrypt.StandardEncryption(user_password, ownerPassword="owner-secret")
    sheet = canvas.Canvas(buffer, encrypt=encryption)
    sheet.drawString(72, 720, "Glucose 95 mg/dL 70-99 Sodium 140 mmol/L 135-145")
    sheet.save()
    return buffer.getvalue()


# --- the corpus -----------------------------------------------------------------------------


def _files() -> list[Case]:
    one = text_pdf()
    png = image_bytes("PNG")
    jpeg = image_bytes("JPEG")
    I, R = "invalid_input", READ  # noqa: E741 (short names keep the table readable)
    return [
        # empty and tiny
        Case("empty", b"", I, "empty"),
        Case("one-byte", b"%", I, "unsupported file type"),
        Case("whitespace", b" \n\t" * 100, I, "unsupported file type"),
        Case("nul-bytes", bytes(4096), I, "unsupported file type"),
        # too large
        Case("10MiB-plus-one", one + b"%" * (10 * MIB + 1 - len(one)), I, "10 MB", filename="big.pdf"),
        # not our types, whatever the name says
        Case("text-named-pdf", b"Glucose 95 mg/dL\n" * 20, I, "unsupported file type", filename="r.pdf"),
        Case("html-containing-pdf-marker", b"<!DOCTYPE html><html><body><p>see %PDF-1.4 spec</p></body></html>", I, "html", filename="r.pdf"),
        Case("html-page", b"<html><head><title>Login</title></head><body>Session expired</body></html>", I, "html"),
        Case("zip", b"PK\x03\x04" + bytes(200), I, "unsupported file type", filename="r.zip"),
        Case("gif", image_bytes("GIF"), I, "unsupported file type", filename="r.gif"),
        Case("bmp", image_bytes("BMP"), I, "unsupported file type", filename="r.bmp"),
        Case("tiff", image_bytes("TIFF"), I, "unsupported file type", filename="r.tiff"),
        Case("webp", image_bytes("WEBP"), I, "unsupported file type", filename="r.webp"),
        Case("svg", b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>', I, "unsupported file type"),
        Case("pdf-declared-png", one, I, "declared as PNG", declared="image/png"),
        Case("png-declared-pdf", png, I, "declared as PDF", declared="application/pdf"),
        # mislabelled by name only: the bytes decide (the contract)
        Case("jpeg-named-png", jpeg, R, filename="photo.png"),
        Case("png-named-jpg", png, R, filename="photo.jpg"),
        Case("pdf-named-png", one, R, filename="scan.png"),
        # truncated and damaged PDFs
        Case("pdf-header-only", b"%PDF-1.7\n", I, "corrupt"),
        Case("pdf-truncated-half", one[: len(one) // 2], I, "corrupt"),
        Case("pdf-truncated-before-page", one[:60], I, "corrupt"),
        Case("pdf-garbage-after-header", b"%PDF-1.4\n" + bytes(range(256)) * 8, I, "corrupt"),
        Case("pdf-junk-before-header", b"\x00\x01\x02binary-wrapper\x00" + one, R),
        Case("pdf-no-catalog", pdf([b"<< /Type /Pages /Kids [] /Count 0 >>"], root=5), I, "corrupt"),
        Case("pdf-bad-xref", one.replace(b"startxref\n", b"startxref\n9"), R),
        # encrypted
        Case("pdf-encrypted", encrypted_pdf("user-secret"), I, "encrypted"),
        Case("pdf-owner-password-only", encrypted_pdf(""), R),
        # page counts
        Case("pdf-0-pages", pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]), I, "corrupt"),
        Case("pdf-31-pages", text_pdf(31), "too_many_pages", "31 pages"),
        Case("pdf-1000-pages", text_pdf(1000), "too_many_pages", "1000 pages"),
        Case("pdf-count-lies", text_pdf(1).replace(b"/Count 1", b"/Count 999999"), "too_many_pages", "999999 pages"),
        # self-referencing structures
        Case("pdf-pages-kids-self", pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"]), I, "damaged"),
        Case("pdf-form-draws-itself", pdf([
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /X 5 0 R >> >> >>",
            stream(b"", b"/X Do"),
            stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X 5 0 R >> >>", b"/X Do"),
        ]), "low_quality", "no readable text"),
        Case("pdf-parent-loop", pdf([
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 3 0 R >>",
            b"<< /Type /Page /Parent 2 0 R /Kids [2 0 R] /MediaBox [0 0 612 792] >>",
        ]), I, "damaged"),
        Case("pdf-prev-loop", one.replace(b"/Root 1 0 R", b"/Root 1 0 R /Prev %d" % one.rindex(b"xref")), R),
        Case("pdf-length-lies", one.replace(b"/Length", b"/Length 999999 /L"), R),
        # decompression bombs and giant dimensions
        Case("pdf-content-bomb", content_bomb(), I, "decompress", bomb=True),
        Case("pdf-image-bomb", image_bomb_pdf(), I, "pixels", bomb=True),
        Case("pdf-giant-mediabox", text_pdf(1).replace(b"[0 0 612 792]", b"[0 0 14400 14400]"), R),
        Case("png-bomb-8000-rgba", png_bomb(), I, "pixels", bomb=True),
        Case("png-header-100000", png_chunks(100_000, 100_000, idat=zlib.compress(b"\0" * 1000)), I, "pixels", bomb=True),
        Case("jpeg-header-65000", jpeg_with_size(65000, 65000), I, "pixels", bomb=True),
        Case("png-zero-width", png_chunks(0, 10, idat=zlib.compress(b"")), I, "image"),
        # truncated and damaged images
        Case("png-signature-only", b"\x89PNG\r\n\x1a\n", I, "image"),
        Case("png-truncated", png[: len(png) // 2], I, "image"),
        Case("png-bad-header-crc", png[:29] + b"\x00\x00\x00\x00" + png[33:], I, "image"),
        Case("png-no-idat-data", png_chunks(100, 100, idat=b""), I, "image"),
        Case("jpeg-soi-only", b"\xff\xd8\xff", I, "image"),
        Case("jpeg-truncated", jpeg[: len(jpeg) // 2], I, "image"),
        # exotic but valid images: read (blank ones end low_quality, never invalid)
        Case("png-16-bit", image_bytes("PNG", mode="I;16", color=60000), R),
        Case("png-1-bit", image_bytes("PNG", mode="1", color=1), R),
        Case("png-palette-transparent", image_bytes("PNG", mode="P", color=0, transparency=0), R),
        Case("png-grey-alpha", image_bytes("PNG", mode="LA", color=(255, 0)), R),
        Case("png-1x1", image_bytes("PNG", size=(1, 1)), R),
        Case("jpeg-cmyk", image_bytes("JPEG", mode="CMYK", color=(0, 0, 0, 0)), R),
        Case("jpeg-progressive", image_bytes("JPEG", mode="RGB", color=(255, 255, 255), progressive=True), R),
        Case("jpeg-exif-rotated", _rotated_jpeg(), R),
    ]


def _rotated_jpeg() -> bytes:
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate 90 on display
    return image_bytes("JPEG", size=(300, 400), exif=exif.tobytes())


# Odd file names: the name is never trusted or logged, and never breaks the upload.
ODD_NAMES = [
    "a" * 5000 + ".pdf",
    "../../../etc/passwd.pdf",
    "r\u00e9sultats \u2013 \U0001f9ea.pdf",
    "evil\u202egpj.pdf",
    'quote"semi;colon.pdf',
    ".pdf",
]


def corpus(*, bombs: bool = True) -> list[Case]:
    """Every hostile file, then the odd names (each on a valid one-page PDF)."""
    cases = [case for case in _files() if bombs or not case.bomb]
    one = text_pdf()
    cases += [Case(f"name-{i}", one, READ, filename=name) for i, name in enumerate(ODD_NAMES)]
    return cases
