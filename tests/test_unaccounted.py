"""Lines among the rows read that hold a name and a value but gave no row (parser/unaccounted.py)."""
from page_builder import document, header_line, page, table_line

from parser.layout import document_rows
from parser.unaccounted import unaccounted_lines
from parser.unread import unread_result_lines


def _used(rows) -> set[int]:
    return {id(word) for row in rows for word in row.words}


def _texts(lines) -> list[str]:
    return [line.text for line in lines]


def test_a_name_and_value_line_between_rows_read_counts_whatever_follows_the_value():
    doc = document(page([
        [(40, 40, "Rue du Lac 12, 1003 Lausanne")],  # a letterhead's numbers, above the rows: never
        header_line(100),
        table_line(120, "Hemoglobin", "14.1", "", "g/dL", "13.0 - 17.0"),
        [(40, 140, "Glicemia ........ 1,24 ↑ zz/qq V.R. hasta 1,10 Ant. 1,16 (12/09/2024)")],
        [(40, 160, "Collected 12/03/2024 08:30 Sample 3")],  # a date in the name part: never
        table_line(180, "Urea", "31", "", "mg/dL", "10 - 50"),
        [(40, 200, "Nitrite"), (250, 200, "Negative")],  # a qualitative result under the rows
        [(40, 240, "Electronically verified report Page 1 of 2")],  # a page counter: never
        [(40, 260, "Obs.: Ayuno de 12 horas.")],  # a label's line: never
    ]))
    read = [row for row in document_rows(doc) if row.name in ("Hemoglobin", "Urea")]
    found = _texts(unaccounted_lines(doc, _used(read)))
    assert found == ["Glicemia ........ 1,24 ↑ zz/qq V.R. hasta 1,10 Ant. 1,16 (12/09/2024)", "Nitrite Negative"]
    assert unaccounted_lines(doc, _used(read), below=False, qualitative=False)[0].text.startswith("Glicemia")


def test_lines_above_the_rows_count_only_as_a_table_with_values_in_one_column():
    skipped = [table_line(100 + 20 * i, name, value, "", "g/L", "1 - 9")
               for i, (name, value) in enumerate((("Albumin", "41"), ("Globulin", "29"), ("Calcium", "2.3")))]
    rows_below = [header_line(300), table_line(320, "Sodium", "140", "", "mmol/L", "135 - 145")]
    doc = document(page(skipped + rows_below))
    read = [row for row in document_rows(doc) if row.name == "Sodium"]
    assert len(unaccounted_lines(doc, _used(read))) == 3
    assert unaccounted_lines(doc, _used(read), above="none") == []
    # A letterhead's street numbers and postcodes wander across the page: no column, never counted.
    letterhead = [[(40, 40, "Hafenstrasse 48 Bremen")], [(40, 55, "Vegesacker Strasse am Deich 112 Bremen")],
                  [(300, 70, "Accredited lab 15189 (D-ML)")]]
    doc = document(page(letterhead + rows_below))
    read = [row for row in document_rows(doc) if row.name == "Sodium"]
    assert unaccounted_lines(doc, _used(read)) == []


def test_a_later_pages_lines_count_from_where_page_one_rows_start():
    first = page([header_line(100), table_line(120, "Sodium", "140", "", "mmol/L", "135 - 145")])
    second = page([table_line(120, "Fasting Glucose", "7.4", "H", "zz/qq", ""),
                   header_line(160), table_line(180, "Urea", "31", "", "mg/dL", "10 - 50")], number=2)
    doc = document(first, second)
    read = [row for row in document_rows(doc) if row.name in ("Sodium", "Urea")]
    assert _texts(unaccounted_lines(doc, _used(read))) == ["Fasting Glucose 7.4 H zz/qq"]
    assert unaccounted_lines(doc, _used(read), above="none") == []


def test_ocr_pages_and_pages_without_rows_are_left_out():
    lines = [header_line(100), table_line(120, "Sodium", "140", "", "mmol/L", "135 - 145"),
             [(40, 140, "Glucose 5.4 zz/qq")]]
    scanned = document(page(lines, source="ocr"))
    read = [row for row in document_rows(scanned) if row.name == "Sodium"]
    assert unaccounted_lines(scanned, _used(read)) == []
    digital = document(page(lines))
    assert unaccounted_lines(digital, set()) == []


def test_the_report_count_holds_each_line_once():
    doc = document(page([
        header_line(100),
        table_line(120, "Hemoglobin", "14.1", "", "g/dL", "13.0 - 17.0"),
        [(40, 140, "Urea 31 mg/dL (10 - 50)")],  # seen by both detectors
        [(40, 160, "Glucose 5.4 zz/qq")],  # only a name and a value
        table_line(180, "Sodium", "140", "", "mmol/L", "135 - 145"),
    ]))
    read = [row for row in document_rows(doc) if row.name in ("Hemoglobin", "Sodium")]
    assert unread_result_lines(doc, read) == 2
    assert len(unaccounted_lines(doc, _used(read))) == 2


def test_routing_sends_a_report_with_such_a_line_to_a_person():
    from parser.api import parse_document
    from review.routing import REASON_UNREAD, route_report

    doc = document(page([
        header_line(100),
        table_line(120, "Hemoglobin", "14.1", "", "g/dL", "13.0 - 17.0"),
        [(40, 140, "Glucose 5.4 zz/qq")],  # a row the layout did not place: no unit it knows, no range
        table_line(160, "Sodium", "140", "", "mmol/L", "135 - 145"),
    ]))
    report = parse_document(doc)
    assert report.unread_result_lines == 1
    assert REASON_UNREAD in route_report(report).reasons


def test_a_page_without_rows_counts_only_a_column_of_result_lines():
    first = page([header_line(100), table_line(120, "Sodium", "140", "", "mmol/L", "135 - 145")])
    skipped = page([table_line(100 + 20 * i, name, value, "", "zz/qq", "")
                    for i, (name, value) in enumerate((("Albumin", "41"), ("Globulin", "29"), ("Calcium", "2.3")))],
                   number=2)
    signed = page([[(40, 100, "Validated by Dr. Imboden")], [(40, 120, "Clinic hours 7 to 19, room 412")]], number=2)
    used = _used([row for row in document_rows(document(first)) if row.name == "Sodium"])
    assert len(unaccounted_lines(document(first, skipped), used)) == 3
    assert unaccounted_lines(document(first, skipped), used, empty_pages=False) == []
    assert unaccounted_lines(document(first, signed), used) == []


def test_an_earlier_results_line_is_no_row():
    doc = document(page([
        header_line(100),
        table_line(120, "Hemoglobin", "14.1", "", "g/dL", "13.0 - 17.0"),
        [(40, 140, "Previous result 13.2 g/dL")],
        [(40, 160, "Résultat antérieur 13,0 g/dL")],
        table_line(180, "Sodium", "140", "", "mmol/L", "135 - 145"),
    ]))
    read = [row for row in document_rows(doc) if row.name in ("Hemoglobin", "Sodium")]
    assert unaccounted_lines(doc, _used(read)) == []


def test_a_notes_sentence_among_the_rows_is_no_unread_result():
    # A method note and a treatment target, closed by a full stop: notes, not rows the layout left.
    doc = document(page([
        header_line(100),
        table_line(120, "Creatinine", "0.9", "", "mg/dL", "0.7 - 1.2"),
        [(40, 140, "eGFR calculated by CKD-EPI 2021 (race-free) equation.")],
        [(40, 160, "Objectif thérapeutique du diabète de type 2 : ≤ 7,0 %.")],
        table_line(180, "Sodium", "140", "", "mmol/L", "135 - 145"),
        [(40, 200, "Urea 31 mg/dL (10 - 50)")],  # a row's line without a full stop still counts
    ]))
    read = [row for row in document_rows(doc) if row.name in ("Creatinine", "Sodium")]
    assert _texts(unaccounted_lines(doc, _used(read))) == ["Urea 31 mg/dL (10 - 50)"]
    assert unread_result_lines(doc, read) == 1
