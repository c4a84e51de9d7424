"""A leading '6' whose ink is a loop closed at the top ('0.21' read '6.21' on a photo) is doubted.

Tesseract takes a zero for a six on a soft photo with good confidence, and the reading looks
right ('6.21' beside '0.36-0.47' is merely abnormal). The ink tells them apart: a six's bowl,
the paper it encloses, lies in the lower half of the glyph, its top being an open hook; a zero
(like an 8 or a 9) encloses paper up in its upper part. Which digit it is instead the ink
cannot say for sure (0, 8 or 9), so the word keeps its text and goes to review.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from parser.page import Word

# A '6' read at the start of a number ('6.21', '62', '6,5').
_LEADING_SIX = re.compile(r"^6[\d.,]*\d$|^6$")
# Paper enclosed within this share of the glyph's height from its top: a loop closed at the top.
CLOSED_TOP = 0.35
SIX_DOUBT_CONFIDENCE = 0.3  # below the review threshold: a person checks the value


def doubt_closed_sixes(words: list[Word], first_glyphs) -> list[Word]:
    """`words` with a number read as starting with '6' lowered to review confidence when its
    first glyph's ink encloses paper near its top. `first_glyphs(word)` gives the first glyph's
    binarized ink (True = ink), or None when the glyphs cannot be told apart."""
    out = []
    for word in words:
        if _LEADING_SIX.match(word.text) and word.conf > SIX_DOUBT_CONFIDENCE:
            ink = first_glyphs(word)
            if ink is not None and _encloses_paper_near_top(ink):
                word = replace(word, conf=SIX_DOUBT_CONFIDENCE)
        out.append(word)
    return out


def _encloses_paper_near_top(ink: np.ndarray) -> bool:
    """Does the glyph enclose paper (paper not reachable from the crop's edge) within its top
    CLOSED_TOP share?"""
    height = ink.shape[0]
    if height < 8 or ink.shape[1] < 4:
        return False
    enclosed = ~ink & ~_reachable_paper(ink)
    rows = np.nonzero(enclosed.any(axis=1))[0]
    return bool(len(rows)) and rows[0] < CLOSED_TOP * height


def _reachable_paper(ink: np.ndarray) -> np.ndarray:
    """Paper connected (4-neighbours) to the crop's edge, grown until it stops changing."""
    paper = ~ink
    reach = np.zeros_like(paper)
    reach[0, :], reach[-1, :], reach[:, 0], reach[:, -1] = paper[0, :], paper[-1, :], paper[:, 0], paper[:, -1]
    while True:
        grown = reach.copy()
        grown[1:, :] |= reach[:-1, :]
        grown[:-1, :] |= reach[1:, :]
        grown[:, 1:] |= reach[:, :-1]
        grown[:, :-1] |= reach[:, 1:]
        grown &= paper
        if (grown == reach).all():
            return reach
        reach = grown
