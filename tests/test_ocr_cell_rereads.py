"""A doubtful cell's binarized re-reading replaces its first reading (parser.ocr)."""

from parser.ocr import CELL_GAP, CELL_PAD, _cell_replacement
from parser.page import Word


def _w(text: str, x0: float, conf: float, top: float = 100, bottom: float = 120) -> Word:
    return Word(text=text, x0=x0, top=top, x1=x0 + 10 * len(text), bottom=bottom, conf=conf, size=20)


BOX = (500.0, 100.0, 540.0, 120.0)
# The stacked image's x of a page x inside the cell.
DX = max(0, int(BOX[0]) - CELL_PAD) - CELL_GAP


def test_a_value_run_into_its_flag_is_split_into_value_and_flag():
    first = [_w("58>E", 500, 0.0)]
    reread = [_w("58", 500 - DX, 0.82, 30, 50), _w("L", 530 - DX, 0.87, 30, 50)]
    words = _cell_replacement(reread, first, BOX)
    assert [(w.text, w.x0, w.top) for w in words] == [("58", 500, 100), ("L", 530, 100)]


def test_a_garbled_range_and_a_comparator_take_their_re_reading():
    assert [w.text for w in _cell_replacement(
        [_w("4.3", 0, 0.87), _w("-", 40, 0.87), _w("5.9", 60, 0.95)], [_w("43-339", 500, 0.41)], BOX)] \
        == ["4.3", "-", "5.9"]
    assert [w.text for w in _cell_replacement([_w("<", 0, 0.92), _w("171", 20, 0.96)],
                                              [_w("=>171", 500, 0.0)], BOX)] == ["<", "171"]


def test_words_or_an_unsure_re_reading_keep_the_first_reading():
    assert _cell_replacement([_w("Hb", 0, 0.9), _w("12", 30, 0.9)], [_w("Hb12", 500, 0.3)], BOX) is None
    assert _cell_replacement([_w("12.6", 0, 0.45), _w("L", 30, 0.45)], [_w("12.6.1", 500, 0.31)], BOX) is None
    assert _cell_replacement([_w("H", 0, 0.9), _w("L", 30, 0.9)], [_w("HL", 500, 0.1)], BOX) is None


def test_a_sure_dash_between_two_doubtful_bounds_is_not_doubled(monkeypatch):
    from PIL import Image
    import parser.ocr as ocr
    words = [_w("36", 500, 0.7), _w("-", 525, 0.95), _w("45", 540, 0.5), _w("%", 600, 0.95)]
    # The stacked cell's re-reading: the range whole (x in the stacked image).
    reread = [_w("36", 500 - DX, 0.9, 0, 400), _w("-", 525 - DX, 0.9, 0, 400), _w("45", 540 - DX, 0.9, 0, 400)]
    monkeypatch.setattr(ocr.tesseract, "ocr_words", lambda *a, **k: reread)
    got = ocr.reread_doubtful_numbers(Image.new("L", (700, 200), 255), words, 300)
    assert [w.text for w in got] == ["36", "-", "45", "%"]


def test_a_value_and_its_unit_read_as_a_word_take_their_re_reading():
    assert [w.text for w in _cell_replacement([_w("58", 0, 0.68), _w("%", 30, 0.68)],
                                              [_w("Duo", 500, 0.28)], BOX)] == ["58", "%"]


def test_a_value_glued_to_its_unit_in_the_re_reading_is_taken_as_its_parts():
    words = _cell_replacement([_w("1%", 500 - DX, 0.61)], [_w("1..:.%", 500, 0.11)], BOX)
    assert [(w.text, w.x0, w.x1) for w in words] == [("1", 500, 510), ("%", 510, 520)]
    # Not sure enough, or a word that is no value and unit: the first reading stays.
    assert _cell_replacement([_w("1%", 0, 0.5)], [_w("1..:.%", 500, 0.11)], BOX) is None
    assert _cell_replacement([_w("1a%", 0, 0.9)], [_w("1..:.%", 500, 0.11)], BOX) is None


def test_a_re_read_word_boxed_over_the_words_after_it_ends_where_the_next_begins():
    wide = Word(text="4,0", x0=0, top=30, x1=90, bottom=50, conf=0.87, size=20)  # boxed over all three
    reread = [wide, _w("-", 40, 0.87, 30, 50), _w("6,0", 56, 0.8, 30, 50)]
    words = _cell_replacement(reread, [_w("4,0", 500, 0.4), _w("-6,0", 540, 0.4)], BOX)
    assert [(w.text, w.x1 - DX) for w in words] == [("4,0", 40), ("-", 50), ("6,0", 86)]


def test_a_range_garbled_whole_is_worth_a_second_look_and_takes_its_re_reading():
    from parser.ocr import _worth_rereading
    assert _worth_rereading(_w("12,3:=15,3", 500, 0.22)) and _worth_rereading(_w("12283,9310,2", 500, 0.0))
    assert not _worth_rereading(_w("Hämoglobin", 500, 0.2))  # a word, not a value
    assert not _worth_rereading(_w("1234567890123", 500, 0.2))  # longer than any range of two bounds
    reread = [_w("12,3", 0, 0.83), _w("-", 40, 0.83), _w("15,3", 60, 0.94)]
    assert [w.text for w in _cell_replacement(reread, [_w("12,3:=15,3", 500, 0.22)], BOX)] == ["12,3", "-", "15,3"]
