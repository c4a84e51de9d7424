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


def test_a_header_without_a_names_label_set_inside_the_page_still_reads_the_names():
    """"Résultat  Valeurs de référence  Antériorités" over names at the margin; the value set
    right-aligned starts left of its label; the SI value sits in a column with no label."""
    doc = document(page([
        [(237, 100, "Résultat"), (392, 100, "Valeurs de référence"), (477, 100, "Antériorités")],
        [(42, 120, "Hématies"), (245, 120, "4,21 T/l"), (394, 120, "(3,80-5,30)")],
        [(42, 135, "Glycémie à jeun"), (213, 135, "1,18 g/l"), (309, 135, "6,55 mmol/l"),
         (394, 135, "(0,70-1,10)"), (479, 135, "1,09 (12/05/24)")],
        [(42, 150, "Lymphocytes"), (245, 150, "31,4 %"), (309, 150, "soit 1,92 G/l"),
         (394, 150, "(1,00-4,00)")],
        [(42, 165, "Créatinine"), (220, 165, "7,4 mg/l"), (309, 165, "65 µmol/l"),
         (394, 165, "(5,7-11,1)")],
    ]))
    rows = [(r.name, r.value, r.units, r.range_text) for r in document_rows(doc)]
    assert rows == [("Hématies", "4,21 T/l", None, "(3,80-5,30)"),
                    ("Glycémie à jeun", "1,18", "g/l", "(0,70-1,10)"),
                    ("Lymphocytes", "31,4", "%", None),
                    ("Lymphocytes", "1,92", "G/l", "(1,00-4,00)"),
                    ("Créatinine", "7,4", "mg/l", "(5,7-11,1)")]



def test_a_two_line_header_whose_lower_line_has_labels_of_its_own():
    """LabCorp: "Current Result and / Flag", "Previous Result and / Date", and "Units",
    "Reference Interval" printed on the lower line only: one header of both lines."""
    from parser.layout.document import _header_at
    from parser.lines import page_lines
    from parser.page import Page, Word

    def words(top, cells):
        return [Word(t, x0, top, x1, top + 7.0, 1.0, 7.0) for t, x0, x1 in cells]
    pg = Page(1, 612, 792, words(172, [("Tests", 37, 58), ("Ordered", 60, 93), ("Current", 207, 238),
                                       ("Result", 240, 266), ("and", 269, 284), ("Previous", 292, 327),
                                       ("Result", 330, 355), ("and", 358, 373)]) +
              words(180, [("Flag", 207, 224), ("Date", 292, 311), ("Units", 388, 409),
                          ("Reference", 456, 497), ("Interval", 500, 532)]), "text")
    headers, used = _header_at(page_lines(pg), 0, pg)
    assert used == 2
    assert {"units", "range"} <= {c.kind for c in headers[0].columns}


def test_a_range_label_stacked_on_two_lines_beats_reading_its_first_line_as_a_value():
    """"Valeurs de / référence": alone, "Valeurs de" is a value label (a second one, so a
    previous result); on two lines it is the range, with as many columns."""
    from parser.layout.document import _header_at
    from parser.lines import page_lines
    from parser.page import Page, Word

    def words(top, cells):
        return [Word(t, x0, top, x1, top + 8.1, 1.0, 8.1) for t, x0, x1 in cells]
    pg = Page(1, 595, 842, words(181.8, [("Analyse", 48, 79), ("Résultat", 234, 267), ("Unité", 272, 294)]) +
              words(177.3, [("Valeurs", 337, 367), ("de", 369, 379)]) +
              words(181.8, [("Résultat", 479, 512), ("antérieur", 515, 551)]) +
              words(185.5, [("référence", 337, 375)]), "text")
    headers, used = _header_at(page_lines(pg), 0, pg)
    assert used == 2
    assert [c.kind for c in headers[0].columns] == ["name", "result", "units", "range", "previous"]
