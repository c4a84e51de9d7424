"""Input checks: type from bytes, size and page limits, damaged, encrypted and hostile files."""

from __future__ import annotations

import pytest
from PIL import Image

from extract_samples import encoded, report_pdf
from parser import sniff as sniff_module
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
from parser.sniff import open_image, open_pdf, pdf_page_count, sniff

PNG = encoded(Image.new("L", (40, 30), 255), "PNG")
JPEG = encoded(Image.new("RGB", (40, 30), "white"), "JPEG")


def test_kind_comes_from_the_bytes_not_the_name():
    assert sniff(report_pdf()) == "pdf"
    assert sniff(PNG) == "png"
    assert sniff(JPEG) == "jpeg"


def test_png_bytes_in_a_jpg_file_are_simply_png():
    # Only the bytes count when no type is declared.
    assert sniff(PNG, None) == "png"


@pytest.mark.parametrize("declared", ["application/pdf", ".pdf", "PDF", "image/jpeg", "jpg"])
def test_declared_type_contradicting_the_bytes_is_refused(declared):
    data = PNG
    with pytest.raises(TypeMismatchError) as caught:
        sniff(data, declared)
    assert "PNG" in caught.value.message


@pytest.mark.parametrize("declared", ["image/png", "png", "application/octet-stream", "", None])
def test_matching_or_generic_declared_types_pass(declared):
    assert sniff(PNG, declared) == "png"


def test_declared_jpeg_variants_match_jpeg_bytes():
    for declared in ("image/jpeg", "image/jpg", ".JPEG", "jpg", "image/jpeg; charset=binary"):
        assert sniff(JPEG, declared) == "jpeg"


def test_pdf_header_after_leading_junk_is_still_pdf():
    assert sniff(b"\r\n  " + report_pdf()) == "pdf"


def test_empty_file():
    with pytest.raises(EmptyFileError):
        sniff(b"")


def test_unsupported_types_are_named_as_such():
    for data in (b"GIF89a" + b"\0" * 40, b"PK\x03\x04zipfile", b"hello, world"):
        with pytest.raises(UnsupportedTypeError):
            sniff(data)


def test_size_limit_is_ten_megabytes():
    limit = sniff_module.MAX_BYTES
    assert limit == 10 * 1024 * 1024
    at_limit = PNG + b"\0" * (limit - len(PNG))
    assert sniff(at_limit) == "png"
    with pytest.raises(FileTooLargeError) as caught:
        sniff(at_limit + b"\0")
    assert caught.value.http_status == 413


def test_page_limit():
    data = report_pdf(pages=3)
    assert pdf_page_count(data) == 3
    open_pdf(data, max_pages=3).close()
    with pytest.raises(TooManyPagesError) as caught:
        open_pdf(data, max_pages=2)
    assert "3 pages" in caught.value.message and caught.value.failure_reason == "too_many_pages"


def test_corrupt_pdf():
    with pytest.raises(CorruptPdfError):
        open_pdf(b"%PDF-1.7\n this is not a pdf body at all \n%%EOF")


def test_password_protected_pdf_is_refused():
    data = report_pdf(encrypt="patient-secret")
    with pytest.raises(EncryptedPdfError) as caught:
        open_pdf(data)
    assert caught.value.failure_reason == "invalid_input"


def test_owner_password_only_pdf_is_readable():
    data = report_pdf(owner_only=True)
    assert b"/Encrypt" in data  # really encrypted, just without a user password
    pdf = open_pdf(data)
    try:
        assert len(pdf) == 1
    finally:
        pdf.close()


def test_truncated_image_is_undecodable():
    big = encoded(Image.effect_noise((300, 300), 60).convert("L"), "PNG")
    with pytest.raises(UndecodableImageError):
        open_image(big[: len(big) // 2])


def test_garbage_after_a_jpeg_header_is_undecodable():
    with pytest.raises(UndecodableImageError):
        open_image(b"\xff\xd8\xff\xe0" + b"\x13" * 500)


def test_decompression_bomb_is_refused_without_decoding(monkeypatch):
    # A PNG header claiming 100k x 100k pixels: refused from its header alone.
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 0, 0, 0, 0)
    bomb = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b"")
    with pytest.raises(DecompressionBombError):
        open_image(bomb)


def test_images_just_over_the_pixel_limit_are_refused(monkeypatch):
    # Between the limit and twice it PIL only warns; that must still be a refusal.
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    monkeypatch.setattr(sniff_module, "MAX_IMAGE_PIXELS", 1000)
    with pytest.raises(DecompressionBombError):
        open_image(encoded(Image.new("L", (40, 30), 255), "PNG"))  # 1200 pixels


def test_a_good_image_decodes():
    image = open_image(JPEG)
    assert image.size == (40, 30)
