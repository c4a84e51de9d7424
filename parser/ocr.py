"""A page image in, a `Page` of OCR words out (source "ocr").

Stages: clean the image (parser.image), one tesseract pass for words and confidences
(parser.tesseract), and only when that pass reads badly or the page looks sideways, ask
tesseract's orientation detection and read the turned page again; then a second look at
doubtful short tokens (one extra pass over their binarized cells, stacked) and at integers
whose ink shows a decimal point tesseract dropped. Word boxes are mapped back
to the page's own units (PDF points for a rendered PDF page, pixels of the upright image for a
photo or scan), in the frame of the upright, straightened page.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from parser import tesseract
from parser.cell_borders import strip_border_glyphs
from parser.digit_holes import doubt_closed_sixes
from parser.image import PageImageInfo, prepare_for_ocr
from parser.language import TESSERACT_CODES, detect_language
from parser.page import Page, Word
from parser.thin_strokes import stem_slash_stem
from parser.triangles import triangle_direction
from parser.units import (
    damaged_power_unit, doubtful_reading, is_unit, repair_ocr_word, restored_slash_unit, ucum_power_spelling,
    unglue,
)
from parser.unread_ink import unread_boxes
from parser.wedges import wedge_direction

log = logging.getLogger(__name__)

# A first pass whose words average below this confidence, or that finds almost no words on
# an inked page, may be upside down or sideways: worth an orientation check.
LOW_MEAN_CONFIDENCE = 0.55
MIN_WORDS = 8
MIN_OSD_CONFIDENCE = 1.5  # tesseract's OSD "orientation confidence" worth acting on
# Images larger than this (long side, pixels) are reduced first: a 48 MP phone photo holds a
# page at ~500 dpi, which reads no better than ~350 dpi and costs memory and time.
MAX_LONG_SIDE = 4200


@dataclass(slots=True)
class PreparedPage:
    """A cleaned page image ready for tesseract, and how to map its pixels back."""

    image: Image.Image
    info: PageImageInfo
    number: int
    units_per_pixel: float  # page units per pixel of `image`
    dpi: int  # the effective resolution of `image`, told to tesseract
    photo: bool = False  # a photo (no known dpi): worth a look for ink OCR left unread


def ocr_page(
    image: Image.Image,
    *,
    number: int,
    units_per_pixel: float = 1.0,
    dpi: int | None = None,
    clean_background: bool | None = None,
) -> Page:
    """OCR one upright-or-not page image (see `prepare_page` for the arguments)."""
    return read_page(
        prepare_page(
            image, number=number, units_per_pixel=units_per_pixel, dpi=dpi,
            clean_background=clean_background,
        )
    )


def prepare_page(
    image: Image.Image,
    *,
    number: int,
    units_per_pixel: float = 1.0,
    dpi: int | None = None,
    clean_background: bool | None = None,
) -> PreparedPage:
    """Clean one page image for OCR (pure Python and PIL; the first of two stages, so that a
    document can prepare its next page while tesseract reads this one).

    `units_per_pixel` converts the input image's pixels to page units (72 / render dpi for a
    rendered PDF page, 1.0 for a photo); `dpi` is the image's resolution when known (a
    rendered page), None for a photo (then estimated as for a photo of a whole page).
    """
    long_side = max(image.size)
    if long_side > MAX_LONG_SIDE:
        reduction = MAX_LONG_SIDE / long_side
        image = image.resize(
            (max(1, round(image.width * reduction)), max(1, round(image.height * reduction))),
            Image.LANCZOS,
            reducing_gap=2.0,
        )
        units_per_pixel /= reduction
        dpi = round(dpi * reduction) if dpi else None
    prepared, info = prepare_for_ocr(image, dpi=dpi, clean_background=clean_background)
    effective_dpi = max(70, round(info.dpi * info.scale))  # info.dpi: `dpi`, or estimated
    return PreparedPage(prepared, info, number, units_per_pixel / info.scale, effective_dpi, photo=dpi is None)


def read_page(page: PreparedPage) -> Page:
    """The tesseract stage: one pass, and an orientation check only when that pass reads
    badly or the page looked sideways."""
    prepared, info, dpi = page.image, page.info, page.dpi
    rotation = 0
    if info.likely_sideways:
        rotation = _orientation(prepared, dpi)
        prepared = _turn(prepared, rotation)
    words = tesseract.ocr_words(prepared, dpi=dpi)
    if rotation == 0 and _reads_badly(words):
        turn = _orientation(prepared, dpi)
        if turn:
            turned = _turn(prepared, turn)
            turned_words = tesseract.ocr_words(turned, dpi=dpi)
            # Only a clearly better reading wins: OSD is sometimes sure and wrong on sparse,
            # faint pages, and a wrong turn garbles every word.
            if _quality(turned_words) > 1.5 * _quality(words) + 5:
                prepared, words, rotation = turned, turned_words, turn
    words = reread_in_language(prepared, words, dpi)
    if page.photo:
        words = read_unread_cells(prepared, words, dpi)
    words = strip_border_glyphs(prepared, words)
    words = repair_power_units(words, prepared)
    words = restore_litre_ratios(prepared, words)  # before the re-read: "/" and "I" are no numbers
    words = reread_doubtful_numbers(prepared, words, dpi)
    words = restore_decimal_points(prepared, words)
    words = doubt_closed_sixes(words, lambda word: _first_glyph_ink(prepared, word))
    words = restore_micro_signs(prepared, words)
    words = restore_arrows(prepared, words)
    words = split_glued_flags(prepared, words)
    words = restore_comparators(prepared, words)
    words = brackets_for_braces(words)
    words = split_run_together_ranges(words)
    words = zero_bounds(words)
    words = repair_unit_words(words)
    words = doubt_misread_units(words)
    words = mark_bold(prepared, words)
    factor = page.units_per_pixel  # back from the OCR image's pixels to page units
    log.debug(
        "ocr page %d: %d words, skew %.2f, rotation %d, scale %.2f, flattened %s, dewarped %s",
        page.number, len(words), info.skew, rotation, info.scale, info.flattened, info.dewarped,
    )
    return Page(
        number=page.number,
        width=round(prepared.width * factor, 3),
        height=round(prepared.height * factor, 3),
        words=[_scaled(word, factor) for word in words],
        source="ocr",
        rules=[],
        rotation=rotation,
    )


def reread_in_language(image: Image.Image, words: list[Word], dpi: int) -> list[Word]:
    """The page read again with its own language's data when the English first pass shows
    another supported language (accents, ligatures and words read right). English pages, the
    common case, pay only the word count: no second pass."""
    guess = detect_language([word.text for word in words])
    code = TESSERACT_CODES.get(guess.language)
    if guess.language == "en" or code is None:
        return words
    if code not in tesseract.installed_languages():
        log.warning("ocr: no tesseract data for %s (%s); kept the English reading", guess.name, code)
        return words
    language_words = units_from_first_pass(tesseract.ocr_words(image, dpi=dpi, language=code), words)
    return glyphs_from_first_pass(image, language_words, words)


# The page-language models (deu, fra, ita, spa data) misread units that the English model reads
# right ("mog/dL", "g/aL", "mmol/lL", "90" for "%"); on the fresh dev pages where the two readings of
# one box differ and only the English one is a unit, it was the printed unit 39 times, the other
# reading once. A nearly blank first-pass guess (below this confidence) is no evidence.
MIN_FIRST_PASS_UNIT_CONFIDENCE = 0.2
MIN_SAME_BOX_OVERLAP = 0.5
MIN_TOUCHING_SHARE = 0.2  # of a language word's box inside the English word's: it reaches in


def units_from_first_pass(words: list[Word], first: list[Word]) -> list[Word]:
    """The language pass's `words`, each that is no unit where the English pass (`first`) read
    one unit in the same box taking the English reading."""
    units = [w for w in first if w.conf >= MIN_FIRST_PASS_UNIT_CONFIDENCE and _unit_reading(w.text)]
    taken = {}
    for unit in units:
        # One language word in the box, no other reaching into it: "107" "3/uL" under an
        # English "1073/uL" keep their split (the English word spans both).
        touching = [i for i, word in enumerate(words) if _share_inside(word, unit) > MIN_TOUCHING_SHARE]
        if len(touching) != 1:
            continue
        word = words[touching[0]]
        if _overlap(word, unit) >= MIN_SAME_BOX_OVERLAP and not is_unit(word.text):
            taken[touching[0]] = replace(word, text=unit.text, conf=unit.conf)
    return [taken.get(i, word) for i, word in enumerate(words)]


# The page-language models insert a character the English model does not see ("27" read "217",
# "B12" read "Bl12": batch 13 and 11 dev scans). Where the two readings of one box differ by one
# character, the English one surer, the ink's glyph count tells which is printed.
_PLAIN_WORD = re.compile(r"^[A-Za-z0-9.,]+$")


def glyphs_from_first_pass(image: Image.Image, words: list[Word], first: list[Word]) -> list[Word]:
    """The language pass's `words`, each that has one character more than the surer English
    reading of its box (`first`) taking the English reading when the box's ink holds exactly
    as many glyphs as that reading has characters."""
    out = []
    for word in words:
        same = [w for w in first if _overlap(w, word) >= MIN_SAME_BOX_OVERLAP]
        if len(same) == 1 and _one_inserted(same[0].text, word.text) and same[0].conf > word.conf:
            box = replace(word, x0=min(word.x0, same[0].x0), top=min(word.top, same[0].top),
                          x1=max(word.x1, same[0].x1), bottom=max(word.bottom, same[0].bottom))
            if len(_glyphs(image, box)) == len(same[0].text):
                word = replace(word, text=same[0].text, conf=same[0].conf)
        out.append(word)
    return out


def _one_inserted(shorter: str, longer: str) -> bool:
    """Is `longer` `shorter` with one character inserted, both digits, letters and points?"""
    if len(longer) != len(shorter) + 1 or not (_PLAIN_WORD.match(longer) and _PLAIN_WORD.match(shorter)):
        return False
    return any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))


def _unit_reading(text: str) -> bool:
    """A unit, or one the unit repair puts right ("I/l" for l/l)."""
    return is_unit(text) or repair_ocr_word(text) is not None


def _share_inside(word: Word, box: Word) -> float:
    """The share of `word`'s box that lies inside `box`."""
    area = _area(word)
    return _intersection(word, box) / area if area > 0 else 0.0


def _overlap(a: Word, b: Word) -> float:
    """Intersection over union of two word boxes."""
    inter = _intersection(a, b)
    return inter / (_area(a) + _area(b) - inter) if inter > 0 else 0.0


def _intersection(a: Word, b: Word) -> float:
    width = min(a.x1, b.x1) - max(a.x0, b.x0)
    height = min(a.bottom, b.bottom) - max(a.top, b.top)
    return width * height if width > 0 and height > 0 else 0.0


def _area(word: Word) -> float:
    return (word.x1 - word.x0) * (word.bottom - word.top)


# Tesseract reads the square brackets of a printed range as braces ("{<5.0]", "[<150}",
# "{70 to 99]"); lab reports never print braces beside a number, and ranges and the unit after
# them are read only with brackets.
_OPEN_BRACE = re.compile(r"^\{(?=[<>≤≥=]?\d|[<>≤≥]=?$)")
_CLOSE_BRACE = re.compile(r"(?<=\d)\}(?=[.,;:]?$)")


def brackets_for_braces(words: list[Word]) -> list[Word]:
    """`words` with a brace opening before a number ("{<5.0") or closing after one ("99}")
    read as the square bracket it is printed as."""
    fixed = []
    for word in words:
        text = _CLOSE_BRACE.sub("]", _OPEN_BRACE.sub("[", word.text))
        if text != word.text:
            word = replace(word, text=text)
        fixed.append(word)
    return fixed


# A blood count's power unit ("10^3/µL", "x10^9/L") comes out of tesseract in pieces that the
# unit repair (parser.units.repair_ocr_word) does not take: the caret read as a gap, so two
# words ("107" "3/uL"). parser.units.damaged_power_unit reads the joined pieces, and one word
# damaged ("1073/UL", "103/41").


def power_unit(text: str) -> str | None:
    """The power unit `text` is an OCR reading of ("1073/UL" -> "10^3/µL"), else None."""
    unit = damaged_power_unit(text)
    return unit if unit is not None and unit != text and is_unit(unit) else None


def repair_power_units(words: list[Word], image: Image.Image | None = None) -> list[Word]:
    """`words` with each power unit OCR damaged put right, two pieces of one (split where its
    caret was) joined into one word; a UCUM star the page's `image` shows printed is kept."""
    repaired: list[Word] = []
    i = 0
    while i < len(words):
        word = words[i]
        following = words[i + 1] if i + 1 < len(words) else None
        joined = power_unit(word.text + following.text) if following is not None and \
            _next_on_line(word, following) and not is_unit(following.text) else None
        if joined is not None:
            repaired.append(Word(text=joined, x0=word.x0, top=min(word.top, following.top),
                                 x1=following.x1, bottom=max(word.bottom, following.bottom),
                                 conf=min(word.conf, following.conf), size=max(word.size, following.size),
                                 bold=word.bold))
            i += 2
            continue
        fixed = power_unit(word.text)
        if image is not None and "*" in word.text:
            fixed = _judged_star(image, word, fixed)
        repaired.append(replace(word, text=fixed) if fixed is not None else word)
        i += 1
    return repaired


# Tesseract reads a printed caret ("x10^9/L") as "*" as often as it reads a printed UCUM star
# ("10*9/L") right. The ink tells them apart: a caret is a wedge open below, nothing under its
# apex; a star's upright stroke inks the middle of its glyph down to the glyph's foot.
STAR_FOOT_SHARE = 0.25  # the lowest share of the glyph's rows where a star's stroke shows


def _judged_star(image: Image.Image, word: Word, fixed: str | None) -> str | None:
    """`fixed` (the power unit repair of `word`, or None) once the ink has judged the star in
    `word`: a printed UCUM star keeps the word as read ("10*9/L"); a caret read as a star in a
    power apart from its unit is put right ("x10*6" -> x10^6)."""
    if fixed is not None and ucum_power_spelling(word.text):
        return None if _printed_star(image, word, word.text.index("*")) else fixed
    # A power read apart from its unit, which the normalize stage's unit repair takes as printed.
    if fixed is None and ucum_power_spelling(word.text, piece=True):
        return None if _printed_star(image, word, word.text.index("*")) else word.text.replace("*", "^")
    return fixed


def _printed_star(image: Image.Image, word: Word, index: int) -> bool:
    """Is the glyph at `index` of `word` a printed star, not a caret (see STAR_FOOT_SHARE)?"""
    glyphs = _glyphs(image, word)
    if len(glyphs) != len(word.text):
        return False  # glyphs touch: no telling which ink is the mark
    x0, x1, top, bottom, crop = glyphs[index]
    ink = np.asarray(crop)[top:bottom + 1, x0:x1 + 1] == 0
    height, width = ink.shape
    if height < 6 or width < 3:
        return False
    foot = ink[height - max(1, round(STAR_FOOT_SHARE * height)):, width // 3:width - width // 3]
    return bool(foot.any(axis=1).all())


# Tesseract closes up the spaces of a tight "2 to 10%" range into one word ("2to10%"), which
# no range or unit reader takes apart.
_RUN_TOGETHER_RANGE = re.compile(r"^([<>]?\d+(?:[.,]\d+)?)(to)(\d+(?:[.,]\d+)?\S*)$", re.I)


def split_run_together_ranges(words: list[Word]) -> list[Word]:
    """`words` with "2to10%" split into "2", "to", "10%", each given its share of the box."""
    split = []
    for word in words:
        m = _RUN_TOGETHER_RANGE.match(word.text)
        if m is None:
            split.append(word)
            continue
        width = (word.x1 - word.x0) / len(word.text)
        start = 0
        for part in m.groups():
            split.append(Word(text=part, x0=word.x0 + start * width, top=word.top,
                              x1=word.x0 + (start + len(part)) * width, bottom=word.bottom,
                              conf=word.conf, size=word.size, bold=word.bold))
            start += len(part)
    return split


# A range's lower bound 0 read as the letter O ("[O - 6]", "O - 20", "O-20"): a bound is a
# number, and an O before a dash and a number reads only as 0.
_LETTER_O_BOUND = re.compile(r"^([\[(]?)[Oo]((?:[-–]\d+(?:[.,]\d+)?[\])]?)?)$")
_RANGE_DASHES = frozenset({"-", "–", "—"})
_UPPER_BOUND = re.compile(r"^\d+(?:[.,]\d+)?[\])]?$")


def zero_bounds(words: list[Word]) -> list[Word]:
    """`words` with a letter O read for the 0 a range starts with put right."""
    fixed = []
    for i, word in enumerate(words):
        m = _LETTER_O_BOUND.match(word.text)
        if m is not None and (m.group(2) or _dash_and_bound_after(words, i)):
            word = replace(word, text=f"{m.group(1)}0{m.group(2)}")
        fixed.append(word)
    return fixed


def _dash_and_bound_after(words: list[Word], i: int) -> bool:
    """Do a dash and a number follow words[i] on its line ("O" "-" "20")?"""
    if i + 2 >= len(words):
        return False
    dash, bound = words[i + 1], words[i + 2]
    return dash.text in _RANGE_DASHES and _UPPER_BOUND.match(bound.text) is not None and \
        _next_on_line(words[i], dash) and _next_on_line(dash, bound)


# A mark OCR reads from a speck between a value and its unit ("112 = ng/dL"): never printed there.
# A degree sign there ("° %") is a speck too: a temperature's ° is printed joined to its C or F.
# So is an unsure dash beside a unit, before it ("2,87 — µUI/ml") or after it ("mg/d — 0,50-0,90"):
# a range's dash stands between its bounds, or before a bare bound ("– 5.0"), never on a unit.
_STRAY_MARK = re.compile(r"^(?:[=~]+|°|[—–])$")
_STRAY_DASH = re.compile(r"^[—–]$")
_BARE_NUMBER = re.compile(r"^\d+(?:[.,]\d+)?$")
MAX_STRAY_MARK_CONFIDENCE = 0.9


def repair_unit_words(words: list[Word]) -> list[Word]:
    """`words` with each unit OCR damaged put right (parser.units.repair_ocr_word: "UI/I",
    "G/", "Tsd/yul", "=mg/dl"), and an unsure "=", "~" or dash just before a unit (or a dash
    just after one) dropped, so that the layout meets the unit as a text layer gives it."""
    repaired = []
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else None
        # "mg/" then "dl": a unit printed spaced, not one whose l was lost.
        spaced = word.text.endswith("/") and following is not None and \
            following.text[:1].isalpha() and _next_on_line(word, following)
        fixed = None if spaced else repair_ocr_word(word.text)
        repaired.append(replace(word, text=fixed) if fixed is not None else word)
    return [word for i, word in enumerate(repaired) if not _stray_mark(repaired, i)]


def _stray_mark(words: list[Word], i: int) -> bool:
    word = words[i]
    if word.conf >= MAX_STRAY_MARK_CONFIDENCE:
        return False
    following = words[i + 1] if i + 1 < len(words) else None
    if following is not None and _next_on_line(word, following):
        if _STRAY_MARK.match(word.text) and is_unit(following.text):
            return True
        if _BARE_NUMBER.match(following.text):
            return False  # "– 5.0": the dash of a range's bound
    return i > 0 and _STRAY_DASH.match(word.text) is not None and \
        _next_on_line(words[i - 1], word) and is_unit(words[i - 1].text)


def _next_on_line(word: Word, following: Word) -> bool:
    """Does `following` come right after `word` on its line (a gap under a word space or two)?"""
    height = max(word.bottom - word.top, 1.0)
    return abs(following.top - word.top) < 0.5 * height and 0 <= following.x0 - word.x1 < 1.5 * height


# A unit OCR likely misread (parser.units.doubtful_reading) keeps its text at this confidence
# at most: its row's confidence is its words' lowest, so the row goes to review.
MISREAD_UNIT_CONFIDENCE = 0.3


def doubt_misread_units(words: list[Word]) -> list[Word]:
    """`words` with each likely misread unit ("pg/L" for µg/L) given a low confidence."""
    return [
        replace(word, conf=MISREAD_UNIT_CONFIDENCE)
        if word.conf > MISREAD_UNIT_CONFIDENCE and doubtful_reading(word.text) else word
        for word in words
    ]


# Cells of ink the first pass read no word from (parser.unread_ink) are read in one extra
# pass, stacked. Only what a table's value-side cells hold is taken from it: units, numbers,
# ranges; a lost name or stray mark would make rows of its own.
MIN_UNREAD_CONFIDENCE = 0.6


def read_unread_cells(image: Image.Image, words: list[Word], dpi: int) -> list[Word]:
    """`words` and the unit- or number-like words read from ink the first pass left unread."""
    boxes = unread_boxes(image, words)
    if not boxes:
        return words
    stacked, spans = _stack_cells(image, boxes)
    found = []
    for word in tesseract.ocr_words(stacked, psm=6, dpi=dpi):
        middle = (word.top + word.bottom) / 2
        at = next((i for i, (start, end) in enumerate(spans) if start <= middle <= end), None)
        if at is None or word.conf < MIN_UNREAD_CONFIDENCE or not _value_side(word.text):
            continue
        # Back from the stacked image to the page: the crop began CELL_PAD before its box.
        dx = max(0, int(boxes[at][0]) - CELL_PAD) - CELL_GAP
        dy = max(0, int(boxes[at][1]) - CELL_PAD) - spans[at][0]
        found.append(Word(text=word.text, x0=word.x0 + dx, top=word.top + dy, x1=word.x1 + dx,
                          bottom=word.bottom + dy, conf=word.conf, size=word.size, bold=word.bold))
    if found:
        log.debug("ocr: %d words read from %d unread cells", len(found), len(boxes))
    return words + found


def _value_side(text: str) -> bool:
    """A unit, or a token holding a digit (a value, a range's bound)."""
    return is_unit(text, ocr=True) or any(char.isdigit() for char in text)

# Second look at doubtful short tokens. Tesseract misreads thin monospace digits on grey
# anti-aliased strokes ("5.7" as "S77", "111" as "ELL", always at low confidence); the same
# cells binarized read right. All doubtful cells of a page are stacked into ONE small image and
# read in one extra pass, so the cost stays a fraction of the page's own OCR.
DOUBTFUL_CONFIDENCE = 0.85
# A range of two decimal bounds OCR garbled whole ("12,3:=15,3", "0,50-0,90", "3:5;-.5;l") runs
# to 9-12 characters: at 8 such cells were never re-read (opened dev scans and photos: four
# of four re-read right at 12).
DOUBTFUL_MAX_CHARS = 12
MAX_REREAD_CELLS = 80
MAX_CELL_WORDS = 3
CELL_PAD = 8  # pixels of margin kept around a cell
CELL_GAP = 30  # blank pixels between stacked cells
# A re-reading replaces the first only when it is a number-like token read clearly better.
MIN_REREAD_CONFIDENCE = 0.75
MIN_CONFIDENCE_GAIN = 0.2
SURE_REREAD_CONFIDENCE = 0.9
_NUMBER_LIKE = re.compile(r"^[<>]?=?-?\d+(?:[.,]\d+)*(?:-\d+(?:[.,]\d+)*)?$")
# A range printed in brackets ("(3.5 - 5.1)", "[3,5 - 5,1]", common on electrolyte rows) re-reads
# with a bracket on each bound ("[3,5" "-" "5,1]"); kept as read: parse_range strips round and
# square brackets alike, as for the text layer's "[3,5 - 5,1]". Only a WHOLE range is taken: a
# lone bracketed bound re-reads unreliably, the bracket's ink bleeding into the digit ("(0" as
# "(9": 2 of 4 wrong on stored scans), while 7 of 7 whole ranges re-read right.
_BRACKETED = re.compile(r"^[(\[]?(?P<core>[^()\[\]]+)[)\]]?$")
_RANGE_DASH = re.compile(r"\d-\d")


def _number_like(text: str) -> bool:
    """A number-like token (`_NUMBER_LIKE`), bare or with a bracket before it or after it."""
    bracketed = _BRACKETED.match(text)
    return bracketed is not None and _NUMBER_LIKE.match(bracketed.group("core")) is not None


def _whole_bracketed_range(text: str) -> bool:
    """A whole range of two bounds in brackets, read as one word ("(3.5-5.2)")."""
    return text[:1] in "([" and _number_like(text) and _RANGE_DASH.search(text) is not None


def reread_doubtful_numbers(image: Image.Image, words: list[Word], dpi: int) -> list[Word]:
    """`words` with each doubtful short token (or run of adjacent ones on a line) replaced by a
    binarized re-reading of its cell, when that re-reading is a clearly more confident number.
    A token that stays doubtful keeps its low confidence so the row goes to review."""
    cells = _doubtful_cells(words)[:MAX_REREAD_CELLS]
    if not cells:
        return words
    boxes = [
        (min(words[i].x0 for i in cell), min(words[i].top for i in cell),
         max(words[i].x1 for i in cell), max(words[i].bottom for i in cell))
        for cell in cells
    ]
    stacked, spans = _stack_cells(image, boxes)
    rereads = tesseract.ocr_words(stacked, psm=6, dpi=dpi)
    replaced: dict[int, list[Word]] = {}
    for (start, end), cell, box in zip(spans, cells, boxes):
        inside = sorted((w for w in rereads if start <= (w.top + w.bottom) / 2 <= end),
                        key=lambda w: w.x0)
        new = _cell_replacement(inside, [words[i] for i in cell], box)
        if new is None:
            continue
        replaced[cell[0]] = new
        # A sure word between the cell's doubtful ones (the dash of "36 - 45") is re-read too.
        inner = _inside_box(words, box) if len(new) > 1 else []
        for i in set(cell[1:]) | {i for i in inner if i != cell[0]}:
            replaced[i] = []
    if replaced:
        log.debug("ocr re-read: %d of %d doubtful cells replaced",
                  sum(1 for new in replaced.values() if new), len(cells))  # [] is a word dropped
    kept: list[Word] = []
    for i, word in enumerate(words):
        kept.extend(replaced.get(i, [word]))
    return kept


# What a re-read cell may hold besides numbers when tesseract's first reading ran a value into
# its flag ("58>E" for "58 L", "12.6.1" for "12.6 L") or garbled a range ("43-339" for
# "4.3 - 5.9"), or a comparator into its bound ("=>171" for "< 171").
_CELL_MARKS = frozenset({"H", "L", "HH", "LL", "*", "**", "+", "++", "↑", "↓", "<", ">", "≤", "≥",
                         "<=", ">=", "-", "–"})
MIN_SPLIT_REREAD_CONFIDENCE = 0.6


def _inside_box(words: list[Word], box) -> list[int]:
    """Indexes of the words whose centre lies inside `box` (x0, top, x1, bottom)."""
    x0, top, x1, bottom = box
    return [i for i, w in enumerate(words)
            if x0 <= (w.x0 + w.x1) / 2 <= x1 and top <= (w.top + w.bottom) / 2 <= bottom]


def _cell_replacement(inside: list[Word], first: list[Word], box) -> list[Word] | None:
    """The words a doubtful cell takes from its re-reading (`inside`, in the stacked image's
    pixels), or None to keep its first reading: one better word (`_better_reading`), or
    several when they are numbers and value-side marks read clearly more confidently."""
    top, bottom = min(w.top for w in first), max(w.bottom for w in first)
    size, bold = max(w.size for w in first), first[0].bold
    if len(inside) == 1:
        text = _better_reading(inside[0], first)
        if text is not None:
            return [Word(text=text, x0=first[0].x0, top=top, x1=first[-1].x1, bottom=bottom,
                         conf=inside[0].conf, size=size, bold=bold)]
        inside = _unglued(inside[0])  # "1%": a value and its unit read as one word
    if not _numbers_and_marks(inside, first):
        return None
    # Back from the stacked image to the page: the crop began CELL_PAD before the cell's box.
    dx = max(0, int(box[0]) - CELL_PAD) - CELL_GAP
    # A re-read word's box may run over the words after it ("4,0" boxed over "4,0 - 6,0"): each
    # ends where the next begins, so the layout meets them side by side as printed.
    ends = [min(w.x1, after.x0) for w, after in zip(inside, inside[1:])] + [inside[-1].x1]
    return [Word(text=w.text, x0=w.x0 + dx, top=top, x1=max(end, w.x0 + 1) + dx, bottom=bottom,
                 conf=w.conf, size=size, bold=bold) for w, end in zip(inside, ends)]


def _unglued(word: Word) -> list[Word]:
    """A re-read word holding a value glued to its flag or unit (parser.units.unglue: "1%",
    "16L%") as its parts, each given its share of the box; else the word alone."""
    parts = unglue([word.text])
    if len(parts) == 1:
        return [word]
    width = (word.x1 - word.x0) / len(word.text)
    pieces, start = [], 0
    for part in parts:
        start = word.text.index(part, start)
        pieces.append(replace(word, text=part, x0=word.x0 + start * width,
                              x1=word.x0 + (start + len(part)) * width))
        start += len(part)
    return pieces


def _numbers_and_marks(inside: list[Word], first: list[Word]) -> bool:
    """Several re-read words that are numbers, flags, comparators and units ("58 %" first read
    as "Duo"), at least one a number, each read clearly more confidently than the first."""
    numbers = [w for w in inside if _number_like(w.text)]
    if len(inside) < 2 or not numbers:
        return False
    if len(numbers) < 2 and not _NUMBER_LIKE.match(numbers[0].text):
        return False  # a bracketed bound counts only in a whole range ("[3,5" "-" "5,1]")
    if not all(_number_like(w.text) or w.text in _CELL_MARKS or is_unit(w.text) for w in inside):
        return False
    least = min(w.conf for w in inside)
    return least >= max(MIN_SPLIT_REREAD_CONFIDENCE, min(w.conf for w in first) + MIN_CONFIDENCE_GAIN)


def _better_reading(reading: Word, first: list[Word]) -> str | None:
    """The text a doubtful cell takes from its re-reading: a clearly better number, or a unit
    whose slash (and thin l) the first reading lost ("ul", "U" or "u" for U/l); else None."""
    if _NUMBER_LIKE.match(reading.text) or _whole_bracketed_range(reading.text):
        return reading.text if _clearly_better(reading, first) else None
    return restored_slash_unit(" ".join(word.text for word in first), reading.text)


def _clearly_better(reading: Word, first: list[Word]) -> bool:
    """A number-like re-reading beats the first reading when much more confident, or, against
    letters where no number was read ("SS" for "55"), when confident outright."""
    before = min(word.conf for word in first)
    if reading.conf >= max(MIN_REREAD_CONFIDENCE, before + MIN_CONFIDENCE_GAIN):
        return True
    first_text = " ".join(word.text for word in first)
    return reading.conf >= SURE_REREAD_CONFIDENCE and not any(char.isdigit() for char in first_text)


# Tesseract drops a faint decimal point with high confidence ("4.5" read as "45"), and no
# re-reading brings it back. The ink does: a baseline-sized blob between digit glyphs. A decimal
# comma is dropped the same way ("1,52" read as "152", "6,8 H" as "68H" on European scans and
# photos); its ink is told from a point's by its tail below the baseline.
REPAIRED_DOT_CONFIDENCE = 0.6  # a restored point is likely right, but review should see it
_INTEGER = re.compile(r"^\d{2,5}[HL]?$")  # a flag letter tesseract glued on stays after the digits


def restore_decimal_points(image: Image.Image, words: list[Word]) -> list[Word]:
    """`words` with a decimal point (or comma) put back into an all-digit word whose ink shows
    exactly one point (or comma) between its digits (glyph count matching the reading), at a
    lowered confidence."""
    restored = []
    for word in words:
        found = _point_position(image, word) if _INTEGER.match(word.text) else None
        if found is not None:
            position, mark = found
            word = Word(
                text=word.text[:position] + mark + word.text[position:], x0=word.x0, top=word.top,
                x1=word.x1, bottom=word.bottom, conf=min(word.conf, REPAIRED_DOT_CONFIDENCE),
                size=word.size, bold=word.bold,
            )
        restored.append(word)
    return restored


def _point_position(image: Image.Image, word: Word) -> tuple[int, str] | None:
    """How many digits precede the single point or comma the word's ink shows, and which it is;
    None when the ink is not exactly the read characters plus one such mark between digits."""
    binary = _binarized(image, word)
    if binary is None:
        return None
    glyphs = _ink_column_runs(binary)
    if len(glyphs) != len(word.text) + 1:
        return None
    tallest = max(bottom - top + 1 for _, _, top, bottom in glyphs)
    small = [
        i for i, (x0, x1, top, bottom) in enumerate(glyphs)
        if bottom - top + 1 <= 0.5 * tallest and x1 - x0 + 1 <= 0.4 * tallest
    ]
    digit_count = len(word.text.rstrip("HL"))
    if len(small) != 1 or not 0 < small[0] < digit_count:
        return None
    others = [g for i, g in enumerate(glyphs) if i != small[0]]
    if any(bottom - top + 1 < 0.6 * tallest for _, _, top, bottom in others):
        return None
    baseline = sorted(bottom for _, _, _, bottom in others)[len(others) // 2]
    mark = _point_or_comma(glyphs[small[0]], baseline, tallest)
    return (small[0], mark) if mark else None


def _point_or_comma(mark: tuple[int, int, int, int], baseline: int, tallest: int) -> str | None:
    """"." for a blob on the baseline about as wide as tall; "," for a narrow mark from just
    above the baseline down below it; None for a speck, a hyphen or anything else."""
    x0, x1, top, bottom = mark
    width, height = x1 - x0 + 1, bottom - top + 1
    if height <= 0.3 * tallest and abs(bottom - baseline) <= 0.12 * tallest:
        if 0.5 <= width / height <= 2.0 and height >= 0.08 * tallest:
            return "."
        return None
    below = bottom - baseline
    if 0.08 * tallest <= below <= 0.3 * tallest and baseline - top <= 0.35 * tallest and height > width:
        return ","
    return None


# Tesseract reads the micro sign as "p" ("pmol/L" for µmol/L, "x10*6/pL"), and both readings
# are units, so no lexicon can tell them apart. The ink can: a "p" is closed at the top of its
# bowl, a "µ" is open there (two stems, joined only near the baseline).
_MICRO_SLOT = re.compile(r"(?:^|/)p(?=[A-Za-z]|$)")
MICRO_OPEN_TOP = 0.3  # share of the glyph's height, from its top, where a µ is open


def restore_micro_signs(image: Image.Image, words: list[Word]) -> list[Word]:
    """`words` with a "p" read for a micro sign put right in a unit, when the µ reading is a
    unit too and the glyph's ink is open at the top."""
    restored = []
    for position, word in enumerate(words):
        following = [w.text for w in words[position + 1:position + 3]]
        for match in _MICRO_SLOT.finditer(word.text):
            index = match.end() - 1
            micro = word.text[:index] + "µ" + word.text[index + 1:]
            # A spaced unit ("pIU / mL") is a unit with the words after it.
            spellings = (micro, *(" ".join([micro, *following[:n]]) for n in (1, 2)))
            if any(is_unit(text, ocr=True) for text in spellings) and \
                    _looks_like_micro(image, word, index):
                word = Word(
                    text=micro, x0=word.x0, top=word.top, x1=word.x1, bottom=word.bottom,
                    conf=word.conf, size=word.size, bold=word.bold,
                )
        restored.append(word)
    return restored


def _looks_like_micro(image: Image.Image, word: Word, index: int) -> bool:
    glyphs = _glyphs(image, word)
    if len(glyphs) == len(word.text):
        glyph = glyphs[index]
    elif index == 0 and glyphs:
        glyph = glyphs[0]
    else:
        return False  # glyphs touch: no telling which ink is the letter
    x0, x1, top, bottom, crop = glyph
    height, width = bottom - top + 1, x1 - x0 + 1
    if height < 8 or width < 4 or width > height:
        return False
    pixels = crop.load()
    # The gap between the two strokes a little below the top: closed above by a p's bowl;
    # between a µ's stems, some columns of it run clear up to the top (past any serifs).
    probe = top + round(MICRO_OPEN_TOP * height)
    inked = [x for x in range(x0, x1 + 1) if pixels[x, probe] == 0]
    gap = next((range(a + 1, b) for a, b in zip(inked, inked[1:]) if b - a > 2), range(0))
    clear = sum(all(pixels[x, y] != 0 for y in range(top, probe)) for x in gap)
    # More than a hairline: a serif p's bowl can leave a one-pixel notch where it meets the stem.
    return clear >= max(2, width // 8)


# Tesseract has no arrows: a flag printed as "↑" or "↓" between a value and its unit comes out
# as "T", "L", "4" or "+", glued by the layout to the unit ("T mmol/L") or the value ("3,12 4").
# The ink tells: one glyph, a thin stem centred under (or over) a head that widens from a tip.
MAX_ARROW_CHARS = 2


# A "<" before a range bound read as other signs: alone ("=", "=:") or glued to the bound
# ("=35", "<.35"); the whole bound is the word or the number-like word after it.
_MISREAD_COMPARATOR = re.compile(r"^(?P<signs>[=<>:;.,«»‹›]{1,3})(?P<number>\d+(?:[.,]\d+)?)?$")


def restore_comparators(image: Image.Image, words: list[Word]) -> list[Word]:
    """`words` with a misread comparator before a bound put right as "<" or ">" where its ink
    is one wedge (parser.wedges) and the rest of the ink is the bound's glyphs: "< 1,2" read
    "= 1,2" loses the range's bound."""
    restored = list(words)
    for i, word in enumerate(words):
        found = _MISREAD_COMPARATOR.match(word.text)
        if found is None or found["signs"] in ("<", ">"):
            continue
        number = found["number"] or ""
        if not number and not (
            i + 1 < len(words) and _next_on_line(word, words[i + 1]) and _number_like(words[i + 1].text)
        ):
            continue
        glyphs = _glyphs(image, word)
        if len(glyphs) == 1 + len(number):
            x0, x1, top, bottom, crop = glyphs[0]
            wedge = wedge_direction(np.asarray(crop)[top:bottom + 1, x0:x1 + 1] == 0)
            if wedge is not None:
                restored[i] = replace(word, text=wedge + number)
    return restored


def restore_arrows(image: Image.Image, words: list[Word]) -> list[Word]:
    """`words` with each short word whose ink is one arrow read as that arrow."""
    restored = []
    for word in words:
        if len(word.text) <= MAX_ARROW_CHARS and word.text not in "↑↓":
            glyphs = _glyphs(image, word)
            if len(glyphs) == 1:
                x0, x1, top, bottom, crop = glyphs[0]
                arrow = flag_glyph(np.asarray(crop)[top:bottom + 1, x0:x1 + 1] == 0)
                if arrow is not None:
                    word = replace(word, text=arrow)
        restored.append(word)
    return restored


def flag_glyph(ink: np.ndarray) -> str | None:
    """"↑" or "↓" when the glyph's ink is a flag arrow or a solid flag triangle, else None."""
    ink = _without_specks(ink)
    return arrow_direction(ink) or triangle_direction(ink)


# A word's box runs over the rows above and below its text: a dotted rule's remnant, the line
# above's descender or the next line's flag lies in the glyph's columns, apart from it ("10↓"
# read "101", batch 12 dev scan). Ink this small, or this much shorter than the glyph's own run
# of rows, is no part of it.
MAX_SPECK_SHARE = 0.25  # of the glyph's own ink
MIN_BODY_RATIO = 2.0  # the glyph's rows against the next tallest run's


def _without_specks(ink: np.ndarray) -> np.ndarray:
    """The glyph's tallest run of inked rows, cut to its columns, when the ink apart from it
    is specks or much shorter; else the ink as given."""
    inked = ink.any(axis=1)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], inked.astype(np.int8), [0]))))
    if edges.size <= 2:
        return ink
    starts, ends = edges[0::2], edges[1::2]
    heights = ends - starts
    tallest = int(np.argmax(heights))
    body = ink[starts[tallest]:ends[tallest]]
    others = np.delete(heights, tallest)
    if ink.sum() - body.sum() > MAX_SPECK_SHARE * body.sum() and heights[tallest] < MIN_BODY_RATIO * others.max():
        return ink
    columns = np.flatnonzero(body.any(axis=0))
    return body[:, columns[0]:columns[-1] + 1]


# A flag glyph printed right after a value, read as a digit glued to it ("11.2↓" read "11.21",
# "5,4▲" read "5.4722"): the word's last glyph is the flag. When the word has one glyph per
# character the value is the rest, surely; when it has fewer (the flag read as two characters,
# or two digits touching), or tesseract was unsure of the word, the value kept is the leading
# characters, at a confidence that sends the row to review.
# An up arrow is read as a letter as often ("48↑" read "48T"): the last character may be any
# mark but a point, a comma or a percent sign; the ink decides.
_GLUED_NUMBER = re.compile(r"^\d+(?:[.,]\d+)?[^\s.,%]$")
_VALUE = re.compile(r"^\d+(?:[.,]\d+)?$")
GLUED_FLAG_DOUBT_CONFIDENCE = 0.3


def split_glued_flags(image: Image.Image, words: list[Word]) -> list[Word]:
    """`words` with each number whose last glyph's ink is a flag arrow or triangle split into
    the number and the arrow."""
    split = []
    for word in words:
        glyphs = _glyphs(image, word) if _GLUED_NUMBER.match(word.text) else []
        arrow = None
        if 2 <= len(glyphs) <= len(word.text):
            x0, x1, top, bottom, crop = glyphs[-1]
            arrow = flag_glyph(np.asarray(crop)[top:bottom + 1, x0:x1 + 1] == 0)
        value = word.text[:len(glyphs) - 1]
        if arrow is None or not _VALUE.match(value):
            split.append(word)
            continue
        left = int(word.x0)
        # An unsure reading may have misread the digit beside the flag too ("6.1↓" read "6.24").
        sure = len(glyphs) == len(word.text) and word.conf >= DOUBTFUL_CONFIDENCE
        conf = word.conf if sure else min(word.conf, GLUED_FLAG_DOUBT_CONFIDENCE)
        split.append(replace(word, text=value, x1=left + glyphs[-2][1], conf=conf))
        split.append(replace(word, text=arrow, x0=left + glyphs[-1][0]))
    return split


def arrow_direction(ink: np.ndarray) -> str | None:
    """"↑" or "↓" when the glyph's ink (rows top to bottom) is an arrow, else None."""
    height, width = ink.shape
    if height < 10 or not 1.4 * width <= height <= 3.5 * width or not ink.any(axis=1).all():
        return None
    lefts = ink.argmax(axis=1)
    rights = width - 1 - ink[:, ::-1].argmax(axis=1)
    widths = rights - lefts + 1
    head = int(widths.argmax())
    if head < 0.4 * height:
        direction, rows = "↑", slice(None)
    elif head >= 0.6 * height:
        direction, rows = "↓", slice(None, None, -1)
    else:
        return None
    widths, lefts, rights = widths[rows], lefts[rows], rights[rows]  # the head's end first
    tail = slice(height // 2, None)
    stem = float(np.median(widths[tail]))
    centre = (width - 1) / 2
    middles = (lefts[tail] + rights[tail]) / 2
    widest = int(widths.argmax())
    if widths[widest] < max(2.5 * stem, 0.8 * width) or widths[0] > 0.5 * widths[widest]:
        return None  # no head, or one flat at its end (T, L)
    if widest < 0.15 * height:
        return None  # a blob at the end of a long stroke (a rule's junction), no tapering head
    if widths[tail].max() - widths[tail].min() > 0.25 * width + 1 or (widths[tail] > 1.6 * stem + 1).any():
        return None  # no stem of one width (a 4's slanted side, a +'s bar)
    if (np.abs(middles - centre) > 0.15 * width + 1).any():
        return None  # a stem off the centre (a 1)
    left = float(np.median(lefts[tail])) - lefts[widest]
    right = rights[widest] - float(np.median(rights[tail]))
    if min(left, right) < 0.5 * max(left, right):
        return None  # a head reaching out on one side only (a 4's bar, a 1's flag)
    return direction


# A unit of three thin strokes ("l/l") tesseract reads as one to three other glyphs
# (parser.thin_strokes): words this short are looked at.
MAX_LITRE_RATIO_CHARS = 3
LITRE_RATIO = "l/l"


def restore_litre_ratios(image: Image.Image, words: list[Word]) -> list[Word]:
    """`words` with each short word whose ink is a stem, a slash and a stem read as l/l."""
    restored = []
    for word in words:
        if len(word.text) <= MAX_LITRE_RATIO_CHARS and word.text.lower() != LITRE_RATIO:
            glyphs = _glyphs(image, word)
            ink = np.asarray(glyphs[0][4]) == 0 if len(glyphs) == 3 else None
            if ink is not None and stem_slash_stem(
                    [ink[top:bottom + 1, x0:x1 + 1] for x0, x1, top, bottom, _ in glyphs]):
                word = replace(word, text=LITRE_RATIO)
        restored.append(word)
    return restored


# OCR gives no font weight, and the layout tells a bold section heading ("Glycémie") from the
# row under it by weight: without it the heading ran into the row's name on scans. A word's
# stroke width (ink over the runs of ink across and down) against the page's median: on dev
# scans, regular words measured at most 1.14 of it (99th percentile), bold ones mostly 1.18 up.
BOLD_STROKE_RATIO = 1.16
MIN_BOLD_LETTERS = 3
MIN_WEIGHED_WORDS = 10


def mark_bold(image: Image.Image, words: list[Word]) -> list[Word]:
    """`words` with those of three letters or more printed clearly heavier than the page's
    median word marked bold."""
    strokes = {i: _stroke_width(image, w) for i, w in enumerate(words)
               if sum(char.isalpha() for char in w.text) >= MIN_BOLD_LETTERS}
    measured = [value for value in strokes.values() if value is not None]
    if len(measured) < MIN_WEIGHED_WORDS:
        return words
    cut = BOLD_STROKE_RATIO * float(np.median(measured))
    return [replace(w, bold=True) if (strokes.get(i) or 0.0) >= cut else w for i, w in enumerate(words)]


def _stroke_width(image: Image.Image, word: Word) -> float | None:
    """Mean stroke width of the word's ink, in pixels: its ink over its runs of ink along rows
    and columns (a stroke of width t and length L gives about L runs of t)."""
    binary = _binarized(image, word)
    if binary is None:
        return None
    ink = (np.asarray(binary) == 0).astype(np.int8)
    runs = int((np.diff(ink, axis=1) == 1).sum() + ink[:, 0].sum()
               + (np.diff(ink, axis=0) == 1).sum() + ink[0, :].sum())
    return float(ink.sum()) / runs if runs >= 4 else None


def _glyphs(image: Image.Image, word: Word) -> list[tuple[int, int, int, int, Image.Image]]:
    """Runs of inked columns in the word's box (x0, x1, top, bottom, and the binarized crop
    they index), left to right: one per glyph when no two glyphs touch."""
    crop = _binarized(image, word)
    if crop is None:
        return []
    return [(x0, x1, top, bottom, crop) for x0, x1, top, bottom in _ink_column_runs(crop)]


def _first_glyph_ink(image: Image.Image, word: Word) -> np.ndarray | None:
    """The ink (True) of the word's first glyph, cut to its height; None unless the word's ink
    falls into exactly one run of columns per character read (no two glyphs touch)."""
    glyphs = _glyphs(image, word)
    if len(glyphs) != len(word.text):
        return None
    x0, x1, top, bottom, crop = glyphs[0]
    return np.asarray(crop)[top:bottom + 1, x0:x1 + 1] == 0


def _binarized(image: Image.Image, word: Word) -> Image.Image | None:
    """The word's box cut from `image` and binarized on its own (ink 0, paper 255), or None
    when the box is too small to hold a glyph."""
    box = (int(word.x0), int(word.top), int(word.x1) + 1, int(word.bottom) + 1)
    crop = image.crop(box).convert("L")
    if crop.width < 4 or crop.height < 6:
        return None
    return crop.point(_threshold_table(crop))


def _ink_column_runs(binary: Image.Image) -> list[tuple[int, int, int, int]]:
    """x0, x1, top and bottom of each run of columns holding ink (black, 0) in a binarized
    crop, left to right: numpy finds each column's first and last inked row."""
    ink = np.asarray(binary) == 0
    inked = ink.any(axis=0)
    tops = ink.argmax(axis=0)
    bottoms = ink.shape[0] - 1 - ink[::-1].argmax(axis=0)
    runs: list[tuple[int, int, int, int]] = []
    start = None
    for x in range(ink.shape[1] + 1):
        if x < ink.shape[1] and inked[x]:
            start = x if start is None else start
        elif start is not None:
            runs.append((start, x - 1, int(tops[start:x].min()), int(bottoms[start:x].max())))
            start = None
    return runs


def _doubtful_cells(words: list[Word]) -> list[list[int]]:
    """Indexes of doubtful short tokens, adjacent ones on one line grouped (a value tesseract
    split, "oid f" for "5.7")."""
    doubtful = [i for i, word in enumerate(words) if _worth_rereading(word)]
    doubtful.sort(key=lambda i: (round(words[i].top), words[i].x0))
    cells: list[list[int]] = []
    for i in doubtful:
        word = words[i]
        if cells:
            previous = words[cells[-1][-1]]
            height = max(word.bottom - word.top, 1.0)
            if abs(previous.top - word.top) < 0.3 * height and 0 <= word.x0 - previous.x1 < 2 * height:
                cells[-1].append(i)
                continue
        cells.append([i])
    # A long run of unsure words is garbled text or artwork, not a value cell.
    return [cell for cell in cells if len(cell) <= MAX_CELL_WORDS]


def _worth_rereading(word: Word) -> bool:
    """An unsure short token that could be a misread number. Not a unit ("/"), not a word of
    five letters or more, and not a number-like reading no re-reading could beat by
    MIN_CONFIDENCE_GAIN (each extra cell costs OCR time)."""
    text = word.text
    if word.conf >= DOUBTFUL_CONFIDENCE or len(text) > DOUBTFUL_MAX_CHARS or "/" in text:
        return False
    if not any(char.isalnum() for char in text) or sum(char.isalpha() for char in text) >= 5:
        return False
    return not _NUMBER_LIKE.match(text) or word.conf < 0.96 - MIN_CONFIDENCE_GAIN


def _stack_cells(
    image: Image.Image, boxes: list[tuple[float, float, float, float]]
) -> tuple[Image.Image, list[tuple[int, int]]]:
    """The boxes cut from `image`, each binarized on its own, stacked top to bottom on white;
    and each cell's vertical span in the stacked image."""
    crops = []
    for x0, top, x1, bottom in boxes:
        crop = image.crop((
            max(0, int(x0) - CELL_PAD), max(0, int(top) - CELL_PAD),
            min(image.width, int(x1) + CELL_PAD + 1), min(image.height, int(bottom) + CELL_PAD + 1),
        )).convert("L")
        crops.append(crop.point(_threshold_table(crop)))
    stacked = Image.new(
        "L",
        (max(c.width for c in crops) + 2 * CELL_GAP, sum(c.height + CELL_GAP for c in crops) + CELL_GAP),
        255,
    )
    spans, y = [], CELL_GAP
    for crop in crops:
        stacked.paste(crop, (CELL_GAP, y))
        spans.append((y, y + crop.height))
        y += crop.height + CELL_GAP
    return stacked, spans


def _threshold_table(crop: Image.Image) -> list[int]:
    """Black below the midpoint between the cell's ink (darkest 5%) and its paper (median)."""
    histogram = crop.histogram()
    total = sum(histogram)
    seen, ink, paper = 0, None, None
    for level, count in enumerate(histogram):
        seen += count
        if ink is None and seen >= 0.05 * total:
            ink = level
        if seen >= 0.5 * total:
            paper = level
            break
    cut = ((ink or 0) + (paper or 255)) / 2
    return [0 if level < cut else 255 for level in range(256)]


def _orientation(image: Image.Image, dpi: int) -> int:
    rotation, confidence = tesseract.detect_rotation(image, dpi=dpi)
    return rotation if confidence >= MIN_OSD_CONFIDENCE else 0


def _turn(image: Image.Image, rotation: int) -> Image.Image:
    """Turn clockwise by `rotation` degrees (tesseract's OSD convention)."""
    if rotation == 90:
        return image.transpose(Image.Transpose.ROTATE_270)
    if rotation == 180:
        return image.transpose(Image.Transpose.ROTATE_180)
    if rotation == 270:
        return image.transpose(Image.Transpose.ROTATE_90)
    return image


def _quality(words: list[Word]) -> float:
    """Confident, word-like readings: an upside-down page reads as many short, unsure ones."""
    return sum(
        word.conf**2
        for word in words
        if word.conf >= 0.5 and sum(char.isalnum() for char in word.text) >= 2
    )


def _reads_badly(words: list[Word]) -> bool:
    real = [word for word in words if any(char.isalnum() for char in word.text)]
    if len(real) < MIN_WORDS:
        return True
    return sum(word.conf for word in real) / len(real) < LOW_MEAN_CONFIDENCE


def _scaled(word: Word, factor: float) -> Word:
    if factor == 1.0:
        return word
    return Word(
        text=word.text,
        x0=round(word.x0 * factor, 2),
        top=round(word.top * factor, 2),
        x1=round(word.x1 * factor, 2),
        bottom=round(word.bottom * factor, 2),
        conf=word.conf,
        size=round(word.size * factor, 2),
        bold=word.bold,
    )
