"""A photographed page seen whole against a darker desk is mapped onto a rectangle: keystone
and tilt undone before OCR (parser.image.page_corners, dewarp)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from extract_samples import render, report_pdf
from parser import image as prep
from parser.document import render_page_png


@pytest.fixture(scope="module")
def page() -> Image.Image:
    return render(report_pdf(), dpi=150).convert("L")


def _photographed(page: Image.Image, corners: list[tuple[float, float]], frame=(1500, 1900)) -> Image.Image:
    """`page` warped so that its corners (UL, UR, LR, LL) land on `corners` of a dark desk."""
    w, h = page.size
    rows, target = [], []
    for (x, y), (u, v) in zip(corners, [(0, 0), (w, 0), (w, h), (0, h)]):
        rows += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        target += [u, v]
    coefficients = tuple(np.linalg.solve(np.array(rows, float), np.array(target, float)))
    warped = page.transform(frame, Image.PERSPECTIVE, coefficients, Image.BICUBIC, fillcolor=0)
    mask = Image.new("L", page.size, 255).transform(frame, Image.PERSPECTIVE, coefficients, Image.BILINEAR)
    return Image.composite(warped, Image.new("L", frame, 70), mask)


KEYSTONE = [(140.0, 90.0), (1340.0, 120.0), (1380.0, 1800.0), (100.0, 1770.0)]


def _keystone_ratio() -> float:
    """Height over width of the rectangle KEYSTONE maps onto: as wide as the quadrilateral's
    longer horizontal side and as tall as its longer vertical one."""
    ul, ur, lr, ll = np.array(KEYSTONE)
    width = max(np.linalg.norm(ur - ul), np.linalg.norm(lr - ll))
    height = max(np.linalg.norm(ll - ul), np.linalg.norm(lr - ur))
    return height / width


def test_the_corners_of_a_photographed_page_are_found(page):
    photo = _photographed(page, KEYSTONE)
    corners = prep.page_corners(prep.surroundings(photo))
    assert corners is not None and not prep.is_square(corners)
    found = corners * prep.SURROUNDINGS_CELL + prep.SURROUNDINGS_CELL / 2
    assert np.abs(found - np.array(KEYSTONE)).max() < 12


def test_the_dewarped_page_is_upright_and_only_page(page):
    photo = _photographed(page, KEYSTONE)
    gray, info = prep.prepare_for_ocr(photo)
    assert info.dewarped and abs(info.skew) < prep.MIN_SKEW
    assert gray.height / gray.width == pytest.approx(_keystone_ratio(), rel=0.02)
    straight = prep.dewarp(prep.whiten_outside_page(photo), prep.page_corners(prep.surroundings(photo)) * 8 + 4)
    assert abs(prep.measure_skew(straight)) < 0.3
    assert np.asarray(straight).min() < 60  # the ink stays


def test_a_square_page_a_cut_page_and_a_scan_are_left_alone(page):
    square = _photographed(page, [(100.0, 100.0), (1400.0, 100.0), (1400.0, 1800.0), (100.0, 1800.0)])
    corners = prep.page_corners(prep.surroundings(square))
    assert corners is not None and prep.is_square(corners)
    cut = _photographed(page, [(-50.0, 90.0), (1340.0, 120.0), (1380.0, 1800.0), (-80.0, 1770.0)])
    assert prep.page_corners(prep.surroundings(cut)) is None
    _, info = prep.prepare_for_ocr(_photographed(page, KEYSTONE), dpi=150)
    assert not info.dewarped  # a rendered PDF page keeps its frame (its words map to points)


def test_the_review_preview_of_a_photo_shows_the_page_ocr_read(page):
    """Result boxes are fractions of the straightened page: the preview must show that page,
    not the desk around a tilted one."""
    buffer = io.BytesIO()
    _photographed(page, KEYSTONE).convert("RGB").save(buffer, format="PNG")
    preview = Image.open(io.BytesIO(render_page_png(buffer.getvalue(), 1))).convert("L")
    assert preview.height / preview.width == pytest.approx(_keystone_ratio(), rel=0.02)
    pixels = np.asarray(preview)
    corners = [pixels[:6, :6], pixels[:6, -6:], pixels[-6:, :6], pixels[-6:, -6:]]
    assert min(float(corner.mean()) for corner in corners) > 200  # paper, not the desk (70)


def test_the_page_edges_are_found_to_the_pixel(page):
    """The 8 px cells alone put the corners up to ~10 px inside the page, each by its own
    amount; refined on the full-resolution image they land on the page's corners."""
    photo = _photographed(page, KEYSTONE)
    corners = prep.tilted_page(prep.surroundings(photo), photo)
    assert corners is not None
    assert np.abs(corners - np.array(KEYSTONE)).max() < 1.0


def test_the_straightened_page_lines_up_with_the_printed_page(page):
    """Mapped with the refined corners, the page's ink falls where it was printed (no
    residual tilt or shear for a deskew to resample again): cell corners overlapped 0.31."""
    photo = _photographed(page, KEYSTONE)
    straight = prep.dewarp(photo, prep.tilted_page(prep.surroundings(photo), photo))
    printed = np.asarray(page) < 128
    seen = np.asarray(straight.resize(page.size, Image.BICUBIC)) < 128
    assert (printed & seen).sum() / (printed | seen).sum() > 0.8


def test_the_page_rim_is_painted_paper_after_the_warp(page):
    """The warp now reaches the page's own edge, a grey blur tesseract reads as '|' beside
    the outer column: a thin band along the four sides becomes paper, the inside stays."""
    photo = _photographed(page, KEYSTONE)
    corners = prep.tilted_page(prep.surroundings(photo), photo)
    framed = prep.dewarp(photo, corners)
    drawn = np.array(framed)
    drawn[:, :3] = drawn[:, -3:] = 90  # the page's edge, as a photo blurs it
    cleaned = np.asarray(prep.whiten_rim(Image.fromarray(drawn)))
    assert cleaned[:, :3].min() == 255 and cleaned[:, -3:].min() == 255
    inner = slice(20, -20)
    assert np.array_equal(cleaned[inner, inner], drawn[inner, inner])
