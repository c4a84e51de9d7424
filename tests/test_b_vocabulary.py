"""Qualitative results have one home in parser/vocabulary.py (session 5, helper B)."""

from parser import vocabulary
from parser.columns import find_headers


def test_one_qualitative_vocabulary_for_every_language():
    words = vocabulary.qualitative_result()
    for cell in ("Negative", "Pale Yellow", "O Rh Positive", "2+", "jaune foncé", "Limpide",
                 "nicht nachweisbar", "leicht trüb", "paglierino", "Ligeramente turbio"):
        assert words.match(cell), cell
    assert not words.match("Reading") and not words.match("Indicator")


def test_a_data_row_of_qualitative_words_between_labels_is_not_a_header():
    # "Urine Colour  Limpide  Reference  Trüb  Unit": the words between the labels are a
    # data row's cells in another language, not headings the vocabulary lacks.
    words = [("Test", 40.0, 60.0), ("Limpide", 120.0, 160.0), ("Reference", 200.0, 250.0),
             ("Trüb", 290.0, 315.0), ("Unit", 350.0, 370.0)]
    assert find_headers(words, 100.0, 108.0, 1, 600.0) == []
