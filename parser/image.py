"""Page-image clean-up before OCR: upright, straight, large enough, even background.

Each step is a small pure function on PIL images (numpy for the measurements), so the OCR
stage can apply them in order and tests can check them one by one. Settings were chosen by
measured OCR accuracy (benchmarks/ocr_settings.py), not by taste.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter, ImageOps

from parser.reverse_video import invert_reverse_video
from parser.rulings import erase_rulings

# Tesseract reads best at ~300 dpi. Images below MIN_DPI are enlarged towards it, by at most
# MAX_UPSCALE: on the fixture photos (~200 dpi) 1.5x found 64 of 107 printed values against 58
# without, 2x 66 at half again the time (see benchmarks/ocr_settings.py).
TARGET_DPI = 300
MIN_DPI = 250
MAX_UPSCALE = 2.0
# A photo's dpi is unknown; assuming it shows a whole page, its long side spans ~11 inches
# (A4 11.7, Letter 11). A photo of part of a page is merely enlarged more than needed.
PAGE_LONG_SIDE_INCHES = 11.0
# Skew search range and precision (degrees); beyond this a page is rotated, not skewed.
MAX_SKEW = 8.0
MIN_SKEW = 0.3  # below this, rotating costs more (resampling blur) than it gains
# Background brightness varying more than this (0..255) across the page means uneven light.
UNEVEN_LIGHT_SPREAD = 25
# Paper grain (robust std of paper pixels, 0..255) above which a light blur helps
# tesseract (scanner noise, JPEG artefacts): scans measure 7-9, phone photos 0-4.5 (a blur
# hurts those: they are soft already), clean renders 0. See benchmarks/ocr_settings.py.
NOISY_PAPER = 6.0
DENOISE_RADIUS = 1  # a box blur: measured better on numbers than Gaussian 0.7, at half the time
# Share of blank pixel columns (between text lines) that marks a page turned by 90 degrees;
# upright pages measure 0.4-0.6 blank rows and under 0.05 blank columns.
SIDEWAYS_BLANK_SHARE = 0.2
# Around a photographed page: cells (8 x 8 px) darker than this share of the paper's brightness,
# connected to the image's edge, are desk or scanner lid, not page.
DARK_SURROUNDINGS = 0.5
SURROUNDINGS_CELL = 8
# A photographed page seen whole is mapped onto a rectangle when it fills at least this share
# of the frame and its edges slope at most this much (dy/dx, about 10 degrees).
MIN_PAGE_SHARE = 0.4
MAX_EDGE_SLOPE = 0.18


@dataclass(frozen=True, slots=True)
class PageImageInfo:
    """What preprocessing measured and did, for the OCR page and for diagnostics."""

    scale: float  # factor applied to the input image's pixels (upscaling)
    denoised: bool  # a light blur smoothed scanner grain
    skew: float  # degrees the image was rotated to straighten it (counter-clockwise > 0)
    flattened: bool  # uneven lighting was removed
    likely_sideways: bool  # text lines look vertical: the page is probably turned 90 degrees
    rulings_erased: int = 0  # ink pixels of leader dots and rules painted as paper
    dpi: float = 0.0  # the page's resolution (given, or estimated as for a whole page)
    dewarped: bool = False  # a photographed page's quadrilateral was mapped onto a rectangle
    boxes_inverted: int = 0  # filled dark boxes whose light text was turned dark on light


def exif_upright(image: Image.Image) -> Image.Image:
    """Apply the EXIF orientation a phone camera records instead of turning the pixels."""
    return ImageOps.exif_transpose(image) or image


def to_gray(image: Image.Image) -> Image.Image:
    if image.mode == "L":
        return image
    if image.mode.startswith("I") or image.mode == "F":
        # 16-bit and float scans: PIL's convert("L") clips everything above 255 to white.
        pixels = np.asarray(image, dtype=np.float64)
        low, high = float(pixels.min()), float(pixels.max())
        scaled = (pixels - low) * (255.0 / (high - low)) if high > low else np.full(pixels.shape, 255.0)
        return Image.fromarray(scaled.astype(np.uint8))
    if image.mode in ("RGBA", "LA", "P", "PA"):
        # Transparent areas are paper, not black.
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        image = Image.alpha_composite(background, rgba)
    return image.convert("L")


def otsu_threshold(gray: np.ndarray) -> int:
    """The grey level separating ink from paper (Otsu's method)."""
    if gray.dtype == np.uint8 and gray.ndim == 2:
        # PIL counts in C without the 8-byte-per-pixel copy bincount makes of a page.
        histogram = np.asarray(Image.fromarray(gray).histogram(), dtype=np.float64)
    else:
        histogram = np.bincount(gray.ravel(), minlength=256).astype(np.float64)
    total = histogram.sum()
    levels = np.arange(256)
    weight_dark = np.cumsum(histogram)
    weight_light = total - weight_dark
    sum_dark = np.cumsum(histogram * levels)
    mean_dark = sum_dark / np.maximum(weight_dark, 1)
    mean_light = (sum_dark[-1] - sum_dark) / np.maximum(weight_light, 1)
    between = weight_dark * weight_light * (mean_dark - mean_light) ** 2
    return int(np.argmax(between))


def _ink_mask(gray: Image.Image, width: int = 1000) -> np.ndarray:
    """Dark pixels of a reduced copy: enough to measure lines, cheap to compute."""
    # A whole-pixel box reduction: a sixth of the time of a resampled resize, the same lines.
    factor = -(-gray.width // max(width, 1))
    small = gray.reduce(factor) if factor > 1 else gray
    pixels = np.asarray(small)
    return pixels < min(otsu_threshold(pixels), 200)


def _profile_score(ys: np.ndarray, xs: np.ndarray, angle: float) -> float:
    """How sharply ink falls into rows when the page is sheared by `angle` degrees."""
    shifted = ys - xs * np.tan(np.radians(angle))
    rows = np.bincount((shifted - shifted.min()).astype(np.int64), minlength=1)
    return float(np.sum(rows.astype(np.float64) ** 2))


def measure_skew(gray: Image.Image) -> float:
    """Skew angle in degrees (positive: text lines rise to the right); 0.0 if unclear."""
    ink = _ink_mask(gray)
    ys, xs = np.nonzero(ink)
    if len(ys) < 200:
        return 0.0
    if len(ys) > 60_000:  # a sample of the ink is as good and much faster
        pick = np.random.default_rng(0).choice(len(ys), 60_000, replace=False)
        ys, xs = ys[pick], xs[pick]
    ys = ys.astype(np.float64)
    xs = xs.astype(np.float64)
    coarse = np.arange(-MAX_SKEW, MAX_SKEW + 0.01, 1.0)
    scores = [_profile_score(ys, xs, a) for a in coarse]
    best = float(coarse[int(np.argmax(scores))])
    fine = np.arange(best - 1.0, best + 1.01, 0.1)
    scores = [_profile_score(ys, xs, a) for a in fine]
    # Image y grows downwards: a shear that aligns rows at angle a means lines rise by a.
    return round(-float(fine[int(np.argmax(scores))]), 2)


def looks_sideways(gray: Image.Image) -> bool:
    """Text lines run vertically: blank gaps between lines show up in the columns of ink but
    not in its rows. Only a clear case counts (a tilted photo, a ruled grid or shadows leave
    no blank rows or columns at all, and OCR's own check covers those)."""
    ink = _ink_mask(gray, width=800)
    ys, xs = np.nonzero(ink)
    if len(ys) < 200:
        return False
    box = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    blank_rows = float(np.mean(box.sum(axis=1) < 0.01 * box.shape[1]))
    blank_columns = float(np.mean(box.sum(axis=0) < 0.01 * box.shape[0]))
    return blank_columns > SIDEWAYS_BLANK_SHARE and blank_rows < SIDEWAYS_BLANK_SHARE / 4


def deskew(gray: Image.Image, angle: float) -> Image.Image:
    """Rotate counter-clockwise by `angle` degrees, filling the new corners with paper."""
    if abs(angle) < MIN_SKEW:
        return gray
    # Bilinear: half the time of bicubic on a 300 dpi page, and no visible difference to OCR.
    return gray.rotate(-angle, resample=Image.BILINEAR, expand=True, fillcolor=255)


def estimated_dpi(gray: Image.Image) -> float:
    """The resolution of a photo or scan of unknown dpi, taken to show a whole page."""
    return max(gray.size) / PAGE_LONG_SIDE_INCHES


def upscale_factor(dpi: float) -> float:
    """How much to enlarge an image of `dpi` for tesseract (1.0: leave as is)."""
    if dpi >= MIN_DPI:
        return 1.0
    return min(MAX_UPSCALE, TARGET_DPI / max(dpi, 1.0))


def upscale(gray: Image.Image, factor: float) -> Image.Image:
    if factor <= 1.0:
        return gray
    size = (round(gray.width * factor), round(gray.height * factor))
    return gray.resize(size, Image.LANCZOS)


def background(gray: Image.Image) -> Image.Image:
    """The paper's brightness at every point, without the ink (a blurred local maximum)."""
    factor = 16
    small = gray.resize((max(1, gray.width // factor), max(1, gray.height // factor)), Image.BOX)
    paper = small.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.GaussianBlur(4))
    return paper.resize(gray.size, Image.BILINEAR)


def has_uneven_light(gray: Image.Image) -> bool:
    """The paper's brightness (the 90th percentile of each ~128 px block) varies across the
    page: a shadow or a lamp's falloff."""
    small = np.asarray(gray.reduce(4) if min(gray.size) > 400 else gray)
    size = 32
    rows, columns = small.shape[0] // size, small.shape[1] // size
    if rows < 2 or columns < 2:
        return False
    blocks = small[: rows * size, : columns * size].reshape(rows, size, columns, size)
    paper = np.percentile(blocks.transpose(0, 2, 1, 3).reshape(rows * columns, size * size), 90, axis=1)
    low, high = np.percentile(paper, [5, 95])
    return high - low > UNEVEN_LIGHT_SPREAD or high < 170


def whiten_outside_page(gray: Image.Image, outside: np.ndarray | None = None) -> Image.Image:
    """Paint white the dark surroundings of a photographed or scanned page (desk, scanner lid)
    that reach the image's edge. Tesseract's layout analysis otherwise takes the page's outer
    columns, next to the dark area, for a picture and skips their text (seen on a phone photo
    where the whole unit column went missing)."""
    outside = surroundings(gray) if outside is None else outside
    if not outside.any():
        return gray
    mask = Image.fromarray(np.where(outside, 255, 0).astype(np.uint8))
    mask = mask.filter(ImageFilter.MaxFilter(3)).resize(gray.size, Image.NEAREST)
    return Image.composite(Image.new("L", gray.size, 255), gray, mask)


def surroundings(gray: Image.Image) -> np.ndarray:
    """Cells (SURROUNDINGS_CELL px square) of the image that are desk or scanner lid around the
    page: darker than DARK_SURROUNDINGS of the paper and connected to the image's edge."""
    factor = SURROUNDINGS_CELL
    small = np.asarray(gray.resize((max(1, gray.width // factor), max(1, gray.height // factor)), Image.BOX))
    level = float(np.percentile(small, 90))  # the paper
    return _edge_connected(small < DARK_SURROUNDINGS * level)


def page_corners(outside: np.ndarray) -> np.ndarray | None:
    """The corners (upper left, upper right, lower right, lower left; x, y in cells) of a page
    seen whole against its surroundings: where the lines fitted to its four edges meet. None
    unless the surroundings show on all four sides (a page cut by the frame has no corners
    to trust) and the page fills most of the frame."""
    page = ~outside
    rows, columns = page.shape
    if rows < 16 or columns < 16 or not page.any() or page[[0, -1], :].any() or page[:, [0, -1]].any():
        return None
    edges = [
        _edge_line(page, from_end=False), _edge_line(page.T, from_end=True),
        _edge_line(page, from_end=True), _edge_line(page.T, from_end=False),
    ]  # top and bottom as y(x); right and left as x(y)
    if any(edge is None for edge in edges):
        return None
    top, right, bottom, left = edges
    corners = _corners(top, right, bottom, left)
    width = np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])
    height = np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1])
    if width * height / 4 < MIN_PAGE_SHARE * rows * columns:
        return None
    return corners


def _edge_line(page: np.ndarray, *, from_end: bool) -> tuple[float, float] | None:
    """(a, b) of the line position = a + b * t along the page's edge nearest the start (or the
    end) of each column of `page`, fitted over the middle of the page's span, outliers
    (a torn corner, a shadow) dropped."""
    covered = np.flatnonzero(page.any(axis=0))
    span = covered[-1] - covered[0]
    t = np.arange(covered[0] + span // 5, covered[-1] - span // 5 + 1)
    if t.size < 8:
        return None
    column = page[:, t]
    if from_end:
        position = page.shape[0] - 1 - column[::-1].argmax(axis=0)
    else:
        position = column.argmax(axis=0)
    fit = np.polyfit(t, position, 1)
    keep = np.abs(np.polyval(fit, t) - position) <= 1.5
    if keep.sum() < 0.6 * t.size:
        return None
    slope, intercept = np.polyfit(t[keep], position[keep], 1)
    if abs(slope) > MAX_EDGE_SLOPE:
        return None
    return float(intercept), float(slope)


def _corners(top, right, bottom, left) -> np.ndarray:
    """Upper left, upper right, lower right, lower left: where the four edge lines meet."""
    return np.array([_meet(top, left), _meet(top, right), _meet(bottom, right), _meet(bottom, left)])


def _meet(horizontal: tuple[float, float], vertical: tuple[float, float]) -> tuple[float, float]:
    """Where y = a + b x meets x = c + d y."""
    a, b = horizontal
    c, d = vertical
    y = (a + b * c) / (1 - b * d)
    return c + d * y, y


def dewarp(gray: Image.Image, corners: np.ndarray) -> Image.Image:
    """The page inside `corners` (full-resolution pixels) mapped onto an upright rectangle:
    a hand-held photo's keystone and tilt undone in one resampling."""
    width = round(max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[3])))
    height = round(max(np.linalg.norm(corners[3] - corners[0]), np.linalg.norm(corners[2] - corners[1])))
    target = [(0, 0), (width, 0), (width, height), (0, height)]
    rows = []
    for (x, y), (u, v) in zip(target, corners):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    coefficients = np.linalg.solve(np.array(rows, dtype=np.float64), corners.reshape(-1).astype(np.float64))
    # Bicubic: a photo is soft already; bilinear blurred thin strokes further ("lron", units
    # lost: fresh dev photos 0.952 recall and 0.887 unit against 0.988 and 0.976; the check
    # seeds read the same either way, recall 0.996).
    return gray.transform(
        (width, height), Image.PERSPECTIVE, tuple(coefficients), Image.BICUBIC, fillcolor="white"
    )


def tilted_page(outside: np.ndarray, gray: Image.Image) -> np.ndarray | None:
    """The corners, in pixels, of a page seen whole that is not upright (what `dewarp` maps
    onto a rectangle); None when the photo keeps its frame. The edges are refined to the
    pixel on `gray` (the image `outside` was measured on)."""
    corners = page_corners(outside)
    if corners is None:
        return None
    corners = corners * SURROUNDINGS_CELL + SURROUNDINGS_CELL / 2
    refined = refined_corners(np.asarray(gray), corners)
    if refined is not None:  # else the cells' corners, as measured before refining
        corners = refined
    return None if is_square(corners) else corners


def refined_corners(pixels: np.ndarray, corners: np.ndarray) -> np.ndarray | None:
    """`corners` (pixels, from the 8 px cells of `surroundings`) moved onto the page's edges
    as the full-resolution image shows them. The cells put each corner up to ~10 px inside
    the page, a different amount at each corner: the warp then left a tilt of up to half a
    degree and a shear (fresh dev photos: corners 8 px off at the median, 13 at worst),
    which a deskew (a second resampling) only partly undid. None when an edge cannot be seen
    along most of its length or lies far from the cells' edge."""
    ul, ur, lr, ll = corners
    top = _refined_edge(pixels, ul, ur, outward=(0, -1))
    right = _refined_edge(pixels, ur, lr, outward=(1, 0))
    bottom = _refined_edge(pixels, ll, lr, outward=(0, 1))
    left = _refined_edge(pixels, ul, ll, outward=(-1, 0))
    if top is None or right is None or bottom is None or left is None:
        return None
    return _corners(top, right, bottom, left)


# Refining an edge: profiles across it this far (px) either side of the cells' edge, each the
# mean of EDGE_BAND px along it (JPEG grain averaged out), at EDGE_SAMPLES places.
EDGE_REACH = 2 * SURROUNDINGS_CELL
EDGE_BAND = 7
EDGE_SAMPLES = 48
MIN_EDGE_CONTRAST = 25  # paper minus desk (0..255) for a profile to show the edge


def _refined_edge(pixels: np.ndarray, start: np.ndarray, end: np.ndarray, *, outward: tuple[int, int]):
    """The edge from `start` to `end` fitted where the profiles across it cross halfway from
    desk to paper: (a, b) of y = a + b x for top and bottom, of x = c + d y for the sides."""
    across = 1 if outward[0] == 0 else 0  # image axis (0 x, 1 y) the profiles run along
    along = 1 - across
    sign = outward[across]  # +1: outside lies at larger coordinates
    t = np.linspace(start[along], end[along], EDGE_SAMPLES + 2)[1:-1]
    t = t[EDGE_SAMPLES // 10 : -(EDGE_SAMPLES // 10)]  # corners: the desk meets two edges there
    share = (t - start[along]) / (end[along] - start[along])
    coarse = start[across] + share * (end[across] - start[across])
    offsets = np.arange(-EDGE_REACH, EDGE_REACH + 1) * sign  # inside first, outside last
    positions = np.round(coarse)[:, None] + offsets[None, :]
    band = np.arange(EDGE_BAND) - EDGE_BAND // 2
    lines = np.round(t)[:, None] + band[None, :]
    view = pixels if across == 0 else pixels.T  # indexed [along, across]
    cross = np.clip(positions, 0, view.shape[1] - 1).astype(np.int64)
    rows = np.clip(lines, 0, view.shape[0] - 1).astype(np.int64)
    profiles = view[rows[:, :, None], cross[:, None, :]].astype(np.float32).mean(axis=1)
    found = [_crossing(profile) for profile in profiles]
    keep = np.array([value is not None for value in found])
    if keep.sum() < 0.6 * t.size:
        return None
    # Pixel i spans [i, i + 1) in the coordinates `dewarp` maps: its centre is i + 0.5.
    position = positions[keep, 0] + sign * np.array([value for value in found if value is not None]) + 0.5
    return _robust_line(np.round(t[keep]) + 0.5, position, coarse[keep], t.size)


def _crossing(profile: np.ndarray) -> float | None:
    """Where a profile from paper (start) to desk (end) first falls halfway between the two,
    interpolated between pixels; None when it shows no clear step."""
    paper, desk = float(np.median(profile[:4])), float(np.median(profile[-4:]))
    if paper - desk < MIN_EDGE_CONTRAST:
        return None
    below = np.flatnonzero(profile < (paper + desk) / 2)
    if below.size == 0 or below[0] == 0:
        return None
    i = int(below[0])
    before, after = float(profile[i - 1]), float(profile[i])
    return i - 1 + (before - (paper + desk) / 2) / max(before - after, 1e-6)


def _robust_line(t: np.ndarray, position: np.ndarray, coarse: np.ndarray, samples: int):
    """(intercept, slope) fitted to the edge samples without outliers (a shadow, a torn
    corner, text at the page's rim); None when too few agree or the line strays from the
    cells' edge by more than a cell (not the same edge)."""
    keep = np.ones(t.size, dtype=bool)
    for _ in range(3):
        slope, intercept = np.polyfit(t[keep], position[keep], 1)
        keep = np.abs(intercept + slope * t - position) <= 1.5
        if keep.sum() < 0.6 * samples:
            return None
    slope, intercept = np.polyfit(t[keep], position[keep], 1)
    if np.abs(intercept + slope * t - coarse).max() > SURROUNDINGS_CELL * 1.5 or abs(slope) > MAX_EDGE_SLOPE:
        return None
    return float(intercept), float(slope)


# The page's own rim, a blurred grey edge a few pixels wide that the warp now keeps (the cell
# corners cut it off by 2-10 px): tesseract read it as '|' or '"' glued to the units of the
# outer column ('x10*3/uL ee "|'). A band this share of the long side is painted paper.
RIM_SHARE = 0.004


def whiten_rim(gray: Image.Image) -> Image.Image:
    """`gray` with a band RIM_SHARE of its long side wide painted white along its four sides."""
    band = max(2, round(RIM_SHARE * max(gray.size)))
    pixels = np.array(gray)
    pixels[:band, :] = pixels[-band:, :] = 255
    pixels[:, :band] = pixels[:, -band:] = 255
    return Image.fromarray(pixels)


def straighten_photo(image: Image.Image) -> Image.Image:
    """The photo in colour, with the page mapped onto its rectangle exactly as `prepare_for_ocr`
    maps it: the review preview of a photo then shows the frame its result boxes refer to."""
    gray = to_gray(image)
    corners = tilted_page(surroundings(gray), gray)
    return image if corners is None else dewarp(image, corners)


def is_square(corners: np.ndarray) -> bool:
    """The page's edges run within MIN_SKEW of upright and of each other: no warp needed."""
    ul, ur, lr, ll = corners
    angles = [
        np.degrees(np.arctan2(ur[1] - ul[1], ur[0] - ul[0])), np.degrees(np.arctan2(lr[1] - ll[1], lr[0] - ll[0])),
        -np.degrees(np.arctan2(ll[0] - ul[0], ll[1] - ul[1])), -np.degrees(np.arctan2(lr[0] - ur[0], lr[1] - ur[1])),
    ]
    return max(abs(angle) for angle in angles) < MIN_SKEW


def _edge_connected(mask: np.ndarray) -> np.ndarray:
    """The pixels of `mask` 4-connected to the image's edge (only dark areas reaching the edge
    are surroundings: a black logo stays). Whole runs along rows, then along columns, are
    taken in until nothing changes: a few vectorised rounds, where a flood fill visits every
    pixel in Python."""
    reached = np.zeros(mask.shape, dtype=bool)
    if mask.size == 0:
        return reached
    reached[[0, -1], :] = mask[[0, -1], :]
    reached[:, [0, -1]] = mask[:, [0, -1]]
    count = -1
    while count != (count := int(np.count_nonzero(reached))):
        reached = _whole_runs(mask, reached)
        reached = _whole_runs(mask.T, reached.T).T
    return reached


def _whole_runs(mask: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """Every run of `mask` along a row that holds a pixel of `seeds`, whole."""
    height, width = mask.shape
    padded = np.zeros((height, width + 1), dtype=bool)
    padded[:, :width] = mask
    flat = padded.ravel()
    step = np.diff(np.concatenate(([False], flat)).astype(np.int8))
    starts, ends = np.flatnonzero(step == 1), np.flatnonzero(step == -1)
    seeded = np.zeros(flat.size, dtype=bool)
    seeded[: flat.size].reshape(height, width + 1)[:, :width] = seeds
    before = np.concatenate(([0], np.cumsum(seeded, dtype=np.int32)))
    hit = before[ends] > before[starts]
    marks = np.zeros(flat.size + 1, dtype=np.int32)
    np.add.at(marks, starts[hit], 1)
    np.add.at(marks, ends[hit], -1)
    filled = (np.cumsum(marks[:-1]) > 0).reshape(height, width + 1)[:, :width]
    return filled | seeds


def flatten_background(gray: Image.Image) -> Image.Image:
    """Divide out the paper's brightness: shadows and vignetting of phone photos vanish,
    ink stays dark."""
    # Both are bytes, so the division takes 256 x 256 values: looked up in a table computed
    # with the same float32 steps (the same bytes, without five page-sized float arrays).
    index = np.asarray(background(gray)).astype(np.uint16) << 8
    index |= np.asarray(gray)
    return Image.fromarray(_FLATTENED.take(index))


def _flattened_table() -> np.ndarray:
    """clip(pixel / max(paper, 1) * 255) as a byte, in float32, at index paper * 256 + pixel."""
    values = np.arange(256, dtype=np.float32)
    flat = np.clip(values[None, :] / np.maximum(values[:, None], 1.0) * 255.0, 0, 255)
    return flat.astype(np.uint8).ravel()


_FLATTENED = _flattened_table()


def paper_noise(gray: Image.Image) -> float:
    """Grain of the paper: spread of the light pixels in a central crop at full resolution
    (reducing the image would average the grain away)."""
    width, height = gray.size
    crop = gray.crop((width // 4, height // 4, width // 4 + min(600, width // 2), height // 4 + min(600, height // 2)))
    pixels = np.asarray(crop, dtype=np.float32)
    if pixels.size == 0:
        return 0.0
    paper = pixels[pixels > otsu_threshold(pixels.astype(np.uint8))]
    if paper.size < 100:
        return 0.0
    # Median absolute deviation: robust to the odd ink speck counted as paper.
    return float(1.4826 * np.median(np.abs(paper - np.median(paper))))


def denoise(gray: Image.Image) -> Image.Image:
    return gray.filter(ImageFilter.BoxBlur(DENOISE_RADIUS))


def binarize(gray: Image.Image) -> Image.Image:
    pixels = np.asarray(gray)
    threshold = otsu_threshold(pixels)
    return Image.fromarray(np.where(pixels > threshold, 255, 0).astype(np.uint8))


def prepare_for_ocr(
    image: Image.Image,
    *,
    dpi: float | None = None,
    clean_background: bool | None = None,
    smooth: bool | None = None,
) -> tuple[Image.Image, PageImageInfo]:
    """Greyscale, blank the desk around the page, flatten uneven lighting (photos), smooth
    grain (scans), straighten small skews and enlarge low-resolution images (`dpi` None:
    estimated as for a photo of a whole page). `None` options decide from the image itself."""
    gray = to_gray(image)
    outside = surroundings(gray)
    corners = tilted_page(outside, gray) if dpi is None else None  # a photo: the page seen whole
    gray = whiten_outside_page(gray, outside)
    dewarped = corners is not None
    if dewarped:
        gray = whiten_rim(dewarp(gray, corners))
    page_dpi = dpi if dpi else estimated_dpi(gray)
    flattened = False
    if clean_background or (clean_background is None and has_uneven_light(gray)):
        gray = flatten_background(gray)
        flattened = True
    denoised = bool(smooth or (smooth is None and paper_noise(gray) > NOISY_PAPER))
    sideways = looks_sideways(gray)
    # Rotations commute: the skew of the turned page is the skew to remove here.
    skew = measure_skew(gray.transpose(Image.Transpose.ROTATE_90) if sideways else gray)
    gray = deskew(gray, skew)
    if denoised:
        gray = denoise(gray)
    if abs(skew) < MIN_SKEW:
        skew = 0.0
    source_dpi = dpi if dpi else estimated_dpi(gray)
    ink_level = otsu_threshold(np.asarray(gray))
    # Before erasing rulings: a filled box's rows are long runs of ink, like a rule's.
    gray, inverted = invert_reverse_video(gray, source_dpi, ink_level)
    # Before enlarging: the same strokes, fewer pixels to look through.
    gray, erased = erase_rulings(gray, source_dpi, ink_level)
    factor = upscale_factor(source_dpi)
    gray = upscale(gray, factor)
    return gray, PageImageInfo(
        scale=factor, denoised=denoised, skew=skew, flattened=flattened,
        likely_sideways=bool(sideways), rulings_erased=erased, dpi=page_dpi, dewarped=dewarped,
        boxes_inverted=inverted,
    )
