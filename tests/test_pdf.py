"""Text layer extraction: exact word boxes in top-left page coordinates, fonts, rules."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from reportlab.lib.pagesizes import A4

from extract_samples import ROWS, report_pdf
from parser.pdf import extract_text_layer

WIDTH, HEIGHT = A4


def layer(data: bytes, index: int = 0):
    pdf = pdfium.PdfDocument(data)
    try:
        return extract_text_layer(pdf[index], index + 1)
    finally:
        pdf.close()


def find(page, text):
    matches = [word for word in page.words if word.text == text]
    assert matches, f"{text!r} not extracted"
    return matches[0]


def test_words_have_top_left_origin_boxes_in_points():
    page = layer(report_pdf()).page
    assert (page.width, page.height) == pytest.approx((WIDTH, HEIGHT), abs=0.01)
    assert page.source == "text"
    title = find(page, "CITY")
    # drawn at x=72, baseline 72 pt below the top edge, 16 pt font
    assert title.x0 == pytest.approx(72, abs=1.0)
    assert title.top < 72 < title.bottom
    assert title.bottom - title.top == pytest.approx(16 * 1.15, rel=0.25)
    assert title.size == pytest.approx(16, abs=0.01)
    assert title.bold and not find(page, "Glucose").bold
    assert title.conf == 1.0


def test_rows_line_up_by_geometry_even_when_values_are_stored_first():
    page = layer(report_pdf(values_first=True)).page
    for name, value, unit, ref in ROWS:
        name_word, value_word = find(page, name), find(page, value)
        low_word = find(page, ref.split()[0])
        assert value_word.top == pytest.approx(name_word.top, abs=0.01)
        assert low_word.top == pytest.approx(name_word.top, abs=0.01)
        assert name_word.x1 < value_word.x0 < low_word.x0
    tops = [find(page, name).top for name, *_ in ROWS]
    assert tops == sorted(tops)  # first row printed highest


def test_range_words_are_split_at_spaces():
    page = layer(report_pdf()).page
    texts = [word.text for word in page.words]
    assert "70" in texts and "-" in texts and "99" in texts
    assert "mg/dL" in texts and "0.60" in texts


def test_landscape_page_stored_with_rotate_is_read_as_displayed():
    page = layer(report_pdf(landscape_rotated=True)).page
    assert (page.width, page.height) == pytest.approx((HEIGHT, WIDTH), abs=0.01)
    title = find(page, "CITY")
    assert title.x0 == pytest.approx(72, abs=1.0)  # the same place as on a portrait page
    assert title.top < 72 < title.bottom
    for name, value, *_ in ROWS:
        name_word, value_word = find(page, name), find(page, value)
        assert value_word.top == pytest.approx(name_word.top, abs=0.01)
        assert name_word.x1 < value_word.x0
        assert 0 <= name_word.top < name_word.bottom <= page.height


def test_level_text_on_a_page_turned_by_rotate_is_not_trusted():
    # Displayed sideways: reading it as rows would be wrong; OCR (with OSD) takes over.
    result = layer(report_pdf(rotate=90))
    assert (result.page.width, result.page.height) == pytest.approx((HEIGHT, WIDTH), abs=0.01)
    assert result.page.words == []
    assert not result.usable


def test_watermark_at_an_angle_is_left_out():
    page = layer(report_pdf(watermark=True)).page
    texts = {word.text for word in page.words}
    assert "SAMPLE" not in texts and "COPY" not in texts
    assert "Glucose" in texts


def test_ruling_lines_and_boxes_are_kept():
    page = layer(report_pdf()).page
    header = find(page, "Test")
    horizontal = [r for r in page.rules if r[3] - r[1] <= 3 and r[2] - r[0] > 400]
    assert any(0 < r[1] - header.bottom < 6 for r in horizontal), page.rules
    boxes = [r for r in page.rules if r[2] - r[0] > 400 and r[3] - r[1] > 100]
    assert boxes, "the table's frame rectangle is missing"


def test_digital_page_is_usable_and_blank_page_is_not():
    assert layer(report_pdf()).usable
    from reportlab.pdfgen import canvas
    import io

    buffer = io.BytesIO()
    blank = canvas.Canvas(buffer, pagesize=A4)
    blank.drawString(500, 20, "1/1")  # a page number alone is not a text layer
    blank.showPage()
    blank.save()
    assert not layer(buffer.getvalue()).usable


def test_real_report_keeps_row_geometry():
    """Drlogy prints each value a little below its name; the boxes must say so exactly."""
    from pathlib import Path

    sample = Path(__file__).resolve().parents[1] / "fixtures/real/cbc_normal_drlogy.pdf"
    page = layer(sample.read_bytes()).page
    hemoglobin = find(page, "Hemoglobin")
    value = find(page, "13.00")
    assert value.x0 > hemoglobin.x1
    assert 0 < value.top - hemoglobin.top < 20


def test_units_keep_the_micro_sign():
    import io

    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.drawString(72, 700, "Vitamin B12 412 \u00b5g/dL x10^3/\u00b5L")
    pdf.showPage()
    pdf.save()
    texts = [word.text for word in layer(buffer.getvalue()).page.words]
    assert "\u00b5g/dL" in texts and "x10^3/\u00b5L" in texts  # U+00B5, not Greek mu U+03BC


def _superscripts_pdf() -> bytes:
    """Names with a raised mark in smaller type and no space before it, beside words whose
    raised part is no mark (a unit's power, a civility, a name's own digits)."""
    import io
    from reportlab.pdfgen import canvas
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for n, (word, mark) in enumerate([("Glucose", "01"), ("eGFR", "a"), ("Platelets", "*"),
                                      ("m", "2"), ("cm", "2"), ("x10", "3"), ("M", "me"), ("HbA", "1c")]):
        text = pdf.beginText(72, 700 - 30 * n)
        text.setFont("Helvetica", 10)
        text.setRise(0)  # the rise is text state: it would carry over from the line above
        text.textOut(word)
        text.setFont("Helvetica", 6)
        text.setRise(4)
        text.textOut(mark)
        pdf.drawText(text)
    pdf.save()
    return buffer.getvalue()


def test_a_raised_mark_glued_to_a_name_is_its_own_word():
    words = [w.text for w in layer(_superscripts_pdf()).page.words]
    assert words[:6] == ["Glucose", "01", "eGFR", "a", "Platelets", "*"]
    assert words[6:] == ["m2", "cm2", "x103", "Mme", "HbA1c"]


def test_rules_round_to_tenths_exactly_as_python():
    import numpy as np
    from parser.pdf import _round_tenths
    values = [0.25, 0.15, 0.35, 72.25, -0.05, -0.25, 1.05, 2.675, 1e-9, -1e-9, 123.44999, 595.275]
    assert _round_tenths(np.array(values)).tolist() == [round(v, 1) for v in values]


def test_small_capitals_with_ink_tall_boxes_stay_one_word():
    """Chromium's synthesized small capitals: the shrunk capitals' boxes are as tall as their ink
    (5 pt at 9 pt type), letters 1.1 pt apart: the gap is measured against the type, not the box."""
    import numpy as np

    from parser.pdf import _word_starts

    index = np.arange(3)  # three letters: too few for their gaps to read as letter spacing
    x0 = np.array([0.0, 5.2, 10.4])
    x1 = x0 + 4.1  # 1.1 pt between letters
    top, bottom = np.full(3, 168.3), np.full(3, 173.3)  # boxes of 5 pt
    assert _word_starts(index, x0, top, x1, bottom).tolist() == [True, True, True]  # by boxes alone
    asked = []

    def nine_points(at):  # the font sizes of the characters asked for
        asked.append(sorted(at.tolist()))
        return np.full(len(at), 9.0)

    assert _word_starts(index, x0, top, x1, bottom, nine_points).tolist() == [True, False, False]
    assert asked == [[0, 1, 1, 2]]  # only the characters a gap alone would split, and those before them
    # A font size far above the box is one the text matrix scales down: no measure of the type.
    assert _word_starts(index, x0, top, x1, bottom, lambda at: np.full(len(at), 100.0)).tolist() == [True] * 3
    # Four letters alike apart read as letter-spaced by their boxes alone.
    four = np.append(x0, 15.6)
    assert _word_starts(np.arange(4), four, np.full(4, 168.3), four + 4.1, np.full(4, 173.3)).tolist() == \
        [True, False, False, False]


def _glyph_row(gaps: list[float], width: float = 6.0, height: float = 9.1):
    """Boxes of len(gaps) + 1 glyphs on one line, `gaps` apart (the first gap is ignored: the
    row starts with its first glyph)."""
    import numpy as np

    x0 = np.cumsum([0.0] + [width + gap for gap in gaps[1:]]) + 40.0
    return np.arange(len(x0)), x0, np.full(len(x0), 100.0), x0 + width, np.full(len(x0), 100.0 + height)


def _starts(gaps, guessed=(), parted=()):
    """Word starts of a glyph row where pdfium made up a space before the glyphs `guessed` and the
    stream has a space of its own before the glyphs `parted`."""
    import numpy as np

    from parser.pdf import _word_starts

    index, x0, top, x1, bottom = _glyph_row(gaps)
    flags = [np.isin(index, list(chosen)) for chosen in (parted, guessed)]
    return np.flatnonzero(_word_starts(index, x0, top, x1, bottom, partings=tuple(flags))).tolist()


def test_a_letter_spaced_title_is_one_word_whatever_spaces_pdfium_guessed():
    """"H ÉMAT O LO G IE": glyphs 1.13 pt apart at 9.1 pt (a kerned "AT" 0.53 pt) and a space
    pdfium made up wherever the ink stood further apart; the run's alike gaps are its letter
    spacing, so the title is one word, and a word space (a gap the word gap wider) parts."""
    title = [0, 1.13, 1.13, 1.13, 0.53, 1.13, 1.13, 1.13, 1.13, 1.13, 1.13]  # HÉMATOLOGIE
    assert _starts(title, guessed=[1, 5, 7, 9]) == [0]
    assert _starts(title, guessed=[1, 5, 7, 9], parted=[6]) == [0, 6]  # a space of the stream parts
    assert _starts(title + [5.0, 1.13], guessed=[1, 5, 11]) == [0, 11]  # "HÉMATOLOGIE ET"


def test_letter_spacing_wider_than_the_word_gap_keeps_words_whole():
    """"Q U Í M I C A": every gap 0.19 of the line height, wider than the word gap; the word space
    between two tracked words is that spacing and a space more."""
    word = [1.75] * 6
    assert _starts([0] + word + [6.1] + word) == [0, 7]
    assert _starts([0] + [1.75] * 2) == [0, 1, 2]  # 3 glyphs: too few to show a spacing


def test_spaces_pdfium_guessed_between_untracked_glyphs_still_part_words():
    """Glyphs that abut within words ("2 - 10", "of the"): no letter spacing, so pdfium's spaces
    stand, even those narrower than the word gap (a narrow font's space, an "f" overhanging it)."""
    assert _starts([0, 2.5, 2.5, 0], guessed=[1, 2]) == [0, 1, 2]  # "2 - 10", spaces left out
    assert _starts([0, 0, 1.2, 0, 0], guessed=[2]) == [0, 2]  # "of the": 1.2 pt is 0.13 of 9.1 pt
    assert _starts([0, 2.5, 2.5, 2.5, 2.5], guessed=[1, 2, 3, 4]) == [0, 1, 2, 3, 4]  # "1 / 2 / 3": spaces


def _tracked_pdf() -> bytes:
    """Titles drawn glyph by glyph with letter spacing (as Chromium draws CSS letter-spacing), and
    text whose spaces are left out, only gaps."""
    import io

    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for y, text, tracking in ((700, "QUIMICA CLINICA", 2.0), (650, "2 - 10 mg/L", 0.0)):
        x = 72.0
        pdf.setFont("Helvetica", 10)
        for char in text:
            if char != " ":
                pdf.drawString(x, y, char)
            x += stringWidth(char, "Helvetica", 10) + tracking
    pdf.save()
    return buffer.getvalue()


def test_a_title_drawn_glyph_by_glyph_with_letter_spacing_reads_as_its_words():
    words = [w.text for w in layer(_tracked_pdf()).page.words]
    assert words == ["QUIMICA", "CLINICA", "2", "-", "10", "mg/L"]


def _split_word_pdf(space: str = "") -> bytes:
    """A title whose word "Results" is drawn in two pieces with a line of smaller print between
    them in the stream: "Lab Resu", "Printed ...", "lts Direct". Glyph by glyph as Chromium draws
    (no space in the stream), or as two strings with a space of the stream after the word
    (`space` "after") or before the piece ("before")."""
    import io

    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    def glyphs(pdf, x, y, text, font, size):
        pdf.setFont(font, size)
        for char in text:
            if char != " ":
                pdf.drawString(x, y, char)
            x += stringWidth(char, font, size)
        return x

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica-Bold", 14)
    end = 72 + stringWidth("Lab Resu", "Helvetica-Bold", 14)
    if space:
        pdf.drawString(72, 780, "Lab Resu " if space == "after" else "Lab Resu")
    else:
        glyphs(pdf, 72, 780, "Lab Resu", "Helvetica-Bold", 14)
    glyphs(pdf, 400, 783, "Printed 2025-03-06 (PA)", "Helvetica", 9)
    if space:
        pdf.setFont("Helvetica-Bold", 14)
        before = space == "before"
        pdf.drawString(end - before * stringWidth(" ", "Helvetica-Bold", 14), 780, " lts Direct"[1 - before:])
    else:
        glyphs(pdf, end, 780, "lts Direct", "Helvetica-Bold", 14)
    pdf.save()
    return buffer.getvalue()


def test_a_word_drawn_in_two_pieces_far_apart_in_the_stream_is_one_word():
    page = layer(_split_word_pdf()).page
    assert [w.text for w in page.words] == ["Lab", "Results", "Printed", "2025-03-06", "(PA)", "Direct"]
    assert find(page, "Results").x1 == pytest.approx(find(page, "Direct").x0 - 3.9, abs=0.2)


def test_a_space_of_the_stream_keeps_a_piece_that_abuts_a_word_apart():
    for space in ("after", "before"):
        words = [w.text for w in layer(_split_word_pdf(space)).page.words]
        assert "Resu" in words and "lts" in words, space


def test_pieces_join_only_on_the_same_line_box_and_within_the_word_gap():
    import numpy as np

    from parser.pdf import _rejoined

    def columns():  # "Resu" 49-77, a far word, "lts" at 77.01 on the same box, "x" abutting on another box
        return [["Resu", "Printed", "lts", "x"], [49.0, 400.0, 77.01, 91.0], [17.0, 18.0, 17.0, 17.5],
                [77.0, 440.0, 91.0, 95.0], [28.6, 26.0, 28.6, 28.6], [1, 9, 30, 40]]

    everything_open = np.ones(4, dtype=bool)
    assert _rejoined(columns(), everything_open, everything_open) == [
        ["Results", "Printed", "x"], [49.0, 400.0, 91.0], [17.0, 18.0, 17.5], [91.0, 440.0, 95.0],
        [28.6, 26.0, 28.6], [1, 9, 40]]
    assert _rejoined(columns(), np.array([True, True, False, True]), everything_open)[0] == [
        "Resu", "Printed", "lts", "x"]  # a space of the stream before "lts"
    far = columns()
    far[1][2], far[3][2] = 79.0, 93.0  # 2 pt after "Resu" at 11.6 pt: a word gap apart
    assert _rejoined(far, everything_open, everything_open)[0] == ["Resu", "Printed", "lts", "x"]


def _boxes_pdf(with_grid: bool) -> bytes:
    """Cell boxes and rules (rectangles and lines only, as browsers print tables); with an
    image and a grid drawn as one path of many strokes among them when `with_grid`."""
    import io

    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    for row in range(12):
        y = 700 - 18 * row
        if with_grid and row == 6:  # drawn between the boxes; its first stroke on a box's top
            from PIL import Image
            from reportlab.lib.utils import ImageReader

            pdf.drawImage(ImageReader(Image.new("L", (8, 8), 128)), 420, 720, 40, 40)
            grid = pdf.beginPath()
            for k in range(8):  # a box's bounds take in its stroke's width
                grid.moveTo(49, y + 19.05 - 10 * k)
                grid.lineTo(500, y + 19.05 - 10 * k)
            pdf.drawPath(grid)
        pdf.drawString(60, y + 5, f"Test {row}")
        pdf.rect(50, y, 200.25, 18.05, stroke=1, fill=0)
        pdf.rect(250.25, y, 120, 18.05, stroke=1, fill=1)
        pdf.line(50, y - 0.5, 500, y - 0.5)
    pdf.line(400, 100, 400.001, 102)  # too short for a rule
    pdf.save()
    return buffer.getvalue()


@pytest.mark.parametrize("with_grid", [False, True])
def test_rules_of_a_page_of_boxes_are_those_its_objects_draw_one_by_one(with_grid):
    """The boxes of a page's lines and rectangles, read in one pass, and those of its other
    objects are the rules the general reader finds object by object, in the same order."""
    from parser import pdf as reader

    pdf = pdfium.PdfDocument(_boxes_pdf(with_grid))
    try:
        page = pdf[0]
        frame = reader.page_frame(page)
        handle = reader._handle(page.raw)
        collector = reader._Collector(frame)
        for i in range(pdfium.raw.FPDFPage_CountObjects(page)):
            obj = reader._page_object(handle, i)
            collector.collect(obj, reader._object_type(obj), reader._IDENTITY, 0)
        rules, images = reader._drawing(page, frame)
        page.close()
    finally:
        pdf.close()
    assert len(rules) > 30
    assert rules == reader._rules(collector.found, frame)
    assert len(images) == with_grid
