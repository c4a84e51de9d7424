"""A unit of thin strokes only ("l/l") is told by its ink whatever tesseract read (parser.ocr,
parser.thin_strokes)."""

import pytest
from PIL import Image, ImageDraw, ImageFont

from parser.ocr import restore_litre_ratios
from parser.page import Word


def _printed(text: str, size: int, font: str = "DejaVuSans.ttf") -> tuple[Image.Image, Word]:
    """`text` drawn on white, and an OCR word over its ink read as "/"."""
    image = Image.new("L", (60 + size * len(text), 3 * size), 255)
    ImageDraw.Draw(image).text((30, size), text, fill=0, font=ImageFont.truetype(font, size))
    x0, top, x1, bottom = Image.eval(image, lambda v: 255 - v).getbbox()
    return image, Word("/", x0, top, x1, bottom, 0.22, bottom - top)


@pytest.mark.parametrize("size", [24, 40])
def test_stem_slash_stem_is_read_as_litre_per_litre_keeping_its_confidence(size):
    image, misread = _printed("l/l", size)
    [word] = restore_litre_ratios(image, [misread])
    assert (word.text, word.conf) == ("l/l", 0.22)


@pytest.mark.parametrize("printed", ["L/L", "U/l", "T/l", "1/1", "V/l", "lVl", "lll", "///", "Il", "I", "%"])
def test_other_ink_keeps_its_reading(printed):
    image, misread = _printed(printed, 32)
    assert restore_litre_ratios(image, [misread]) == [misread]


def test_long_words_and_a_right_reading_are_not_looked_at():
    image, misread = _printed("l/l", 32)
    long_word = Word("abcd", misread.x0, misread.top, misread.x1, misread.bottom, 0.2, misread.size)
    assert restore_litre_ratios(image, [long_word]) == [long_word]
