"""A table's vertical border read as a character of the cell word beside it ('|4,0', '127' for
27) is taken off by its ink: the stroke runs on far above and below the text line."""

from PIL import Image, ImageDraw, ImageFont

from parser.cell_borders import strip_border_glyphs
from parser.page import Word

PAPER, INK, GREY = 245, 20, 170
BORDER_X = 100


def _font() -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=36)


def _cell(text: str, border: bool = True) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """A grid cell holding `text` close right of a faint vertical border (drawn the whole
    height of three rows), and the ink box of the text."""
    image = Image.new("L", (600, 400), PAPER)
    draw = ImageDraw.Draw(image)
    if border:
        draw.rectangle((BORDER_X, 20, BORDER_X + 2, 380), fill=GREY)
    draw.text((BORDER_X + 10, 180), text, fill=INK, font=_font())
    return image, draw.textbbox((BORDER_X + 10, 180), text, font=_font())


def _word(text: str, x0: float, box: tuple[int, int, int, int]) -> Word:
    return Word(text=text, x0=x0, top=box[1], x1=box[2], bottom=box[3], conf=0.6, size=box[3] - box[1])


def test_a_border_read_as_the_first_digit_of_a_range_bound_is_taken_off():
    image, box = _cell("27 - 33")
    words = strip_border_glyphs(image, [_word("127", BORDER_X, (box[0], box[1], box[0] + 40, box[3]))])
    assert words[0].text == "27" and words[0].x0 > BORDER_X


def test_a_border_read_as_a_bar_or_bracket_before_a_number_is_taken_off():
    image, box = _cell("4,0")
    for reading in ("|4,0", "[4,0"):
        assert strip_border_glyphs(image, [_word(reading, BORDER_X, box)])[0].text == "4,0"


def test_a_printed_first_digit_stays():
    # The border boxed with the word but left out of its text: the box holds one more glyph
    # than the text has characters, so the '1' is the printed one.
    image, box = _cell("10")
    assert strip_border_glyphs(image, [_word("10", BORDER_X, box)])[0].text == "10"
    # No border at all: a '1' of the text's own height.
    image, box = _cell("127", border=False)
    assert strip_border_glyphs(image, [_word("127", box[0], box)])[0].text == "127"


def test_a_lone_border_reading_becomes_a_rule():
    image, box = _cell("")
    word = Word(text="1", x0=BORDER_X, top=180, x1=BORDER_X + 3, bottom=215, conf=0.3, size=35)
    assert strip_border_glyphs(image, [word])[0].text == "|"
