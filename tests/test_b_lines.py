"""Lines rebuilt from word boxes: words on one band share a line (session 5, helper B)."""

from parser.lines import build_lines
from parser.page import Word


def _word(text: str, x0: float, top: float, bottom: float) -> Word:
    return Word(text, x0, top, x0 + 6 * len(text), bottom, 1.0, bottom - top)


def test_a_grid_label_and_its_value_share_a_line_when_both_sit_below_the_next_cell():
    # A metadata grid: the right cell's line is a little higher than the left cell's label
    # and value (both on the same band); the label overlaps the right cell's line just enough.
    words = [_word("Date", 228, 123.5, 132.3), _word("prélèvement", 263, 123.5, 132.3),
             _word("19.08.2024", 330, 123.5, 132.3),
             _word("Naissance", 38, 128.7, 137.5), _word("28.12.2002", 126, 128.85, 137.5)]
    lines = build_lines(words, 1)
    [line] = [l for l in lines if "Naissance" in l.text]
    assert "28.12.2002" in line.text

