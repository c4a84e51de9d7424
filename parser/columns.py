"""Table columns: found from header words, and cell roles guessed from content.

A header line ("Test Name  Result  Flag  Units  Reference Range") gives each column's
x-extent. A phrase of a later line belongs to the column its extent overlaps; a phrase in
the gap between two headers (Drlogy prints an unlabelled "Normal" status there) is placed
by what it says. Two header sets on one line mean two panels side by side.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from parser import limit_columns, vocabulary
from parser.flags import is_flag, parse_value_mark
from parser.ranges import NUMBER, looks_like_range
from parser.units import is_unit, repair, unglue

NAME, RESULT, FLAG, UNITS, RANGE = "name", "result", "flag", "units", "range"
IN_RANGE, OUT_OF_RANGE, PREVIOUS, OTHER = "in_range", "out_of_range", "previous", "other"
# A heading word the vocabulary does not know, between known labels: its kind is read from
# the content printed under it (see resolve_unknown).
UNKNOWN = "unknown"
VALUE_KINDS = (RESULT, IN_RANGE, OUT_OF_RANGE)

# Header label (lower case, punctuation dropped) -> column kind. Longest label wins.
_LABELS: dict[str, str] = vocabulary.header_labels()
MAX_LABEL_WORDS = max(len(label.split()) for label in _LABELS)
# The first words of the labels, one to all of them ("reference", "reference range"): a label
# starting at a key (which may hold spaces: "ref range") starts with one of these.
_LABEL_HEADS = {" ".join(label.split()[:n]) for label in _LABELS for n in range(1, len(label.split()) + 1)}
# Labels of the results column alone: "Abnormal", "In Range" are words data rows print too.
_VALUE_LABELS = sorted((label for label, kind in _LABELS.items() if kind == RESULT), key=len)
# Single words that occur in header labels (to recognise a second line of stacked labels).
LABEL_WORDS = {word for label in _LABELS for word in label.split()} - {
    "and", "of", "de", "di", "du", "des", "del", "la", "le", "en", "im", "der", "die",
    "no", "s"}  # of "Sl. No.", "S. No.": words, or letters, rows print too

_NUMERIC = re.compile(r"^[<>≤≥=]*\s*" + NUMBER + r"\s*%?$")
_UNIT = re.compile(
    r"^(?:[%‰]|[a-zA-Zµμ°][a-zA-Zµμ°0-9^*/.\-³²]*(?:\s*/\s*[a-zA-Zµμ0-9^.³²]+)*|"
    r"x?\s*10\^?\d+\s*/\s*[a-zA-Zµμ]+|\d+\^?\d*\s*/\s*[a-zA-Zµμ]+)$"
)


# A number alone, perhaps after a comparator: what a unit heading's column holds.
BARE_NUMBER = re.compile(r"[<>≤≥]?\d[\d.,]*")


def label_kind(label: str) -> str | None:
    """The column kind a heading label (as label_key gives it) names, or None."""
    return _LABELS.get(label)


@lru_cache(maxsize=4096)
def label_key(text: str) -> str:
    """A header word as looked up: lower case, letters only ("Ref.Range" -> "ref range"),
    accents folded ("Unités" -> "unites", "Größe" -> "grosse")."""
    text = text.lower().replace("ß", "ss")
    if not text.isascii():
        text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    if re.fullmatch(r"(?:[a-z]\.){2,}[a-z]?\.?", text):
        text = text.replace(".", "")  # dotted initials: "U.O.M." -> "uom"
    text = re.sub(r"[-.]", " ", text)
    return " ".join(re.sub(r"[^a-z/ ]+", "", text).split())


# OCR misreads one letter of a long heading word ("référèhce"): within one edit of a label
# word of at least this many letters, the word is that label (OCR pages only).
_SNAP_LETTERS = 7
_LONG_LABEL_WORDS = sorted(w for w in LABEL_WORDS if len(w) >= _SNAP_LETTERS)


@lru_cache(maxsize=4096)
def ocr_label_text(text: str) -> str:
    """`text`, or the label word an OCR reading of it is one letter away from."""
    key = label_key(text)
    if len(key) < _SNAP_LETTERS or key in LABEL_WORDS or " " in key:
        return text
    close = [w for w in _LONG_LABEL_WORDS if abs(len(w) - len(key)) <= 1 and Levenshtein.distance(key, w) <= 1]
    return close[0] if len(close) == 1 else text


@dataclass(slots=True)
class Column:
    kind: str
    x0: float
    x1: float
    label: str
    unit: str | None = None  # the unit its heading prints ("%", "Valeur absolue G/l")
    # A range printed as lower and upper limit columns: the x between them (limit_columns).
    split: float | None = None


@dataclass(slots=True)
class Header:
    """The columns of one table, and the horizontal span the table occupies."""

    columns: list[Column]
    x_start: float
    x_end: float
    top: float = 0.0
    bottom: float = 0.0
    page: int = 1
    kinds: set[str] = field(default_factory=set)
    _span_cache: dict[float, list] = field(default_factory=dict, repr=False, compare=False)
    # The same spans by the unrounded pad: round(pad, 1) costs more than the rest of assign.
    _pad_spans: dict[float, list] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.kinds = {c.kind for c in self.columns}

    def contains(self, x0: float, x1: float) -> bool:
        centre = (x0 + x1) / 2
        return self.x_start <= centre < self.x_end

    def shifted(self, scale: float) -> "Header":
        """The same columns on a page of another width (carried over to the next page)."""
        cols = [Column(c.kind, c.x0 * scale, c.x1 * scale, c.label) for c in self.columns]
        return Header(cols, self.x_start * scale, self.x_end * scale, 0.0, 0.0, self.page)

    def assign(self, x0: float, x1: float, text: str, size: float) -> str | None:
        """The kind of column a phrase at x0..x1 belongs to; None when it spans several."""
        pad = max(1.0, 0.4 * size)
        spans = self._spans(pad)
        hits = []
        for kind, (s0, s1) in spans:
            overlap = (x1 if x1 <= s1 else s1) - (x0 if x0 >= s0 else s0)  # min/max, inlined
            if overlap > 0:
                hits.append((overlap, kind))
        hits.sort(reverse=True)
        if len(hits) == 1:
            return hits[0][1]
        if len(hits) > 1:
            # Brushing a neighbour's padding is not spanning two columns.
            return hits[0][1] if hits[0][0] >= 3 * hits[1][0] else None
        return self._place_in_gap(x0, x1, text)

    def _spans(self, pad: float) -> list[tuple[str, tuple[float, float]]]:
        spans = self._pad_spans.get(pad)
        if spans is None:
            key = round(pad, 1)
            if key not in self._span_cache:
                self._span_cache[key] = self._compute_spans(key)
            spans = self._pad_spans[pad] = self._span_cache[key]
        return spans

    def _compute_spans(self, pad: float) -> list[tuple[str, tuple[float, float]]]:
        spans = []
        for i, col in enumerate(self.columns):
            s0, s1 = col.x0 - pad, col.x1 + pad
            nxt = self.columns[i + 1] if i + 1 < len(self.columns) else None
            if col.kind == NAME:
                # Names are left-aligned under their label and run up to the next column, from
                # the table's edge or the column before them (a code column: "Kürzel"); a
                # column of group labels runs up to them instead (below).
                if not (i and is_group_column(self.columns[i - 1], col)):
                    s0 = min(s0, self.columns[i - 1].x1 + 2 * pad if i else self.x_start)
                s1 = max(s1, (nxt.x0 if nxt else self.x_end) - 2 * pad)
            elif nxt is not None and is_group_column(col, nxt):
                # Group labels are left-aligned too, and run up to the names ("Differenzierung"
                # reaches past "Gruppe"); the names start under their own label.
                s1 = max(s1, nxt.x0 - pad)
            spans.append((col.kind, (s0, s1)))
        return spans

    def follows_value(self, x0: float) -> bool:
        """Is the nearest column left of x0 the value's (or the value's units)?"""
        left = [c for c in self.columns if c.x1 <= x0]
        return bool(left) and max(left, key=lambda c: c.x1).kind in (*VALUE_KINDS, UNITS)

    def nearest(self, x0: float, x1: float) -> str:
        """The column whose label centre is nearest the word's centre."""
        centre = (x0 + x1) / 2
        return min(self.columns, key=lambda c: abs((c.x0 + c.x1) / 2 - centre)).kind

    def _place_in_gap(self, x0: float, x1: float, text: str) -> str:
        if is_flag(text) or (parse_value_mark(text) is not None and self.follows_value(x0)):
            return FLAG  # "118 g/l  -  120 - 160": a sign of its own after the value, no range's
        kind = content_kind(text)
        centre = (x0 + x1) / 2
        # Otherwise the nearest column by edge distance, preferring one whose content fits.
        ranked = sorted(self.columns, key=lambda c: max(c.x0 - centre, centre - c.x1, 0))
        for col in ranked[:2]:
            if kind in (RESULT, RANGE, UNITS) and col.kind == kind:
                return col.kind
        return ranked[0].kind


_GROUP_KEYS = frozenset(vocabulary.GROUP_HEADINGS)


def is_group_column(col: Column, following: Column) -> bool:
    """Is `col` a column of group labels, headed as one, printed just left of the names?"""
    return col.kind == OTHER and following.kind == NAME and col.label in _GROUP_KEYS


def content_kind(text: str) -> str | None:
    """What a cell's text looks like on its own: result number, range, units, flag."""
    stripped = text.strip()
    if is_flag(stripped):
        return FLAG
    if looks_like_range(stripped):
        return RANGE
    if _NUMERIC.match(stripped):
        return RESULT
    if _UNIT.match(stripped) and len(stripped) <= 14:
        return UNITS
    return None


def looks_like_unit(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and len(stripped) <= 16 and bool(_UNIT.match(stripped))


def find_headers(words: list[tuple[str, float, float]], top: float, bottom: float,
                 page: int, page_width: float, ocr: bool = False) -> list[Header]:
    """Headers on one line of (text, x0, x1) words (`_find_headers`), a range printed as
    lower and upper limit columns ("Norm von | bis") read as one range column."""
    gap = max(2.0, bottom - top) if ocr else _phrase_gap(bottom - top)
    words, pair = limit_columns.merged_limit_labels(words, label_key, gap)
    headers = _find_headers(words, top, bottom, page, page_width, ocr)
    for col in (c for h in headers for c in h.columns) if pair else ():
        if col.kind == RANGE and col.x0 <= pair.x0 + 1 and col.x1 >= pair.x1 - 1:
            col.split = pair.split
    return headers


def _find_headers(words: list[tuple[str, float, float]], top: float, bottom: float,
                  page: int, page_width: float, ocr: bool = False) -> list[Header]:
    """Headers on one line of (text, x0, x1) words; several when panels sit side by side
    (`ocr`: word boxes from OCR, ink-tight, about a cap height tall).

    Labels of the vocabulary place the columns; a heading word the vocabulary lacks becomes
    a column of unknown kind where the labels leave a gap its content may fill (the name or
    the value column), to be confirmed by the content under it (resolve_unknown)."""
    if not words or sum(":" in text for text, _, _ in words) >= 2:
        return []  # "Label : value" pairs, never a table's headings
    keys = [label_key(text) for text, _, _ in words]
    height = bottom - top
    if sum(1 for key in keys if key in LABEL_WORDS or key in _LABELS) < 2 and \
            not _value_label_only(words, keys) and not _name_label_only(words, keys, height):
        return []  # most lines: not two label words, so no header
    if _labels_inside_titles(words, keys, max(2.0, height) if ocr else _phrase_gap(height)):
        return []
    matched, unmatched, unknown = _match_labels(words, keys, bottom - top)
    matched = _bilingual_labels(matched, words, height)
    matched = _units_in_names(matched, words, height)
    matched, unmatched, unknown = _names_phrase(words, matched, unmatched, unknown, height)
    if len(matched) == 1 and matched[0].kind in VALUE_KINDS and _value_label_only(words, keys):
        matched, unknown = _unknown_lead_as_names(matched, unknown)
    if len(matched) == 1 and matched[0].kind == NAME and _name_label_only(words, keys, height):
        unknown = _merge_adjacent([c for c in unknown if c.x0 > matched[0].x1])
        # "TEST  OBSERVATION": the value heading is a word the vocabulary lacks, a column's
        # gap after the names' label ("EXAMEN DES URINES", a title, runs on with a space).
        if unknown and unknown[0].x0 - matched[0].x1 > max(4.0, 1.5 * height):
            return _split_side_by_side(matched + unknown, top, bottom, page, page_width)
    if len(matched) < 2:
        return []
    # Words left or right of the labels belong to a table beside this one (a data row of
    # the left panel on the line of the right panel's header); words between labels do not.
    if NAME not in {c.kind for c in matched}:
        matched = _names_from_unknown(matched, unknown)
        named = {c.x0 for c in matched if c.kind == NAME}
        unmatched = [x for x in unmatched if x not in named]  # now the name column's label
        unknown = [c for c in unknown if c.x0 not in named]
    first, last = matched[0].x0, matched[-1].x1
    inside = [x for x in unmatched if first < x < last]
    if len(inside) > max(1, len(matched) // 2) and not _unknown_headings(words, unknown, inside, height):
        return []
    kinds = {c.kind for c in matched}
    if RESULT not in kinds and kinds & {IN_RANGE, OUT_OF_RANGE}:
        # "Out of Range" labelled, the results' own heading unknown ("Reading"): keep it,
        # also when it is the last heading (of a table alone, or of the right one of two).
        between = _merge_adjacent([c for c in unknown if first < c.x0])
        matched = sorted(matched + between, key=lambda c: c.x0)
    headers = _split_side_by_side(matched, top, bottom, page, page_width)
    if not headers:
        # No value column labelled: unknown words between the labels may be it ("Reading").
        between = _merge_adjacent([c for c in unknown if c.x0 > first])
        headers = _split_side_by_side(sorted(matched + between, key=lambda c: c.x0), top, bottom,
                                      page, page_width)
    if headers:
        _keep_to_own_table(headers, words, unmatched, first, last, page_width)
    return headers


def _unknown_lead_as_names(matched: list[Column], unknown: list[Column]) -> tuple[list[Column], list[Column]]:
    """"Particulars  Indicator  Your Value": the names' label is a word the vocabulary lacks;
    the leftmost unknown heading (left of the one value label) is the name column."""
    lead = [c for c in unknown if c.x1 < matched[0].x0]
    if not lead:
        return matched, unknown
    name = lead[0]
    matched = [Column(NAME, name.x0, name.x1, name.label)] + matched
    unknown = [c for c in unknown if c is not name]
    return sorted(matched + _merge_adjacent(unknown), key=lambda c: c.x0), unknown


def _keep_to_own_table(headers: list[Header], words: list[tuple[str, float, float]], unmatched: list[float],
                       first: float, last: float, page_width: float) -> None:
    """Narrow the outer headers away from a table beside this one: words left of the first label
    on a header starting right of the page's third, data (with digits; garbled labels have
    none) right of the last label in the page's right half."""
    if first > 0.3 * page_width and any(x < first for x in unmatched):
        headers[0].x_start = max(headers[0].x_start, first - 4)
    right = [x for (text, x, _) in words if x > last and re.search(r"\d", text)]
    if right and min(right) > 0.5 * page_width:
        headers[-1].x_end = min(headers[-1].x_end, min(right) - 4)


HEADING_JOINERS = {"of", "and", "in", "de", "du", "des", "la", "le", "di", "del", "der", "im"}


def _phrase_gap(height: float) -> float:
    """The widest gap between two words of one phrase or label on a line of this height."""
    return max(2.0, 0.6 * height)


# At least this share of the words in the phrases holding label words must be label words
# (or joiners): "Reporting Unit" and Agilus's "Test Report Status Final" hold half.
_MIN_LABEL_SHARE_IN_PHRASES = 0.5


def _labels_inside_titles(words: list[tuple[str, float, float]], keys: list[str], space: float) -> bool:
    """Are the line's label words parts of titles, each run on with single spaces (gaps up to
    `space`) into words the vocabulary lacks ("11-Mar-2025  Liver function tests  Pathology
    result · Clinical biochemistry": a GP system's dated group heading)? A header's phrases are
    its labels, with at most a word the vocabulary lacks beside each.

    On an OCR line a single space is the gap its phrases are cut at (parser.lines: the box
    height): an OCR box is ink-tight and about a cap height tall, so a space is a larger share
    of it than of a text layer's em, and a title's spaces ("Résultats d'analyses reçus (HPRIM
    Santé)" on a photo) would read as column gaps at a text layer's measure."""
    runs: list[list[str]] = []
    previous_x1 = None
    for (_, x0, x1), key in zip(words, keys):
        if previous_x1 is None or x0 - previous_x1 > space:
            runs.append([])
        previous_x1 = x1
        if _LETTER.search(key):
            runs[-1].append(key)
    counted = [run for run in runs if any(k in LABEL_WORDS for k in run)]
    total = sum(len(run) for run in counted)
    labels = sum(k in LABEL_WORDS or k in HEADING_JOINERS for run in counted for k in run)
    return total > 0 and labels < _MIN_LABEL_SHARE_IN_PHRASES * total


def _unknown_headings(words: list[tuple[str, float, float]], unknown: list[Column],
                      inside: list[float], height: float) -> bool:
    """Are the words between the labels headings the vocabulary lacks ("TESTS  INDICATOR
    OBSERVATION  NORMAL RANGE  U.O.M."), not the words of a sentence or a data row: no digit
    on the line, each an unknown word, set apart by column gaps (a sentence is single-spaced).
    Their columns must still be confirmed by the content under them (needs_confirmation)."""
    if any(_DIGIT.search(text) for text, _, _ in words):
        return False
    # Headings are capitalised; a sentence or a comment beside a row is not.
    if any(text[:1].islower() and text not in HEADING_JOINERS for text, _, _ in words):
        return False
    heads = {c.x0: c for c in unknown}
    if not all(x in heads for x in inside):
        return False
    if any((is_flag(text) and label_key(text) not in LABEL_WORDS) or is_unit(text)
           or vocabulary.qualitative_result().match(text.strip("*"))
           for text, x0, _ in words if x0 in inside):
        return False  # "NEGATIVE", "mg/dL", "H": a data row's cells, not headings ("ABN",
        # a flag that is also a label word, as in "Abn Flag", may head the flags)
    gaps = [b0 - a1 for (_, _, a1), (_, b0, _) in zip(words, words[1:])]
    return sum(gap > height for gap in gaps) >= len(inside)


def _match_labels(words: list[tuple[str, float, float]], keys: list[str], height: float
                  ) -> tuple[list[Column], list[float], list[Column]]:
    """The line's label columns (longest label first), the x0 of the words that are not
    labels, and those words as columns of unknown kind."""
    matched: list[Column] = []
    unmatched: list[float] = []
    unknown: list[Column] = []
    i = 0
    while i < len(words):
        hit = None
        # A word no label starts with (most words of a line) starts no label: no joins to try.
        for n in range(min(MAX_LABEL_WORDS, len(words) - i) if keys[i] in _LABEL_HEADS else 0, 0, -1):
            if not keys[i] or not keys[i + n - 1]:
                continue  # a label starts and ends with a word: never with a rule's "|"
            label = " ".join(k for k in keys[i:i + n] if k)
            if label in _LABELS and _tight(words[i:i + n], max(14.0, 1.2 * height)):
                hit = (n, label)
                break
        if hit is None:
            if keys[i] in ("and", "", "/", "&") or not keys[i]:
                i += 1
                continue
            if matched and words[i][1] - matched[-1].x1 < 12 and keys[i] in ("date", "dates", "of"):
                matched[-1].x1 = words[i][2]  # "Previous Result and Date"
            else:
                unmatched.append(words[i][1])
                if not _DIGIT.search(words[i][0]):
                    unknown.append(Column(UNKNOWN, words[i][1], words[i][2], keys[i]))
            i += 1
            continue
        n, label = hit
        x0 = words[i][1]
        joined = True
        while joined and unknown and unknown[-1].x1 <= x0 and \
                x0 - unknown[-1].x1 < _word_gap(unknown[-1], height) and \
                (not matched or unknown[-1].x0 > matched[-1].x1):
            # A word the vocabulary lacks printed as part of this label ("Reporting Unit"),
            # and the word before a joiner ("Limiti di riferimento"): the column starts there.
            joined = unknown[-1].label in HEADING_JOINERS
            x0 = unknown.pop().x0
            unmatched.pop()
        matched.append(Column(_LABELS[label], x0, words[i + n - 1][2], label))
        i += n
    return matched, unmatched, unknown


def _bilingual_labels(matched: list[Column], words: list[tuple[str, float, float]], height: float
                      ) -> list[Column]:
    """A heading printed in two languages, joined by a slash ("Untersuchung / Esame",
    "Einheit / Unità"), is one column: two labels of one kind with only a "/" between them."""
    merged: list[Column] = []
    space = _phrase_gap(height)
    for col in matched:
        before = merged[-1] if merged else None
        between = [w for w in words if before is not None and w[1] >= before.x1 and w[2] <= col.x0]
        if before is not None and before.kind == col.kind and len(between) == 1 and \
                between[0][0] == "/" and between[0][1] - before.x1 < space and col.x0 - between[0][2] < space:
            merged[-1] = Column(col.kind, before.x0, col.x1, before.label)
        else:
            merged.append(col)
    return merged


# The label of a names' column whose names carry their unit in brackets ("Test (units)").
_WITH_UNITS = " (units)"


def _units_in_names(matched: list[Column], words: list[tuple[str, float, float]], height: float
                    ) -> list[Column]:
    """A units label in brackets run on after the names' label ("Test (units)") heads no
    column: each name prints its unit in brackets after it ("Sodium (mmol/L)"). The two are
    the names' column, marked so (names_carry_units)."""
    merged: list[Column] = []
    for col in matched:
        before = merged[-1] if merged else None
        texts = [t for t, x0, x1 in words if col.x0 <= x0 and x1 <= col.x1]
        if before is not None and before.kind == NAME and col.kind == UNITS and texts and \
                texts[0][:1] in "([" and texts[-1][-1:] in ")]" and col.x0 - before.x1 < _phrase_gap(height):
            merged[-1] = Column(NAME, before.x0, col.x1, before.label + _WITH_UNITS)
        else:
            merged.append(col)
    return merged


def names_carry_units(header: Header) -> bool:
    """Do the header's names print their unit in brackets after them ("Test (units)")?"""
    return any(c.kind == NAME and c.label.endswith(_WITH_UNITS) for c in header.columns)


def _names_phrase(words: list[tuple[str, float, float]], matched: list[Column],
                  unmatched: list[float], unknown: list[Column], height: float
                  ) -> tuple[list[Column], list[float], list[Column]]:
    """A flag label run on with single spaces after the names' label and a word the
    vocabulary lacks ("Test Report Status  Final" in one cell, Agilus/SRL) is part of the
    names' heading, not a column of its own: cut there, it split every name in two."""
    names = [i for i, c in enumerate(matched) if c.kind == NAME]
    if not names or names[0] + 1 >= len(matched) or matched[names[0] + 1].kind != FLAG:
        return matched, unmatched, unknown
    name, flag = matched[names[0]], matched[names[0] + 1]
    # The words from the names' label to the end of the flag label (which may have taken
    # the unknown word before it: "Report Status"): at least one besides the flag word.
    chain = [w for w in words if name.x1 <= w[1] and w[2] <= flag.x1 + 0.5]
    if len(chain) < 2:
        return matched, unmatched, unknown
    after = [w for w in words if w[1] >= flag.x1]
    run = [(name.label, name.x0, name.x1)] + chain
    space = _phrase_gap(height)
    for w in after:
        if w[1] - run[-1][2] < space and w[1] in unmatched:
            run.append(w)
        else:
            break
    gaps = [b[1] - a[2] for a, b in zip(run, run[1:])]
    if any(gap > space for gap in gaps):
        return matched, unmatched, unknown
    inside = {w[1] for w in run[1:]} | {flag.x0}
    merged = Column(NAME, name.x0, run[-1][2], " ".join(label_key(w[0]) for w in run))
    matched = matched[:names[0]] + [merged] + matched[names[0] + 2:]
    return (matched, [x for x in unmatched if x not in inside],
            [c for c in unknown if c.x0 not in inside])


def _word_gap(word: Column, height: float) -> float:
    """The widest gap after `word` that is still a space inside one label: 0.6 of the line's
    height, and no more than about one character of the word (labels stacked on two lines
    have twice a line's height, not twice its spaces)."""
    char = (word.x1 - word.x0) / max(1, len(word.label))
    return min(0.6 * height, 1.5 * char)


def _tight(words: list[tuple[str, float, float]], max_gap: float) -> bool:
    """Words of one multi-word label sit close together (not two columns' labels)."""
    for (_, _, a1), (_, b0, _) in zip(words, words[1:]):
        if b0 - a1 > max_gap:
            return False
    return True


def _split_side_by_side(columns: list[Column], top: float, bottom: float, page: int,
                        page_width: float) -> list[Header]:
    groups: list[list[Column]] = [[]]
    for col in columns:
        if col.kind == NAME and any(c.kind == NAME or c.kind in VALUE_KINDS for c in groups[-1]):
            # Names start a table, after the table before it; a code or method column before
            # the names ("Kürzel  Untersuchung  Ergebnis") is this table's own.
            groups.append([])
        groups[-1].append(col)
    for group in groups:
        # A second "Result" in one table is a past result whose first label word was lost
        # ("Previous Result", "Last Result"): never read it as the current value.
        results = [c for c in group if c.kind in VALUE_KINDS]
        for extra in results[1:]:
            if extra.kind == RESULT and results[0].kind == RESULT:
                extra.kind = PREVIOUS
        # "Abn ... Status" (an HL7 lab viewer): beside a flag column, "Status" is the result's
        # status (F final, P preliminary, C corrected), never a flag ("C" would read critical).
        flags = [c for c in group if c.kind == FLAG]
        if len(flags) > 1:
            for col in flags:
                if col.label == "status":
                    col.kind = OTHER
    headers = []
    for i, group in enumerate(groups):
        if not _is_table_header(group):
            continue
        # A table starts at the page edge, unless its names begin well inside the page
        # (the right-hand one of two panels side by side, alone under its own header).
        # (Without a names' label the names sit left of the first label, wherever it is:
        # "Résultat  Valeurs de référence  Antériorités" over names at the margin.)
        inset = group[0].x0 > 0.3 * page_width and group[0].kind == NAME
        x_start = group[0].x0 - 4 if i > 0 or inset else 0.0
        x_end = groups[i + 1][0].x0 - 4 if i + 1 < len(groups) else page_width
        group, second = _first_group(group)
        if second is not None:
            x_end = second - 4
        headers.append(Header(group, x_start, x_end, top, bottom, page))
    return headers


def _first_group(group: list[Column]) -> tuple[list[Column], float | None]:
    """A table printing each result twice, in two groups of columns ("SI: Result Unit
    Reference | Conventional: Result Unit Reference Range"): the first group's columns, and
    where the second begins (its units or range label repeated, with the value before it).
    The second value is the same result in other units (or a past one): never a result."""
    seen: set[str] = set()
    for j, col in enumerate(group):
        if col.kind in (UNITS, RANGE) and col.kind in seen:
            start = j
            while start - 1 > 0 and group[start - 1].kind in (PREVIOUS, OTHER, UNKNOWN) and \
                    group[start - 1].kind not in seen:
                start -= 1
            return group[:start], group[start].x0
        seen.add(col.kind)
    return group, None


def _value_label_only(words: list[tuple[str, float, float]], keys: list[str]) -> bool:
    """A short line of words without digits holding one value label ("Your Value")."""
    if not 2 <= len(words) <= 7 or any(_DIGIT.search(text) for text, _, _ in words):
        return False
    joined = " ".join(k for k in keys if k)
    return _VALUE_LABEL_IN.search(f" {joined} ") is not None


_DIGIT, _LETTER = re.compile(r"\d"), re.compile(r"[a-z]")
# Any value label as whole words of the space-padded keys, in one search (it was one
# substring test per label, on most lines of every page).
_VALUE_LABEL_IN = re.compile("|".join(
    re.escape(f" {label} ") for label in _VALUE_LABELS if _LABELS.get(label) in VALUE_KINDS))


def _names_from_unknown(matched: list[Column], unknown: list[Column]) -> list[Column]:
    """Labels without a names' label, each group led by a word the vocabulary lacks
    ("PARTICULARS  REFERENCE INTERVAL  VALUE", printed once or repeated side by side): the
    leading word is the group's name column. Groups are the repeats of the label sequence."""
    kinds = [c.kind for c in matched]
    starts = [0]
    for period in range(1, len(kinds) // 2 + 1):
        if len(kinds) % period == 0 and kinds == kinds[:period] * (len(kinds) // period):
            starts = list(range(0, len(kinds), period))
            break
    names = []
    from_end = 1  # where the names' heading is among the unknown ones before the labels
    for start in starts:
        before = matched[start - 1].x1 if start else float("-inf")
        lead = _merge_adjacent([u for u in unknown if before < u.x0 and u.x1 <= matched[start].x0])
        if not lead:
            return matched
        # The first table's names are its leftmost heading ("PARTICULARS  IND.  ..."); a later
        # table's sit as far from its labels as the first's ("Reading", closing the table on
        # the left, may come before them).
        if start == 0:
            from_end = len(lead)
        name = lead[max(0, len(lead) - from_end)]
        names.append(Column(NAME, name.x0, name.x1, name.label))
    return sorted(matched + names, key=lambda c: c.x0)


def _name_label_only(words: list[tuple[str, float, float]], keys: list[str], height: float) -> bool:
    """A short digit-free line starting with a names' label ("TEST  OBSERVATION"), its words
    apart as columns are: one phrase set with single spaces ("Examen des urines", a panel
    title that starts with a heading word) is not a header."""
    return 2 <= len(words) <= 6 and _LABELS.get(keys[0]) == NAME and \
        not any(re.search(r"[\d:]", text) for text, _, _ in words) and \
        not _tight(words, max(4.0, 1.5 * height))


def needs_confirmation(header: Header) -> bool:
    """A header built with words the vocabulary lacks (its value or its name heading):
    a table only if results sit under its value column (see confirmed_by)."""
    return any(c.label and c.label not in _LABELS for c in header.columns)


def confirmed_by(header: Header, phrases: list[tuple[float, float, str]]) -> bool:
    """Do at least two of `phrases` (the lines under a doubtful header) read as results under
    its value column, once unknown headings are resolved?"""
    resolved = resolve_unknown(header, phrases)
    return any(_column_votes(c, resolved, phrases).get(RESULT, 0) >= 2
               for c in resolved.columns if c.kind in VALUE_KINDS)


def _merge_adjacent(columns: list[Column]) -> list[Column]:
    """Unknown words printed together ("Observed Reading") are one column."""
    merged: list[Column] = []
    for col in columns:
        if merged and col.x0 - merged[-1].x1 < 1.5 * max(1.0, (col.x1 - col.x0) / max(1, len(col.label))):
            merged[-1] = Column(UNKNOWN, merged[-1].x0, col.x1, f"{merged[-1].label} {col.label}")
        else:
            merged.append(col)
    return merged


def _is_table_header(columns: list[Column]) -> bool:
    kinds = [c.kind for c in columns]
    has_value = any(k in VALUE_KINDS for k in kinds)
    if NAME in kinds and has_value:
        return True
    if NAME in kinds and UNKNOWN in kinds:
        return True  # the value column's label is a word the vocabulary lacks (to be
        # confirmed by the content under it: see needs_confirmation)
    # "Result  Units  Reference Range" without a label over the names.
    return has_value and (RANGE in kinds or UNITS in kinds) and len(kinds) >= 3


def header_without_name(header: Header) -> Header:
    """Add the implicit name column left of the first labelled column."""
    if NAME in header.kinds:
        return header
    first = header.columns[0]
    name = Column(NAME, header.x_start, max(header.x_start + 1, first.x0 - 20), "")
    return Header([name, *header.columns], header.x_start, header.x_end, header.top,
                  header.bottom, header.page)


_DATE = re.compile(r"^\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}(\s+\d{1,2}:\d{2})?$")


def with_unlabelled_columns(header: Header, phrases: list[tuple[float, float, str]],
                            edge_tolerance: float = 1.0) -> Header:
    """Add columns the header does not label (its label unreadable, or never printed, like
    Drlogy's status column), found from phrases aligned outside every labelled column.

    A column of ranges becomes the range column only if none is labelled; numbers with no
    label never become a value: a second numeric column is most often a previous result.
    `edge_tolerance`: how far apart the left edges of one left-aligned column may be
    (`ocr_edge_tolerance` for OCR word boxes).
    """
    pad = 2.0
    spans = header._spans(pad)
    loose = sorted(
        (x0, x1, text) for x0, x1, text in phrases
        if header.contains(x0, x1) and not any(min(x1, s1) - max(x0, s0) > 0 for _, (s0, s1) in spans)
    )
    clusters = [part for cluster in _overlapping(loose, pad) for part in _without_bridges(cluster, pad)]
    added: list[Column] = []
    moved: dict[int, Column] = {}  # id(labelled column) -> that column widened over its content
    for cluster in clusters:
        if len(cluster) < 3:
            continue
        votes: dict[str, int] = {}
        for _, _, text in cluster:
            kind = OTHER if _DATE.match(text.strip()) else (content_kind(text) or OTHER)
            if kind == OTHER and parse_value_mark(text) is not None and header.follows_value(cluster[0][0]):
                kind = FLAG  # signs of their own after the values ("+", "-"): the flags
            votes[kind] = votes.get(kind, 0) + 1
        kind, count = max(votes.items(), key=lambda kv: kv[1])
        if count < 0.6 * len(cluster):
            continue  # mixed content: leave each phrase to the gap rules
        x0 = min(x for x, _, _ in cluster)
        x1 = max(x for _, x, _ in cluster)
        if kind in header.kinds and (home := _misplaced_label(header, kind, x0, x1, len(cluster),
                                                              phrases, edge_tolerance) or
                                     _right_aligned_values(header, kind, cluster, phrases)) is not None:
            # The column's content sits beside its own label, nothing between them: OCR
            # lost or split a label word ("Reporting | Unit"), or the label is set off-centre.
            moved[id(home)] = Column(home.kind, min(home.x0, x0), max(home.x1, x1), home.label)
            continue
        if kind == RESULT and _follows_previous(header, x0):
            kind = PREVIOUS  # "Antériorités  12/09/2024  05/02/2024": one label over two columns
        elif kind == RESULT or kind in header.kinds:
            kind = OTHER
        added.append(Column(kind, x0, x1, ""))
    if not added and not moved:
        return header
    kept = [moved.get(id(c), c) for c in header.columns]
    columns = sorted([*kept, *added], key=lambda c: c.x0)
    return Header(columns, header.x_start, header.x_end, header.top, header.bottom, header.page)


def _follows_previous(header: Header, x0: float) -> bool:
    """Does a column starting at x0 stand right after the previous-results column, the last
    labelled column before it? (Numbers there are older results, never this report's.)"""
    before = [c for c in header.columns if c.x1 <= x0]
    return bool(before) and max(before, key=lambda c: c.x1).kind == PREVIOUS


# A test-code column printed before the names without a heading of its own ("GLU  Glucose"):
# short capitals codes left-aligned, the names after them left-aligned again, on most rows.
_CODE = re.compile(r"^[A-Z0-9][A-Z0-9\-_.#/]{0,9}$")
CODE_ROW_SHARE = 0.8
MIN_CODE_ROWS = 4


# A collection date-time printed before each row's name ("03/14/2025 05:42 EDT  WBC"): the
# time a result-listing (EHR) report orders its rows by, never part of the name.
DATE_TIME = (r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?"
             r"(?:\s+(?:" + "|".join(vocabulary.TIME_ZONES) + r"))?)?")
_DATE_TIME = re.compile("^" + DATE_TIME + "$")


def _leading_cell(text: str) -> bool:
    return bool(_CODE.match(text) or _DATE_TIME.match(text))


def with_code_column(header: Header, lines: list[list[tuple[float, float, str]]], size: float) -> Header:
    """`header` with an unlabelled code column split off the names, when the result rows (lines
    with a phrase in a value column) start with a code and their names start further right,
    both aligned: the codes differ in width while the names start at one x, which a name's
    own first word ("HDL Cholesterol", "LDL Cholesterol") never does."""
    names = [c for c in header.columns if c.kind == NAME]
    if len(names) != 1 or names[0] is not header.columns[0]:
        return header
    rows = [line for line in lines if any(header.assign(x0, x1, t, size) in VALUE_KINDS for x0, x1, t in line)]
    pairs = [(line[0], line[1]) for line in rows if len(line) >= 2 and _leading_cell(line[0][2])
             and header.assign(line[1][0], line[1][1], line[1][2], size) == NAME]
    if len(rows) < MIN_CODE_ROWS or len(pairs) < CODE_ROW_SHARE * len(rows):
        return header
    code_starts, name_starts = [a[0] for a, _ in pairs], [b[0] for _, b in pairs]
    widths = [a[1] - a[0] for a, _ in pairs]
    # Codes of one width could be a name's first word ("HDL Cholesterol"); a date never is,
    # nor a row number counting the rows ("1  WBC", "2  Neutrophil %").
    dated = all(_DATE_TIME.match(a[2]) for a, _ in pairs) or _counting([a[2] for a, _ in pairs])
    if max(code_starts) - min(code_starts) > 0.5 * size or max(name_starts) - min(name_starts) > 0.5 * size \
            or (max(widths) - min(widths) < size and not dated) \
            or min(name_starts) - max(a[1] for a, _ in pairs) < 0.5 * size:
        return header
    code = Column(OTHER, min(code_starts), max(a[1] for a, _ in pairs), "")
    name = Column(NAME, min(name_starts), max(names[0].x1, min(name_starts) + 1), names[0].label)
    return Header([code, name, *header.columns[1:]], header.x_start, header.x_end, header.top,
                  header.bottom, header.page)


def _counting(cells: list[str]) -> bool:
    """Row numbers: each the one before plus one, or 1 again (a new section numbers anew)."""
    if not all(c.isdigit() for c in cells) or int(cells[0]) != 1:
        return False
    return all(int(b) in (int(a) + 1, 1) for a, b in zip(cells, cells[1:]))


def _overlapping(items: list[tuple[float, float, str]], pad: float) -> list[list[tuple[float, float, str]]]:
    """Phrases (sorted by x0) grouped where their spans overlap, as columns are."""
    clusters: list[list[tuple[float, float, str]]] = []
    for item in items:
        if clusters and item[0] <= max(x1 for _, x1, _ in clusters[-1]) + pad:
            clusters[-1].append(item)
        else:
            clusters.append([item])
    return clusters


def _without_bridges(cluster: list[tuple[float, float, str]], pad: float) -> list[list[tuple[float, float, str]]]:
    """A cluster chained across two columns by a few phrases far wider than the rest (OCR's
    garbage run over a range and a previous result): the columns apart, the wide ones left out;
    a cluster without such phrases as it is."""
    widths = sorted(x1 - x0 for x0, x1, _ in cluster)
    typical = widths[len(widths) // 2]
    wide = [c for c in cluster if c[1] - c[0] > _BRIDGE_WIDTHS * typical]
    if not wide or len(wide) > 0.2 * len(cluster):
        return [cluster]
    parts = _overlapping([c for c in cluster if c not in wide], pad)
    return parts if len(parts) > 1 else [cluster]


_BRIDGE_WIDTHS = 2.5


def _misplaced_label(header: Header, kind: str, x0: float, x1: float, count: int,
                     phrases: list[tuple[float, float, str]], edge_tolerance: float = 1.0) -> Column | None:
    """The labelled column of `kind` that a loose cluster of `count` phrases of that kind at
    x0..x1 belongs to: its neighbour (no column between them) with fewer phrases under its
    own label than the cluster has. None otherwise. Never the names or the results."""
    if kind in (NAME, RESULT):
        return None
    for col in header.columns:
        if col.kind != kind:
            continue
        lo, hi = (col.x1, x0) if col.x1 <= x0 else (x1, col.x0)
        if any(c is not col and c.x0 < hi and c.x1 > lo for c in header.columns):
            continue  # another column lies between the label and the cluster
        # Cells under the label: a sentence across the table (a footer) is in no column.
        under = [p0 for p0, p1, _ in phrases if min(p1, col.x1) - max(p0, col.x0) > 0
                 and not any(c is not col and min(p1, c.x1) - max(p0, c.x0) > 0 for c in header.columns)]
        if len(under) < count or _one_left_edge(under, x0, edge_tolerance):
            return col
    return None


def _right_aligned_values(header: Header, kind: str, cluster: list[tuple[float, float, str]],
                          phrases: list[tuple[float, float, str]]) -> Column | None:
    """The result column whose numbers a loose cluster of numbers continues: right-aligned
    under a label set left of their edge ("Result" over "10.9" and "6.8": only the longer
    values reach under it). The cluster's phrases and those under the label all end at one
    x (or none reaches under it, and the cluster starts within a label's width of it), and
    no column lies between them. None otherwise."""
    if kind != RESULT:
        return None
    edge = max(x for _, x, _ in cluster)
    if not _one_right_edge([x for _, x, _ in cluster], edge):
        return None
    for col in header.columns:
        if col.kind != RESULT or col.x1 > edge:
            continue
        if any(c is not col and c.x0 < edge and c.x1 > col.x1 for c in header.columns):
            continue  # another column lies between the label and the cluster
        # A line run across the columns (a remark under a row) is no value under the label,
        # nor are words without a digit (the header's line in a second script, as OCR reads it).
        under = [p1 for p0, p1, text in phrases if min(p1, col.x1) - max(p0, col.x0) > 0 and _DIGIT.search(text)
                 and not any(c is not col and min(p1, c.x1) - max(p0, c.x0) > 0 for c in header.columns)]
        start = min(x for x, _, _ in cluster)
        if _one_right_edge(under, edge) or (not under and start - col.x1 < col.x1 - col.x0):
            return col  # (no value long enough to reach under the label: nearer than its width)
    return None


def _one_right_edge(ends: list[float], x1: float, tolerance: float = 1.0) -> bool:
    return bool(ends) and all(abs(e - x1) <= tolerance for e in ends)


def _one_left_edge(starts: list[float], x0: float, tolerance: float = 1.0) -> bool:
    """Do the phrases under a label all start where the loose cluster starts? Then they are one
    left-aligned column whose label is set right of its edge ("Unités" over "g/L" and "10*9/L":
    only the longer units reach under the label). Tolerance: a point, text-layer alignment."""
    return bool(starts) and all(abs(s - x0) <= tolerance for s in starts)


# OCR word boxes of one left-aligned column start within this share of the text's height of
# each other: ink-tight boxes of different first letters, a cell border read as '|' beside
# some of them (a photographed page: 10*9/L at 918 px and g/L at 927 px, text 27 px tall).
OCR_EDGE_SHARE = 0.5


def ocr_edge_tolerance(size: float) -> float:
    """`_one_left_edge`'s tolerance for OCR word boxes of text `size` tall."""
    return max(1.0, OCR_EDGE_SHARE * size)


def resolve_unknown(header: Header, phrases: list[tuple[float, float, str]]) -> Header:
    """Give each column of unknown kind the kind its content votes for: numbers under an
    unlabelled-by-vocabulary heading are the results when no value column is labelled, or
    when the labelled one ("Out of Range") holds fewer numbers than it (then it is a flag
    column)."""
    if UNKNOWN not in header.kinds:
        return header
    columns = list(header.columns)
    for i, col in enumerate(header.columns):
        if col.kind != UNKNOWN:
            continue
        votes = _column_votes(col, header, phrases)
        kinds = {k: v for k, v in votes.items() if k != OTHER}
        best = max(kinds, key=kinds.get) if kinds and max(kinds.values()) >= 2 else OTHER
        taken = {c.kind for c in columns}
        if best == RESULT and taken & set(VALUE_KINDS):
            labelled = [j for j, c in enumerate(columns) if c.kind in (IN_RANGE, OUT_OF_RANGE)]
            if RESULT not in taken and labelled and all(
                    _column_votes(columns[j], header, phrases).get(RESULT, 0) < votes[RESULT]
                    for j in labelled):
                for j in labelled:  # the labelled value column only carries flags
                    columns[j] = Column(FLAG, columns[j].x0, columns[j].x1, columns[j].label)
            else:
                best = PREVIOUS
        elif best in taken:
            best = OTHER
        columns[i] = Column(best, col.x0, col.x1, col.label)
    return Header(columns, header.x_start, header.x_end, header.top, header.bottom, header.page)


_REMARK_LABELS = frozenset(vocabulary.REMARK_LABELS)


def flags_under_remarks(header: Header, phrases: list[tuple[float, float, str]]) -> Header:
    """`header` with a comment column ("Remarks") read as the flags when the table labels none
    and every cell under it is a flag ("High", "Low"): then it says how the value stands."""
    if FLAG in header.kinds:
        return header
    columns = list(header.columns)
    for i, col in enumerate(columns):
        if col.kind == OTHER and col.label in _REMARK_LABELS:
            votes = _column_votes(col, header, phrases)
            if votes.get(FLAG, 0) >= 2 and set(votes) == {FLAG}:
                columns[i] = Column(FLAG, col.x0, col.x1, col.label)
    if columns == header.columns:
        return header
    return Header(columns, header.x_start, header.x_end, header.top, header.bottom, header.page)


def _column_votes(col: Column, header: Header, phrases: list[tuple[float, float, str]]) -> dict[str, int]:
    """How many phrases under `col` (and not under a labelled neighbour) read as each kind."""
    pad = 0.5 * (col.x1 - col.x0)
    others = [c for c in header.columns if c is not col and c.kind != NAME]
    votes: dict[str, int] = {}
    for x0, x1, text in phrases:
        if not (col.x0 - pad <= (x0 + x1) / 2 <= col.x1 + pad or col.x0 - pad <= x0 <= col.x1) or \
                any(min(x1, c.x1) - max(x0, c.x0) > 0 for c in others):
            continue  # not under this heading (centred or starting there: a name whose
            # dotted leader runs up to the value column only brushes it), or under a neighbour's
        kind = leading_kind(text)
        votes[kind] = votes.get(kind, 0) + 1
    return votes


def leading_kind(text: str) -> str:
    """The kind of a cell by what it starts with: "H 26.4 pg (27.0-33.0)" is a result (a
    flag, a unit or a range may ride along in the same cell)."""
    kind = content_kind(text)
    if kind == UNITS and not is_unit(text):
        # A word that only looks like a unit ("Negative", "Yellow", "Cloudy *") under a
        # value heading is a qualitative result.
        return RESULT if re.fullmatch(r"[A-Za-z][A-Za-z ]{2,30}[*+]?", text.strip()) else OTHER
    if kind is not None:
        return kind
    tokens = text.split()
    if len(tokens) > 1 and is_flag(tokens[0]) and _NUMERIC.match(tokens[1]):
        return RESULT
    if tokens and len(unglue(tokens[:1])) > 1:
        return RESULT  # "116Lpg/mL": a value glued to its flag and unit by OCR
    if tokens and not is_unit(tokens[0]) and vocabulary.qualitative_result().match(tokens[0]):
        return RESULT  # "Yellow Yellow", "Negative Negative": a result and the expected one
    return (content_kind(tokens[0]) if tokens else None) or OTHER


# ------------------------------------------------------------------ units as headings


def heading_unit(text: str, ocr: bool = False) -> str | None:
    """The unit a column heading prints, alone or after its label, bracketed or not ("%",
    "Valeur absolue G/l", "Valeurs de référence (G/l)", "Absolute (x10^9/L)"); read by OCR,
    its look-alike slips put right ("G/i" -> "G/l")."""
    tokens = text.split()
    if not tokens:
        return None
    last = tokens[-1].strip("()[]")
    if last and is_unit(last):
        return last
    return repair(last) if ocr and last else None


def unit_subheader(phrases: list[tuple[float, float, str]], header: Header, ocr: bool = False
                   ) -> Header | None:
    """A line inside a table that heads a block of its own whose values take the units its
    headings print ("Formule leucocytaire  %  Valeur absolue G/l  Valeurs de référence (G/l)"):
    a name, then only headings, each a unit (with a label or not) or a range label; at least
    one unit. Its first unit column holds the value; a later one a second measurement of the
    same test (OTHER, read by the table with its unit). None for any other line.

    The block's title may stand on the line above, the headings alone on theirs, abbreviated
    ("%  v.r. %  v.a.  v.r. v.a."): then every heading must be a unit, a range's or an
    absolute count's, and the names stay in the table's own name column."""
    if len(phrases) < 3:
        return None
    if any(BARE_NUMBER.fullmatch(token) and not is_unit(token)
           for _, _, text in phrases for token in text.split()):
        return None  # a number: a data row
    named = header.assign(phrases[0][0], phrases[0][1], phrases[0][2], 1.0) == NAME
    names = [c for c in header.columns if c.kind == NAME][:1]
    if named:
        columns = [Column(NAME, phrases[0][0], phrases[0][1], label_key(phrases[0][2]))]
    elif names and phrases[0][0] > names[0].x1:
        columns = [names[0]]
    else:
        return None
    values = counts = 0
    for x0, x1, text in phrases[1 if named else 0:]:
        unit = heading_unit(text, ocr)
        label = label_key(text[:len(text) - len(text.split()[-1])] if unit else text)
        if _LABELS.get(label) == RANGE or label_key(text.split()[0]) in _BLOCK_RANGE_KEYS:
            columns.append(Column(RANGE, x0, x1, label, unit))
        elif unit is not None:
            columns.append(Column(RESULT if not values else OTHER, x0, x1, label, unit))
            values += 1
        else:
            # "v.a." on a line of headings alone: a count, its unit printed in its cells
            counts += not named and label in _ABSOLUTE_KEYS and values > 0
            columns.append(Column(OTHER, x0, x1, label))
    others = len(columns) - 1 - values - counts - sum(c.kind == RANGE for c in columns)
    # Units head its columns: one at least, and no more than one heading of another kind
    # (none on a line of headings alone).
    if not values or others > ((values > 1) if named else 0):
        return None
    return Header(columns, header.x_start, header.x_end, header.top, header.bottom, header.page)


def _over_trailing_units(x1: float, nxt: float, phrases: list[tuple[float, float, str]]) -> float:
    """A value column's right side widened over the units its cells print after their numbers,
    in the gap before the next heading ("56,2  %", "3,28  10^3/µL" under "%", "v.a."): when
    that gap holds units only, they are the value's, not the next column's."""
    gap = [(p0, p1, text) for p0, p1, text in phrases if p0 >= x1 and p1 <= nxt]
    if not gap or not all(is_unit(text) for _, _, text in gap):
        return x1
    return max(p1 for _, p1, _ in gap)


_BLOCK_RANGE_KEYS = frozenset(label_key(t) for t in vocabulary.BLOCK_RANGE_HEADINGS)
_ABSOLUTE_KEYS = frozenset(label_key(t) for t in vocabulary.ABSOLUTE_COUNT_HEADINGS)


def widened(header: Header, phrases: list[tuple[float, float, str]]) -> Header:
    """The value and range columns widened over the phrases set under them (headings are
    short and right- or left-aligned with content that reaches past them); a heading of no
    unit ("Referenz") over ranges only is the range column."""
    columns = []
    for i, col in enumerate(header.columns):
        x0, x1, kind = col.x0, col.x1, col.kind
        if col.kind != NAME:
            under = [(p0, p1, text) for p0, p1, text in phrases if min(p1, col.x1) - max(p0, col.x0) > 0]
            x0 = min([x0, *(p0 for p0, _, _ in under)])
            x1 = max([x1, *(p1 for _, p1, _ in under)])
            if kind == OTHER and not col.unit and RANGE not in header.kinds and under and \
                    all(content_kind(text) == RANGE for _, _, text in under):
                kind = RANGE
            if kind in (RESULT, OTHER):
                nxt = header.columns[i + 1].x0 if i + 1 < len(header.columns) else header.x_end
                x1 = _over_trailing_units(x1, nxt, phrases)
        columns.append(Column(kind, x0, x1, col.label, col.unit))
    return Header(columns, header.x_start, header.x_end, header.top, header.bottom, header.page)
