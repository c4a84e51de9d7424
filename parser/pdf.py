"""The text layer of one PDF page, with exact positions: words, font size, bold, ruling lines.

Real reports often store text in the wrong order (all names, then all values), so nothing
downstream may rely on text order: every word carries its box, and the layout stage rebuilds
rows from geometry. Positions come from pdfium's per-character "loose" boxes (font ascent to
descent, origin to advance), so all words on one printed line share the same top and bottom.

Coordinates are PDF points in the page as displayed: the visible box's top-left corner is the
origin, y grows downwards, and the page's /Rotate is applied.
"""

from __future__ import annotations

import ctypes
import math
import re
import unicodedata
from collections import deque
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import repeat
from typing import NamedTuple

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from parser.page import Page, Word, new_word

# A gap wider than this share of the line height starts a new word even without a space
# (PDFs often place columns by position alone, with no space character between them).
WORD_GAP_RATIO = 0.15
# Text at more than this angle from level (as displayed) is a watermark or a side note.
MAX_TEXT_ANGLE_DEGREES = 3.0
_WHITESPACE = {" ", "\t", "\r", "\n", "\xa0", "\u2002", "\u2003", "\u2009", "\u3000"}
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demi")
_REGULAR_NAMES = ("regular", "roman", "book", "light", "medium", "italic", "oblique", "mt")
_FORCE_BOLD_FLAG = 1 << 18
# A stroke within a many-segment path counts as a ruling line when at most this far from
# horizontal or vertical; single lines and rectangles are kept as their bounds.
MAX_RULE_THICKNESS = 2.5
MIN_RULE_LENGTH = 4.0
MAX_PATH_SEGMENTS = 400  # charts and drawings, not table rules
SIMPLE_PATH_SEGMENTS = 5  # a line or a rectangle: its bounds say it all (_drawing, _Collector)
# Text-layer usability thresholds.
MIN_USABLE_CHARS = 20
MAX_BAD_CHAR_SHARE = 0.1
# An image covering more than this share of the page, with fewer characters of text on it,
# is a scan: its text layer (a stamped page number, a digital header beside the scan) is not
# the report. A searchable scan (invisible OCR text over the image) keeps its text layer.
LARGE_IMAGE_SHARE = 0.4
MIN_CHARS_OVER_IMAGE = 100


def _plain(function, restype, *argtypes):
    """A pdfium function taking plain addresses: pypdfium2's typed wrapper costs more per call
    than the call itself, and these run once per character, word or path segment."""
    return ctypes.CFUNCTYPE(restype, *argtypes)(ctypes.cast(function, ctypes.c_void_p).value)


def _undeclared(function, restype):
    """A pdfium function taking a handle (a ctypes pointer object, `_handle`) and Python ints
    (`ctypes.byref` for a buffer), declared without argument types: ctypes then passes each
    as it is, an int as a C int, where declared types cost a conversion call per argument
    (a fifth of each call; these run once per character or word)."""
    call = ctypes.CFUNCTYPE(restype)(ctypes.cast(function, ctypes.c_void_p).value)
    call.argtypes = None
    return call


def _handle(raw) -> ctypes.c_void_p:
    """A pypdfium2 object's raw handle as the pointer object `_undeclared` functions take."""
    return ctypes.c_void_p(ctypes.cast(raw, ctypes.c_void_p).value)


_P, _INT = ctypes.c_void_p, ctypes.c_int
# Its result (found or not) is never read: the rectangle stays zero when not found, so no
# return type is declared and ctypes converts none (one call per character).
_loose_char_box = _undeclared(pdfium_c.FPDFText_GetLooseCharBox, None)
_char_angle = _undeclared(pdfium_c.FPDFText_GetCharAngle, ctypes.c_float)
_font_size = _undeclared(pdfium_c.FPDFText_GetFontSize, ctypes.c_double)
_text_object = _undeclared(pdfium_c.FPDFText_GetTextObject, _P)
_is_generated = _undeclared(pdfium_c.FPDFText_IsGenerated, _INT)
_text_object_font = _plain(pdfium_c.FPDFTextObj_GetFont, _P, _P)
_path_segment = _plain(pdfium_c.FPDFPath_GetPathSegment, _P, _P, _INT)
_segment_type = _plain(pdfium_c.FPDFPathSegment_GetType, _INT, _P)
_segment_point = _plain(pdfium_c.FPDFPathSegment_GetPoint, _INT, _P, _P, _P)
_page_object = _undeclared(pdfium_c.FPDFPage_GetObject, _P)
_object_type = _plain(pdfium_c.FPDFPageObj_GetType, _INT, _P)
_count_segments = _plain(pdfium_c.FPDFPath_CountSegments, _INT, _P)
_form_count_objects = _plain(pdfium_c.FPDFFormObj_CountObjects, _INT, _P)
_form_object = _plain(pdfium_c.FPDFFormObj_GetObject, _P, _P, ctypes.c_ulong)
_object_matrix = _plain(pdfium_c.FPDFPageObj_GetMatrix, _INT, _P, _P)
_object_bounds = _plain(pdfium_c.FPDFPageObj_GetBounds, _INT, _P, _P, _P, _P, _P)


@dataclass(frozen=True, slots=True)
class PageFrame:
    """Maps PDF user space to the displayed page: top-left origin, /Rotate applied."""

    left: float
    bottom: float
    right: float
    top: float
    rotation: int  # 0, 90, 180, 270 (clockwise, as /Rotate)

    @property
    def width(self) -> float:
        span = self.right - self.left
        return span if self.rotation in (0, 180) else self.top - self.bottom

    @property
    def height(self) -> float:
        span = self.top - self.bottom
        return span if self.rotation in (0, 180) else self.right - self.left

    def point(self, x: float, y: float) -> tuple[float, float]:
        if self.rotation == 90:
            return y - self.bottom, x - self.left
        if self.rotation == 180:
            return self.right - x, y - self.bottom
        if self.rotation == 270:
            return self.top - y, self.right - x
        return x - self.left, self.top - y

    def boxes(self, left, bottom, right, top):
        """User-space rectangles (numpy arrays of their sides) as displayed (x0, top, x1,
        bottom) arrays."""
        xa, ya = self.point(left, bottom)
        xb, yb = self.point(right, top)
        return np.minimum(xa, xb), np.minimum(ya, yb), np.maximum(xa, xb), np.maximum(ya, yb)


def page_frame(page: pdfium.PdfPage) -> PageFrame:
    rect = pdfium_c.FS_RECTF()
    if pdfium_c.FPDF_GetPageBoundingBox(page, ctypes.byref(rect)):
        left, bottom, right, top = rect.left, rect.bottom, rect.right, rect.top
    else:  # no usable box: fall back to the size pdfium reports
        left, bottom = 0.0, 0.0
        right, top = page.get_width(), page.get_height()
        if page.get_rotation() in (90, 270):
            right, top = top, right
    if top < bottom:
        bottom, top = top, bottom
    return PageFrame(left, bottom, right, top, page.get_rotation() % 360)


@dataclass(slots=True)
class TextLayer:
    """A page's text layer and what is needed to judge whether to trust it over OCR."""

    page: Page
    garbage_chars: int  # glyphs without a Unicode mapping (dropped from the words)
    images: list[tuple[float, float, float, float]]  # image boxes on the displayed page

    @property
    def usable(self) -> bool:
        """Unusable: no text (a scan), mostly unmapped glyphs (prints fine, extracts as junk),
        or a large image with hardly any text on it (a scan, perhaps with a digital header or
        a stamped page number next to it)."""
        chars = sum(len(word.text) for word in self.page.words)
        if chars < MIN_USABLE_CHARS:
            return False
        if self.garbage_chars > MAX_BAD_CHAR_SHARE * (chars + self.garbage_chars):
            return False
        page_area = max(self.page.width * self.page.height, 1.0)
        for x0, top, x1, bottom in self.images:
            if (x1 - x0) * (bottom - top) < LARGE_IMAGE_SHARE * page_area:
                continue
            on_image = sum(
                len(word.text)
                for word in self.page.words
                if x0 <= (word.x0 + word.x1) / 2 <= x1 and top <= (word.top + word.bottom) / 2 <= bottom
            )
            if on_image < MIN_CHARS_OVER_IMAGE:
                return False
        return True


def extract_text_layer(page: pdfium.PdfPage, number: int) -> TextLayer:
    """The text layer of `page` as a `Page` of words (source "text"), with its quality."""
    frame = page_frame(page)
    textpage = page.get_textpage()
    try:
        words, garbage = _words(textpage, frame)
    finally:
        textpage.close()
    rules, images = _drawing(page, frame)
    result = Page(
        number=number,
        width=round(frame.width, 3),
        height=round(frame.height, 3),
        words=words,
        source="text",
        rules=rules,
    )
    return TextLayer(result, garbage, images)


def extract_page(page: pdfium.PdfPage, number: int) -> Page:
    """The text layer of `page` as a `Page`, whatever its quality."""
    return extract_text_layer(page, number).page


# --- words -----------------------------------------------------------------------------------


def _words(textpage: pdfium.PdfTextPage, frame: PageFrame) -> tuple[list[Word], int]:
    """Group the page's characters into words; also count the unmapped glyphs dropped."""
    count = pdfium_c.FPDFText_CountChars(textpage)
    if count <= 0:
        return [], 0
    text, marked, index, garbage = _kept_characters(textpage, count)
    if not index.size:
        return [], garbage
    handle = _handle(textpage.raw)
    x0, top, x1, bottom = _character_boxes(handle, index, count, frame)
    kept_text = marked.replace("\0", "")  # a word is a slice of it
    stream = _stream(text, marked, index, partial(_generated, handle))
    starts = _word_starts(index, x0, top, x1, bottom, partial(_font_sizes, handle), stream[:2])
    _split_marks(starts, bottom - top, bottom, kept_text)
    first = np.flatnonzero(starts)
    bounds = (
        np.minimum.reduceat(x0, first),
        np.minimum.reduceat(top, first),
        np.maximum.reduceat(x1, first),
        np.maximum.reduceat(bottom, first),
    )
    ends = first[1:].tolist() + [len(index)]
    spans = [kept_text[a:b] for a, b in zip(first.tolist(), ends)]
    if not kept_text.isascii():
        spans = [span if span.isascii() else _normalize(span) for span in spans]
    x0s, tops, x1s, bottoms = (np.round(side, 2).tolist() for side in bounds)
    heads = index[first].tolist()  # each word's first character
    columns = _rejoined([spans, x0s, tops, x1s, bottoms, heads], ~stream.read_before[first],
                        ~stream.read_after[np.array(ends) - 1])
    heads = columns[5]
    heights = [bottom - top for top, bottom in zip(columns[2], columns[4])]
    text_objects = list(map(_text_object, repeat(handle, len(heads)), heads))
    angles, font_sizes = _word_facts(handle, heads, text_objects)
    columns = columns[:5] + [heights, heads, text_objects, font_sizes]
    level = {angle: _reads_horizontally(angle, frame) for angle in set(angles)}
    if not all(level.values()):  # watermarks, vertical side notes, text shown sideways: out
        keep = [level[angle] for angle in angles]
        columns = [[value for value, kept_word in zip(column, keep) if kept_word] for column in columns]
    return _made_words(textpage, *columns), garbage


def _kept_characters(textpage: pdfium.PdfTextPage, count: int) -> tuple[str, str, np.ndarray, int]:
    """The page's text, the same with dropped characters (whitespace, unmapped glyphs) as NUL,
    the indices of the kept ones, and how many unmapped glyphs were dropped."""
    text = textpage.get_text_range()
    if len(text) != count:  # surrogate pairs shift indices; ask char by char instead
        text = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage, i) or 0xFFFD) for i in range(count))
    junk = {char for char in set(text) if char not in _WHITESPACE and _is_garbage(char)}
    # Dropped characters become NUL (itself junk), so kept ones are the non-zero code points.
    marked = text.translate(dict.fromkeys(map(ord, junk | _WHITESPACE), 0))
    index = np.flatnonzero(np.frombuffer(marked.encode("utf-32-le"), dtype="<u4"))
    return text, marked, index, sum(text.count(char) for char in junk)


def _generated(handle: ctypes.c_void_p, at: np.ndarray) -> np.ndarray:
    """Whether pdfium made up the characters at `at` (not in the content stream)."""
    return np.fromiter(map(_is_generated, repeat(handle, len(at)), at.tolist()), dtype=np.int64, count=len(at)) == 1


class _Stream(NamedTuple):
    """What the text stream says between each kept character and its neighbours there."""

    parted: np.ndarray  # a space of the stream, an unmapped glyph or a made-up line break before it
    guessed: np.ndarray  # only spaces pdfium made up before it
    read_before: np.ndarray  # a dropped character of the stream (not made up) right before it
    read_after: np.ndarray  # the same right after it


def _stream(text: str, marked: str, index: np.ndarray, generated) -> _Stream:
    """The stream around each kept character (`generated(at)`: which of the characters at `at`
    pdfium made up rather than read).

    pdfium adds a space between two text objects whose glyphs stand apart by its own measure:
    usually a word space a PDF left out, but in a letter-spaced title drawn glyph by glyph it
    falls at every wider-inked pair ("H ÉMAT O LO G IE"); _word_starts decides there. A space
    of the stream, an unmapped glyph or a line break pdfium made up always parts."""
    dropped = np.frombuffer(marked.encode("utf-32-le"), dtype="<u4") == 0
    at = np.flatnonzero(dropped)
    made_up = np.zeros(len(dropped) + 1, dtype=bool)  # one more: the character after the last
    made_up[at[generated(at)]] = True
    read = np.append(dropped, False) & ~made_up
    parting = read.copy()
    parting[:-1] |= made_up[:-1] & (np.frombuffer(text.encode("utf-32-le"), dtype="<u4") != ord(" "))
    partings, drops = np.cumsum(parting), np.cumsum(dropped)  # how many up to each character
    before, after = index - 1, _previous(index)
    parted = partings[before] - partings[after] > 0
    guessed = ~parted & (drops[before] - drops[after] > 0)
    return _Stream(parted, guessed, read[before] & (index > 0), read[index + 1])


def _rejoined(columns: list[list], open_start: np.ndarray, open_end: np.ndarray) -> list[list]:
    """The word columns (spans, x0s, tops, x1s, bottoms, heads) with each word drawn in two pieces
    far apart in the stream made one again ("Lab Resu" ... "lts": Chromium sometimes draws a word's
    last glyphs in a later text object).

    A piece continues a word when it begins where the word ends on the same line box (the same
    font, size and baseline), as near as two glyphs of one word stand (the word gap), and no
    space or glyph of the stream stands after the word or before the piece (`open_end`,
    `open_start`); pieces next to each other in the stream were already judged by their gap."""
    spans, x0s, tops, x1s, bottoms, heads = columns
    ending = {}  # line box -> words ending open on it
    for word in np.flatnonzero(open_end).tolist():
        ending.setdefault((tops[word], bottoms[word]), []).append(word)
    continued_by = {}
    for piece in np.flatnonzero(open_start).tolist():
        height = bottoms[piece] - tops[piece]
        for word in ending.get((tops[piece], bottoms[piece]), ()):
            if word not in (piece, piece - 1) and word not in continued_by \
                    and -0.5 * height <= x0s[piece] - x1s[word] <= WORD_GAP_RATIO * height:
                continued_by[word] = piece
                break
    if not continued_by:
        return columns
    pieces = set(continued_by.values())
    kept = [word for word in range(len(spans)) if word not in pieces]
    for word in kept:
        piece, seen = continued_by.get(word), {word}
        while piece is not None and piece not in seen:  # a word in three pieces is followed through
            seen.add(piece)
            spans[word] += spans[piece]
            x0s[word], x1s[word] = min(x0s[word], x0s[piece]), max(x1s[word], x1s[piece])
            piece = continued_by.get(piece)
    return [[column[word] for word in kept] for column in columns]


def _character_boxes(handle: ctypes.c_void_p, index: np.ndarray, count: int, frame: PageFrame) -> tuple[np.ndarray, ...]:
    """x0, top, x1, bottom of the kept characters in page coordinates.

    One pdfium call per character into one buffer; the geometry is then done with numpy,
    because a Python loop per character is what would make extraction slow."""
    rects = (pdfium_c.FS_RECTF * count)()
    size = ctypes.sizeof(pdfium_c.FS_RECTF)
    # Consumed by a zero-length deque: the loop runs in C, only the pdfium calls remain.
    deque(map(_loose_char_box, repeat(handle, len(index)), index.tolist(),
              map(ctypes.byref, repeat(rects, len(index)), (index * size).tolist())), maxlen=0)
    user = np.frombuffer(rects, dtype=np.float32).reshape(count, 4)[index].astype(np.float64)
    return frame.boxes(user[:, 0], user[:, 3], user[:, 2], user[:, 1])


def _font_sizes(handle: ctypes.c_void_p, index: np.ndarray) -> np.ndarray:
    """The font size of the characters at `index` (one pdfium call each, looped in C as the boxes are)."""
    return np.fromiter(map(_font_size, repeat(handle, len(index)), index.tolist()), dtype=np.float64,
                       count=len(index))


# A character's box is as tall as its ink for some glyphs (small capitals set as shrunk capitals
# have boxes of their x-height): the word gap is then measured against the font size, when that
# is at most this many times the box (a font size far above the box is a size the text matrix
# scales down, no measure of the type).
_MAX_FONT_TO_BOX = 2.0


def _word_starts(index: np.ndarray, x0, top, x1, bottom, font_sizes=None, partings=None) -> np.ndarray:
    """Where a word starts: where the stream parts it from the character before, on another line,
    or past a word gap (past the run's own letter spacing, in letter-spaced text).

    `font_sizes(index)` gives characters' font sizes; asked only for the few characters their gap
    alone would start a word at (a font size can only widen the gaps a word allows). `partings`:
    _stream's (parted, guessed) per character; by default, parted where a character does not
    follow the one before in the stream."""
    height = bottom - top
    prev_height = _previous(height)
    overlap = np.minimum(bottom, _previous(bottom)) - np.maximum(top, _previous(top))
    same_line = overlap > 0.5 * np.minimum(height, prev_height)
    gap = x0 - _previous(x1)
    line_height = np.maximum(np.maximum(height, prev_height), 1.0)
    parted, guessed = partings if partings is not None else (index - _previous(index) != 1, np.zeros(len(index), bool))
    joined = ~parted & same_line
    spacing = _letter_spacing(gap, joined, line_height)
    contiguous = joined & ((spacing > 0) | ~guessed)  # a guessed space parts unless letter spacing explains it
    gap = gap - spacing
    by_gap = gap > WORD_GAP_RATIO * line_height
    overlapping = gap < -0.5 * line_height
    if font_sizes is not None:  # "Fu ll Bloo d Co u nt": small capitals' boxes are their ink
        at = np.flatnonzero(contiguous & (by_gap | overlapping))
        at = at[at > 0]
        if at.size:
            typed_height = np.maximum(line_height[at], _typed_heights(font_sizes, index, height, at))
            by_gap[at] = gap[at] > WORD_GAP_RATIO * typed_height
            overlapping[at] = gap[at] < -0.5 * typed_height
    starts = ~contiguous | by_gap | overlapping
    starts[0] = True
    return starts


def _typed_heights(font_sizes, index: np.ndarray, height: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The larger font size of the characters at `at` and before them, where it is a measure of
    the type (0.0 where it is not)."""
    sizes = font_sizes(index[np.concatenate([at, at - 1])]).reshape(2, -1)
    typed = np.where(sizes <= _MAX_FONT_TO_BOX * np.stack([height[at], height[at - 1]]), sizes, 0.0)
    return typed.max(axis=0)


# Letter-spaced text (a title tracked out, "L A B O R A T O R Y"): a run of glyphs whose gaps are
# mostly alike is one word per stretch of those gaps, and a word space there is a gap the word gap
# wider than the run's own spacing. Measured on the opened material: tracked runs of 4 to 27
# glyphs space them 0.05-0.19 of the line height, 60% or more of the gaps within 0.05 of the
# median, the narrowest gap of a capitals title (a kerned "AT") 0.4 of it; untracked glyphs abut
# (median gap 0.00); text whose word spaces are only gaps ("2 - 10", "47 Y / M") spaces them 0.24
# or more and abuts the glyphs within a word.
MIN_TRACKED_GAPS = 3  # a run of at least 4 glyphs shows its spacing
MIN_LETTER_SPACING = 0.05  # of the line height: a smaller median gap is glyphs abutting
MAX_LETTER_SPACING = 0.22  # of the line height: a larger one is word spaces, not letter spacing
ALIKE_SPACING = 0.05  # of the line height: a gap this close to the median is a letter gap
ALIKE_SHARE = 0.6  # of a run's gaps alike at least: the rest are its word spaces
MIN_SPACING_SHARE = 0.25  # of the median: no gap of a tracked run is narrower (glyphs abutting)
MAX_RUN_GAP = 1.0  # of the line height: a wider gap ends a run (a column, not a word space)


def _letter_spacing(gap: np.ndarray, joined: np.ndarray, line_height: np.ndarray) -> np.ndarray:
    """Each character's letter spacing: its run's median gap where the run is letter-spaced, else
    0.0. A run is a stretch of characters each joined to the one before, on one line, never
    further apart than MAX_RUN_GAP."""
    spacing = np.zeros_like(gap)
    linked = joined & (gap > -0.5 * line_height) & (gap < MAX_RUN_GAP * line_height)
    linked[0] = False
    run_starts = np.flatnonzero(~linked)
    run = np.cumsum(~linked) - 1  # each character's run
    links = np.bincount(run, weights=linked)
    wide = np.bincount(run, weights=linked & (gap >= MIN_LETTER_SPACING * line_height))
    bounds = np.append(run_starts, len(gap))
    for number in np.flatnonzero((links >= MIN_TRACKED_GAPS) & (wide >= ALIKE_SHARE * links)).tolist():
        gaps = slice(bounds[number] + 1, bounds[number + 1])  # the run's links
        median = float(np.median(gap[gaps]))
        alike = np.abs(gap[gaps] - median) <= ALIKE_SPACING * line_height[gaps]
        height = float(np.median(line_height[gaps]))
        if MIN_LETTER_SPACING * height <= median <= MAX_LETTER_SPACING * height and alike.mean() >= ALIKE_SHARE \
                and gap[gaps].min() >= MIN_SPACING_SHARE * median:
            spacing[gaps] = median
    return spacing


def _made_words(textpage, spans: list[str], x0s: list[float], tops: list[float], x1s: list[float],
                bottoms: list[float], heights: list[float], heads: list[int], text_objects: list[int | None],
                font_sizes: list[float]) -> list[Word]:
    """The words, each with its printed size and boldness, made column by column (a Python
    loop per word is what this avoids: a page has hundreds)."""
    sizes = _printed_sizes(font_sizes, heights)
    bolds = _boldness(textpage, heads, text_objects)
    return list(map(new_word, spans, x0s, tops, x1s, bottoms, repeat(1.0), sizes, bolds))


def _boldness(textpage, heads: list[int], text_objects: list[int | None]) -> list[bool]:
    """Each word's boldness, asked once per text object (a text object has one font) or font,
    not once per word; a word without an object or font is asked on its own."""
    fonts: dict[bytes, bool] = {}  # by font name
    bold_by_font: dict[int, bool] = {}  # by pdfium font handle
    bold_by_object: dict[int, bool] = {}
    font_buffer = ctypes.create_string_buffer(128)
    if all(text_objects):
        # Objects in order of their first word: the fonts are met in the same order as word
        # by word, so each font is judged on the same character.
        last_to_first = dict(zip(reversed(text_objects), reversed(heads)))  # the last write wins
        first_heads = {text_object: last_to_first[text_object] for text_object in dict.fromkeys(text_objects)}
        object_fonts = dict(zip(first_heads, map(_text_object_font, first_heads)))
        if all(object_fonts.values()):
            for text_object, font in object_fonts.items():
                bold = bold_by_font.get(font)
                if bold is None:
                    bold = bold_by_font[font] = _is_bold(textpage, first_heads[text_object], fonts, font_buffer)
                bold_by_object[text_object] = bold
            return list(map(bold_by_object.__getitem__, text_objects))
    bolds = []
    for head, text_object in zip(heads, text_objects):
        bold = bold_by_object.get(text_object) if text_object else None
        if bold is None:
            font = _text_object_font(text_object) if text_object else None
            bold = bold_by_font.get(font) if font else None
            if bold is None:
                bold = _is_bold(textpage, head, fonts, font_buffer)
                if font:
                    bold_by_font[font] = bold
            if font:
                bold_by_object[text_object] = bold
        bolds.append(bold)
    return bolds


# A footnote or performing-lab mark printed raised in smaller type right after a name
# ("Glucose⁰¹": one word "Glucose01" in the text layer) becomes its own word, so the layout
# can tell it from the name (layout.rows.without_marks, same shares). Told by the loose glyph
# boxes (a smaller font's box is shorter), never by the reported font size.
MARK_HEIGHT_SHARE = 0.75
MARK_RAISE_SHARE = 0.15
# Up to 3 digits or symbols, or one letter; never after a digit or in a unit ("HbA1c", "x10³",
# "m²", "cm²", "mmol/m²" and "Mme" printed M + raised "me" stay whole).
_MARK_RUN = re.compile(r"[0-9*#†‡§]{1,3}|[A-Za-z]")


def _split_marks(starts: np.ndarray, height: np.ndarray, bottom: np.ndarray, text: str) -> None:
    """Mark in `starts` where a word's trailing raised run of smaller glyphs begins."""
    raised = (height <= MARK_HEIGHT_SHARE * _previous(height)) \
        & (_previous(bottom) - bottom > MARK_RAISE_SHARE * _previous(height)) & ~starts
    for i in np.flatnonzero(raised).tolist():
        end = i + 1
        while end < len(starts) and not starts[end]:
            end += 1
        begin = i - 1
        while not starts[begin]:
            begin -= 1
        head, run = text[begin:i], text[i:end]
        if not (_MARK_RUN.fullmatch(run) and (head[-1].isalpha() or head[-1] == ")")) or "/" in head:
            continue
        if len(head) < 3 and not (head.isupper() and not run.isalpha()):
            continue  # "m²", "cm²": a unit's power; "D¹" (Vitamin D's mark) is split
        base_height, base_bottom = height[i - 1], bottom[i - 1]
        if all(height[j] <= MARK_HEIGHT_SHARE * base_height
               and base_bottom - bottom[j] > MARK_RAISE_SHARE * base_height for j in range(i, end)):
            starts[i] = True


def _word_facts(handle: ctypes.c_void_p, heads: list[int], text_objects: list[int | None]):
    """The angle and font size of each word's first character (`heads`). All characters of a
    text object share its matrix, font and size, so pdfium is asked once per object (a cell,
    a line), in C loops (map), not once per word; a character without an object on its own."""
    keys = text_objects if all(text_objects) else [
        text_object or (head,) for head, text_object in zip(heads, text_objects)]
    first = dict(zip(reversed(keys), reversed(heads)))  # each key's first head: the last write wins
    asked = list(first.values())
    angle_of = dict(zip(first, map(_char_angle, repeat(handle, len(asked)), asked)))
    size_of = dict(zip(first, map(_font_size, repeat(handle, len(asked)), asked)))
    return list(map(angle_of.__getitem__, keys)), list(map(size_of.__getitem__, keys))


def _previous(values: np.ndarray) -> np.ndarray:
    """Each element's predecessor (the first gets the last): np.roll(values, 1), without
    its generality's cost."""
    shifted = np.empty_like(values)
    shifted[1:] = values[:-1]
    shifted[:1] = values[-1:]
    return shifted


# A reported font size this far from the glyph box height is the font matrix's scale, not
# the printed size (real LIS PDFs report ~180 pt for 10 pt text): the box is believed instead.
# Loose glyph boxes run 1.0-1.3 em, so a factor 2 either way separates an honest report from
# a scaled one.
SIZE_TRUST_FACTOR = 2.0


def printed_size(font_size: float, box_height: float) -> float:
    """The size a word is printed at: the reported font size when the glyph box agrees with
    it, else the box height."""
    if font_size > 0 and (box_height <= 0 or
                          box_height / SIZE_TRUST_FACTOR <= font_size <= box_height * SIZE_TRUST_FACTOR):
        return round(font_size, 2)
    return round(box_height, 2)


def _printed_sizes(font_sizes: list[float], box_heights: list[float]) -> list[float]:
    """printed_size of each (font size, box height), the choice made with numpy and each
    distinct size rounded once (a page has hundreds of words and a handful of sizes)."""
    reported, height = np.array(font_sizes, dtype=np.float64), np.array(box_heights, dtype=np.float64)
    trusted = (reported > 0) & ((height <= 0) | ((height / SIZE_TRUST_FACTOR <= reported)
                                                 & (reported <= height * SIZE_TRUST_FACTOR)))
    chosen = np.where(trusted, reported, height).tolist()
    rounded = {size: round(size, 2) for size in set(chosen)}
    return list(map(rounded.__getitem__, chosen))


def _normalize(text: str) -> str:
    """NFC, and ligatures (U+FB00-FB06: "ﬁ", "ﬂ") spelled out. Not NFKC: that would turn the
    micro sign of "µg/dL" into a Greek mu and "Nº" into "No"."""
    text = unicodedata.normalize("NFC", text)
    if any("\ufb00" <= char <= "\ufb06" for char in text):
        text = "".join(
            unicodedata.normalize("NFKC", char) if "\ufb00" <= char <= "\ufb06" else char for char in text
        )
    return text


def _reads_horizontally(angle: float, frame: PageFrame) -> bool:
    """Whether text at pdfium's `angle` (radians, clockwise in PDF space) runs left to right on
    the displayed page. A landscape report stored as a portrait page with /Rotate 90 draws its
    text at 270 degrees, which displays level; the same /Rotate on level text shows it sideways.
    """
    if angle < 0:  # pdfium could not tell
        return True
    shown = (math.degrees(angle) + frame.rotation) % 360
    return min(shown, 360 - shown) <= MAX_TEXT_ANGLE_DEGREES


def _is_bold(textpage, index: int, fonts: dict[bytes, bool], buffer) -> bool:
    """Bold from the font's name (reliable), else its weight or ForceBold flag.

    pdfium's weight alone is not trusted: Ghostscript-made PDFs report ~830 for regular fonts.
    """
    flags = ctypes.c_int(0)
    pdfium_c.FPDFText_GetFontInfo(textpage, index, buffer, len(buffer), ctypes.byref(flags))
    name = buffer.value
    if name in fonts:
        return fonts[name]
    style = name.decode("latin-1", "replace").lower().split("+")[-1]
    if any(marker in style for marker in _BOLD_NAMES):
        bold = True
    elif any(marker in style for marker in _REGULAR_NAMES):
        bold = False
    else:
        bold = bool(flags.value & _FORCE_BOLD_FLAG) or pdfium_c.FPDFText_GetFontWeight(textpage, index) >= 700
    if name:
        fonts[name] = bold
    return bold


# --- ruling lines and boxes ------------------------------------------------------------------


def _drawing(page: pdfium.PdfPage, frame: PageFrame):
    """Ruling lines/rectangles drawn on the page and the boxes of its images (displayed,
    clipped to the page)."""
    count = pdfium_c.FPDFPage_CountObjects(page)
    objects = list(map(_page_object, repeat(_handle(page.raw), count), range(count)))
    # Text objects are most of a page and draw nothing: their types are read in a C loop.
    kinds = np.fromiter(map(_object_type, objects), dtype=np.int64, count=count)
    paths = np.flatnonzero(kinds == pdfium_c.FPDF_PAGEOBJ_PATH)
    counts = np.fromiter(map(_count_segments, [objects[i] for i in paths.tolist()]), dtype=np.int64,
                         count=len(paths))
    # A line or a rectangle (a browser prints a table as hundreds): its bounds say it all.
    simple = paths[(counts > 0) & (counts <= SIMPLE_PATH_SEGMENTS)]
    boxes, bounded = _path_bounds([objects[i] for i in simple.tolist()], frame)
    # Any other object (an image, a form, a grid of strokes) is read on its own.
    others = kinds != pdfium_c.FPDF_PAGEOBJ_TEXT
    others[simple] = False
    collector = _Collector(frame)
    places: list[int] = []  # the object each of collector.found comes from
    for i in np.flatnonzero(others).tolist():
        before = len(collector.found)
        collector.collect(objects[i], int(kinds[i]), _IDENTITY, 0)
        places.extend([i] * (len(collector.found) - before))
    found = _in_page_order(boxes[bounded], simple[bounded], collector.found, places)
    images = [_clipped(box, frame) for box in collector.images]
    return _rules(found, frame), [box for box in images if box[2] > box[0] and box[3] > box[1]]


def _in_page_order(boxes: np.ndarray, places: np.ndarray, more: list[tuple], more_places: list[int]) -> np.ndarray:
    """The boxes of both lists in the order of the objects that drew them (`places`): the
    order rules of one height keep (_rules)."""
    if not more:
        return boxes
    boxes = np.concatenate([boxes, np.array(more, dtype=np.float64).reshape(-1, 4)])
    places = np.concatenate([places, np.array(more_places, dtype=np.int64)])
    return boxes[np.argsort(places, kind="stable")]


def _rules(found: list[tuple[float, float, float, float]] | np.ndarray, frame: PageFrame) -> list[tuple]:
    """The boxes that are rules, to 0.1 pt, once each, top to bottom: filtered and rounded with
    numpy (a page of table cells has hundreds of boxes)."""
    if len(found) == 0:
        return []
    boxes = np.array(found, dtype=np.float64)
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    page_area = max(frame.width * frame.height, 1.0)
    boxes = boxes[~((np.maximum(w, h) < MIN_RULE_LENGTH) | (w * h > 0.9 * page_area))]
    rules = list(dict.fromkeys(map(tuple, _round_tenths(boxes).tolist())))  # dots, backgrounds out
    rules.sort(key=lambda r: (r[1], r[0]))
    return rules


def _round_tenths(values: np.ndarray) -> np.ndarray:
    """round(value, 1) for each value, exactly as Python rounds: rint(10 x) / 10 is the same
    double wherever 10 x is not within rounding error of a half; those few are rounded by
    Python."""
    scaled = values * 10.0
    rounded = np.rint(scaled) / 10.0
    near_half = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
    if near_half.any():
        rounded[near_half] = [round(v, 1) for v in values[near_half].tolist()]
    return rounded


def _path_bounds(simple: list[int], frame: PageFrame) -> tuple[np.ndarray, np.ndarray]:
    """The displayed boxes (n x 4) of the paths, and whether pdfium had bounds for each:
    fetched in C loops and mapped with numpy, since a page of table cells has hundreds."""
    if not simple:
        return np.empty((0, 4)), np.empty(0, dtype=bool)
    bounds = (ctypes.c_float * (4 * len(simple)))()
    at = ctypes.addressof(bounds)
    starts = range(at, at + 16 * len(simple), 16)
    found = list(map(_object_bounds, simple, starts, (a + 4 for a in starts), (a + 8 for a in starts),
                     (a + 12 for a in starts)))
    sides = np.frombuffer(bounds, dtype=np.float32).reshape(-1, 4).astype(np.float64)
    boxes = np.column_stack(frame.boxes(sides[:, 0], sides[:, 1], sides[:, 2], sides[:, 3]))
    return boxes, np.array(found, dtype=bool)


_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _clipped(box, frame: PageFrame) -> tuple[float, float, float, float]:
    x0, top, x1, bottom = box
    return max(x0, 0.0), max(top, 0.0), min(x1, frame.width), min(bottom, frame.height)


class _Collector:
    """Rules (`found`) and image boxes (`images`) of a page's objects, as displayed."""

    def __init__(self, frame: PageFrame):
        self.frame = frame
        self.found: list[tuple[float, float, float, float]] = []
        self.images: list[tuple[float, float, float, float]] = []
        self.bounds = (ctypes.c_float * 4)()  # left, bottom, right, top: one buffer, many calls
        at = ctypes.addressof(self.bounds)
        self.bound_addresses = (at, at + 4, at + 8, at + 12)

    def collect(self, obj: int | None, kind: int, parent_matrix, depth: int) -> None:
        """One page object (`obj`: its plain address; `kind`: its pdfium type)."""
        if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
            return  # most objects; text draws no rules or images
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < 8:
            matrix = _compose(_matrix(obj), parent_matrix)
            for i in range(_form_count_objects(obj)):
                inner = _form_object(obj, i)
                self.collect(inner, _object_type(inner), matrix, depth + 1)
            return
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            # An image is drawn into the unit square mapped by its matrix.
            matrix = _compose(_matrix(obj), parent_matrix)
            corners = [self.frame.point(*_apply(matrix, x, y)) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            self.images.append((min(xs), min(ys), max(xs), max(ys)))
            return
        if kind != pdfium_c.FPDF_PAGEOBJ_PATH:
            return
        segments = _count_segments(obj)
        if segments <= 0 or segments > MAX_PATH_SEGMENTS:
            return
        if segments <= SIMPLE_PATH_SEGMENTS:
            # A line or a rectangle (`re` or four strokes): its bounds say it all, in one call.
            if _object_bounds(obj, *self.bound_addresses):
                left, bottom, right, top = self.bounds
                point = self.frame.point
                xa, ya = point(*_apply(parent_matrix, left, bottom))
                xb, yb = point(*_apply(parent_matrix, right, top))
                self.found.append((min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb)))
            return
        self._strokes(obj, _compose(_matrix(obj), parent_matrix))

    def _strokes(self, obj: int | None, matrix) -> None:
        """A path of many strokes (a whole table grid in one path): keep each straight stroke;
        curves mean a logo or a rounded shape, not a table."""
        fx, fy = ctypes.c_float(), ctypes.c_float()
        fx_address, fy_address = ctypes.addressof(fx), ctypes.addressof(fy)
        previous = None
        strokes = []
        for i in range(_count_segments(obj)):
            segment = _path_segment(obj, i)
            kind_of_segment = _segment_type(segment)
            if kind_of_segment == pdfium_c.FPDF_SEGMENT_BEZIERTO:
                return
            _segment_point(segment, fx_address, fy_address)
            x, y = self.frame.point(*_apply(matrix, fx.value, fy.value))
            if kind_of_segment == pdfium_c.FPDF_SEGMENT_LINETO and previous is not None:
                px, py = previous
                if abs(px - x) <= MAX_RULE_THICKNESS or abs(py - y) <= MAX_RULE_THICKNESS:
                    strokes.append((min(px, x), min(py, y), max(px, x), max(py, y)))
            previous = (x, y)
        self.found.extend(strokes)


def _matrix(obj: int | None) -> tuple[float, float, float, float, float, float]:
    m = pdfium_c.FS_MATRIX()
    if not _object_matrix(obj, ctypes.addressof(m)):
        return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _compose(inner, outer):
    """The matrix applying `inner` first, then `outer` (PDF row-vector convention)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (
        a * A + b * C,
        a * B + b * D,
        c * A + d * C,
        c * B + d * D,
        e * A + f * C + E,
        e * B + f * D + F,
    )


def _apply(matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = matrix
    return a * x + c * y + e, b * x + d * y + f


@lru_cache(maxsize=4096)  # asked for every distinct character of every page
def _is_garbage(char: str) -> bool:
    """Control, private-use or unassigned code points: a glyph pdfium could not map."""
    return char == "\ufffd" or unicodedata.category(char)[0] == "C"
