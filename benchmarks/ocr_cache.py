"""A disk cache of OCR pages for benchmark runs (`--ocr-cache DIR`), never used by the service.

Scans and photos spend nearly all their time in tesseract; someone working on what happens after
OCR (rows, columns, ranges) re-reads the same page images run after run. The cache keeps each
OCR'd `Page`, keyed on the page image's pixels, the OCR arguments and the source text of every
parser module the OCR stage imports (parser.ocr and what it pulls in), so a change to the OCR stage
itself reads afresh. Entries are pickles written by this process for this process: a cache
directory is a developer's scratch space, not shared input.
"""

from __future__ import annotations

import ast
import hashlib
import pickle
from pathlib import Path

from PIL import Image

import parser.document as document_stage
from parser.ocr import PreparedPage

PARSER_DIR = Path(document_stage.__file__).resolve().parent
OCR_ROOTS = ("ocr", "image")  # the modules whose imports make up the OCR stage


def _imported_parser_modules(name: str, seen: set[str]) -> set[str]:
    """`name` and every parser module it imports, transitively (by reading the source)."""
    if name in seen:
        return seen
    path = PARSER_DIR.joinpath(*name.split(".")).with_suffix(".py")
    if not path.exists():
        return seen
    seen.add(name)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "parser":  # from parser import tesseract
            for alias in node.names:
                _imported_parser_modules(alias.name, seen)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("parser."):
            _imported_parser_modules(node.module.removeprefix("parser."), seen)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("parser."):
                    _imported_parser_modules(alias.name.removeprefix("parser."), seen)
    return seen


def ocr_code_digest() -> str:
    """A digest of the OCR stage's source: any edit to it makes every entry stale."""
    modules: set[str] = set()
    for root in OCR_ROOTS:
        _imported_parser_modules(root, modules)
    modules.add("tesseract_reader")  # run as a script by parser.tesseract, never imported
    digest = hashlib.sha256()
    for name in sorted(modules):
        digest.update(name.encode())
        digest.update(PARSER_DIR.joinpath(*name.split(".")).with_suffix(".py").read_bytes())
    return digest.hexdigest()[:16]


def _image_digest(image: Image.Image, *extra) -> str:
    digest = hashlib.sha256(f"{image.mode}{image.size}{extra}".encode())
    digest.update(image.tobytes())
    return digest.hexdigest()


def install(directory: str | Path) -> Path:
    """Route the document stage's OCR calls through a cache in `directory` (made if missing)."""
    folder = Path(directory) / ocr_code_digest()
    folder.mkdir(parents=True, exist_ok=True)
    read_page, ocr_page = document_stage.read_page, document_stage.ocr_page

    def cached(key: str, compute):
        path = folder / f"{key}.pickle"
        if path.exists():
            return pickle.loads(path.read_bytes())
        page = compute()
        temporary = path.with_suffix(".tmp")
        temporary.write_bytes(pickle.dumps(page))
        temporary.replace(path)  # whole or absent, even when two runs share the folder
        return page

    def cached_read_page(page: PreparedPage):
        key = _image_digest(page.image, page.number, page.units_per_pixel, page.dpi, page.photo,
                            page.info)
        return cached(key, lambda: read_page(page))

    def cached_ocr_page(image: Image.Image, **arguments):
        key = _image_digest(image, sorted(arguments.items()))
        return cached(key, lambda: ocr_page(image, **arguments))

    document_stage.read_page = cached_read_page
    document_stage.ocr_page = cached_ocr_page
    return folder
