"""Leader dots and dotted borders are erased before OCR; text, hyphens, decimal points and
solid rules stay."""

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from parser.rulings import erase_rulings

DPI = 300
PAPER, INK = 240, 20


def _page() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("L", (1400, 700), PAPER)
    return image, ImageDraw.Draw(image)


def _font(size: int = 36) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def _inked(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    return int(np.count_nonzero(np.asarray(image.crop(box)) < 128))


def test_leader_dots_are_erased_and_the_words_beside_them_kept():
    image, draw = _page()
    draw.text((40, 100), "Glucose", fill=INK, font=_font())
    for x in range(230, 700, 10):  # proportional-font leaders: a 4 px dot every 10 px
        draw.rectangle((x, 128, x + 3, 131), fill=INK)
    draw.text((760, 100), "95 mg/dL", fill=INK, font=_font())
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert erased > 0
    assert _inked(cleaned, (225, 90, 710, 145)) == 0
    assert np.array_equal(np.asarray(cleaned.crop((30, 80, 215, 150))), np.asarray(image.crop((30, 80, 215, 150))))
    assert _inked(cleaned, (750, 80, 1000, 150)) == _inked(image, (750, 80, 1000, 150))


def test_spaced_monospace_leaders_are_erased():
    image, draw = _page()
    draw.text((40, 100), "RBC", fill=INK, font=_font())
    for x in range(160, 640, 22):  # ". . . ." in monospace: a dot every character cell pair
        draw.rectangle((x, 128, x + 3, 131), fill=INK)
    cleaned, _ = erase_rulings(image, DPI, 128)
    assert _inked(cleaned, (155, 90, 650, 145)) == 0


def test_a_hyphen_between_numbers_and_a_decimal_point_are_kept():
    image, draw = _page()
    draw.text((40, 100), "0.60 - 1.30", fill=INK, font=_font(40))
    # " - " of a monospace printout: a hyphen with gaps short enough to be closed, making a
    # thin stroke as long as a short leader, but of one piece.
    right = draw.textbbox((40, 300), "70", font=_font(40))[2]
    draw.text((40, 300), "70", fill=INK, font=_font(40))
    draw.rectangle((right + 20, 322, right + 34, 325), fill=INK)
    draw.text((right + 54, 300), "99", fill=INK, font=_font(40))
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert erased == 0
    assert cleaned.tobytes() == image.tobytes()


def test_solid_rules_are_left_to_tesseract_and_dotted_borders_erased():
    image, draw = _page()
    for y in (50, 350):
        draw.rectangle((50, y, 1300, y + 2), fill=INK)  # solid rules: tesseract's own layout uses them
    for x in range(50, 1300, 8):
        draw.rectangle((x, 200, x + 3, 202), fill=INK)  # a dotted cell border
    for y in range(60, 340, 8):
        draw.rectangle((600, y, 602, y + 3), fill=INK)  # a dotted column border
    draw.text((80, 110), "Hemoglobin", fill=INK, font=_font())
    cleaned, _ = erase_rulings(image, DPI, 128)
    # Where the two dotted borders cross a speck may stay; elsewhere both are gone.
    assert _inked(cleaned, (0, 190, 580, 212)) == 0 and _inked(cleaned, (625, 190, 1400, 212)) == 0
    assert _inked(cleaned, (590, 60, 612, 180)) == 0 and _inked(cleaned, (590, 225, 612, 340)) == 0
    assert _inked(cleaned, (70, 100, 580, 170)) == _inked(image, (70, 100, 580, 170))
    for y in (50, 350):
        assert _inked(cleaned, (0, y - 1, 1400, y + 4)) == _inked(image, (0, y - 1, 1400, y + 4))


def test_a_page_without_strokes_is_returned_unchanged():
    image, draw = _page()
    draw.text((40, 100), "Sodium 140 mmol/L 136 - 145", fill=INK, font=_font())
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert erased == 0 and cleaned is image


def test_the_foot_of_a_letter_before_the_leaders_is_kept():
    image, draw = _page()
    draw.text((40, 100), "GLUCOSE", fill=INK, font=_font())
    right = draw.textbbox((40, 100), "GLUCOSE", font=_font())[2]
    bottom = draw.textbbox((40, 100), "GLUCOSE", font=_font())[3]
    for x in range(right + 4, right + 400, 10):  # leaders start just after the E's foot
        draw.rectangle((x, bottom - 3, x + 3, bottom), fill=INK)
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert erased > 0
    word = (30, 80, right + 1, bottom + 6)
    assert _inked(cleaned, word) == _inked(image, word)
    assert _inked(cleaned, (right + 8, 80, right + 420, bottom + 6)) == 0


def test_a_solid_rule_broken_into_long_pieces_is_not_taken_for_dashes():
    image, draw = _page()
    # A rule left a little tilted after straightening, or worn by scanner noise, shows along
    # a row as long pieces with short breaks: many pieces, but none as short as a dot.
    for x in range(50, 1350, 152):
        draw.rectangle((x, 300, x + 149, 302), fill=INK)
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert erased == 0 and cleaned is image



def test_small_print_under_a_result_is_not_taken_for_leaders():
    # The Drlogy CBC page photographed at ~150 dpi: the small method line under Hemoglobin
    # ("Immunoturbidimetry") has a run of x-height letters ("mmuno") as thin as a blurred
    # leader. Erasing it once made tesseract lose the Hemoglobin row above it.
    from parser.api import parse_report
    from parser.document import render_page_png

    real = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "cbc_normal_drlogy.pdf"
    photo = render_page_png(real.read_bytes(), 1, scale=2.0)
    names = [row.test_name for row in parse_report(photo, filename="cbc.png").results]
    assert names[:2] == ["Hemoglobin (Hb)", "Total RBC count"]


def _reference_runs(mask: np.ndarray) -> np.ndarray:
    """Length of the vertical run of True holding each pixel, column by column (slow, plain)."""
    lengths = np.zeros(mask.shape, dtype=int)
    for x in range(mask.shape[1]):
        y = 0
        while y < mask.shape[0]:
            if not mask[y, x]:
                y += 1
                continue
            end = y
            while end < mask.shape[0] and mask[end, x]:
                end += 1
            lengths[y:end, x] = end - y
            y = end
    return lengths


def test_vertical_opening_matches_run_lengths_and_block_reduction_matches_any():
    from parser.rulings import _in_long_columns, _reduced

    rng = np.random.default_rng(7)
    for _ in range(40):
        mask = rng.random(tuple(rng.integers(1, 30, 2))) < rng.uniform(0.3, 0.9)
        length = int(rng.integers(1, 7))
        assert (_in_long_columns(mask, length) == (_reference_runs(mask) >= length)).all()
        factor = int(rng.integers(1, 4))
        height, width = (mask.shape[0] // factor) * factor, (mask.shape[1] // factor) * factor
        blocks = mask[:height, :width].reshape(height // factor, factor, width // factor, factor)
        assert (_reduced(mask, factor) == blocks.any(axis=(1, 3))).all()


def test_a_faint_line_broken_into_dashes_goes_whole_not_in_specks():
    """A thin grey line along a pixel row (a straightened photo's cell border or stripe edge)
    falls into dashes under the ink threshold, its gaps grey rather than paper. Erasing only
    the dashes left the grey gaps, which tesseract read as '|' and ':' beside the names."""
    image, draw = _page()
    draw.line((100, 300, 1300, 300), fill=150)  # the gaps: lighter than the threshold, not paper
    for x in range(100, 1300, 18):
        draw.line((x, 300, x + 11, 300), fill=100)  # the darker stretches: ink
    draw.text((80, 110), "Hemoglobin", fill=INK, font=_font())
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert erased > 0
    assert np.asarray(cleaned)[295:306, 100:1300].min() > (128 + PAPER) // 2
    assert _inked(cleaned, (70, 100, 580, 170)) == _inked(image, (70, 100, 580, 170))


def test_a_faint_rule_dashed_by_the_threshold_over_part_of_its_length_goes_whole():
    """A grey cell border at the ink threshold on a grainy scan: the grain breaks one stretch
    of it into short dashes (found as dotted), the rest stays one long piece. Erasing the
    dashed stretch alone left the rest as broken strokes that tesseract read as letters
    along the table row (qc_saguenay scan and photo, batch 8: 30 rows lost or garbled)."""
    image, draw = _page()
    draw.line((100, 300, 1300, 300), fill=150)  # grey, lighter than the ink threshold
    for x in range(100, 700, 18):
        draw.line((x, 300, x + 11, 300), fill=100)  # the stretch the grain dashed
    draw.line((760, 300, 1300, 300), fill=100)  # one long piece, past a longer grey break
    draw.text((80, 110), "Leucocytes", fill=INK, font=_font())
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert erased > 0
    assert np.asarray(cleaned)[295:306, 100:1300].min() > (128 + PAPER) // 2
    assert _inked(cleaned, (70, 100, 580, 170)) == _inked(image, (70, 100, 580, 170))


def test_blurred_leaders_go_but_the_name_beside_them_stays_whole():
    """Leader dots a blurred scan joined with grey are erased as leaders, and the erasure does
    not run on along the row into the name's letters, which stand on the same baseline."""
    image, draw = _page()
    draw.text((40, 100), "Haemoglobin", fill=INK, font=_font())
    right, bottom = draw.textbbox((40, 100), "Haemoglobin", font=_font())[2:]
    draw.line((right + 12, bottom - 2, right + 500, bottom - 2), fill=170)  # the blur between dots
    for x in range(right + 12, right + 500, 10):
        draw.rectangle((x, bottom - 3, x + 3, bottom), fill=INK)
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert erased > 0
    word = (30, 80, right + 1, bottom + 6)
    assert _inked(cleaned, word) == _inked(image, word)
    assert _inked(cleaned, (right + 10, 80, right + 520, bottom + 6)) == 0


def test_grey_leader_dots_lighter_than_the_ink_threshold_are_erased():
    """Small leader dots a scan's deskew lightened (or printed grey) fall between the ink
    threshold and the paper; tesseract still reads them, as letters glued to the name beside
    them (es_duero scan, batch 11: twelve rows lost)."""
    image, draw = _page()
    draw.text((40, 100), "Hemoglobina", fill=INK, font=_font())
    right, bottom = draw.textbbox((40, 100), "Hemoglobina", font=_font())[2:]
    for x in range(right + 12, right + 500, 10):
        draw.rectangle((x, bottom - 3, x + 3, bottom), fill=160)  # darker than halfway only
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert erased > 0
    word = (30, 80, right + 1, bottom + 6)
    assert _inked(cleaned, word) == _inked(image, word)
    assert np.asarray(cleaned)[bottom - 4:bottom + 2, right + 10:right + 520].min() > (128 + PAPER) // 2


def test_a_vertical_border_crossing_an_erased_faint_rule_keeps_its_ink():
    """Erasing a faint rule whole must not cut the cell borders it crosses: a border broken at
    every row is no longer one stroke (its pieces are read as '1' and '|' beside the values)."""
    image, draw = _page()
    draw.line((100, 300, 1300, 300), fill=150)
    for x in range(100, 1300, 18):
        draw.line((x, 300, x + 11, 300), fill=100)
    draw.rectangle((700, 150, 702, 450), fill=INK)  # the border, across the rule
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert erased > 0
    assert np.asarray(cleaned)[295:306, 100:690].min() > (128 + PAPER) // 2
    assert (np.asarray(cleaned)[150:451, 700:703].min(axis=1) == INK).all()  # no row of it lost


def test_the_grey_edge_of_a_solid_rule_is_no_faint_leader():
    """A header's solid underline, its anti-aliased grey edge broken into short pieces by the
    grain: the search for grey leaders took that edge for dots, and the partly erased rule
    garbled the header above it (a photographed side-by-side page)."""
    image, draw = _page()
    draw.text((80, 230), "Test Result Units Range", fill=INK, font=_font())
    draw.rectangle((60, 300, 1300, 301), fill=INK)  # the rule
    for x in range(60, 1280, 16):
        draw.line((x, 299, x + 7, 299), fill=165)  # its edge: darker than halfway, not ink
        draw.line((x + 4, 302, x + 10, 302), fill=165)
    cleaned, erased = erase_rulings(image, DPI, 128)
    assert np.array_equal(np.asarray(cleaned)[296:306], np.asarray(image)[296:306])
