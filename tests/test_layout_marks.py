"""Footnote and performing-lab marks printed after a test name ("WBC ⁰¹")."""

from parser.layout.rows import without_marks
from parser.normalize import clean_test_name
from parser.page import Word


def _word(text, x0, top, bottom, size=9.0):
    return Word(text, x0, top, x0 + 6 * len(text), bottom, size=size)


def test_a_small_raised_mark_after_the_name_is_dropped():
    # The reported font size is the same for both: only the glyph boxes tell the mark.
    words = [_word("WBC", 10, 100, 110), _word("01", 40, 100.6, 105.5)]
    assert [w.text for w in without_marks(words)] == ["WBC"]


def test_words_on_the_names_baseline_are_kept():
    for words in ([_word("Vitamin", 10, 100, 110), _word("B12", 60, 100, 110)],
                  [_word("Hemoglobin", 10, 100, 110), _word("A1c", 80, 100, 110)],
                  # small but on the baseline (a smaller font, not a superscript)
                  [_word("Ratio", 10, 100, 110), _word("01", 50, 103, 110)]):
        assert without_marks(words) == words


def test_superscript_digits_in_the_text_are_footnotes():
    assert clean_test_name("WBC ⁰¹") == "WBC"
    assert clean_test_name("Glucose ⁶") == "Glucose"
