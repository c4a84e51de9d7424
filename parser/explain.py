"""Why each line of a report was or was not read: `labreport parse --explain FILE`.

For people debugging a layout: per page, the rows read (with what went into each field) and
every body line that gave no result, with the reason. Printed to stdout by the CLI; it holds
patient data, so it is never logged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from parser import columns as cols
from parser.api import check_readable
from parser.layout import RawRow, document_rows, is_non_result_label
from parser.layout.cumulative import dates_line
from parser.lines import Line, boilerplate_keys, is_boilerplate, is_prose, page_lines
from parser.metadata import labelled_pairs
from parser.normalize import Context, normalize_row, rejection_reason
from parser.page import Document


@dataclass(slots=True)
class PageExplanation:
    number: int
    source: str
    read: list[str] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (line text, reason)


def explain_document(doc: Document) -> list[PageExplanation]:
    """The reading of every page (the language check is left out: a refused report is
    exactly one worth explaining)."""
    check_readable(doc)
    rows = document_rows(doc)
    context = Context(page_sizes={p.number: (p.width, p.height) for p in doc.pages})
    keys = boilerplate_keys(doc)
    pages = []
    for page in doc.pages:
        explanation = PageExplanation(page.number, page.source)
        used: dict[int, str] = {}  # id(word) -> why its row is not a result ("" when it is)
        for row in (r for r in rows if r.page == page.number):
            result = normalize_row(row, context)
            if result is not None:
                explanation.read.append(_describe(row, result.units))
                reason = ""
            else:
                reason = rejection_reason(row, context) or "not a result"
            for word in row.words:
                used.setdefault(id(word), reason)
        for line in page_lines(page):
            reasons = {used[id(w)] for w in line.words if id(w) in used}
            if "" in reasons:
                continue
            if reasons:
                explanation.dropped.append((line.text, f"row rejected: {sorted(reasons)[0]}"))
                continue
            explanation.dropped.append((line.text, _line_reason(line, page, keys)))
        pages.append(explanation)
    return pages


def _describe(row: RawRow, units: str | None) -> str:
    parts = [f"{row.name!r} = {row.value!r}"]
    if units:
        parts.append(f"units {units!r}")
    if row.range_text:
        parts.append(f"range {row.range_text!r}")
    if row.flag:
        parts.append(f"flag {row.flag!r}")
    if row.panel:
        parts.append(f"panel {row.panel!r}")
    if row.ambiguous and not row.from_header:
        parts.append("doubtful: read by content, no table placed it")
    return ", ".join(parts)


def _line_reason(line: Line, page, keys) -> str:
    """The most likely reason a line gave no row (judged after the fact, from the line alone)."""
    if is_boilerplate(line, page, keys):
        return "page header/footer repeated on several pages"
    words = [(w.text, w.x0, w.x1) for w in line.words]
    if cols.find_headers(words, line.top, line.bottom, page.number, page.width, ocr=line.ocr):
        return "table header"
    if dates_line(line) is not None:
        return "dates heading a cumulative table's columns (the latest is the result)"
    if labelled_pairs([line]):
        return "metadata label and value"
    if is_prose(line):
        return "running text"
    text = line.text.strip()
    if is_non_result_label(text):
        return "label that is never a test name"
    if not re.search(r"\d", text):
        return "no value on the line (heading, section, comment or method)"
    if len(line.phrases()) < 2:
        return "one phrase with no gap wide enough to separate a name from a value"
    return "not placed in a table with a result column (no header above, no unit or range beside it)"


def format_explanation(pages: list[PageExplanation]) -> str:
    out = []
    for page in pages:
        out.append(f"=== page {page.number} ({page.source}): {len(page.read)} rows read, "
                   f"{len(page.dropped)} lines not read")
        out.extend(f"  read: {text}" for text in page.read)
        out.extend(f"  drop: {text!r}: {reason}" for text, reason in page.dropped)
    return "\n".join(out)
