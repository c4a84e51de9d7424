"""One line's phrases placed in the columns of its table's header."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from parser import columns as cols, limit_columns
from parser.columns import Header
from parser.flags import is_flag
from parser.layout.fields import Fields, read_fields, read_value_fields
from parser.layout.rows import SENTENCE_WORDS, without_marks
from parser.layout.word_results import with_initials_joined, word_result_across
from parser.lines import Line, Phrase, is_prose, median_size, word_size
from parser.page import Word
from parser.ranges import looks_like_range, parse_range
from parser.units import is_unit


@dataclass(slots=True)
class Cells:
    """One line's phrases by column (complete once placed; texts are cached)."""

    line: Line
    cells: dict[str, list[Phrase]]
    ambiguous: bool = False
    prose: bool = False
    # Units printed as the headings of its columns, by kind (columns.unit_subheader)
    heading_units: dict[str, str] = field(default_factory=dict)
    _texts: dict[str, str] = field(default_factory=dict)

    def text(self, kind: str) -> str:
        if kind not in self._texts:
            self._texts[kind] = " ".join(p.text for p in self.cells.get(kind, []))
        return self._texts[kind]

    def value_kind(self) -> str | None:
        for kind in cols.VALUE_KINDS:
            if kind in self.cells and self.text(kind).strip():  # most lines hold one kind
                return kind
        return None

    def name_words(self) -> list[Word]:
        return [w for ph in self.cells.get(cols.NAME, []) for w in ph.words]


def place(line: Line, header: Header) -> Cells:
    """Put each phrase of the line (within the table's span) into a column."""
    cells: dict[str, list[Phrase]] = {}
    ambiguous = False
    # is_prose wants 8 words or more: a shorter line (most) is no prose whatever the span keeps.
    prose = len(line.words) >= 8 and \
        is_prose(Line([w for w in line.words if header.contains(w.x0, w.x1)], line.page, line.ocr))
    phrases = _cell_phrases(line, header)
    inside = [p for p in phrases if header.contains(p.x0, p.x1)]
    if len(inside) == 1 and labelled_note(inside[0].text):
        # "Diagnosi di diabete: HbA1c ≥ 48 mmol/mol." alone on its line, in one run (a row's
        # range cell "Adults: < 200 mg/dL." has its name and value beside it)
        return Cells(line, {}, False, True)
    for phrase in inside:
        kind = header.assign(phrase.x0, phrase.x1, phrase.text, median_size(phrase.words)) or \
            _value_over_names(phrase, header)
        if kind is not None:
            _add(cells, kind, phrase)
            continue
        prose_now, split_doubt = _place_unassigned(cells, header, phrase, line.ocr)
        prose = prose if prose_now is None else prose_now
        ambiguous = ambiguous or split_doubt
    prose = _names_as_fields(cells, header, line.ocr, prose)
    if cols.OTHER in cells and set(cells) <= {cols.OTHER, cols.NAME} and \
            _left_of_names(cells[cols.OTHER], header):
        # A line without a value starting under a code column left of the names ("Hämatologie",
        # "Material: EDTA-Blut" under "Kürzel"): a heading or specimen line, the table's width.
        cells = {cols.NAME: cells[cols.OTHER] + cells.get(cols.NAME, [])}
    if prose and not ambiguous and _aligned_result(cells):
        prose = False  # a long name in a tight table: its cells sit in their own columns
    units = {c.kind: c.unit for c in header.columns if c.unit}
    split = next((c.split for c in header.columns if c.kind == cols.RANGE and c.split is not None), None)
    return Cells(line, limit_columns.joined_limits(cells, split, cols.RANGE), ambiguous, prose, units)


def _cell_phrases(line: Line, header: Header) -> list[Phrase]:
    """The line's phrases cut as cells: split ranges joined (OCR), leaders and marks apart, a
    phrase split where a column's label stands, a genus initial joined to its word."""
    phrases = _join_split_ranges(line.phrases()) if line.ocr else line.phrases()
    phrases = [_unmarked(_leaders_apart(p)) for p in phrases]
    phrases = [part for phrase in phrases for part in split_at_labels(phrase, header)]
    return with_initials_joined(phrases, header)  # "P.  FALCIPARUM SEEN (++)" on an OCR line


def _place_unassigned(cells: dict[str, list[Phrase]], header: Header, phrase: Phrase,
                      ocr: bool) -> tuple[bool | None, bool]:
    """Place a phrase no column takes whole. Returns (prose, ambiguous): prose False when the
    phrase is measured fields (the line is no prose), True when it is a sentence running across
    columns, None when it says nothing of it; ambiguous when its words were put by the nearest
    column without a code-then-name reading."""
    tokens = [w.text for w in phrase.words]
    # Single-spaced fields: a whole row, or a value cell holding its unit and range.
    fields = read_fields(tokens, ocr) or read_value_fields(tokens, ocr)
    if fields is not None and not _VALUE_KIND_SET.isdisjoint(header.kinds):
        _add_fields(cells, header, phrase, fields)  # single-spaced fields
        return (False if _measured(fields) else None), False
    if (across := word_result_across(phrase, header)) is not None:
        _add(cells, across, phrase)  # "P. FALCIPARUM SEEN (++)" from the result column on
        return None, False
    if len(phrase.words) >= SENTENCE_WORDS - 2:
        return True, False  # a sentence running across columns
    kinds = [header.assign(word.x0, word.x1, word.text, word_size(word)) or
             header.nearest(word.x0, word.x1) for word in phrase.words]
    for word, wkind in zip(phrase.words, kinds):
        _add(cells, wkind, Phrase([word]))
    # A code printed close before its name ("LEUK Leukozyten" under "Kürzel  Untersuchung")
    # splits where the columns do: no doubt about either part.
    return None, not _code_then_name(kinds, phrase, header)


def _names_as_fields(cells: dict[str, list[Phrase]], header: Header, ocr: bool, prose: bool) -> bool:
    """No value placed, one name cell: read it as single-spaced fields if it is one ("Glucosa
    106 mg/dL" sitting wholly under the names' label). Returns the line's prose mark."""
    names = _name_tail_apart(cells)
    if len(names) == 1 and _VALUE_KIND_SET.isdisjoint(cells) and not _VALUE_KIND_SET.isdisjoint(header.kinds):
        fields = read_fields([w.text for w in names[0].words], ocr)
        if fields is not None:
            del cells[cols.NAME]
            _add_fields(cells, header, names[0], fields)
            return prose and not _measured(fields)
    return prose


_VALUE_KIND_SET = frozenset(cols.VALUE_KINDS)  # asked of every placed line: built once


def labelled_note(text: str) -> bool:
    """A note printed in one run across a table's columns: a label and its colon, a
    threshold, and a sentence's full stop after a word or unit ("Objectif ... de type 2 :
    ≤ 7,0 %.", "Vitamin D: Deficiency <20 ng/mL; ... 30-80 ng/mL."). A single-spaced row
    ("Glucosa 106 mg/dL") has no colon or no full stop."""
    return bool(_LABEL_COLON.search(text)) and bool(_NOTE_END.search(text))


_LABEL_COLON = re.compile(r"\w\s?:(\s|$)")
_NOTE_END = re.compile(r"[^\W\d_%]{2}\.$|[%)]\.$|/\w+\.$")


def _unmarked(phrase: Phrase) -> Phrase:
    """A value cell without the footnote marks raised after it ("146 H ⁱ²": a test-information
    note's mark, small and off the baseline); other cells as they are (names drop theirs
    where they are read)."""
    if len(phrase.words) < 2 or not _VALUE_START.match(phrase.words[0].text):
        return phrase
    kept = without_marks(phrase.words)
    if len(kept) == len(phrase.words) or any(is_unit(w.text) for w in phrase.words[len(kept):]):
        return phrase  # a unit's glyph box can sit small and high ("fl"): never a mark
    if _POWER_BASE.search(kept[-1].text):
        return phrase  # "6.8 x10 ⁹": a power of ten's exponent, raised and small
    return Phrase(kept)


_VALUE_START = re.compile(r"^[<>≤≥]?\d")
_POWER_BASE = re.compile(r"10\^?$")


def _code_then_name(kinds: list[str], phrase: Phrase, header: Header) -> bool:
    """Words of one phrase placed as an OTHER column's left of the names, then names only."""
    split = kinds.index(cols.NAME) if cols.NAME in kinds else 0
    return 0 < split and set(kinds[:split]) == {cols.OTHER} and set(kinds[split:]) == {cols.NAME} \
        and _left_of_names([Phrase(phrase.words[:split])], header)


def _left_of_names(phrases: list[Phrase], header: Header) -> bool:
    names = [c.x0 for c in header.columns if c.kind == cols.NAME]
    return bool(phrases and names) and phrases[0].x0 < min(names)


_SHARE = re.compile(r"^\d{1,3}(?:[.,]\d+)?\s?%$")  # "71.2 %": a percentage with its sign
# A dotted leader run on to the words around it ("Sodium..........141", "........:").
_GLUED_LEADER = re.compile(r"^(?P<head>.*?)(?P<dots>[.…_]{3,}:?)(?P<tail>.*)$")


def _name_tail_apart(cells: dict[str, list[Phrase]]) -> list[Phrase]:
    """The line's name cells, once a flag or a share printed apart after the name has gone to
    its own cell (neither is part of the name)."""
    names = cells.get(cols.NAME, [])
    if len(names) > 1 and cols.FLAG not in cells and is_flag(names[-1].text):
        # A flag printed apart after the name, in a column without a heading of its own
        # ("Potassium, Serum    Critical    3.5 to 5.1    2.6 mmol / L").
        cells[cols.FLAG] = [names.pop()]
    if len(names) > 1 and not _VALUE_KIND_SET.isdisjoint(cells) and _SHARE.match(names[-1].text):
        # A share printed apart after the name, before the absolute count in the result
        # column ("Neutrophils   71.2 %   5.85 x10^9/L"): a second measurement, not the name.
        cells.setdefault(cols.OTHER, []).insert(0, names.pop())
    return names


def _leaders_apart(phrase: Phrase) -> Phrase:
    """The phrase with a dotted leader printed against its name or its value cut out as a
    word of its own ("Sodium..............141" -> "Sodium", "..............", "141"), so the
    fields read as they would with spaces around the leader; each part takes its share of
    the word's width by characters."""
    matches = [_glued_leader(w.text) for w in phrase.words]
    if not any(matches):
        return phrase
    words: list[Word] = []
    for word, match in zip(phrase.words, matches):
        if match is None:
            words.append(word)
            continue
        step = (word.x1 - word.x0) / max(1, len(word.text))
        x = word.x0
        for part in match.group("head", "dots", "tail"):
            if part:
                words.append(replace(word, text=part, x0=x, x1=x + step * len(part)))
                x += step * len(part)
    return Phrase(words)


def _glued_leader(text: str) -> re.Match[str] | None:
    """The leader's match in a word that also holds a name's letters or a value's digits
    (not a number's own digit just before the dots); None for any other word."""
    if "..." not in text and "…" not in text and "_" not in text:
        return None  # no three leader characters in a row (most words): the regex is not asked
    match = _GLUED_LEADER.match(text)
    if match is None or not re.search(r"\w", match["head"] + match["tail"]) or match["head"][-1:].isdecimal():
        return None
    return match


def _value_over_names(phrase: Phrase, header: Header) -> str | None:
    """A value set right-aligned so that it starts left of its column's label, into the
    names' span ("1,18 g/l" under "Résultat"): a number with at most a unit, after the names,
    reaching under a value label, is that column's, never a name's."""
    tokens = phrase.text.split()
    if not tokens or cols.content_kind(tokens[0]) != cols.RESULT or \
            (len(tokens) > 1 and not is_unit(" ".join(tokens[1:]))):
        return None
    names = [c for c in header.columns if c.kind == cols.NAME]
    if not names or phrase.x0 <= names[0].x0 + median_size(phrase.words):
        return None  # where the names begin
    return next((c.kind for c in header.columns if c.kind in cols.VALUE_KINDS
                 and c.x0 < phrase.x1 and phrase.x0 < c.x1), None)


def split_at_labels(phrase: Phrase, header: Header) -> list[Phrase]:
    """A phrase run on across a column's left edge, cells set close in a tight table
    ("Globuli bianchi 6,8", "3,96 10^3/µL 2,0 - 7,0"): cut where a word starts under the label
    of a value, unit or range column (left-aligned with it), after a gap wider than a space,
    and what starts there reads as a cell."""
    words = phrase.words
    if len(words) < 2:
        return [phrase]  # one word: nowhere to cut (most phrases), so no edges to gather
    # A headed column of another kind (Thyrocare's "TECHNOLOGY": "C.L.I.A") holds words of
    # any kind: its label's edge alone cuts.
    edges = [(col, col.kind == cols.OTHER and bool(col.label)) for col in header.columns]
    edges = [(col, headed_other) for col, headed_other in edges
             if headed_other or col.kind in (*cols.VALUE_KINDS, cols.UNITS, cols.RANGE)]
    for i in range(len(words) - 1, 0, -1):
        size = word_size(words[i])
        slack, gap = 0.3 * size, words[i].x0 - words[i - 1].x1
        for col, headed_other in edges:
            # wider than a space: single-spaced fields are read_fields' to split
            wide = gap > (0.3 if headed_other else 0.5) * size
            if wide and abs(words[i].x0 - col.x0) <= slack and (
                    headed_other or cols.leading_kind(" ".join(w.text for w in words[i:])) != cols.OTHER):
                return [*split_at_labels(Phrase(words[:i]), header), Phrase(words[i:])]
    return [phrase]


def _aligned_result(cells: dict[str, list[Phrase]]) -> bool:
    """A number (its unit riding along: "33 mmol/mol") alone in the value column and a unit
    or a range of the lexicon in their own columns: a result row whose spacing only looks
    like running text (a narrow table, a many-word name)."""
    def text(kind: str) -> str:
        return " ".join(p.text for p in cells.get(kind, []))

    values = [k for k in cols.VALUE_KINDS if k in cells]
    if len(values) != 1 or len(cells[values[0]]) != 1 or cols.NAME not in cells:
        return False
    tokens = text(values[0]).split()
    if len(tokens) > 1 and is_flag(tokens[0]):
        tokens = tokens[1:]
    if cols.content_kind(tokens[0]) != cols.RESULT or \
            (len(tokens) > 1 and not is_unit(" ".join(tokens[1:]))):
        return False
    return is_unit(text(cols.UNITS)) or looks_like_range(text(cols.RANGE))


def _measured(fields: Fields) -> bool:
    """Fields with a unit or a range after the value: a result row, however many words its
    name has ("Alanina aminotransferasa (ALT/GPT) 15 U/L 1 - 50"), not running text."""
    return fields.units[1] > fields.units[0] or fields.range[1] > fields.range[0]


_OPEN_RANGE = re.compile(r"^[<>≤≥]?\d[\d.,]*\s*[-–]$")  # "4.000 -": a range's low end and dash
_NUMBER = re.compile(r"^\d[\d.,]*$")


def _join_split_ranges(phrases: list[Phrase]) -> list[Phrase]:
    """OCR spaces a range's high end away from its dash ("4.000 -" ... "11.000"), and the
    parts would fall in two columns: a low end and dash, then one number, reading together
    as a range, are one phrase."""
    joined: list[Phrase] = []
    for phrase in phrases:
        if joined and _OPEN_RANGE.match(joined[-1].text) and _NUMBER.match(phrase.text) \
                and parse_range(f"{joined[-1].text} {phrase.text}") is not None:
            joined[-1] = Phrase(joined[-1].words + phrase.words)
        else:
            joined.append(phrase)
    return joined


def _add_fields(cells: dict[str, list[Phrase]], header: Header, phrase: Phrase, fields: Fields) -> None:
    """A phrase spanning several columns whose words read as a row's parts: each part goes
    to its column (the first value column for the value; a part the table has no column for
    rides with the value, where the normaliser splits it)."""
    value_kind = next(k for k in cols.VALUE_KINDS if k in header.kinds)
    parts = [(cols.NAME, fields.name), (value_kind, fields.value), (cols.FLAG, fields.flag),
             (cols.UNITS, fields.units), (cols.RANGE, fields.range)]
    for kind, (start, end) in parts:
        if start >= end:
            continue
        target = kind if kind in header.kinds else value_kind
        _add(cells, target, Phrase(phrase.words[start:end]))


def _add(cells: dict[str, list[Phrase]], kind: str, phrase: Phrase) -> None:
    bucket = cells.setdefault(kind, [])
    # A share set apart after the name stays a cell of its own, however near ("Polynucléaires
    # neutrophiles   61,2 %   3,93 G/L"): _name_tail_apart reads it as a second measurement.
    if bucket and phrase.x0 - bucket[-1].x1 < 3 * word_size(phrase.words[0]) \
            and not (kind == cols.NAME and _SHARE.match(phrase.text)):
        bucket[-1] = Phrase(bucket[-1].words + phrase.words)
    else:
        bucket.append(phrase)


def is_tier(c: Cells) -> bool:
    """A line holding only more of the row above: a range tier, its units or flag."""
    return c.value_kind() is None and bool(c.cells) and \
        set(c.cells) <= {cols.RANGE, cols.UNITS, cols.FLAG}
