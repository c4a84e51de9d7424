"""OCR of page images: preprocessing steps, one tesseract pass, orientation, units."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageFilter

from extract_samples import ROWS, render, report_pdf
from parser import image as prep
from parser import tesseract
from parser.exceptions import OcrUnavailableError
from parser.ocr import (
    MISREAD_UNIT_CONFIDENCE, brackets_for_braces, doubt_misread_units, ocr_page, split_run_together_ranges,
)
from parser.page import Word

VALUES = [value for _, value, _, _ in ROWS]


@pytest.fixture(scope="module")
def table_image() -> Image.Image:
    """The top half of a rendered report at 300 dpi: title and the whole table."""
    page = render(report_pdf(), dpi=300)
    return page.crop((0, 0, page.width, page.height // 2))


def texts(page) -> set[str]:
    return {word.text for word in page.words}


# --- preprocessing (no tesseract) ------------------------------------------------------------


@pytest.mark.parametrize("angle", [-4.0, -1.5, 2.0, 5.0])
def test_skew_is_measured_within_a_few_tenths_of_a_degree(table_image, angle):
    tilted = table_image.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255)
    assert prep.measure_skew(tilted) == pytest.approx(angle, abs=0.3)


def test_deskew_straightens_what_was_measured(table_image):
    tilted = table_image.rotate(3.0, resample=Image.BICUBIC, expand=True, fillcolor=255)
    straight = prep.deskew(tilted, prep.measure_skew(tilted))
    assert prep.measure_skew(straight) == pytest.approx(0.0, abs=0.3)


def test_tiny_skews_are_left_alone(table_image):
    assert prep.deskew(table_image, 0.1) is table_image


def test_sideways_pages_are_recognised(table_image):
    assert not prep.looks_sideways(table_image)
    assert prep.looks_sideways(table_image.transpose(Image.Transpose.ROTATE_90))


def test_low_resolution_images_are_enlarged_towards_300_dpi():
    assert prep.upscale_factor(300) == 1.0
    assert prep.upscale_factor(200) == pytest.approx(1.5)
    assert prep.upscale_factor(72) == prep.MAX_UPSCALE
    # A photo of a whole A4 page 1650 px tall is ~150 dpi.
    assert prep.estimated_dpi(Image.new("L", (1200, 1650))) == pytest.approx(150)
    small, info = prep.prepare_for_ocr(Image.new("L", (1200, 1650), 255))
    assert info.scale == pytest.approx(2.0) and small.size == (2400, 3300)
    same, info = prep.prepare_for_ocr(Image.new("L", (1200, 1650), 255), dpi=300)
    assert info.scale == 1.0 and same.size == (1200, 1650)


def test_uneven_light_is_detected_and_flattened(table_image):
    width, height = table_image.size
    shade = np.linspace(1.0, 0.45, width, dtype=np.float32)[None, :]
    shadowed = Image.fromarray((np.asarray(table_image, dtype=np.float32) * shade).astype(np.uint8))
    assert not prep.has_uneven_light(table_image)
    assert prep.has_uneven_light(shadowed)
    flat = np.asarray(prep.flatten_background(shadowed))
    paper = flat[np.asarray(table_image) > 250]
    # Paper is white again on both sides of the page, the ink stays dark.
    assert np.percentile(paper, 10) > 215
    ink = flat[np.asarray(table_image) < 60]
    assert np.median(ink) < 120


def test_scanner_grain_is_measured_and_smoothed(table_image):
    assert prep.paper_noise(table_image) < 1.0
    rng = np.random.default_rng(1)
    grainy = np.clip(np.asarray(table_image, dtype=np.float32) * 0.9 + 20 + rng.normal(0, 10, table_image.size[::-1]), 0, 255)
    grainy = Image.fromarray(grainy.astype(np.uint8))
    assert prep.paper_noise(grainy) > prep.NOISY_PAPER
    assert prep.prepare_for_ocr(grainy)[1].denoised
    assert not prep.prepare_for_ocr(table_image)[1].denoised
    assert prep.paper_noise(prep.denoise(grainy)) < prep.NOISY_PAPER  # smoothed below the trigger


def test_dark_desk_around_a_photographed_page_is_blanked(table_image):
    page = table_image.reduce(2)
    photo = Image.new("L", (page.width + 200, page.height + 200), 60)  # a dark desk
    photo.paste(page, (100, 100))
    photo.paste(0, (150 + page.width // 2, 150, 250 + page.width // 2, 250))  # a black logo
    blanked = np.asarray(prep.whiten_outside_page(photo))
    assert blanked[:90, :].min() == 255 and blanked[:, -90:].min() == 255  # desk gone
    assert blanked[200, 200 + page.width // 2] == 0  # the logo on the page stays
    inside = np.asarray(photo)[110:-110, 110:-110]
    assert np.array_equal(blanked[110:-110, 110:-110], inside)  # the page is untouched


def test_only_dark_areas_reaching_the_edge_count_as_surroundings():
    # A spiral corridor from the edge (many turns: the run-by-run fill must keep going) and a
    # closed dark box inside it (a logo: not connected to the edge).
    mask = np.zeros((21, 21), dtype=bool)
    mask[0, 0:21] = mask[0:20, 20] = mask[19, 2:21] = mask[2:20, 2] = mask[2, 2:17] = True
    mask[2:16, 16] = mask[15, 6:17] = True
    mask[8:12, 8:12] = True
    connected = prep._edge_connected(mask)
    assert connected[15, 6] and connected[0, 0]
    assert not connected[8:12, 8:12].any()
    assert (connected == (mask & ~np.pad(np.ones((4, 4), bool), ((8, 9), (8, 9))))).all()


def test_exif_orientation_is_applied():
    image = Image.new("L", (60, 20), 255)
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 CW to view"
    image.info["exif"] = exif.tobytes()
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", exif=exif.tobytes())
    upright = prep.exif_upright(Image.open(io.BytesIO(buffer.getvalue())))
    assert upright.size == (20, 60)


def test_sixteen_bit_scans_keep_their_ink():
    deep = Image.fromarray((np.asarray(Image.new("L", (40, 20), 255)).astype(np.uint16) * 257))
    deep.paste(0, (10, 5, 30, 15))
    gray = np.asarray(prep.to_gray(deep))
    assert gray[10, 20] == 0 and gray[0, 0] == 255


def test_otsu_threshold_splits_ink_from_paper():
    pixels = np.array([20] * 100 + [230] * 900, dtype=np.uint8)
    assert 20 <= prep.otsu_threshold(pixels) < 230


# --- tesseract -------------------------------------------------------------------------------


@pytest.mark.slow
def test_rendered_page_reads_every_value_in_page_units(table_image):
    page = ocr_page(table_image, number=1, units_per_pixel=72 / 300, dpi=300)
    assert page.source == "ocr" and page.rotation == 0
    assert set(VALUES) <= texts(page)
    assert page.width == pytest.approx(table_image.width * 72 / 300, abs=0.5)
    glucose = next(word for word in page.words if word.text == "Glucose")
    # Drawn at x = 72 pt; the text layer's 11 pt line box and OCR's ink box agree closely.
    assert glucose.x0 == pytest.approx(72, abs=3)
    assert 0.8 <= glucose.conf <= 1.0
    # Words of one printed line share its top and bottom, like text-layer words, however
    # their ink differs ("-" is a short stroke, "70" full height).
    dash = next(word for word in page.words if word.text == "-" and word.top > glucose.top - 5)
    low = next(word for word in page.words if word.text == "70")
    assert (dash.top, dash.bottom) == (low.top, low.bottom)


@pytest.mark.slow
def test_upside_down_scan_is_turned_and_read(table_image):
    page = ocr_page(table_image.rotate(180), number=1, dpi=300)
    assert page.rotation == 180
    assert set(VALUES) <= texts(page)


@pytest.mark.slow
def test_sideways_scan_is_turned_and_read(table_image):
    page = ocr_page(table_image.transpose(Image.Transpose.ROTATE_90), number=1, dpi=300)
    assert page.rotation == 90
    assert set(VALUES) <= texts(page)
    assert page.width > page.height  # the upright frame of this landscape crop


@pytest.mark.slow
def test_small_blurred_photo_is_still_read(table_image):
    small = table_image.resize((table_image.width * 2 // 5, table_image.height * 2 // 5), Image.LANCZOS)
    blurred = small.filter(ImageFilter.GaussianBlur(0.6)).rotate(2.0, expand=True, fillcolor=235)
    page = ocr_page(blurred, number=1)
    found = set(VALUES) & texts(page)
    assert len(found) >= len(VALUES) - 1, found
    # Boxes are in the input image's pixels, not the upscaled ones.
    assert max(word.x1 for word in page.words) <= blurred.width + 10


def test_missing_tesseract_binary_is_a_clear_error(monkeypatch, table_image):
    import pytesseract

    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    tesseract.tesseract_version.cache_clear()
    try:
        assert not tesseract.is_available()
        with pytest.raises(OcrUnavailableError) as caught:
            tesseract.ocr_words(table_image)
        assert "tesseract" in caught.value.message
        assert caught.value.failure_reason == "processing_error"
    finally:
        tesseract.tesseract_version.cache_clear()


def test_huge_photos_are_reduced_but_boxes_stay_in_photo_pixels(monkeypatch):
    from parser import ocr as ocr_module
    from parser.page import Word

    seen = {}

    def fake_ocr(image, *, dpi, **_):
        seen["size"] = image.size
        # one word at the centre of whatever image tesseract gets
        cx, cy = image.width / 2, image.height / 2
        return [Word(f"w{i}", cx - 50, cy - 10, cx + 50, cy + 10, 0.9, 20.0) for i in range(10)]

    monkeypatch.setattr(ocr_module.tesseract, "ocr_words", fake_ocr)
    photo = Image.new("L", (8000, 6000), 255)
    page = ocr_page(photo, number=1)
    assert max(seen["size"]) <= ocr_module.MAX_LONG_SIDE * 1.01
    assert (page.width, page.height) == pytest.approx((8000, 6000), rel=0.01)
    word = page.words[0]
    assert ((word.x0 + word.x1) / 2, (word.top + word.bottom) / 2) == pytest.approx((4000, 3000), rel=0.01)


# --- second looks at doubtful numbers ----------------------------------------------------------


def _printed(text: str, font: str = "DejaVuSans.ttf", size: int = 40, ink: int = 0):
    """`text` printed on white, and the Word box tesseract would give it (tight on the ink)."""
    from PIL import ImageDraw, ImageFont

    from parser.page import Word

    image = Image.new("L", (60 + size * len(text), 3 * size), 255)
    draw = ImageDraw.Draw(image)
    draw.text((30, size), text, fill=ink, font=ImageFont.truetype(font, size))
    x0, top, x1, bottom = Image.eval(image, lambda v: 255 - v).getbbox()
    return image, (x0, top, x1, bottom)


def test_a_dropped_decimal_point_is_restored_from_the_ink_at_a_review_confidence():
    from parser.ocr import REPAIRED_DOT_CONFIDENCE, restore_decimal_points
    from parser.page import Word

    image, (x0, top, x1, bottom) = _printed("4.5")
    [word] = restore_decimal_points(image, [Word("45", x0, top, x1, bottom, 0.95, bottom - top)])
    assert (word.text, word.conf) == ("4.5", REPAIRED_DOT_CONFIDENCE)


@pytest.mark.parametrize("font", ["DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"])
@pytest.mark.parametrize(("printed", "read", "expected"), [
    ("1,52", "152", "1,52"),  # a decimal comma tesseract dropped: its tail shows under the baseline
    ("6,8 H", "68H", "6,8H"),  # with the flag letter tesseract glued on
    ("92,0", "920", "92,0"),
    ("4.5", "45", "4.5"),  # a point stays a point
])
def test_a_dropped_decimal_comma_is_restored_from_the_ink(font, printed, read, expected):
    from parser.ocr import REPAIRED_DOT_CONFIDENCE, restore_decimal_points
    from parser.page import Word

    image, (x0, top, x1, bottom) = _printed(printed.replace(" ", ""), font)
    [word] = restore_decimal_points(image, [Word(read, x0, top, x1, bottom, 0.95, bottom - top)])
    assert (word.text, word.conf) == (expected, REPAIRED_DOT_CONFIDENCE)


@pytest.mark.parametrize("printed", ["45", "4-5", "145", "4'5", "4/5"])

def test_digits_without_a_point_in_the_ink_are_left_alone(printed):
    from parser.ocr import restore_decimal_points
    from parser.page import Word

    image, (x0, top, x1, bottom) = _printed(printed)
    word = Word("45", x0, top, x1, bottom, 0.95, bottom - top)
    assert restore_decimal_points(image, [word]) == [word]


@pytest.mark.slow
def test_doubtful_numbers_are_re_read_and_doubtful_words_are_not_made_numbers():
    from parser.ocr import reread_doubtful_numbers
    from parser.page import Word

    number, (x0, top, x1, bottom) = _printed("5.7", "DejaVuSansMono.ttf", ink=110)
    misread = Word("S77", x0, top, x1, bottom, 0.3, bottom - top)
    [reread] = reread_doubtful_numbers(number, [misread], dpi=300)
    assert reread.text == "5.7" and reread.conf >= 0.75

    text, (x0, top, x1, bottom) = _printed("Method", "DejaVuSansMono.ttf", ink=110)
    unsure = Word("Metbod", x0, top, x1, bottom, 0.3, bottom - top)
    assert reread_doubtful_numbers(text, [unsure], dpi=300) == [unsure]


@pytest.mark.parametrize("font", ["DejaVuSans.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansMono.ttf"])
@pytest.mark.parametrize(("printed", "read", "expected"), [
    ("µmol/L", "pmol/L", "µmol/L"),  # the micro sign tesseract reads as p, put right
    ("pmol/L", "pmol/L", "pmol/L"),  # a real picomole unit stays
    ("µg/L", "pg/L", "µg/L"),
    ("pg/mL", "pg/mL", "pg/mL"),
    ("x10^6/µL", "x10*6/pL", "x10*6/µL"),
])
def test_a_micro_sign_read_as_p_is_restored_from_the_ink(font, printed, read, expected):
    from parser.ocr import restore_micro_signs
    from parser.page import Word

    image, (x0, top, x1, bottom) = _printed(printed, font)
    [word] = restore_micro_signs(image, [Word(read, x0, top, x1, bottom, 0.9, bottom - top)])
    assert word.text == expected


def test_a_micro_sign_of_a_spaced_unit_is_restored_with_the_words_after_it():
    from parser.ocr import restore_micro_signs
    from parser.page import Word

    image, (x0, top, x1, bottom) = _printed("µIU")
    words = [Word("pIU", x0, top, x1, bottom, 0.9, bottom - top),
             Word("/", x1 + 10, top, x1 + 20, bottom, 0.9, bottom - top),
             Word("mL", x1 + 30, top, x1 + 60, bottom, 0.9, bottom - top)]
    assert [w.text for w in restore_micro_signs(image, words)] == ["µIU", "/", "mL"]
    assert [w.text for w in restore_micro_signs(image, words[:1])] == ["pIU"]  # "µIU" alone is no unit


def _word(text: str, conf: float = 0.9) -> Word:
    return Word(text=text, x0=0, top=0, x1=10, bottom=10, conf=conf)


def test_braces_beside_numbers_are_read_as_the_brackets_of_a_range():
    read = brackets_for_braces([_word(t) for t in ("{<5.0]", "[<150}", "{70", "99}.", "{>=", "{a}", "x}")])
    assert [w.text for w in read] == ["[<5.0]", "[<150]", "[70", "99].", "[>=", "{a}", "x}"]


def test_a_likely_misread_unit_sends_its_row_to_review_with_its_text_kept():
    read = doubt_misread_units([_word("pg/L"), _word("µg/L"), _word("mol/L", 0.2)])
    assert [(w.text, w.conf) for w in read] == [("pg/L", MISREAD_UNIT_CONFIDENCE), ("µg/L", 0.9), ("mol/L", 0.2)]


def test_a_range_ocr_ran_together_is_split_into_its_words_within_its_box():
    read = split_run_together_ranges([Word(text="2to10%", x0=0, top=0, x1=60, bottom=10, conf=0.8),
                                      _word("Tota1"), _word("to")])
    assert [(w.text, w.x0, w.x1) for w in read[:3]] == [("2", 0, 10), ("to", 10, 30), ("10%", 30, 60)]
    assert [w.text for w in read[3:]] == ["Tota1", "to"]


def test_a_range_starting_at_zero_read_with_the_letter_o_starts_at_zero():
    from parser.ocr import zero_bounds

    def line(*texts: str) -> list[Word]:
        return [Word(text=t, x0=20 * i, top=0, x1=20 * i + 12, bottom=10, conf=0.8) for i, t in enumerate(texts)]

    assert [w.text for w in zero_bounds(line("[O", "-", "6]"))] == ["[0", "-", "6]"]
    assert [w.text for w in zero_bounds(line("O", "–", "20"))] == ["0", "–", "20"]
    assert [w.text for w in zero_bounds(line("(O-0,5)"))] == ["(0-0,5)"]
    assert [w.text for w in zero_bounds(line("O-20"))] == ["0-20"]
    # An O that starts no range: a blood group, a word, an O before a dash and a word.
    for words in (line("O", "Rh+"), line("O", "-", "negativ"), line("O"), line("Oxalat", "-", "5")):
        assert zero_bounds(words) == words


@pytest.mark.parametrize("font", ["DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"])
@pytest.mark.parametrize(("printed", "expected"), [
    ("10*9/L", "10*9/L"),  # a UCUM star, read right: kept as printed
    ("10^9/L", "10^9/L"),  # a caret tesseract read as a star: put right
    ("x10*12/L", "x10*12/L"),
    ("x10^12/L", "x10^12/L"),
    ("x10*6", "x10*6"),  # a power read apart from its unit ("/uL" the next word)
    ("x10^6", "x10^6"),
])
def test_a_star_read_in_a_power_unit_is_kept_only_when_the_ink_is_a_star(font, printed, expected):
    from parser.ocr import repair_power_units
    from parser.page import Word

    image, (x0, top, x1, bottom) = _printed(printed, font, size=30)
    read = Word(printed.replace("^", "*"), x0, top, x1, bottom, 0.9, bottom - top)
    assert [w.text for w in repair_power_units([read], image)] == [expected]
    # Without the ink a star is taken for a caret in a whole unit, and left to the unit repair in a piece.
    assert [w.text for w in repair_power_units([read])] == [printed.replace("^", "*") if "/" not in printed
                                                           else expected.replace("*", "^")]


@pytest.mark.parametrize("font", ["DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"])
@pytest.mark.parametrize(("printed", "expected"), [("<", "<"), (">", ">"), ("=", "=")])
def test_a_comparator_read_as_equals_before_a_bound_is_restored_from_the_ink(font, printed, expected):
    from parser.ocr import restore_comparators
    from parser.page import Word

    image, (x0, top, x1, bottom) = _printed(printed, font)
    height = bottom - top
    # tesseract's box around a lone sign is taller than its ink, as on the scans it came from
    sign = Word("=", x0, top - height, x1, bottom + height, 0.2, 3 * height)
    bound = Word("1,2", x1 + 10, top - height, x1 + 60, bottom + height, 0.96, 3 * height)
    assert [w.text for w in restore_comparators(image, [sign, bound])] == [expected, "1,2"]


def test_an_equals_sign_not_before_a_number_is_left_alone():
    from parser.ocr import restore_comparators
    from parser.page import Word

    image, (x0, top, x1, bottom) = _printed("<")
    sign = Word("=", x0, top, x1, bottom, 0.2, bottom - top)
    label = Word("oberhalb", x1 + 10, top, x1 + 120, bottom, 0.96, bottom - top)
    assert [w.text for w in restore_comparators(image, [sign, label])] == ["=", "oberhalb"]


@pytest.mark.parametrize("font", ["DejaVuSans.ttf", "DejaVuSerif.ttf"])
@pytest.mark.parametrize(("printed", "read", "expected"), [
    ("<35", "=35", "<35"),  # the sign read as another, glued to its bound
    ("<35", "<.35", "<35"),  # a phantom point between them: the ink holds three glyphs
    (">1,2", "=1,2", ">1,2"),
    ("<35", "<>", "<>"),  # the digits misread as a sign: the ink holds more than the reading
    ("=35", "=35", "=35"),  # a printed equals sign stays
    ("≤35", "<=35", "<=35"),  # so does a printed "less or equal" (a bar under the wedge)
])
def test_a_comparator_glued_to_its_bound_is_restored_from_the_ink(font, printed, read, expected):
    from parser.ocr import restore_comparators
    from parser.page import Word

    image, (x0, top, x1, bottom) = _printed(printed, font)
    word = Word(read, x0, top, x1, bottom, 0.4, bottom - top)
    assert [w.text for w in restore_comparators(image, [word])] == [expected]
