"""Text printed light on a filled dark box (an out-of-range value in reverse video) is turned dark
on light before OCR (parser.reverse_video), so tesseract reads it; bold type on paper is left
alone."""

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from parser.ocr import ocr_page
from parser.reverse_video import invert_reverse_video

DPI = 300
FONT = "DejaVuSans-Bold.ttf"


def _row(draw: ImageDraw.ImageDraw, y: int, name: str, value: str, unit: str, *, boxed: bool) -> None:
    """One result line at `y`: the value white on a black box when `boxed`."""
    font = ImageFont.truetype(FONT, 36)
    draw.text((60, y), name, fill=0, font=ImageFont.truetype("DejaVuSans.ttf", 36))
    x0, top, x1, bottom = draw.textbbox((520, y), value, font=font)
    if boxed:
        draw.rectangle((x0 - 10, top - 10, x1 + 10, bottom + 10), fill=0)
    draw.text((520, y), value, fill=255 if boxed else 0, font=font)
    draw.text((760, y), unit, fill=0, font=ImageFont.truetype("DejaVuSans.ttf", 36))


def _page(rows: list[tuple[str, str, str, bool]], spacing: int) -> Image.Image:
    """Result lines `spacing` pixels apart: at 46 the boxes of consecutive rows touch."""
    image = Image.new("L", (1100, 120 + spacing * len(rows)), 255)
    draw = ImageDraw.Draw(image)
    for index, row in enumerate(rows):
        if row:  # None: a blank line
            name, value, unit, boxed = row
            _row(draw, 60 + spacing * index, name, value, unit, boxed=boxed)
    return image


# Two boxed values in consecutive rows, a plain one and another boxed one after blank lines.
ROWS = [("Hemoglobin", "11,4", "g/dL", True), ("Hematocrit", "35,2", "%", True), None,
        ("MCV", "86,3", "fL", False), None, ("Glucose", "104", "mg/dL", True)]


@pytest.mark.parametrize("spacing", [70, 46])
def test_values_printed_white_on_black_boxes_are_read(spacing):
    page = ocr_page(_page(ROWS, spacing), number=1, dpi=DPI)
    texts = [word.text for word in page.words]
    assert {"11,4", "35,2", "86,3", "104"} <= set(texts)


@pytest.mark.parametrize("spacing, areas", [(70, 3), (46, 2)])  # touching boxes: one area
def test_a_boxed_value_comes_out_dark_on_paper(spacing, areas):
    cleaned, boxes = invert_reverse_video(_page(ROWS, spacing), DPI, 128)
    assert boxes == areas
    ink = np.asarray(cleaned) < 128
    assert ink.mean() < 0.1  # no filled area left


def test_bold_type_and_rules_on_paper_are_left_alone():
    image = Image.new("L", (1100, 300), 255)
    draw = ImageDraw.Draw(image)
    draw.text((60, 40), "BERTOLINI MARIA ■ 86,3", fill=0, font=ImageFont.truetype(FONT, 48))
    draw.text((60, 100), "LABORATORIO DE ANÁLISIS", fill=0, font=ImageFont.truetype(FONT, 40))
    draw.rectangle((60, 160, 1000, 166), fill=0)  # a thick rule
    draw.rectangle((60, 200, 66, 260), fill=0)  # a bar
    cleaned, boxes = invert_reverse_video(image, DPI, 128)
    assert boxes == 0
    assert cleaned.tobytes() == image.tobytes()


@pytest.mark.parametrize("band", [2100, 390])
def test_a_band_across_the_table_white_on_dark_is_left_alone(band):
    # A header row or section title printed white on a navy band the table's width (7 in at 300
    # dpi: 2100 px), or a dark block 1.3 in wide, is no value's box: inverted, it joined the rows
    # under it on two dev reports and a real photo.
    image = Image.new("L", (2300, 260), 255)
    draw = ImageDraw.Draw(image)
    draw.rectangle((60, 40, 60 + band, 100), fill=0)
    draw.text((80, 48), "Test    Result    Units    Reference Range", fill=255, font=ImageFont.truetype(FONT, 40))
    _row(draw, 150, "Hemoglobin", "11,4", "g/dL", boxed=True)
    cleaned, boxes = invert_reverse_video(image, DPI, 128)
    assert boxes == 1  # the value's box only
    assert (np.asarray(cleaned)[50:90, 70:50 + band] < 128).mean() > 0.5  # the band stays dark
