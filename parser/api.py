"""Bytes in, `ReportData` out: the parser's public entry points.

`parse_report` loads the document (sniffing, text layer or OCR per page; see document.py)
and `parse_document` runs the stages on already-loaded pages: language check, layout
(words -> rows), normalisation (rows -> results) and metadata.
"""

from __future__ import annotations

import itertools
import logging
import statistics

from parser.exceptions import LowQualityError, NotEnglishError
from parser.language import detect_language, unsupported_message
from parser.layout import document_rows
from parser.lines import page_slope
from parser.metadata import extract_metadata
from parser.models import ReportData
from parser.normalize import Context, normalize_row
from parser.unread import unread_result_lines
from parser.document import load_document
from parser.page import Document, Page
from parser.patient_age import patient_age
from parser.panels import document_sample_type
from parser.ranges import uses_decimal_comma

log = logging.getLogger(__name__)

# Below this median OCR word confidence a page is noise, not text.
MIN_OCR_CONFIDENCE = 0.35
MIN_WORDS = 5


def parse_report(
    data: bytes | list[bytes], filename: str | None = None, max_pages: int = 30
) -> ReportData:
    """Parse one report file (PDF, PNG or JPEG bytes), or images merged in order, into the
    contract's `data` object."""
    doc = load_document(data, filename=filename, max_pages=max_pages)
    return parse_document(doc)


def parse_document(doc: Document) -> ReportData:
    """Parse an already-loaded document."""
    check_readable(doc)
    words = [w.text for page in doc.pages for w in page.words]
    guess = detect_language(words)
    if not guess.supported:  # the contract's reason stays not_english; the message names both
        raise NotEnglishError(unsupported_message(guess))
    metadata = extract_metadata(doc, guess.language)
    context = Context(
        gender=metadata.gender,
        age=patient_age(doc, metadata),
        page_sizes={p.number: (p.width, p.height) for p in doc.pages},
        default_sample=document_sample_type(" ".join(words[:4000])),
        slopes={p.number: page_slope(p) for p in doc.pages if p.source == "ocr"},
    )
    rows = document_rows(doc)
    context.decimal_comma = uses_decimal_comma([t for r in rows for t in (r.value, r.range_text or "")])
    results = []
    for row in rows:
        result = normalize_row(row, context)
        if result is not None:
            results.append(result)
    unread = unread_result_lines(doc, rows)
    log.info("parsed document: %d pages, %d results, %d result-like lines unread",
             len(doc.pages), len(results), unread)
    return ReportData(metadata=metadata, results=results, language=guess.language,
                      unread_result_lines=unread, ocr_pages=[p.number for p in doc.pages if p.source == "ocr"])


def check_readable(doc: Document) -> None:
    """Raise LowQualityError when no page holds readable text."""
    if not any(_readable(page) for page in doc.pages):
        raise LowQualityError(
            "no readable text was found in the report; upload a sharper scan or photo"
        )


def _readable(page: Page) -> bool:
    """MIN_WORDS words, read with enough confidence on an OCR page. A text layer's first
    words settle it (no need to look at a whole page of them)."""
    if page.source != "ocr":
        nonblank = (w for w in page.words if w.text.strip())
        return len(list(itertools.islice(nonblank, MIN_WORDS))) == MIN_WORDS
    words = [w for w in page.words if w.text.strip()]
    return len(words) >= MIN_WORDS and statistics.median(w.conf for w in words) >= MIN_OCR_CONFIDENCE
