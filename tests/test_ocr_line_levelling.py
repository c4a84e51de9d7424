"""Levelling an OCR page's words (parser.skew.level) keeps the words tesseract boxed as one text
line together: a slope estimated wrongly (name lines interleaved with small range lines under
them) must not move a line's value onto the range line below its name."""

import math

from parser.lines import build_lines
from parser.page import Word
from parser.skew import level


def _line(top: float, bottom: float, cells: list[tuple[str, float, float]]) -> list[Word]:
    """Words of one tesseract text line: one top and bottom, as parser.tesseract gives them."""
    return [Word(text, x0, top, x1, bottom, 0.95, bottom - top) for text, x0, x1 in cells]


def _rows() -> list[Word]:
    words = []
    for index, (name, value, low, high) in enumerate([("Linfocitos", "26,4", "20,0", "45,0"),
                                                      ("Monocitos", "7,2", "2,0", "11,0"),
                                                      ("Eosinofilos", "2,8", "0,0", "6,0")]):
        y = 386 + 18.5 * index
        words += _line(y, y + 7.6, [(name, 53, 90), (value, 268, 287), ("%", 347, 354)])
        words += _line(y + 10, y + 15.3, [("V.R.:", 52, 65), (low, 68, 82), ("-", 85, 86), (high, 89, 102)])
    return words


def test_a_wrong_slope_moves_a_tesseract_line_as_one():
    slopes = [(0.0, math.tan(math.radians(-1.8)))]  # as estimated on a dev scan's range lines
    lines = build_lines(level(_rows(), slopes), 1, ocr=True)
    texts = [" ".join(word.text for word in line.words) for line in lines]
    assert "Linfocitos 26,4 %" in texts
    assert "V.R.: 20,0 - 45,0" in texts


def test_words_of_different_lines_are_still_sheared_apart():
    slope = math.tan(math.radians(1.0))
    words = [Word("Glucose", 50, 100, 90, 108, 0.9, 8), Word("5.4", 400, 100 + 350 * slope, 420,
                                                            108 + 350 * slope, 0.9, 8)]
    levelled = level(words, [(0.0, slope)])
    assert abs(levelled[0].top - levelled[1].top) < 0.5
