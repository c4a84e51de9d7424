"""The PDF stream check (parser.sniff.check_pdf_streams) inflates only the streams whose
compressed size could exceed the limits; these tests hold it to the same refusals as inflating
every stream. Limits are lowered so that each case is built and checked in milliseconds."""

from __future__ import annotations

import os
import zlib

import pytest

from parser import sniff
from parser.exceptions import DecompressionBombError
from tests.hostile import MIB, deflated_zeros, pdf, stream


def pdf_of_streams(bodies: list[bytes]) -> bytes:
    """A one-page PDF carrying `bodies` as Flate streams (the first one is the page content)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
    ]
    objects += [stream(b"/Filter /FlateDecode", body) for body in bodies]
    return pdf(objects)


@pytest.mark.parametrize(
    "data",
    [
        bytes(MIB),
        os.urandom(64 * 1024),
        b"BT /F1 12 Tf 72 720 Td (Glucose 95 mg/dL) Tj ET\n" * 20_000,
    ],
    ids=["zeros", "random", "content"],
)
@pytest.mark.parametrize("level", [1, 9])
def test_the_flate_bound_is_never_below_the_inflated_size(data, level):
    compressed = zlib.compress(data, level)
    assert sniff._flate_bound(len(compressed), 1) >= len(data)
    twice = zlib.compress(compressed, level)
    assert sniff._flate_bound(len(twice), 2) >= len(data)


def test_the_bound_holds_for_the_densest_deflate():
    # Full-flush blocks of zeros: the hostile corpus's bombs, about 1000 times smaller.
    body = deflated_zeros(8 * MIB)
    assert len(zlib.decompress(body)) == 8 * MIB
    assert sniff._flate_bound(len(body), 1) >= 8 * MIB


def test_one_stream_over_the_stream_limit_is_refused(monkeypatch):
    monkeypatch.setattr(sniff, "MAX_PDF_STREAM_BYTES", 2 * MIB)
    sniff.check_pdf_streams(pdf_of_streams([deflated_zeros(MIB + MIB // 2)]))
    with pytest.raises(DecompressionBombError, match="a stream of the PDF unpacks"):
        sniff.check_pdf_streams(pdf_of_streams([deflated_zeros(3 * MIB)]))


def test_small_streams_together_over_the_total_limit_are_refused(monkeypatch):
    # Each stream is small enough to be counted by its bound; together the bounds pass the
    # limit, so real sizes decide: 5 MiB is over a 4.5 MiB limit, under a 5.1 MiB one.
    bodies = [deflated_zeros(MIB) for _ in range(5)]
    assert sum(sniff._flate_bound(len(body), 1) for body in bodies) > 5.1 * MIB
    monkeypatch.setattr(sniff, "MAX_PDF_INFLATED_BYTES", int(5.1 * MIB))
    sniff.check_pdf_streams(pdf_of_streams(bodies))
    monkeypatch.setattr(sniff, "MAX_PDF_INFLATED_BYTES", int(4.5 * MIB))
    with pytest.raises(DecompressionBombError, match="contents unpack to more than"):
        sniff.check_pdf_streams(pdf_of_streams(bodies))


def test_nested_flate_layers_are_inflated_through(monkeypatch):
    monkeypatch.setattr(sniff, "MAX_PDF_STREAM_BYTES", 4 * MIB)
    body = deflated_zeros(8 * MIB, layers=2)
    data = pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        stream(b"/Filter [/FlateDecode /FlateDecode]", body),
    ])
    assert len(data) < 4096
    with pytest.raises(DecompressionBombError):
        sniff.check_pdf_streams(data)


def test_endstream_is_not_taken_for_a_stream_start():
    data = pdf_of_streams([zlib.compress(b"q Q\n")])
    starts = list(sniff._pdf_streams(data))
    assert len(starts) == 1
    dictionary, start, end = starts[0]
    assert b"/FlateDecode" in dictionary
    assert zlib.decompress(data[start:end].rstrip(b"\n")) == b"q Q\n"
