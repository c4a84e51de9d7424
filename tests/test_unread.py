"""Lines that read as results but gave no row are counted for routing (parser/unread.py)."""
from page_builder import document, header_line, page, table_line

from parser.api import parse_document
from parser.layout import document_rows
from parser.unread import unread_result_lines


def _doc():
    return document(page([
        header_line(100),
        table_line(120, "Hemoglobin", "14.1", "", "g/dL", "13.0 - 17.0"),
        [(40, 200, "Urea 31 mg/dL (10 - 50)")],
        [(40, 220, "Creatinine 1.1 mg/dL (0.7 - 1.2)")],
        [(40, 260, "Validated by: Dr. E. Vandermeer Page 1 / 1")],  # a label's line: never
        [(40, 280, "Fasting sample (12 hours).")],  # no value and unit or range: never
    ]))


def test_result_like_lines_no_row_holds_are_counted():
    doc = _doc()
    rows = document_rows(doc)
    read = [row for row in rows if row.name == "Hemoglobin"]
    # Had the layout placed only the Hemoglobin row, the two lines below would be unread.
    assert unread_result_lines(doc, read) == 2
    assert unread_result_lines(doc, rows) == 0  # the layout placed them all


def test_the_count_reaches_the_report_and_is_kept_off_the_wire():
    report = parse_document(_doc())
    assert report.unread_result_lines == 0
    assert "unread_result_lines" not in report.model_dump()


def _restating_doc():
    return document(page([
        header_line(100),
        table_line(120, "Glucose", "1,18", "", "g/L", "0,70 - 1,10"),
        [(60, 132, "soit 6,55 mmol/L 3,89 - 6,11")],  # the same result in SI units, under its row
        table_line(150, "Cholesterol", "2,34", "", "g/L", "< 2,00"),
        [(60, 200, "soit 6,05 mmol/L < 5,17")],  # far under any row: not a restatement of one
    ]))


def test_a_line_restating_the_row_above_in_another_unit_is_not_an_unread_result():
    doc = _restating_doc()
    read = [row for row in document_rows(doc) if row.name in ("Glucose", "Cholesterol")]
    assert len(read) == 2
    assert unread_result_lines(doc, read) == 1  # only the far one
    glucose = [row for row in read if row.name == "Glucose"]
    assert unread_result_lines(doc, glucose) == 2  # the cholesterol row unread, its restatement far from a row read
