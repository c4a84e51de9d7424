"""A word result printed across the columns after the value's.

    TEST                          RESULT   FLAG  UNITS      REF RANGE
    HAEMOGLOBIN                       66    LL   g/L        115-160
    MALARIA SLIDE            P. FALCIPARUM SEEN (++)

A fixed-pitch print (a dot-matrix report) sets numbers right-aligned in the result column and
a finding in words from the result column's left on, running over the flag and unit columns.
Split at the columns, the finding's words would read as a value, a flag and a unit. A phrase
that reads whole as a qualitative result (perhaps with its grade in brackets after it) and
overlaps a value column is that column's cell. OCR may set the gap after a genus's initial
("P. FALCIPARUM") as a column gap: an initial alone right before such a phrase is its first word.
"""

from __future__ import annotations

import re

from parser import columns as cols
from parser.columns import Header
from parser.lines import Phrase, median_size
from parser.vocabulary import qualitative_result

# A grade or remark in brackets after a finding ("(++)", "(scanty)").
_BRACKETED_AFTER = re.compile(r"\s*\([^()]*\)$")
# An abbreviated first word ("P." of "P. falciparum").
_INITIAL = re.compile(r"[A-Z]\.")
# An initial stands at most this many line heights before the rest of its finding.
_INITIAL_GAP = 2.0


def word_result_across(phrase: Phrase, header: Header) -> str | None:
    """The value column the phrase is the cell of, when it is a word result set across
    columns; None otherwise."""
    text = phrase.text.strip()
    if not any(ch.isalpha() for ch in text) or not qualitative_result().fullmatch(_BRACKETED_AFTER.sub("", text)):
        return None
    return next((c.kind for c in header.columns
                 if c.kind in cols.VALUE_KINDS and min(phrase.x1, c.x1) - max(phrase.x0, c.x0) > 0), None)


def with_initials_joined(phrases: list[Phrase], header: Header) -> list[Phrase]:
    """The phrases, an initial alone right before a word result set across columns joined to it."""
    joined: list[Phrase] = []
    for phrase in phrases:
        before = joined[-1] if joined else None
        if before is not None and _INITIAL.fullmatch(before.text.strip()) and \
                phrase.x0 - before.x1 <= _INITIAL_GAP * median_size(phrase.words):
            whole = Phrase([*before.words, *phrase.words])
            if word_result_across(whole, header) is not None:
                joined[-1] = whole
                continue
        joined.append(phrase)
    return joined
