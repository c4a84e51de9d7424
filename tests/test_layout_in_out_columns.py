"""Grids that print the value in one of two columns by whether it is in range ("Dans les
normes" / "Hors normes", Quebec private labs), with a units column whose label is set right of
its left-aligned content."""

from page_builder import document, page

from parser.api import parse_document
from parser.columns import with_unlabelled_columns, Column, Header


def _quebec_page():
    return page([
        [(40, 60, "Nom : TREMBLAY, Marie"), (350, 60, "Sexe : F")],
        [(40, 100, "Analyse"), (210, 100, "Dans les normes"), (294, 100, "Hors normes"),
         (379, 100, "Unités"), (430, 100, "Valeurs de référence")],
        [(40, 120, "Leucocytes"), (237, 120, "7,8"), (361, 120, "10*9/L"), (430, 120, "4,0 - 11,0")],
        [(40, 134, "Hémoglobine"), (307, 134, "118 B"), (361, 134, "g/L"), (430, 134, "120 - 160")],
        [(40, 148, "Hématocrite"), (303, 148, "0,355 B"), (361, 148, "L/L"), (430, 148, "0,36 - 0,46")],
        [(40, 162, "VGM"), (238, 162, "84"), (361, 162, "fL"), (430, 162, "80 - 100")],
        [(40, 176, "Plaquettes"), (237, 176, "287"), (361, 176, "10*9/L"), (430, 176, "150 - 400")],
        [(40, 190, "Sodium"), (237, 190, "140"), (361, 190, "mmol/L"), (430, 190, "135 - 145")],
    ])


def test_values_in_either_the_in_range_or_the_out_of_range_column_are_results():
    results = parse_document(document(_quebec_page())).results
    got = [(r.test_name, r.value, r.units, r.source_flag, r.interpretation) for r in results]
    assert got == [("Leucocytes", "7,8", "10*9/L", None, "normal"),
                   ("Hémoglobine", "118", "g/L", "B", "abnormal"),
                   ("Hématocrite", "0,355", "L/L", "B", "abnormal"),
                   ("VGM", "84", "fL", None, "normal"),
                   ("Plaquettes", "287", "10*9/L", None, "normal"),
                   ("Sodium", "140", "mmol/L", None, "normal")]


def test_short_units_starting_where_the_long_ones_under_the_label_start_join_that_column():
    header = Header([Column("name", 40, 80, "analyse"), Column("result", 210, 260, "resultat"),
                     Column("units", 379, 404, "unites"), Column("range", 430, 510, "valeurs")],
                    0, 600, 100, 110, 1)
    phrases = [(361, 386, "10*9/L"), (361, 391, "10*12/L"), (361, 373, "g/L"), (361, 368, "fL"),
               (361, 371, "pg"), (361, 369, "%")]
    columns = with_unlabelled_columns(header, phrases).columns
    assert [(c.kind, c.x0) for c in columns if c.kind in ("units", "other")] == [("units", 361)]


def test_on_an_ocr_page_units_a_few_pixels_off_one_edge_and_a_footer_across_still_make_one_column():
    """OCR word boxes of one left-aligned column start a few pixels apart (a border read as '|'
    beside some units shifts them), and the page's footer sentence runs under every label: the
    short units, none under the 'Unités' label, still join its column (the photographed
    qc_saguenay page, batch 8: every unit of the page lost to a column of no kind)."""
    rows = [
        [(40, 100, "Analyse"), (210, 100, "Dans les normes"), (294, 100, "Hors normes"),
         (383, 100, "Unités"), (430, 100, "Valeurs de référence")],
        [(40, 120, "Leucocytes"), (237, 120, "7,8"), (361, 120, "10*9/L"), (430, 120, "4,0 - 11,0")],
        [(40, 134, "Hémoglobine"), (307, 134, "118 B"), (363.5, 134, "g/L"), (430, 134, "120 - 160")],
        [(40, 148, "Hématocrite"), (303, 148, "0,355 B"), (361, 148, "L/L"), (430, 148, "0,36 - 0,46")],
        [(40, 162, "VGM"), (238, 162, "84"), (363.5, 162, "fL"), (430, 162, "80 - 100")],
        [(40, 176, "Plaquettes"), (237, 176, "287"), (363.5, 176, "10*9/L"), (430, 176, "150 - 400")],
        [(40, 190, "Sodium"), (237, 190, "140"), (361, 190, "mmol/L"), (430, 190, "135 - 145")],
        [(40, 204, "Chlorure"), (237, 204, "103"), (363.5, 204, "mmol/L"), (430, 204, "98 - 107")],
        [(30, 240, "TREMBLAY, Marie : Ce rapport est confidentiel. Les résultats doivent être "
                   "interprétés par un professionnel de la santé. Page 1 de 2")],
    ]
    results = parse_document(document(page(rows, source="ocr"))).results
    assert [(r.test_name, r.units) for r in results] == [
        ("Leucocytes", "10*9/L"), ("Hémoglobine", "g/L"), ("Hématocrite", "L/L"), ("VGM", "fL"),
        ("Plaquettes", "10*9/L"), ("Sodium", "mmol/L"), ("Chlorure", "mmol/L")]
