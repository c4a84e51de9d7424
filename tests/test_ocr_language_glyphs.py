"""A character the page-language pass inserts is told by the ink's glyph count (parser.ocr)."""

from PIL import Image, ImageDraw, ImageFont

from parser.ocr import glyphs_from_first_pass
from parser.page import Word


def _page(text: str) -> Image.Image:
    image = Image.new("L", (300, 100), 255)
    ImageDraw.Draw(image).text((20, 20), text, fill=0, font=ImageFont.load_default(size=48))
    return image


def _w(text: str, conf: float) -> Word:
    return Word(text=text, x0=15, top=15, x1=160, bottom=80, conf=conf, size=60)


def test_an_inserted_character_the_ink_does_not_hold_takes_the_english_reading():
    got = glyphs_from_first_pass(_page("27"), [_w("217", 0.76)], [_w("27", 0.96)])
    assert [(w.text, w.conf) for w in got] == [("27", 0.96)]
    got = glyphs_from_first_pass(_page("B12"), [_w("Bl12", 0.5)], [_w("B12", 0.96)])
    assert [w.text for w in got] == ["B12"]


def test_the_language_reading_stays_when_the_ink_holds_its_characters_or_english_is_less_sure():
    assert [w.text for w in glyphs_from_first_pass(_page("217"), [_w("217", 0.76)], [_w("27", 0.96)])] == ["217"]
    assert [w.text for w in glyphs_from_first_pass(_page("27"), [_w("217", 0.9)], [_w("27", 0.8)])] == ["217"]
    # Two characters apart, or other marks: not this repair's business.
    assert [w.text for w in glyphs_from_first_pass(_page("27"), [_w("2177", 0.5)], [_w("27", 0.96)])] == ["2177"]
