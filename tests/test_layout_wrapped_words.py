"""A word result wrapped onto a second line in a narrow value column ("giallo" / "paglierino"):
the second line has no name and only words, set tight under the value and aligned with it."""

from page_builder import document, page

from parser.layout import document_rows


def _urine(second_y=113.5, second_x=None):
    return document(page([
        [(45, 80, "Esame"), (225, 80, "Risultato"), (278, 80, "Unità"), (334, 80, "Valori di riferimento")],
        [(45, 104, "Colore"), (231, 104, "giallo"), (334, 104, "giallo paglierino")],
        [(second_x or 211, second_y, "paglierino")],
        [(45, 127, "Aspetto"), (206, 127, "leggermente"), (334, 127, "limpido")],
        [(226, 136.5, "torbido")],
        [(45, 150, "pH"), (241, 150, "5,5"), (334, 150, "5,0 - 7,5")],
    ]))


def test_a_word_value_wrapped_under_itself_is_one_value():
    rows = [(r.name, r.value, r.range_text) for r in document_rows(_urine())]
    assert rows == [("Colore", "giallo paglierino", "giallo paglierino"),
                    ("Aspetto", "leggermente torbido", "limpido"), ("pH", "5,5", "5,0 - 7,5")]


def test_a_word_line_not_aligned_with_the_value_above_is_not_joined():
    rows = [(r.name, r.value) for r in document_rows(_urine(second_x=190))]
    assert ("Colore", "giallo") in rows
