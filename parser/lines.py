"""Words -> lines -> phrases: the page's text rebuilt from geometry, not text order.

Real text layers put all values after all names, or a value a little below its name, so
lines are rebuilt from word boxes: words whose vertical bands overlap enough share a line.
Each line is cut into phrases at gaps wider than a space; a phrase is one cell's text.
Watermarks, repeated page headers and footers, and running prose are recognised here so
the table stage can ignore them.
"""

from __future__ import annotations

import re
import statistics
from bisect import bisect_left, bisect_right, insort
from dataclasses import dataclass
from operator import attrgetter

from parser import skew
from parser.flags import is_flag
from parser.page import Document, Page, Word
from parser.sidebar import sidebar_split


class cached_property:  # noqa: N801 - functools.cached_property without its lock
    """Computed on first access, then stored on the instance (which shadows this descriptor).
    Python 3.11's functools version takes a lock on every first access, and layout makes many."""

    def __init__(self, function):
        self.function = function
        self.name = function.__name__
        self.__doc__ = function.__doc__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.function(instance)
        return value

_PAGE_MARK = re.compile(r"^\s*page\s*\d+\s*(of|/)\s*\d+\s*$|^\s*\d+\s*/\s*\d+\s*$", re.I)


@dataclass(eq=False)
class Phrase:
    """Words of one cell, left to right (complete once built; its text is cached)."""

    words: list[Word]

    @cached_property
    def text(self) -> str:
        return _joined(self.words)

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return self.words[-1].x1


@dataclass(eq=False)
class Line:
    """Words sharing a text line; never changed once built, so its measures are cached."""

    words: list[Word]
    page: int
    ocr: bool = False  # word boxes from OCR: heights are glyph boxes, not font sizes
    # x of drawn vertical rules crossing the line (a ruled table's cell borders): a phrase
    # never runs across one, however close the words on either side.
    cuts: tuple[float, ...] = ()

    @cached_property
    def top(self) -> float:
        return min(map(_TOP, self.words))

    @cached_property
    def bottom(self) -> float:
        return max(map(_BOTTOM, self.words))

    @cached_property
    def x0(self) -> float:
        return min(map(_X0, self.words))

    @cached_property
    def x1(self) -> float:
        return max(map(_X1, self.words))

    @cached_property
    def size(self) -> float:
        return median_size(self.words)

    @cached_property
    def text(self) -> str:
        return _joined(self.words)

    @cached_property
    def _phrases(self) -> tuple[Phrase, ...]:
        # An OCR box is about a cap height tall, a font size is an em: widen the gap.
        return tuple(split_phrases(self.words, 1.0 if self.ocr else 0.75, self.cuts))

    def phrases(self) -> list[Phrase]:
        return list(self._phrases)


def word_size(word: Word) -> float:
    """The word's size: the text layer's printed size (parser.pdf.printed_size: glyph boxes
    when the reported font size is only the matrix's scale), or the OCR box height."""
    return word.size or (word.bottom - word.top)


def median_size(words: list[Word]) -> float:
    """The typical size of the words (a single word's own size without the median's cost)."""
    if len(words) == 1:
        return word_size(words[0])
    # statistics.median, spelled out: it runs for every line and phrase of every page.
    sizes = sorted([w.size or (w.bottom - w.top) for w in words])
    middle = len(sizes) // 2
    return sizes[middle] if len(sizes) % 2 else (sizes[middle - 1] + sizes[middle]) / 2


_X0 = attrgetter("x0")


def _joined(words: list[Word]) -> str:
    """The words' text, one space apart (most phrases are one word: no join to build)."""
    return words[0].text if len(words) == 1 else " ".join([w.text for w in words])


_TOP, _BOTTOM, _X1 = attrgetter("top"), attrgetter("bottom"), attrgetter("x1")


def build_lines(words: list[Word], page: int, ocr: bool = False) -> list[Line]:
    """Cluster words into lines by vertical overlap with each line's first word."""
    # Open lines: the top and bottom of their first word, their members, and the members'
    # x-intervals sorted (parallel lists: this loop runs for every word of every page).
    tops: list[float] = []
    bottoms: list[float] = []
    members: list[list[Word]] = []
    spans: list[list[tuple[float, float]]] = []
    # Each line's distinct word bands (top, bottom): a word on the very band of a word already
    # placed shares its line, however little it overlaps the line's first word (a grid's
    # label and its value, both a little below the neighbouring cell's line).
    # Kept flat, (top + bottom, top, bottom, line): words come in order of their middle, so
    # this list is too, and only its tail can hold a word's band.
    bands: list[tuple[float, float, float, int]] = []
    for word in sorted(words, key=_by_middle):
        top, bottom, x0, x1 = word.top, word.bottom, word.x0, word.x1
        height = bottom - top if bottom - top > 0.1 else 0.1
        n = len(tops)
        same = _same_band(bands, top, bottom, 0.1 * height, n - 7)
        # The line holding this very band comes first (ahead of any overlap share, at most 1):
        # most words join it, and the overlaps are measured only when it cannot take the word.
        # On an OCR page a line whose first word has this very band is tesseract's own text
        # line (it boxes a line's words one height): a word on it is the line's even where its
        # box runs into a neighbour's by less than half the height ("|4,0" and the "-" after
        # it), which on a text layer would put one word above the other.
        if same is not None and (not _collides(spans[same], x0, x1) or ocr and _one_box(
                tops[same], bottoms[same], top, bottom, height) and _overlap(spans[same], x0, x1) < 0.5 * height):
            members[same].append(word)
            insort(spans[same], (x0, x1))
            continue
        candidates = []
        low = n - 6 if n > 6 else 0
        for i, l_top, l_bottom in zip(range(low, n), tops[low:], bottoms[low:]):
            if l_bottom <= top or l_top >= bottom:
                continue  # apart (most lines): no overlap to measure
            overlap = (l_bottom if l_bottom < bottom else bottom) - (l_top if l_top > top else top)
            if overlap <= 0:
                continue
            shorter = height if height < l_bottom - l_top else l_bottom - l_top
            if overlap >= 0.4 * (shorter if shorter > 0.1 else 0.1):
                candidates.append((overlap / (shorter if shorter > 0.1 else 0.1), i))
        if len(candidates) > 1:
            candidates.sort(reverse=True)
        for _, i in candidates:
            if i != same and not _collides(spans[i], x0, x1):  # `same` collides: tried above
                members[i].append(word)
                insort(spans[i], (x0, x1))
                bands.append((top + bottom, top, bottom, i))
                break
        else:
            tops.append(top)
            bottoms.append(bottom)
            members.append([word])
            spans.append([(x0, x1)])
            bands.append((top + bottom, top, bottom, n))
    result = [Line(sorted(m, key=_X0), page, ocr) for m in members]
    return sorted(result, key=_LINE_ORDER)


def _same_band(bands: list[tuple[float, float, float, int]], top: float, bottom: float,
               tolerance: float, first_line: int) -> int | None:
    """The latest line from `first_line` on holding a word on this band. `bands` is in order of
    top + bottom, and a band within `tolerance` at both edges is within twice it there."""
    middle, found = top + bottom, None
    for k in range(len(bands) - 1, -1, -1):
        b_middle, b_top, b_bottom, line = bands[k]
        if b_middle < middle - 2 * tolerance:
            break
        if (line >= first_line and (found is None or line > found)
                and abs(b_top - top) <= tolerance and abs(b_bottom - bottom) <= tolerance):
            found = line
    return found


def _by_middle(word: Word) -> tuple[float, float]:
    return word.top + word.bottom, word.x0


_LINE_ORDER = attrgetter("top", "x0")  # a line's place: top to bottom, then left to right


def _collides(intervals: list[tuple[float, float]], x0: float, x1: float) -> bool:
    """Two words cannot share a line if they overlap horizontally (one is above the other).
    `intervals` is sorted, so only the neighbours of the new word's place can overlap it."""
    at = bisect_left(intervals, (x0, x1))
    width = x1 - x0
    for o0, o1 in intervals[at - 2 if at > 2 else 0:at + 2]:
        # min()/max() spelled out: this runs for every word against its line's neighbours.
        overlap = (o1 if o1 <= x1 else x1) - (o0 if o0 >= x0 else x0)
        if overlap > 0.5 * (o1 - o0 if o1 - o0 <= width else width):
            return True
    return False


def _one_box(line_top: float, line_bottom: float, top: float, bottom: float, height: float) -> bool:
    """Does a word's box have the very top and bottom of a line's first word (one OCR text line)?"""
    return abs(line_top - top) <= 0.1 * height and abs(line_bottom - bottom) <= 0.1 * height


def _overlap(intervals: list[tuple[float, float]], x0: float, x1: float) -> float:
    """How far x0..x1 runs into the nearest of the sorted `intervals` (0 when clear)."""
    at = bisect_left(intervals, (x0, x1))
    return max([0.0, *((o1 if o1 <= x1 else x1) - (o0 if o0 >= x0 else x0)
                       for o0, o1 in intervals[at - 2 if at > 2 else 0:at + 2])])


def split_phrases(words: list[Word], gap_factor: float = 0.75,
                  cuts: tuple[float, ...] = ()) -> list[Phrase]:
    """Cut a line at gaps wider than a space, and at drawn cell borders (`cuts`): each piece
    is one cell's text. Stray '|' (OCR reads a table's rules as characters) are dropped."""
    groups: list[list[Word]] = []
    group: list[Word] = []
    cuts = tuple(sorted(cuts))  # as _ruled gives them; searched by bisection
    last: Word | None = None
    last_size = 0.0
    # sorted() is stable and linear on words already in order, as a Line's are.
    for word in sorted(words, key=_X0):
        size = word.size or (word.bottom - word.top)  # word_size, inlined
        if last is not None:
            gap = word.x0 - last.x1
            if (gap <= gap_factor * (size if size < last_size else last_size)  # min(), as it ties
                    and not (cuts and _cut_between(cuts, last.x1 - 0.5, word.x0 + 0.5))
                    and last.text not in _RULE_TEXTS and word.text not in _RULE_TEXTS):
                group.append(word)
                last, last_size = word, size
                continue
        group = [word]
        groups.append(group)
        last, last_size = word, size
    phrases = []
    for group in groups:
        kept = [w for w in group if w.text.strip("|¦") != ""]
        if kept:
            phrases.append(Phrase(kept))
    return phrases


def _cut_between(cuts: tuple[float, ...], low: float, high: float) -> bool:
    """Is any of the sorted `cuts` within low..high?"""
    at = bisect_left(cuts, low)
    return at < len(cuts) and cuts[at] <= high


_RULE_TEXTS = ("|", "¦")  # a table's rule read as a character


# A word this many times the median size is a watermark or a logo, not body text.
WATERMARK_SIZE = 2.6


def body_words(page: Page) -> list[Word]:
    """The page's words without watermarks (words far larger than the body text), levelled
    when the page is a photo or scan whose lines slope."""
    limit = _size_limit(page)
    # (w.size or its box height: word_size, inlined) within the limit is never _large.
    words = [w for w in page.words
             if w.text.strip() and ((w.size or (w.bottom - w.top)) <= limit or not _large(w, limit, page))]
    return skew.level(words, page_slope(page))


def large_words(page: Page) -> list[Word]:
    """The words body_words leaves out: watermarks, but also a lab's name in a huge font."""
    limit = _size_limit(page)
    words = [w for w in page.words if w.text.strip() and _large(w, limit, page)]
    return skew.level(words, page_slope(page))


def _large(word: Word, limit: float, page: Page) -> bool:
    """Far taller than the body text, and, on an OCR page, as wide letters too: tesseract
    gives the words of a line the height of all of it, so a barcode or a logo beside a
    patient's name makes that name tall, never wide."""
    if word_size(word) <= limit:
        return False
    if page.source != "ocr" or len(word.text) < 3:
        return True
    return _letter_width(word) > 0.75 * WATERMARK_SIZE * _body_letter_width(page)


def _letter_width(word: Word) -> float:
    return (word.x1 - word.x0) / len(word.text)


def _body_letter_width(page: Page) -> float:
    """The median width of a letter in the page's words of three letters or more."""
    return _per_page(_LETTERS, page, lambda: statistics.median(
        [_letter_width(w) for w in page.words if len(w.text) >= 3] or [0.0]))


def _size_limit(page: Page) -> float:
    if not page.words:
        return 0.0
    sizes = sorted([w.size or (w.bottom - w.top) for w in page.words])  # word_size, inlined
    return WATERMARK_SIZE * sizes[len(sizes) // 2]


def page_lines(page: Page) -> list[Line]:
    """The page's body lines, built once per page and shared by every stage."""
    return _per_page(_LINES, page, lambda: _ruled(_sides_apart(body_words(page), page), page))


def _sides_apart(words: list[Word], page: Page) -> list[Line]:
    """The page's lines; a sidebar's apart from the body's, the left side's first."""
    ocr = page.source == "ocr"
    sides = sidebar_split(words, page)
    if sides is None:
        return build_lines(words, page.number, ocr)
    return [line for side in sides for line in build_lines(side, page.number, ocr)]


def _ruled(lines: list[Line], page: Page) -> list[Line]:
    """Give each line the x of the vertical rules (thin lines, or the sides of cell
    rectangles) drawn across its middle."""
    verticals = []
    tenths: dict[float, float] = {}  # round(x, 1) by x: a grid's rules share a few x (round is slow)
    for x0, top, x1, bottom in page.rules:
        if x1 - x0 <= MAX_RULE_WIDTH:
            verticals.append((_tenth((x0 + x1) / 2, tenths), top, bottom))
        elif bottom - top > MAX_RULE_WIDTH:  # a cell or box: its two sides
            verticals.extend(((_tenth(x0, tenths), top, bottom), (_tenth(x1, tenths), top, bottom)))
    if not verticals:
        return lines
    # Bucketed by height on the page, so each line looks only at the rules near it; each
    # bucket sorted by x, so only the rules between the line's ends are looked at.
    buckets: dict[int, list[tuple[float, float, float]]] = {}
    for rule in verticals:
        for key in range(int(rule[1] // _BUCKET), int(rule[2] // _BUCKET) + 1):
            buckets.setdefault(key, []).append(rule)
    xs = {}
    for key, rules in buckets.items():
        rules.sort()
        xs[key] = [x for x, _, _ in rules]
    for line in lines:
        if len(line.words) < 2:
            continue  # one word: nothing to cut
        middle = (line.top + line.bottom) / 2
        key = int(middle // _BUCKET)
        if key not in buckets:
            continue
        x0, x1 = line.x0, line.x1
        rules, at = buckets[key], xs[key]
        cuts = {x for x, top, bottom in rules[bisect_right(at, x0):bisect_left(at, x1)]
                if top <= middle <= bottom}
        if cuts:
            line.cuts = tuple(sorted(cuts))
    return lines


def _tenth(x: float, tenths: dict[float, float]) -> float:
    rounded = tenths.get(x)
    if rounded is None:
        rounded = tenths[x] = round(x, 1)
    return rounded


_BUCKET = 20.0  # PDF units per bucket of rules
MAX_RULE_WIDTH = 2.5  # a drawn vertical line is at most this wide (PDF units)


def page_slope(page: Page) -> skew.Slopes:
    """The slopes of the page's text lines (OCR pages only; text layers are level)."""
    if page.source != "ocr":
        return [(0.0, 0.0)]
    return _per_page(_SLOPES, page, lambda: skew.estimate_slopes(page.words))


# Per-page results keyed by id(page); the page is kept alongside so a recycled id is noticed.
_LINES: dict[int, tuple[Page, list[Line]]] = {}
_SLOPES: dict[int, tuple[Page, skew.Slopes]] = {}
_LETTERS: dict[int, tuple[Page, float]] = {}


def _per_page(cache: dict, page: Page, compute):
    cached = cache.get(id(page))
    if cached is None or cached[0] is not page:
        if len(cache) > 64:
            cache.clear()
        cached = cache[id(page)] = (page, compute())
    return cached[1]


def boilerplate_keys(doc: Document) -> set[tuple[str, int]]:
    """Lines repeated in the top or bottom band of several pages: page headers and footers."""
    if len(doc.pages) < 2:
        return set()
    seen: dict[tuple[str, int], set[int]] = {}
    for page in doc.pages:
        for line in page_lines(page):
            key = _boilerplate_key(line, page)
            if key is not None:
                seen.setdefault(key, set()).add(page.number)
    return {key for key, pages in seen.items() if len(pages) >= 2}


_DIGIT = re.compile(r"\d")


def _boilerplate_key(line: Line, page: Page) -> tuple[str, int] | None:
    rel = line.top / page.height if page.height else 0
    if 0.3 < rel < 0.8:
        return None
    text = _DIGIT.sub("#", line.text.lower())
    return text, round(rel * 40)


def is_boilerplate(line: Line, page: Page, keys: set[tuple[str, int]]) -> bool:
    if _PAGE_MARK.match(line.text):
        return True
    key = _boilerplate_key(line, page)
    if key is None:
        return False
    text, band = key
    return any((text, band + d) in keys for d in (-1, 0, 1))


# A note's line closes with a full stop after a word or a per cent sign ("... CKD-EPI 2021 (race-free)
# equation.", "Objectif ... de type 2 : ≤ 7,0 %."); a result row ends with its value, unit, range or flag.
_SENTENCE_END = re.compile(r"(?:[^\W\d_]{3}|%)\.$")
SENTENCE_WORDS = 5  # at least: "Hb 12.1 g/dL Normal." is no sentence


def is_sentence(line: Line) -> bool:
    """A line of a note: several words closed by a full stop (see _SENTENCE_END)."""
    return len(line.words) >= SENTENCE_WORDS and bool(_SENTENCE_END.search(line.text))


def is_prose(line: Line) -> bool:
    """A line of running text (justified or not): many words, no table-sized gaps."""
    words = line.words
    if len(words) < 8:
        return False
    gaps = [b.x0 - a.x1 for a, b in zip(words, words[1:])]
    typical = statistics.median(gaps)
    size = line.size
    if typical > 0.6 * size:
        # Wide gaps are column gaps, unless they are all alike (justified text).
        alike = [g for g in gaps if 0.7 * typical <= g <= 1.4 * typical]
        if typical > 2 * size or len(alike) < 0.75 * len(gaps):
            return False
        typical = size  # judge the remaining gaps against the font, not the spacing
    limit = max(2.5 * typical, 1.2 * size)
    wide = [i for i, g in enumerate(gaps) if g > limit]
    if len(wide) == 1 and _value_starts(words[wide[0] + 1:wide[0] + 3]):
        return False  # "IRON BINDING CAPACITY    70 µmol/L (45 to 81)": a name, then its value
    return len(wide) <= 1 and sum(ch.isalpha() for ch in line.text) > 0.6 * len(line.text)


def _value_starts(words: list[Word]) -> bool:
    """A value or range starts here: a number, or a flag or a lone comparator and then a
    number ("H 6 /HPF (0 - 5)", "> 60 mL/min/1.73m2")."""
    number = re.compile(r"^[<>≤≥]?\d")
    if number.match(words[0].text):
        return True
    return len(words) > 1 and bool(number.match(words[1].text)) and (
        words[0].text in ("<", ">", "≤", "≥", "<=", ">=") or is_flag(words[0].text))
