"""A flag arrow or triangle printed right after a value, read by tesseract as a digit glued to
it ("11.2↓" read "11.21"), is told by its ink and split off (parser.ocr, parser.triangles)."""

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from parser.ocr import GLUED_FLAG_DOUBT_CONFIDENCE, restore_arrows, split_glued_flags
from parser.page import Word
from parser.triangles import triangle_direction


def _printed(text: str, read: str, size: int = 32) -> tuple[Image.Image, Word]:
    """`text` drawn on white, and an OCR word over its ink read as `read`."""
    image = Image.new("L", (60 + size * len(text), 3 * size), 255)
    ImageDraw.Draw(image).text((30, size), text, fill=0, font=ImageFont.truetype("DejaVuSans.ttf", size))
    x0, top, x1, bottom = Image.eval(image, lambda v: 255 - v).getbbox()
    return image, Word(read, x0, top, x1, bottom, 0.9, bottom - top)


@pytest.mark.parametrize("printed, read, value, arrow", [
    ("11.2▼", "11.21", "11.2", "↓"),
    ("132▲", "1321", "132", "↑"),
    ("5,4▲", "5,47", "5,4", "↑"),
    ("48↑", "48T", "48", "↑"),  # an up arrow read as a letter
])
def test_a_flag_glued_to_a_value_is_split_off(printed, read, value, arrow):
    image, misread = _printed(printed, read)
    number, flag = split_glued_flags(image, [misread])
    assert (number.text, number.conf, flag.text) == (value, 0.9, arrow)
    assert number.x1 < flag.x0


def test_a_flag_read_as_more_characters_than_its_glyph_leaves_the_value_in_doubt():
    image, misread = _printed("5.4▲", "5.4722")
    number, flag = split_glued_flags(image, [misread])
    assert (number.text, flag.text) == ("5.4", "↑")
    assert number.conf == GLUED_FLAG_DOUBT_CONFIDENCE


@pytest.mark.parametrize("printed", ["247", "4,47", "137", "1321", "11.24", "17", "3.14", "12.6L", "48T"])
def test_values_ending_in_digits_keep_their_reading(printed):
    image, word = _printed(printed, printed)
    assert split_glued_flags(image, [word]) == [word]


def test_a_lone_triangle_read_as_a_digit_is_an_arrow():
    image, misread = _printed("▼", "9")
    [word] = restore_arrows(image, [misread])
    assert word.text == "↓"


def _triangle(height: int, up: bool) -> np.ndarray:
    rows = [np.abs(np.arange(2 * height) - height) <= row for row in range(height)]
    ink = np.array(rows)
    return ink if up else ink[::-1]


def test_solid_triangles_are_told_with_their_direction():
    assert triangle_direction(_triangle(20, up=True)) == "↑"
    assert triangle_direction(_triangle(20, up=False)) == "↓"


# A bold 7 as a scan gave it (a value "247"): a thick bar over a slanted stroke, solid in
# every row, narrowing from bar to foot like a ▼ but all at once.
SEVEN = """
################.
#################
#################
#################
.........#######.
..........######.
..........#####..
.........######..
.........#####...
........######...
........#####....
.......######....
.......######....
.......#####.....
......######.....
......#####......
.....######......
.....#####.......
....######.......
....#####........
...######........
...#####.........
...####..........
"""


def test_an_outlined_triangle_or_a_bar_over_a_stroke_is_no_triangle():
    outline = _triangle(20, up=True) & ~np.pad(_triangle(20, up=True)[4:, 4:-4], ((0, 4), (4, 4)))
    assert triangle_direction(outline) is None
    seven = np.array([[c == "#" for c in row] for row in SEVEN.strip().splitlines()])
    assert triangle_direction(seven) is None
    assert triangle_direction(seven[::-1]) is None


def test_an_unsure_reading_split_from_its_flag_leaves_the_value_in_doubt():
    # "6.1↓" read "6.24" at 0.71: one glyph per character, but the digit beside the flag was misread.
    image, misread = _printed("6.1▼", "6.24")
    number, flag = split_glued_flags(image, [Word("6.24", misread.x0, misread.top, misread.x1, misread.bottom, 0.71)])
    assert (number.text, flag.text, number.conf) == ("6.2", "↓", GLUED_FLAG_DOUBT_CONFIDENCE)


def test_ink_apart_from_the_flag_in_its_box_leaves_it_a_flag():
    # The word's box reaches the next line: a stroke of its flag lies under this one, apart.
    from parser.ocr import flag_glyph
    image, _ = _printed("▼", "x")
    ink = np.asarray(image) < 128
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    glyph = ink[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]
    below = np.zeros((glyph.shape[0] // 3, glyph.shape[1]), bool)
    below[:, glyph.shape[1] // 2 - 1:glyph.shape[1] // 2 + 2] = True  # a stem
    gap = np.zeros((4, glyph.shape[1]), bool)
    speck = np.zeros((2, glyph.shape[1]), bool)
    speck[:, :3] = True  # a dotted rule's remnant above
    assert flag_glyph(np.vstack([speck, gap, glyph, gap, below])) == "↓"
    assert flag_glyph(np.vstack([glyph, gap, glyph])) is None  # two alike: no glyph of its own
