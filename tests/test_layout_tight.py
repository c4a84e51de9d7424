"""Cells set close together in a tight table: a phrase run on across a column's edge."""

from page_builder import document, page

from parser.layout import document_rows


def test_a_value_set_close_after_a_long_name_is_cut_at_its_columns_label():
    doc = document(page([
        [(40, 100, "Esame"), (120, 100, "Risultato"), (190, 100, "Unità"),
         (260, 100, "Valori di riferimento")],
        [(40, 120, "Globuli bianchi"), (120, 120, "6,8"), (190, 120, "10^3/µL"), (260, 120, "4,0 - 10,0")],
        [(40, 135, "Neutrofili"), (120, 135, "58,3 %"), (190, 135, "3,96 10^3/µL"), (260, 135, "2,0 - 7,0")],
    ]))
    rows = [(r.name, r.value, r.units, r.range_text) for r in document_rows(doc)]
    assert rows == [("Globuli bianchi", "6,8", "10^3/µL", "4,0 - 10,0"),
                    ("Neutrofili", "58,3", "%", None),
                    ("Neutrofili", "3,96", "10^3/µL", "2,0 - 7,0")]
