"""A range printed in brackets ("(3.5 - 5.1)", "[3,5 - 5,1]") that tesseract first read as garbage
takes its binarized re-reading, brackets and all, on the same confidence terms as a bare number
(parser.ocr)."""

from parser.ocr import CELL_GAP, CELL_PAD, _better_reading, _cell_replacement
from parser.page import Word
from parser.ranges import parse_range


def _w(text: str, x0: float, conf: float, top: float = 100, bottom: float = 120) -> Word:
    return Word(text=text, x0=x0, top=top, x1=x0 + 10 * len(text), bottom=bottom, conf=conf, size=20)


BOX = (500.0, 100.0, 610.0, 120.0)
DX = max(0, int(BOX[0]) - CELL_PAD) - CELL_GAP  # the stacked image's x of a page x


def test_a_square_bracketed_range_read_as_garbage_takes_its_re_reading():
    first = [_w("(3:55;", 500, 0.0), _w("11", 570, 0.0)]
    reread = [_w("[3,5", 500 - DX, 0.84, 30, 50), _w("-", 550 - DX, 0.84, 30, 50),
              _w("5,1]", 565 - DX, 0.94, 30, 50)]
    words = _cell_replacement(reread, first, BOX)
    assert [(w.text, w.x0) for w in words] == [("[3,5", 500), ("-", 550), ("5,1]", 565)]
    range_ = parse_range(" ".join(w.text for w in words), decimal_comma=True)
    assert (range_.low, range_.high) == (3.5, 5.1)


def test_a_round_bracketed_range_read_as_one_word_takes_its_re_reading():
    assert _better_reading(_w("(3.5-5.1)", 0, 0.9), [_w("(3:512:5:3)", 500, 0.0)]) == "(3.5-5.1)"
    words = _cell_replacement([_w("(3.5", 0, 0.8), _w("-", 40, 0.8), _w("5.1)", 60, 0.9)],
                              [_w("SS", 500, 0.1)], BOX)
    assert [w.text for w in words] == ["(3.5", "-", "5.1)"]


def test_a_lone_bracketed_bound_keeps_its_first_reading():
    # The bracket's ink bleeds into the digit on a re-reading ("(0" as "(9"): only whole ranges.
    assert _better_reading(_w("(9", 0, 0.94), [_w("(0", 500, 0.51)]) is None
    assert _better_reading(_w("5.1)", 0, 0.95), [_w("SS", 500, 0.1)]) is None
    assert _cell_replacement([_w("(0", 0, 0.95), _w("%", 30, 0.95)], [_w("(Q%", 500, 0.1)], BOX) is None
    # A bare bound is taken as before.
    assert _better_reading(_w("0", 0, 0.95), [_w("Q", 500, 0.4)]) == "0"


def test_brackets_widen_nothing_else():
    # Not clearly more confident: the first reading stays, as for a bare number.
    assert _better_reading(_w("(9.1-1.0)", 0, 0.06), [_w("(0.1-1.0)", 500, 0.81)]) is None
    assert _better_reading(_w("(35", 0, 0.9), [_w("[35", 500, 0.84)]) is None
    # A bracketed word, a bracket alone, or brackets inside a number are no number.
    assert _better_reading(_w("(EDTA", 0, 0.95), [_w("EDTA", 500, 0.46)]) is None
    assert _cell_replacement([_w("(", 0, 0.95), _w(")", 30, 0.95)], [_w("C)", 500, 0.1)], BOX) is None
    assert _better_reading(_w("3(5)1", 0, 0.95), [_w("SS", 500, 0.1)]) is None
    assert _better_reading(_w("((3.5", 0, 0.95), [_w("SS", 500, 0.1)]) is None
