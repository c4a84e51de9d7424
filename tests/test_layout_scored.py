"""Scored choices between two readings of a table: the one that reads more rows wins."""

from page_builder import document, page

from parser.layout import document_rows


def test_a_title_with_label_words_inside_a_table_is_a_heading_not_a_new_header():
    # "Formule leucocytaire (valeurs absolues)" holds label words ("valeurs") but no column
    # gap: read as a new header it loses every row under it; the table above reads them.
    doc = document(page([
        [(45, 80, "Analyse"), (210, 80, "Résultat"), (272, 80, "Unité"), (357, 80, "Valeurs de référence")],
        [(45, 95, "Neutrophiles"), (210, 95, "58,2"), (272, 95, "%"), (357, 95, "40,0 - 75,0")],
        [(45, 112, "Formule leucocytaire (valeurs absolues)", 10.0, True)],
        [(45, 125, "Neutrophiles"), (210, 125, "3,38"), (272, 125, "10^3/µL"), (357, 125, "1,80 - 7,50")],
        [(45, 140, "Lymphocytes"), (210, 140, "1,82"), (272, 140, "10^3/µL"), (357, 140, "1,00 - 4,00")],
    ]))
    rows = [(r.name, r.value, r.units, r.range_text) for r in document_rows(doc)]
    assert rows[1:] == [("Neutrophiles", "3,38", "10^3/µL", "1,80 - 7,50"),
                        ("Lymphocytes", "1,82", "10^3/µL", "1,00 - 4,00")]


def test_group_labels_above_a_header_and_a_second_group_of_columns():
    # "SI UNITS  CONVENTIONAL UNITS" over "TEST RESULT UNIT REFERENCE | RESULT UNIT REFERENCE
    # RANGE": the header is the second line alone, and the second group is the same result in
    # other units, never a result nor part of the first's unit or range.
    doc = document(page([
        [(173, 80, "SI UNITS"), (374, 80, "CONVENTIONAL UNITS")],
        [(42, 94, "TEST"), (173, 94, "RESULT"), (230, 94, "UNIT"), (275, 94, "REFERENCE"),
         (374, 94, "RESULT"), (411, 94, "UNIT"), (451, 94, "REFERENCE RANGE")],
        [(42, 110, "Creatinine"), (173, 110, "71"), (230, 110, "umol/L"), (275, 110, "44 - 97"),
         (374, 110, "0.80"), (411, 110, "mg/dL"), (451, 110, "0.50 - 1.10")],
        [(42, 124, "HDL Cholesterol"), (173, 124, "1.18 L"), (230, 124, "mmol/L"), (275, 124, "> 1.29"),
         (374, 124, "45.63"), (411, 124, "mg/dL"), (451, 124, "> 50")],
    ]))
    rows = [(r.name, r.value, r.units, r.range_text) for r in document_rows(doc)]
    assert rows == [("Creatinine", "71", "umol/L", "44 - 97"), ("HDL Cholesterol", "1.18 L", "mmol/L", "> 1.29")]


def _header(y):
    return [(40, y, "Test"), (250, y, "Result"), (360, y, "Units"), (450, y, "Reference Range")]


def test_a_table_runs_on_above_the_next_pages_first_header():
    first = page([_header(80), [(40, 100, "Sodium"), (250, 100, "139"), (360, 100, "mmol/L"), (450, 100, "135 - 145")]])
    second = page([
        [(40, 60, "Potassium"), (250, 60, "4.3"), (360, 60, "mmol/L"), (450, 60, "3.5 - 5.2")],
        [(40, 90, "LIVER FUNCTION", 10.0, True)], _header(105),
        [(40, 120, "Albumin"), (250, 120, "41"), (360, 120, "g/L"), (450, 120, "35 - 50")],
    ], number=2)
    rows = [(r.page, r.name, r.value) for r in document_rows(document(first, second))]
    assert rows == [(1, "Sodium", "139"), (2, "Potassium", "4.3"), (2, "Albumin", "41")]


def test_rows_above_the_first_header_are_read_by_content_as_doubtful_rows():
    # A table above the first recognised header (its own header unknown): its lines are read by
    # content, in their printed place, and marked doubtful (no table placed them).
    lines = [[(40, 60 + 14 * k, name), (200, 60 + 14 * k, value), (260, 60 + 14 * k, "g/L"),
              (320, 60 + 14 * k, "(35-50)")] for k, (name, value) in
             enumerate([("Albumin", "41"), ("Globulin", "30"), ("Total Protein", "71")])]
    after = [_header(140), [(40, 160, "Sodium"), (250, 160, "139"), (360, 160, "mmol/L"), (450, 160, "135 - 145")]]
    rows = [(r.name, r.ambiguous) for r in document_rows(document(page(lines + after)))]
    assert rows == [("Albumin", True), ("Globulin", True), ("Total Protein", True), ("Sodium", False)]


def test_a_line_no_row_took_that_reads_as_a_whole_result_is_recovered_as_doubtful():
    from parser.layout.content import with_unread_rows
    from parser.lines import page_lines

    p = page([[(40, 100, "Sodium"), (250, 100, "139"), (360, 100, "mmol/L"), (450, 100, "135 - 145")],
              [(40, 115, "Urea"), (250, 115, "5.2"), (360, 115, "mmol/L")],
              [(40, 130, "Creatinine"), (250, 130, "68"), (360, 130, "umol/L"), (450, 130, "45 - 90")]])
    from parser.layout.rows import RawRow

    sodium, urea, creatinine = page_lines(p)
    read = RawRow(page=1, name="Sodium", value="139", units="mmol/L", range_text="135 - 145",
                  words=list(sodium.words))
    rows = with_unread_rows([read], [(p, [sodium, urea, creatinine])], {}, lambda line, page: False)
    assert [(r.name, r.value, r.ambiguous, r.from_header) for r in rows] == [
        ("Sodium", "139", False, True), ("Creatinine", "68", True, False)]  # Urea: no range printed


def test_explain_marks_a_row_read_by_content_as_doubtful():
    from parser.explain import explain_document, format_explanation

    doc = document(page([[(40, 60, "Albumin"), (200, 60, "41"), (260, 60, "g/L"), (320, 60, "(35-50)")],
                         _header(140),
                         [(40, 160, "Sodium"), (250, 160, "139"), (360, 160, "mmol/L"), (450, 160, "135 - 145")]]))
    text = format_explanation(explain_document(doc))
    assert "'Albumin' = '41', units 'g/L', range '(35-50)', doubtful: read by content" in text
    assert "'Sodium' = '139', units 'mmol/L', range '135 - 145'\n" in text + "\n"
