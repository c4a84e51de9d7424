"""A table's vertical cell border read as a character of the word beside it, told by its ink.

Where a grid's horizontal rules are faint or gone (erased with the dotted strokes, or never
printed), tesseract reads a vertical border touching a cell's text as that word's first or last
character: '|4,0', '[11,5', and, worst, a digit: '127 - 33' for '27 - 33', '1135' for '135'
(nine of the 22 range cells of one opened photographed grid). No text rule can tell that '1'
from a printed one; the ink can: a border runs on far above and below the text line, a glyph
never does.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
from PIL import Image

from parser.page import Word

MARK_READINGS = frozenset("|[")  # never a number's first character: the border's alone
DIGIT_READINGS = frozenset("1lI!")  # or the number's own first digit: the ink tells
_NUMBER_REST = re.compile(r"^[<>]?\d+(?:[.,]\d+)?(?:\s*-\s*\d+(?:[.,]\d+)?)?$")
STRIP_WIDTH = 0.3  # of the text's height: the columns at the word's edge looked at
REACH = 0.6  # of the text's height: how far above and below the line the stroke is followed
MIN_INKED_ROWS = 0.9  # share of those rows inked: a border, not the text of the next line
BORDER_SHADE = 0.25  # of the way from paper to the text's ink: a grey border's shade


def strip_border_glyphs(image: Image.Image, words: list[Word]) -> list[Word]:
    """`words` (in `image`'s pixels) without the first or last character where it is a cell
    border's stroke; a word that is nothing but one becomes '|', a rule the line reader drops."""
    gray = None
    out = []
    for word in words:
        if _border_reading(word.text) or word.text[-1:] == "|":
            gray = np.asarray(image.convert("L")) if gray is None else gray
            word = _without_borders(gray, word)
        out.append(word)
    return out


def _border_reading(text: str) -> bool:
    """Could the word's first character be a border's stroke before a number (or alone)?"""
    first, rest = text[:1], text[1:]
    if not first or (first not in MARK_READINGS and first not in DIGIT_READINGS):
        return False
    return not rest or bool(_NUMBER_REST.match(rest))


def _without_borders(gray: np.ndarray, word: Word) -> Word:
    text, x0, x1 = word.text, word.x0, word.x1
    step = (x1 - x0) / len(text)  # one character's width, near enough
    if len(text) == 1:
        return replace(word, text="|") if _border_at(gray, word, x0) else word
    if _border_reading(text) and _border_at(gray, word, x0) and (
            text[0] in MARK_READINGS or _glyph_count(gray, word) <= len(text)):
        # A '1' is the border when the box holds no more glyphs than the text has characters
        # (a border tesseract boxed with the word but left out of its text makes one more).
        text, x0 = text[1:], x0 + step
    if len(text) > 1 and text[-1] == "|" and _border_at(gray, word, x1 - STRIP_WIDTH * _height(word)):
        text, x1 = text[:-1], x1 - step
    return word if text == word.text else replace(word, text=text, x0=x0, x1=x1)


def _glyph_count(gray: np.ndarray, word: Word) -> int:
    """Runs of inked columns in the word's box (a border's faint stroke included)."""
    box = _box(gray, word)
    inked = (box < _ink_threshold(box)).any(axis=0)
    return int(np.count_nonzero(inked[1:] & ~inked[:-1]) + inked[0]) if inked.size else 0


def _box(gray: np.ndarray, word: Word) -> np.ndarray:
    return gray[int(word.top):int(np.ceil(word.bottom)), int(word.x0):int(np.ceil(word.x1))]


def _ink_threshold(box: np.ndarray, around: np.ndarray | None = None) -> float:
    """A border is often fainter than the text (a grey 0.5 pt line): any clear shade counts.
    The paper's shade is read `around` the box when given (a lone stroke's box is all ink)."""
    paper = int(np.percentile(box if around is None else around, 90))
    return paper - BORDER_SHADE * (paper - int(box.min()))


def _height(word: Word) -> float:
    return word.bottom - word.top


def _border_at(gray: np.ndarray, word: Word, left: float) -> bool:
    """Do the columns from `left`, STRIP_WIDTH of the text's height wide, hold a stroke that
    runs on REACH of that height both above and below the word's box?"""
    height = _height(word)
    reach = max(2, round(REACH * height))
    top, bottom = int(word.top), int(np.ceil(word.bottom))
    if top - reach < 0 or bottom + reach > gray.shape[0]:
        return False
    start = max(0, int(left))
    strip = gray[top - reach:bottom + reach, start:start + max(2, round(STRIP_WIDTH * height))]
    if strip.size == 0:
        return False
    box = _box(gray, word)
    if box.size == 0:
        return False
    threshold = _ink_threshold(box, strip)
    rows = (strip < threshold).any(axis=1)
    return rows[:reach].mean() >= MIN_INKED_ROWS and rows[-reach:].mean() >= MIN_INKED_ROWS
