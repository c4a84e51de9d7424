"""The one place that runs tesseract.

Everything OCR needs from tesseract: word boxes with confidences (one recognition pass) and,
only when asked, orientation detection (OSD, through the binary and pytesseract).

Words are read by the tesseract library (libtesseract, the binary's own engine) in a reader
process that lives as long as a document (`Engine`, `using`): loading the language model takes
~0.2 s of CPU, which the binary pays on every call, twice per page with the re-read of
doubtful numbers. Its own process keeps tesseract's memory, crashes and run time apart from
the parse, as with the binary: a reader that dies or overruns fails the page, the next call
starts a new one. Without the library, or outside `using`, each call runs the binary, handed
an uncompressed PGM/PPM file (pytesseract's default PNG encoding costs a noticeable share of
the OCR time itself). Both give the same words (the same engine, settings and TSV output).
"""

from __future__ import annotations

import ctypes.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

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
    """Every word tesseract reads in `image`, boxes in the image's pixels, conf in 0..1: by
    this thread's reader process when one is in use (`using`), else by the binary."""
    tesseract_version()
    engine = getattr(_current, "engine", None)
    tsv = engine.read(image, psm=psm, dpi=dpi, language=language) if engine else None
    data = _table(tsv) if tsv is not None else _binary_data(image, psm, dpi, language)
    return _words(data)


def _binary_data(image: Image.Image, psm: int, dpi: int, language: str) -> dict[str, list]:
    try:
        return _run(
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


_COLUMNS = ("level", "page_num", "block_num", "par_num", "line_num", "word_num", "left", "top",
            "width", "height", "conf", "text")


def _table(tsv: str) -> dict[str, list]:
    """Tesseract's TSV (the library's, without the binary's header line) as columns, numbers
    as ints like pytesseract's `Output.DICT` (which truncates the confidence to a whole
    percent: the thresholds downstream were measured on those)."""
    data: dict[str, list] = {name: [] for name in _COLUMNS}
    for line in tsv.splitlines():
        fields = line.split("\t")
        if len(fields) != len(_COLUMNS) or not fields[0].isdigit():
            continue
        for name, field in zip(_COLUMNS[:11], fields):
            data[name].append(int(float(field)))
        data["text"].append(fields[11])
    return data


def _words(data: dict[str, list]) -> list[Word]:
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


# --- the reader process ----------------------------------------------------------------------

# The reader runs as a file (not imported): see its docstring for the protocol.
READER_SCRIPT = Path(__file__).with_name("tesseract_reader.py")
READER_CLOSE_SECONDS = 10

_current = threading.local()


@lru_cache(maxsize=1)
def _library() -> str | None:
    """The tesseract library's file name, None when it cannot be found (the binary is used)."""
    return ctypes.util.find_library("tesseract")


class Engine:
    """One tesseract reader process, started on first use and ended by `close` (or the
    `with` block): a document's pages and re-reads share it. Calls are serialised."""

    def __init__(self) -> None:
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._unavailable = False

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *_) -> None:
        self.close()

    def read(self, image: Image.Image, *, psm: int, dpi: int, language: str) -> str | None:
        """Tesseract's TSV for `image`; None when no reader can run here (use the binary)."""
        if image.mode != "L":
            image = image.convert("L")
        request = f"{psm} {dpi} {language} {image.width} {image.height}\n".encode()
        with self._lock:
            process = self._started()
            if process is None:
                return None
            status, body = self._exchange(process, request + image.tobytes())
        if status != b"ok":
            raise ProcessingError(f"tesseract failed on a page ({body.decode(errors='replace')})")
        return body.decode("utf-8", errors="replace")

    def close(self) -> None:
        with self._lock:
            if self._process is not None:
                self._stop(self._process)
                self._process = None

    def _started(self) -> subprocess.Popen | None:
        if self._process is None and not self._unavailable:
            library = _library()
            if library is None:
                self._unavailable = True
                return None
            process = subprocess.Popen(
                [sys.executable, "-I", "-S", str(READER_SCRIPT), library],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            )
            try:
                self._exchange(process, b"")
            except ProcessingError:  # the library would not load: the binary reads instead
                self._unavailable = True
                return None
            self._process = process
        return self._process

    def _exchange(self, process: subprocess.Popen, request: bytes) -> tuple[bytes, bytes]:
        """Send `request`, wait for the reply (killing a reader that overruns TIMEOUT_SECONDS).
        A reader that died or overran is ended and the page fails; the next call starts anew."""
        expired = threading.Event()

        def overrun() -> None:
            expired.set()
            process.kill()

        timer = threading.Timer(TIMEOUT_SECONDS, overrun)
        timer.start()
        try:
            if request:
                process.stdin.write(request)
                process.stdin.flush()
            status, _, size = process.stdout.readline().partition(b" ")
            body = process.stdout.read(int(size)) if size.strip().isdigit() else b""
        except OSError:  # a broken pipe: the reader is gone
            status, body = b"", b""
        finally:
            timer.cancel()
        if status in (b"ok", b"error", b"ready"):
            return status, body
        self._stop(process)
        self._process = None
        if expired.is_set():
            raise ProcessingError(f"OCR of a page took longer than {TIMEOUT_SECONDS} s")
        raise ProcessingError("tesseract failed on a page (its reader stopped)")

    @staticmethod
    def _stop(process: subprocess.Popen) -> None:
        """End the reader and wait for it (its CPU time then counts as this process's child's)."""
        try:
            process.stdin.close()
            process.wait(timeout=READER_CLOSE_SECONDS)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
        process.stdout.close()


@contextmanager
def using(engine: Engine) -> Iterator[Engine]:
    """Within this block, this thread's `ocr_words` calls go to `engine`."""
    previous = getattr(_current, "engine", None)
    _current.engine = engine
    try:
        yield engine
    finally:
        _current.engine = previous


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
