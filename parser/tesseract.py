"""The one place that runs the tesseract binary (through pytesseract).

Everything OCR needs from tesseract: word boxes with confidences (one `image_to_data` pass)
and, only when asked, orientation detection (OSD). Images are handed over as uncompressed
PGM/PPM files: pytesseract's default PNG encoding of a 300 dpi page costs a noticeable share
of the OCR time itself.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from functools import lru_cache

import pytesseract
from PIL import Image

from parser.exceptions import OcrUnavailableError, ProcessingError
from parser.page import Word

# Parallel workers (the batch command runs one per core) each run tesseract; letting every
# tesseract also spawn OpenMP threads oversubscribes the cores and is slower overall.
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

LANGUAGE = "eng"
# Page segmentation mode 4 ("a single column of text of variable sizes") keeps table rows
# together and reads numbers best (number recall 0.87 vs 0.72 for psm 6 on clean pages);
# chosen by measurement, see benchmarks/ocr_settings.py.
DEFAULT_PSM = 4
TIMEOUT_SECONDS = 180


@lru_cache(maxsize=1)
def tesseract_version() -> str:
    """The binary's version; raises OcrUnavailableError when it is not installed."""
    if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
        raise OcrUnavailableError()
    try:
        return str(pytesseract.get_tesseract_version())
    except pytesseract.TesseractNotFoundError:
        raise OcrUnavailableError() from None


@lru_cache(maxsize=1)
def installed_languages() -> frozenset[str]:
    """Tesseract language data installed on this machine ("eng", "fra", ...)."""
    tesseract_version()
    return frozenset(pytesseract.get_languages(config=""))


def is_available() -> bool:
    try:
        tesseract_version()
    except OcrUnavailableError:
        return False
    return True


def ocr_words(
    image: Image.Image, *, psm: int = DEFAULT_PSM, dpi: int = 300, language: str = LANGUAGE
) -> list[Word]:
    """Every word tesseract reads in `image`, boxes in the image's pixels, conf in 0..1."""
    try:
        data = _run(
            image,
            lambda path: pytesseract.image_to_data(
                path,
                lang=language,
                config=f"--psm {psm} --dpi {dpi}",
                output_type=pytesseract.Output.DICT,
                timeout=TIMEOUT_SECONDS,
            ),
        )
    except pytesseract.TesseractError as error:
        raise ProcessingError(f"tesseract failed on a page (status {error.status})") from None
    # Tesseract's boxes hug the ink, so "<", "-" and "mg/dL" on one printed line get different
    # tops. Words take their line's top and bottom instead, as text-layer words share their
    # line's font box: rows then line up the same way for the layout stage on both sources.
    lines: dict[tuple[int, int, int], list[int]] = {}
    for i, (text, conf) in enumerate(zip(data["text"], data["conf"])):
        if text.strip() and float(conf) >= 0:
            key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
            lines.setdefault(key, []).append(i)
    words = []
    for indexes in lines.values():
        top = min(data["top"][i] for i in indexes)
        bottom = max(data["top"][i] + data["height"][i] for i in indexes)
        tallest = max(data["height"][i] for i in indexes)
        # A "line" much taller than its tallest word spans two printed lines: keep ink boxes.
        unify = bottom - top <= 1.5 * tallest
        for i in indexes:
            left, width = data["left"][i], data["width"][i]
            word_top = top if unify else data["top"][i]
            word_bottom = bottom if unify else data["top"][i] + data["height"][i]
            words.append(
                Word(
                    text=data["text"][i].strip(),
                    x0=float(left),
                    top=float(word_top),
                    x1=float(left + width),
                    bottom=float(word_bottom),
                    conf=round(min(max(float(data["conf"][i]) / 100.0, 0.0), 1.0), 3),
                    size=float(word_bottom - word_top),
                )
            )
    return words


_ROTATE = re.compile(r"Rotate:\s*(\d+)")
_CONFIDENCE = re.compile(r"Orientation confidence:\s*([\d.]+)")


def detect_rotation(image: Image.Image, *, dpi: int = 300) -> tuple[int, float]:
    """Degrees (0/90/180/270, clockwise) to turn `image` to read it upright, and tesseract's
    confidence. (0, 0.0) when there is too little text to tell."""
    try:
        osd = _run(
            image,
            lambda path: pytesseract.image_to_osd(
                path, config=f"--psm 0 --dpi {dpi}", timeout=TIMEOUT_SECONDS
            ),
        )
    except pytesseract.TesseractError:
        return 0, 0.0  # "Too few characters": nothing to orient by
    rotate = _ROTATE.search(osd)
    confidence = _CONFIDENCE.search(osd)
    if not rotate:
        return 0, 0.0
    return int(rotate.group(1)) % 360, float(confidence.group(1)) if confidence else 0.0


def _run(image: Image.Image, call):
    tesseract_version()
    if image.mode not in ("L", "RGB", "1"):
        image = image.convert("RGB")
    suffix = ".ppm" if image.mode == "RGB" else ".pgm"
    with tempfile.TemporaryDirectory(prefix="labreport-ocr-") as folder:
        path = os.path.join(folder, "page" + suffix)
        image.save(path, format="PPM")
        try:
            return call(path)
        except pytesseract.TesseractNotFoundError:
            tesseract_version.cache_clear()
            raise OcrUnavailableError() from None
        except pytesseract.TesseractError:  # a RuntimeError too: not a timeout, callers handle it
            raise
        except RuntimeError as error:  # pytesseract's timeout
            if "timeout" in str(error).lower():
                raise ProcessingError(
                    f"OCR of a page took longer than {TIMEOUT_SECONDS} s"
                ) from None
            raise
