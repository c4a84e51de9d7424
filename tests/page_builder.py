"""Test helper: pages built from (x, y, text) cells, words laid out like a text layer."""

from __future__ import annotations

from parser.page import Document, Page, Word

CHAR_WIDTH = 0.5  # of the font size
SPACE = 0.25


def cell_words(x: float, y: float, text: str, size: float = 10.0, conf: float = 1.0,
               bold: bool = False) -> list[Word]:
    words = []
    for token in text.split():
        width = len(token) * CHAR_WIDTH * size
        words.append(Word(token, x, y, x + width, y + size, conf, size, bold))
        x += width + SPACE * size
    return words


def page(rows: list[list[tuple]], number: int = 1, width: float = 600, height: float = 800,
         source: str = "text") -> Page:
    """rows: lists of cells (x, y, text[, size[, bold]])."""
    words = []
    for row in rows:
        for cell in row:
            x, y, text, *rest = cell
            size = rest[0] if rest else 10.0
            bold = rest[1] if len(rest) > 1 else False
            words.extend(cell_words(x, y, text, size, bold=bold))
    return Page(number, width, height, words, source)


def document(*pages: Page) -> Document:
    return Document("pdf", list(pages))


HEADER_X = {"name": 40, "result": 250, "flag": 320, "units": 360, "range": 450}


def table_line(y: float, name: str, result: str = "", flag: str = "", units: str = "",
               range_text: str = "", size: float = 10.0) -> list[tuple]:
    cells = [(HEADER_X["name"], y, name, size)]
    for key, text in (("result", result), ("flag", flag), ("units", units), ("range", range_text)):
        if text:
            cells.append((HEADER_X[key], y, text, size))
    return [c for c in cells if c[2]]


def header_line(y: float = 100) -> list[tuple]:
    return table_line(y, "Test Name", "Result", "Flag", "Units", "Reference Range")


# Metadata is read from a report: a label block alone is no report, so the metadata tests set their
# rows above these two result rows.
RESULT_ROWS = [[(40, 600, "Hemoglobin 13.2 g/dL 12.0 - 15.5")], [(40, 620, "Glucose 92 mg/dL 70 - 99")]]


def metadata_of(rows: list[list[tuple]], language: str | None = None):
    """The metadata read from a page of `rows` over the two result rows."""
    from parser.metadata import extract_metadata

    return extract_metadata(document(page([*rows, *RESULT_ROWS])), language)


def label_fields(rows: list[list[tuple]]) -> list[str]:
    """The metadata fields the labels on a page of `rows` name, in order."""
    from parser.lines import page_lines
    from parser.metadata import labelled_pairs

    return [field for field, _ in labelled_pairs(page_lines(page(rows)))]
