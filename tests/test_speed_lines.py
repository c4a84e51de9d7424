"""Line building and the readability check, as restructured for speed: the line holding a
word's very band is tried first, overlaps measured only when it cannot take the word."""

from __future__ import annotations

import pytest

from parser.api import check_readable
from parser.exceptions import LowQualityError
from parser.lines import build_lines
from parser.page import Document, Page, Word


def test_a_word_on_a_placed_band_joins_that_line():
    # "Label" joins "Name"'s line by overlap (a grid cell a little lower); "value", on Label's
    # very band, joins it too although it overlaps "Name" by less than it overlaps "Low".
    words = [Word("Name", 40, 100, 80, 110), Word("Label", 100, 105, 140, 115),
             Word("value", 300, 105, 330, 115), Word("Low", 100, 112, 140, 122)]
    lines = build_lines(words, 1)
    assert [line.text for line in lines] == ["Name Label value", "Low"]


def test_a_word_colliding_with_its_band_line_goes_to_the_line_it_overlaps():
    # Two words on one band at the same x cannot share a line: the second one goes to the
    # line whose first word it overlaps, or starts its own.
    words = [Word("A", 40, 100, 80, 110), Word("B", 40, 100.2, 80, 110.2), Word("C", 200, 103, 240, 113)]
    lines = build_lines(words, 1)
    assert sorted(len(line.words) for line in lines) == [1, 2]
    assert all(len({w.x0 for w in line.words}) == len(line.words) for line in lines)
    assert [line.top for line in lines] == sorted(line.top for line in lines)


def test_line_bounds_cover_all_its_words():
    words = [Word("b", 90, 101, 100, 112), Word("a", 40, 100, 60, 110), Word("c", 150, 99, 160, 109)]
    (line,) = build_lines(words, 1)
    assert (line.x0, line.top, line.x1, line.bottom) == (40, 99, 160, 112)
    assert line.text == "a b c"


def _page(texts: list[str], source: str = "text", conf: float = 1.0) -> Page:
    return Page(1, 600, 800, [Word(t, 40 + 30 * i, 100, 60 + 30 * i, 110, conf) for i, t in enumerate(texts)],
                source=source)


def test_readable_needs_five_words_on_some_page():
    check_readable(Document("pdf", [_page(["a", " ", "b"]), _page(list("abcde"))]))
    with pytest.raises(LowQualityError):
        check_readable(Document("pdf", [_page(["a", " ", "b", "c", "", "d"])]))


def test_readable_ocr_page_needs_confident_words():
    with pytest.raises(LowQualityError):
        check_readable(Document("png", [_page(list("abcdefgh"), "ocr", conf=0.2)]))
    check_readable(Document("png", [_page(list("abcdefgh"), "ocr", conf=0.9)]))
