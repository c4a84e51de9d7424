"""OCR words printed heavier than the page's run of text are marked bold (parser.ocr.mark_bold)."""

from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from parser.ocr import mark_bold
from parser.page import Word

FONTS = Path("/usr/share/fonts/truetype/dejavu")


@pytest.mark.skipif(not (FONTS / "DejaVuSans-Bold.ttf").exists(), reason="DejaVu fonts not installed")
def test_a_bold_heading_among_regular_rows_is_marked_bold():
    regular = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 34)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 34)
    texts = ["Glycemie"] + ["Glucose", "Creatinine", "Sodium", "Potassium", "Chlorure", "Calcium",
                            "Phosphore", "Magnesium", "Albumine", "Proteines", "Bilirubine"]
    image = Image.new("L", (900, 60 * len(texts) + 40), 255)
    draw = ImageDraw.Draw(image)
    words = []
    for row, text in enumerate(texts):
        font = bold if row == 0 else regular
        left, top, right, bottom = draw.textbbox((40, 20 + 60 * row), text, font=font)
        draw.text((40, 20 + 60 * row), text, font=font, fill=0)
        words.append(Word(text=text, x0=left, top=top, x1=right, bottom=bottom, conf=0.95, size=bottom - top))
    marked = mark_bold(image, words)
    assert [w.bold for w in marked] == [True] + [False] * (len(texts) - 1)


def test_too_few_words_to_weigh_are_left_as_they_are():
    words = [Word(text="Glucose", x0=0, top=0, x1=50, bottom=12, conf=0.9, size=12)]
    assert mark_bold(Image.new("L", (60, 20), 255), words) == words
