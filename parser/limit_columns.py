"""A reference range printed as two columns, the lower limit's and the upper's, each under its
own label ("Norm von | bis", "Min | Max", "Ref Low | Ref High").

Header finding reads the two labels as one range column that remembers where the lower
column ends (`merged_limit_labels`); a row's two limits are then joined into one range by the
side of that split each stands on (`joined_limits`): "3,9 | 10,2" -> "3,9 - 10,2", a lower limit
alone ("45 |") -> "≥ 45", an upper alone ("| 35") -> "≤ 35". The printed labels say which
limit a lone number is, so its side is read, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from parser import vocabulary
from parser.lines import Phrase
from parser.page import Word
from parser.ranges import NUMBER, parse_number

Words = list[tuple[str, float, float]]

# How the pair is handed to header finding: a label the vocabulary reads as a range column.
RANGE_LABEL = "reference range"
# At most this many words before the lower label name the range ("Norm von", "Ref Low").
MAX_NAMING_WORDS = 2
_LIMIT = re.compile(r"^\s*" + NUMBER + r"\s*$")
# An upper limit more than this many times the lower is no range: of 3,401 two-sided ranges
# with a positive lower limit in 179 stored expected reports (html, synthetic, real, opened
# real-like), none exceeds 50. OCR reads such pairs ("3,5 | 551" for "3,5 | 5,1"); the cell
# is then left unread rather than guessed.
MAX_LIMITS_RATIO = 100


@dataclass(frozen=True, slots=True)
class LimitPair:
    """Where the merged label stands and the x between its lower and upper columns."""

    x0: float
    x1: float
    split: float


@lru_cache(maxsize=1)
def _labels() -> tuple[frozenset[str], frozenset[str]]:
    pairs = vocabulary.LIMIT_COLUMN_LABELS.values()
    return (frozenset(label for lower, _ in pairs for label in lower),
            frozenset(label for _, upper in pairs for label in upper))


def _phrases(words: Words, gap: float) -> list[tuple[int, int]]:
    """Index spans of the words printed together (no wider gap than `gap` inside)."""
    spans: list[tuple[int, int]] = []
    for i, (_, x0, _) in enumerate(words):
        if spans and x0 - words[i - 1][2] <= gap:
            spans[-1] = (spans[-1][0], i + 1)
        else:
            spans.append((i, i + 1))
    return spans


def _ends_with_lower(keys: list[str], lower: frozenset[str]) -> bool:
    return any(" ".join(keys[-n:]) in lower and len(keys) - n <= MAX_NAMING_WORDS
               for n in range(1, min(3, len(keys)) + 1))


def merged_limit_labels(words: Words, key: Callable[[str], str], gap: float
                        ) -> tuple[Words, LimitPair | None]:
    """`words` of a line with a lower-limit label followed by an upper-limit label, each a
    column label of its own (a wider gap than `gap` around them), merged into one range label;
    and where the pair stands. `key`: how a heading word is looked up (columns.label_key)."""
    lower, upper = _labels()
    spans = _phrases(words, gap)
    for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
        keys = [key(text) for text, _, _ in words[a0:a1]]
        if " ".join(key(text) for text, _, _ in words[b0:b1]) in upper and _ends_with_lower(keys, lower):
            pair = LimitPair(words[a0][1], words[b1 - 1][2], (words[a1 - 1][2] + words[b0][1]) / 2)
            return [*words[:a0], (RANGE_LABEL, pair.x0, pair.x1), *words[b1:]], pair
    return words, None


def _range_text(low: str, high: str) -> str | None:
    """One range from the two columns' texts; None when either is not a bare limit."""
    if any(text and not _LIMIT.match(text) for text in (low, high)):
        return None
    if low and high:
        return f"{low} - {high}"
    return f"≥ {low}" if low else f"≤ {high}" if high else None


def _misread(low: str, high: str) -> bool:
    """Two bare limits that make no range: the upper below the lower, or far beyond any
    range's spread (MAX_LIMITS_RATIO)."""
    bottom, top = (parse_number(text, decimal_comma="," in text) for text in (low, high))
    return bottom is None or top is None or top <= bottom or (bottom > 0 and top > MAX_LIMITS_RATIO * bottom)


def joined_limits(cells: dict[str, list[Phrase]], split: float | None, kind: str
                  ) -> dict[str, list[Phrase]]:
    """`cells` with the phrases of the `kind` (range) column, printed in two limit columns
    split at `split`, joined into one range phrase; unchanged when there is no split or the
    cells are not bare limits (a printed "< 5" or a word stays for the range reader); without
    the range when its two limits make none (misread digits)."""
    phrases = cells.get(kind)
    if split is None or not phrases:
        return cells
    # By word: two near limits may have been joined into one phrase of the cell.
    words = [w for p in phrases for w in p.words]
    low = " ".join(w.text for w in words if (w.x0 + w.x1) / 2 < split).strip()
    high = " ".join(w.text for w in words if (w.x0 + w.x1) / 2 >= split).strip()
    text = _range_text(low, high)
    if text is None:
        return cells
    if low and high and _misread(low, high):
        return {k: v for k, v in cells.items() if k != kind}  # left unread, never guessed
    word = Word(text, words[0].x0, min(w.top for w in words), words[-1].x1,
                max(w.bottom for w in words), min(w.conf for w in words), words[0].size, False)
    return {**cells, kind: [Phrase([word])]}
