"""A header with one cell's label on two lines, as OCR gives it: tesseract gives the words of
a text line one box, so the labels beside the two-line cell ("Valori di riferimento" beside
"Unità di / misura") land on the cell's lower line, joiner and all."""

from page_builder import document

from parser.api import parse_document
from parser.layout.document import _stacked_label_line
from parser.lines import Line
from parser.page import Page, Word


def _header_lines() -> tuple[Line, Line]:
    top = Line([Word("ESAME", 50, 166, 79, 182), Word("RISULTATO", 295, 166, 342, 182),
                Word("UNITÀ", 362, 166, 389, 173), Word("DI", 392, 166, 401, 173)], 2, ocr=True)
    below = Line([Word("MISURA", 362, 170, 396, 182), Word("VALORI", 425, 170, 455, 182),
                  Word("DI", 459, 170, 468, 182), Word("RIFERIMENTO", 471, 170, 531, 182)], 2, ocr=True)
    return top, below


def test_a_joiner_between_labels_of_the_lower_line_keeps_it_a_line_of_labels():
    top, below = _header_lines()
    assert _stacked_label_line(top, below)
    # A joiner that joins no labels is a word of a title, not of a label.
    title = Line([Word("MISURA", 362, 170, 396, 182), Word("DI", 459, 170, 468, 182),
                  Word("SODIO", 471, 170, 500, 182)], 2, ocr=True)
    assert not _stacked_label_line(top, title)


def _row(y: float, name: str, value: str, unit: str, *bounds: tuple[float, str]) -> list[Word]:
    return [Word(name, 50, y, 50 + 6 * len(name), y + 10), Word(value, 331, y, 345, y + 10),
            Word(unit, 362, y, 362 + 6 * len(unit), y + 10),
            *(Word(text, x, y, x + 6 * len(text), y + 10) for x, text in bounds)]


def test_a_page_whose_header_repeats_reads_its_range_column_under_the_two_line_label():
    top, below = _header_lines()
    first = _row(200, "Glucosio", "92", "mg/dL", (425, "70"), (440, "-"), (447, "100")) + \
        _row(215, "Urea", "31", "mg/dL", (425, "17"), (440, "-"), (447, "43"))
    second = _row(200, "AST", "24", "U/L", (425, "<"), (432, "40")) + \
        _row(215, "TSH", "3,12", "µUI/mL", (425, "0,27"), (452, "-"), (458, "4,20"))
    pages = [Page(number=n, width=610, height=850, words=top.words + below.words + rows, source="ocr")
             for n, rows in ((1, first), (2, second))]
    results = parse_document(document(*pages)).results
    assert [(r.test_name, r.min_reference_range, r.max_reference_range) for r in results] == [
        ("Glucosio", 70.0, 100.0), ("Urea", 17.0, 43.0), ("AST", None, 40.0), ("TSH", 0.27, 4.2)]
