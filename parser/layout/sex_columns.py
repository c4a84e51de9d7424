"""Reference ranges printed in a column per sex: the range heading stands over a line of sex
labels ("Reference Range" over "Male  Female"), and a row prints either a range under each
label ("13.0 - 17.0   12.0 - 15.0") or one range for both, centred between them.

Read as one cell the two ranges run together and the first (the male one) was taken for every
patient. Each range is given its column's label ("Male: 13.0 - 17.0 Female: 12.0 - 15.0"), the
tiers the range parser picks the patient's from; a range alone on its row stays as printed.
"""

from __future__ import annotations

from parser import columns as cols
from parser.layout.rows import RawRow
from parser.lines import Line
from parser.ranges import looks_like_range
from parser.vocabulary import range_sex_words

_SEXES = range_sex_words()


def sex_labels(line: Line) -> list[tuple[str, float, float]] | None:
    """The (printed label, x0, x1) of a line holding only sex labels, both sexes ("Male
    Female", "M  F"); None for any other line."""
    words = [w for w in line.words if w.text.strip(":")]
    sexes = [_SEXES.get(w.text.strip(":").lower()) for w in words]
    if len(words) < 2 or None in sexes or len(set(sexes)) != len(sexes):
        return None
    return [(w.text.strip(":"), w.x0, w.x1) for w in words]


def label_sex_ranges(lines: list[Line], rows: list[RawRow]) -> None:
    """Each row whose line prints a range under each sex label of the table gets them as one
    labelled range text; `lines` are the table's, the labels' line among the first."""
    labels = next((found for line in lines[:2] if (found := sex_labels(line)) is not None), None)
    if labels is None:
        return
    texts = {id(line.words[0]): text for line in lines if (text := _labelled(line, labels)) is not None}
    for row in rows:
        text = next((texts[id(w)] for w in row.words if id(w) in texts), None)
        if text is not None and row.range_text is not None:
            row.range_text = text


def _labelled(line: Line, labels: list[tuple[str, float, float]]) -> str | None:
    """"Male: 13.0 - 17.0 Female: 12.0 - 15.0" when the line prints one range under each label
    (overlapping it), in the labels' order; None otherwise."""
    left = min(x0 for _, x0, _ in labels) - 2 * line.size
    ranges = [p for p in line.phrases() if p.x1 > left and
              (cols.content_kind(p.text) == cols.RANGE or looks_like_range(p.text))]
    if len(ranges) != len(labels):
        return None
    parts = []
    for phrase, (label, x0, x1) in zip(ranges, labels):
        if min(phrase.x1, x1) - max(phrase.x0, x0) <= 0:
            return None  # not under its label: a range of another column
        parts.append(f"{label}: {phrase.text.strip()}")
    return " ".join(parts)
