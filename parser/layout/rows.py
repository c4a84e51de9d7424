"""A result row as read off the page, and the words that tell a row from a label.

`RawRow` is what the layout stage hands the normaliser. The regular expressions are built
from parser/vocabulary.py, so every language's labels count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from parser import columns as cols, vocabulary
from parser.page import Word


def _alternatives(entries: list[str]) -> str:
    """A regex alternation of vocabulary entries, longest first; spaces and dots optional."""
    parts = []
    for entry in sorted(entries, key=len, reverse=True):
        part = re.escape(entry).replace(r"\ ", r"\s*").replace(r"\.", r"\.?")
        parts.append(part)
    return "|".join(parts)


def _by_first_letter(entries: list[str]) -> str:
    """_alternatives grouped by their first letter ("n(?:ote|b)|p(?:...)"): the regex engine
    tries each alternative in turn, so a line is then tried against one group, not against
    every entry (it was a fifth of a millisecond a line). Only for entries starting with a
    letter, and for patterns whose match is only tested (which entry matched may differ)."""
    groups: dict[str, list[str]] = {}
    for part in _alternatives(entries).split("|"):
        groups.setdefault(part[0].lower(), []).append(part[1:])
    return "|".join(f"{first}(?:{'|'.join(rests)})" for first, rests in groups.items())


# Lines whose text means "not a result" even when something sits in the value column
# (tested only: the callers never ask which label matched).
_NON_RESULT_ENTRIES = vocabulary.words(vocabulary.NON_RESULT_LABELS)
NON_RESULT_NAMES = re.compile(
    r"^\W*(" + (_by_first_letter(_NON_RESULT_ENTRIES) if all(e[:1].isalpha() for e in _NON_RESULT_ENTRIES)
                 else _alternatives(_NON_RESULT_ENTRIES)) + r")\b", re.I)
METHOD_LINE = re.compile(
    r"^\W*(" + _alternatives(vocabulary.words(vocabulary.METHOD_LABELS)) + r")\b\s*[:\-]?", re.I)
METHOD_WORDS = re.compile(
    r"\b(" + _alternatives(vocabulary.words(vocabulary.METHOD_WORDS)) + r")\b", re.I)
# Words that make a line without a value read as a panel heading (used when fonts are unknown).
PANEL_WORDS = re.compile(
    r"\b(" + _alternatives(vocabulary.words(vocabulary.SECTION_WORDS)) + r")\b", re.I)
SENTENCE_WORDS = 7  # a "value" this long is prose, not a result
MAX_TITLE_WORDS = 8  # a panel title printed over a table or a row is at most this long


@dataclass(slots=True)
class RawRow:
    """One result row as read off the page, before normalisation."""

    page: int
    name: str
    value: str
    value_kind: str = cols.RESULT  # result / in_range / out_of_range
    flag: str | None = None
    units: str | None = None
    range_text: str | None = None
    method: str | None = None
    panel: str | None = None
    specimen: str | None = None
    words: list[Word] = field(default_factory=list)
    unit_column: bool = False  # the table has a units column (a missing unit is suspicious)
    ambiguous: bool = False  # some phrase could not be placed in one column
    from_header: bool = True  # columns came from a header, not guessed from content
    ocr: bool = False  # read by OCR: glyph slips in units are worth repairing
    # A second measurement printed on the row ("5,27 mmol/l", "soit 3,37 G/l"): see measures.py
    second: str | None = None
    # Each measurement printed with its own range ("58 %  40 - 75  3,71 G/l  1,80 - 7,50"):
    # range_text is the first's, second_range the second's; otherwise they share range_text.
    ranges_apart: bool = False
    second_range: str | None = None

    @property
    def confidence(self) -> float:
        return min((w.conf for w in self.words), default=1.0)


def is_non_result_label(name: str) -> bool:
    """Labels such as "Sample Type", "Note", "Interpretation" that are never test names."""
    return bool(NON_RESULT_NAMES.match(name))


def has_name_letters(name: str) -> bool:
    """Two letters together, a dotted abbreviation ("V.C.M", "H.C.M.", "R.D.W") or an ion with
    its charge ("K+"): a name."""
    return bool(re.search(r"[^\W\d_]{2}", name.replace(".", "")) or name.strip().lower() in vocabulary.ION_NAMES)


def comment_sentence(text: str) -> bool:
    """A sentence (several words, a full stop after a word) is a comment, never part of a
    test name; dotted abbreviations ("S.G.O.T.") are single words."""
    return len(text.split()) >= 3 and bool(re.search(r"[a-z]{3}\.$", text))


def continues_name(name: str, text: str) -> bool:
    """Does `text` read as the second line of a wrapped test name?"""
    if METHOD_WORDS.search(text) and not re.search(r"[,(&/-]$", name):
        return False
    parenthetical = text.startswith("(") and text.endswith(")")
    return bool(re.search(r"[,(&/-]$|\band$|\bof$", name)) or text[:1].islower() or \
        name.count("(") > name.count(")") or text[:1] in ")-&" or parenthetical


def heading_text(text: str) -> str:
    """A heading without the decoration around it (">> LIPID PROFILE", "-- CBC --:")."""
    return re.sub(r"^[\s>*=#•·:\-–]+|[\s<*=#•·:\-–]+$", "", text)


_ENGLISH_SPECIMEN = re.compile(r"^\W*(sample|specimen)(\s+type)?\s*[:\-]?", re.I)
_SPECIMEN_LABEL = re.compile(r"^\W*(?:" + _alternatives(vocabulary.words(vocabulary.SPECIMEN_LABELS))
                             + r")\s*:", re.I)


def short_title(line) -> str | None:
    """The line read as a panel's title: one phrase of a few words with name letters, no digit
    or colon, no non-result label ("Haematology", "Urea & electrolytes"); None otherwise."""
    text = heading_text(line.text.strip())
    if len(line.phrases()) != 1 or re.search(r"\d|:", text) or not has_name_letters(text) \
            or len(text.split()) > MAX_TITLE_WORDS or NON_RESULT_NAMES.match(text):
        return None
    return text


def looks_like_specimen(text: str) -> bool:
    """A specimen line ("Specimen: Serum", "Material: Citratblut"): the sample, not a heading."""
    return bool(_ENGLISH_SPECIMEN.match(text) or _SPECIMEN_LABEL.match(text))


# A footnote or performing-lab mark after a name ("WBC ⁰¹"): a short word whose glyph box is
# at most this share of the name's, raised off the name's baseline.
_MARK_SHARE = 0.75
_MARK_CHARS = re.compile(r"[0-9A-Za-z*#†‡§]{1,3}")


def without_marks(words: list[Word]) -> list[Word]:
    """The name's words without the superscript marks printed after it. Told by the glyph
    boxes (height and baseline), never by the reported font size or by the text alone:
    "Vitamin B 12" and "Hemoglobin A1c" keep their words."""
    kept = list(words)
    while len(kept) > 1 and _raised_mark(kept[-1], kept[:-1]):
        kept.pop()
    return kept


def _raised_mark(word: Word, name: list[Word]) -> bool:
    if not _MARK_CHARS.fullmatch(word.text):
        return False
    heights = sorted(w.bottom - w.top for w in name)
    height = heights[len(heights) // 2]
    baseline = sorted(w.bottom for w in name)[len(name) // 2]
    small = word.bottom - word.top <= _MARK_SHARE * height
    return small and baseline - word.bottom > 0.15 * height


# An OCR word this unsure, after the name's first word, that reads as dots or noise is the
# dotted leader between the name and its value, read as letters.
_LEADER_CONFIDENCE = 0.3


def trim_ocr_leader(words: list[Word]) -> list[Word]:
    """The name's words without the trailing leader OCR read as text ("Capacity -rmlmmme",
    "COLOR Saesy cons aie tris es"): trailing words read with almost no confidence, never
    the first word."""
    kept = list(words)
    while len(kept) > 1 and _leader_word(kept[-1]):
        kept.pop()
    return kept


def _leader_word(word: Word) -> bool:
    """OCR gives the letters it makes of a leader's dots almost no confidence; a name's
    own words, even misread, keep some."""
    return word.conf < _LEADER_CONFIDENCE
