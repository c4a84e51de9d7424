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
