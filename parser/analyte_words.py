"""Test-name words OCR misread by one look-alike glyph, set right against a vocabulary of
analyte words and codes (OCR rows only).

Tesseract confuses glyphs of one shape: a capital I, a small l, a one, a bar and an
exclamation mark ('lron', 'CKD-EP!'); a capital O and a zero ('TC02' for TCO2); an L and an E
whose arms it imagines ('Non-HDE' for HDL). A name word that is no analyte word but becomes
exactly one of them by changing one glyph for a look-alike is that word. Words of the
vocabulary are names and codes no other word is one glyph away from; a word the vocabulary
knows is never changed.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Analyte words and codes of the five languages whose look-alike glyphs OCR confuses (codes
# with I, O, L or E; words starting with a capital I). Upper-case forms are added.
_VOCABULARY = (
    "Iron", "Insulin", "Immunoglobulin", "Index", "Indice", "INR", "IgA", "IgE", "IgG",
    "IgM", "Ionized", "Ionised", "Inorganic", "Interleukin",
    "HDL", "LDL", "VLDL", "HbA1c", "CO2", "TCO2", "HCO3", "pCO2", "pO2", "EPI", "MDRD",
    "PLT", "LDH", "ALT", "GGT", "ESR", "CRP", "TIBC", "UIBC", "PTH", "FSH", "LH", "CEA",
)
# Look-alike glyph classes: a glyph OCR read may stand for any other of its class.
_LOOK_ALIKES = ("Il1|!", "O0", "LE")
_WORD = re.compile(r"[A-Za-z0-9|!]+")


@lru_cache(maxsize=1)
def _known() -> frozenset[str]:
    return frozenset(_VOCABULARY) | frozenset(word.upper() for word in _VOCABULARY)


def _alike(a: str, b: str) -> bool:
    return any(a in group and b in group for group in _LOOK_ALIKES)


def _one_glyph_away(word: str, known: str) -> bool:
    if len(word) != len(known):
        return False
    slips = [(a, b) for a, b in zip(word, known) if a != b]
    return len(slips) == 1 and _alike(*slips[0])


def _set_right(word: str) -> str:
    """The vocabulary word `word` is one look-alike glyph away from, if exactly one."""
    known = _known()
    if word in known or not any(group_char in word for group in _LOOK_ALIKES for group_char in group):
        return word
    found = {candidate for candidate in known if _one_glyph_away(word, candidate)}
    return found.pop() if len(found) == 1 else word


def repair_words(name: str) -> str:
    """`name` with each word that is one look-alike glyph from one analyte word set right."""
    return _WORD.sub(lambda m: _set_right(m.group(0)), name)
