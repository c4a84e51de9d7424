"""A leading '6' whose ink is a loop closed at the top ('0.21' read '6.21') goes to review
(parser.digit_holes); a six printed as a six keeps its confidence."""

import pytest
from PIL import Image, ImageDraw, ImageFont

from parser.digit_holes import SIX_DOUBT_CONFIDENCE, doubt_closed_sixes
from parser.ocr import _first_glyph_ink
from parser.page import Word


def _printed(text: str, read: str, font: str) -> tuple[Image.Image, Word]:
    """`text` drawn on white, and an OCR word over its ink read as `read`."""
    image = Image.new("L", (60 + 30 * len(text), 100), 255)
    ImageDraw.Draw(image).text((30, 30), text, fill=0, font=ImageFont.truetype(font, 32))
    x0, top, x1, bottom = Image.eval(image, lambda v: 255 - v).getbbox()
    return image, Word(read, x0, top - 4, x1, bottom + 4, 0.9, bottom - top + 8)


@pytest.mark.parametrize("font", ["DejaVuSansMono.ttf", "DejaVuSans.ttf"])
@pytest.mark.parametrize("printed, read, doubted", [
    ("0.21", "6.21", True),  # a zero read as a six
    ("09.03", "69.03", True),
    ("8.4", "6.4", True),  # an eight: closed at the top too
    ("6.21", "6.21", False),  # a six is open at the top
    ("66", "66", False),
    ("0.21", "0.21", False),  # only a six is checked
])
def test_a_six_read_over_a_closed_loop_is_doubted(font, printed, read, doubted):
    image, word = _printed(printed, read, font)
    [checked] = doubt_closed_sixes([word], lambda w: _first_glyph_ink(image, w))
    assert checked.text == read
    assert (checked.conf == SIX_DOUBT_CONFIDENCE) is doubted
