"""parser.unread_ink: ink no OCR word covers is found as cells; rules, specks and read words are not."""

from __future__ import annotations

from PIL import Image, ImageDraw

from parser.page import Word
from parser.unread_ink import unread_boxes


def _page() -> tuple[Image.Image, list[Word]]:
    """A page of 12 printed lines of three 'words' (black blocks 24 px tall), a vertical rule
    through them, and a speck; every block but the third one on line 6 is known as a word."""
    image = Image.new("L", (1200, 900), 255)
    draw = ImageDraw.Draw(image)
    words = []
    for line in range(12):
        top = 60 + line * 60
        for x0, x1 in ((100, 300), (500, 580), (800, 880)):
            draw.rectangle((x0, top, x1, top + 24), fill=0)
            if not (line == 6 and x0 == 800):
                words.append(Word(text="Word1", x0=x0, top=top, x1=x1, bottom=top + 24, conf=0.95))
    draw.line((700, 50, 700, 800), fill=0, width=3)  # a column rule, never a cell
    draw.rectangle((400, 500, 402, 502), fill=0)  # a speck
    return image, words


def test_an_unread_cell_is_found_and_nothing_else():
    image, words = _page()
    boxes = unread_boxes(image, words)
    assert len(boxes) == 1
    x0, top, x1, bottom = boxes[0]
    assert 790 <= x0 <= 802 and 878 <= x1 <= 890 and 414 <= top <= 422 and 444 <= bottom <= 452


def test_a_fully_read_page_has_no_unread_cells():
    image, words = _page()
    known = words + [Word(text="mg/dL", x0=800, top=420, x1=880, bottom=444, conf=0.9)]
    assert unread_boxes(image, known) == []


def test_a_unit_left_unread_is_read_again_in_place_and_a_stray_word_is_not_taken():
    from PIL import ImageFont

    from parser.ocr import read_unread_cells

    image = Image.new("L", (1400, 900), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype("DejaVuSans.ttf", 30)
    words = []
    for line in range(10):
        top = 60 + line * 70
        cells = ((100, "Test"), (500, "Result"), (900, "Units")) if line == 0 else \
            ((100, "Glucose"), (500, "102"))
        for x, text in cells:
            draw.text((x, top), text, fill=0, font=font)
            x0, y0, x1, y1 = draw.textbbox((x, top), text, font=font)
            words.append(Word(text=text, x0=x0, top=y0, x1=x1, bottom=y1, conf=0.95))
    draw.text((900, 60 + 4 * 70), "mg/dL", fill=0, font=font)  # no word covers it
    draw.text((900, 60 + 7 * 70), "Note", fill=0, font=font)  # nor this: no unit, no digit
    read = read_unread_cells(image, words, 300)
    added = read[len(words):]
    assert [w.text.lower() for w in added] == ["mg/dl"]
    assert 890 <= added[0].x0 <= 910 and 60 + 4 * 70 - 5 <= added[0].top <= 60 + 4 * 70 + 15
