"""Turn a clean rendered page into a believable scan or phone photo (PIL + numpy only).

Used by the OCR settings measurement and the speed/memory benchmarks; deterministic for a
given seed so figures can be compared between runs.
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageFilter


def _jpeg(image: Image.Image, quality: int) -> Image.Image:
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=quality)
    buffer.seek(0)
    return Image.open(buffer).convert(image.mode)


def _noise(image: Image.Image, sigma: float, rng: np.random.Generator) -> Image.Image:
    pixels = np.asarray(image, dtype=np.float32)
    pixels = pixels + rng.normal(0.0, sigma, pixels.shape)
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), mode=image.mode)


def scanned(page: Image.Image, *, seed: int = 0, angle: float = 1.2) -> Image.Image:
    """A flatbed scan: slightly crooked, soft, grainy, greyer paper, JPEG-compressed."""
    rng = np.random.default_rng(seed)
    gray = page.convert("L")
    gray = gray.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=245)
    gray = gray.filter(ImageFilter.GaussianBlur(0.8))
    pixels = np.asarray(gray, dtype=np.float32) * 0.88 + 18  # lower contrast, grey paper
    gray = Image.fromarray(pixels.astype(np.uint8), mode="L")
    gray = _noise(gray, 10.0, rng)
    return _jpeg(gray, 60)


def photographed(page: Image.Image, *, seed: int = 0, angle: float = -2.5, width: int = 2000) -> Image.Image:
    """A phone photo: perspective, rotation, a shadow gradient, blur, noise, colour, JPEG."""
    rng = np.random.default_rng(seed)
    rgb = page.convert("RGB")
    w, h = rgb.size
    # Perspective: the top edge a little narrower than the bottom, as when leaning over.
    inset = 0.04 * w
    quad = (inset, 0, 0, h, w, h, w - inset, 0)  # source corners: UL, LL, LR, UR
    rgb = rgb.transform((w, h), Image.QUAD, quad, resample=Image.BICUBIC, fillcolor=(120, 110, 100))
    rgb = rgb.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=(120, 110, 100))
    # Uneven light: darker towards one corner, warm paper.
    w, h = rgb.size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1.0 - 0.45 * (xx / w) * (yy / h) - 0.1 * (yy / h)
    pixels = np.asarray(rgb, dtype=np.float32) * light[..., None] * np.array([1.0, 0.96, 0.88])
    rgb = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), mode="RGB")
    rgb = rgb.filter(ImageFilter.GaussianBlur(1.1))
    rgb = _noise(rgb, 6.0, rng)
    if rgb.width > width:
        rgb = rgb.resize((width, round(rgb.height * width / rgb.width)), Image.LANCZOS)
    return _jpeg(rgb, 78)
