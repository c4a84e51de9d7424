"""Tables printed in a typewriter (monospaced) font: fixed fields, one character pitch.

Such a print (a LIS's line-printer layout) gives each column a field of fixed width, so a
test name wraps only when it would run into the next field. A name-only line over a row
("Kleines Blutbild" over "Leukozyten  5,8  Tsd/µl ...") that, with the row name's first word
after it, still ends well before the next field's first character could not have wrapped
there: it is a sub-section heading, not the first line of the row's name.

The font is told from the rows' name words: in a monospaced font every character is as wide
as any other, so each word's width per character is the same, and the space between two words
of a name is as wide as a character (about half of one in a proportional font).
"""

from __future__ import annotations

import statistics

from parser import columns as cols
from parser.layout.cells import Cells
from parser.page import Word

# Widths per character of the names' words may differ by this ratio at most (text-layer
# positions are rounded): measured 1.000-1.001 in the tables of the six monospaced prints
# among the opened real-like dev reports, 1.13 and more in the proportional ones.
MAX_PITCH_SPREAD = 1.03
# At least this many name words of 3 characters or more are needed to call the font.
MIN_WORDS = 6
# Words this short say little about the pitch (an "I" and an "M" are rare alone).
MIN_WORD_CHARS = 3
# The space between two words of a name is at least this share of the pitch: measured 1.00 on
# the monospaced prints of the opened real-like dev reports (median of each table), 0.46-0.64
# on the proportional ones; pages of words set at a fixed pitch but spaced like a proportional
# font (test pages) are no typewriter print.
MIN_SPACE_SHARE = 0.8
# A line that fits the field must end this many characters before the next field starts
# (a field's own padding, and values set off their field's left edge).
FIELD_MARGIN_CHARS = 2


def pitch(named: list[Cells]) -> float | None:
    """The character pitch of the rows' names when they are printed in a monospaced font;
    None for a proportional font or too few words to tell."""
    widths = [(w.x1 - w.x0) / len(w.text) for c in named for w in c.name_words()
              if len(w.text) >= MIN_WORD_CHARS]
    if len(widths) < MIN_WORDS or max(widths) > MAX_PITCH_SPREAD * min(widths):
        return None
    char = sum(widths) / len(widths)
    spaces = [b.x0 - a.x1 for c in named for phrase in c.cells.get(cols.NAME, [])
              for a, b in zip(phrase.words, phrase.words[1:])]
    return char if spaces and statistics.median(spaces) >= MIN_SPACE_SHARE * char else None


def names_field(named: list[Cells]) -> tuple[float, float] | None:
    """(where the names' field ends at the latest, the character pitch) in a monospaced
    table: the field ends at the first character printed in any other column of a row.
    None for a proportional font."""
    char = pitch(named)
    starts = [p.x0 for c in named for kind, phrases in c.cells.items() if kind != cols.NAME for p in phrases]
    return (min(starts), char) if char is not None and starts else None


def fits_field(above: list[Word], below: list[Word], field: tuple[float, float] | None) -> bool:
    """Do name-only words `above` and the first word of the row's name `below`, set on one
    line with a space between, end `FIELD_MARGIN_CHARS` before the names' `field` ends?"""
    if field is None or not above or not below:
        return False
    end, char = field
    width = (above[-1].x1 - above[0].x0) + char + (below[0].x1 - below[0].x0)
    return above[0].x0 + width <= end - FIELD_MARGIN_CHARS * char
