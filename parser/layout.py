"""Lines -> table rows: cells placed in the header's columns, rows assembled.

Lines come from lines.py. Their phrases are placed in the columns of the table header above
them (see columns.py), and lines are then grouped into rows: a wrapped name joins its row,
a small "Method: ..." line under a name is kept as the row's method, a line with a name but
no value is a panel heading or a comment, and a value a line below its name finds it.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

from parser import columns as cols, vocabulary
from parser.columns import Header
from parser.flags import is_flag
from parser.lines import (
    Line, Phrase, boilerplate_keys, is_boilerplate, is_prose, median_size, page_lines, word_size,
)
from parser.page import Document, Page, Word


def _alternatives(entries: list[str]) -> str:
    """A regex alternation of vocabulary entries, longest first; spaces and dots optional."""
    parts = []
    for entry in sorted(entries, key=len, reverse=True):
        part = re.escape(entry).replace(r"\ ", r"\s*").replace(r"\.", r"\.?")
        parts.append(part)
    return "|".join(parts)


# Lines whose text means "not a result" even when something sits in the value column.
_NON_RESULT_NAMES = re.compile(
    r"^\W*(" + _alternatives(vocabulary.words(vocabulary.NON_RESULT_LABELS)) + r")\b", re.I)
_METHOD_LINE = re.compile(
    r"^\W*(" + _alternatives(vocabulary.words(vocabulary.METHOD_LABELS)) + r")\b\s*[:\-]?", re.I)
_METHOD_WORDS = re.compile(
    r"\b(" + _alternatives(vocabulary.words(vocabulary.METHOD_WORDS)) + r")\b", re.I)
# Words that make a line without a value read as a panel heading (used when fonts are unknown).
_PANEL_WORDS = re.compile(
    r"\b(" + _alternatives(vocabulary.words(vocabulary.SECTION_WORDS)) + r")\b", re.I)
_SENTENCE_WORDS = 7  # a "value" this long is prose, not a result


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

    @property
    def confidence(self) -> float:
        return min((w.conf for w in self.words), default=1.0)


def is_non_result_label(name: str) -> bool:
    """Labels such as "Sample Type", "Note", "Interpretation" that are never test names."""
    return bool(_NON_RESULT_NAMES.match(name))


# ---------------------------------------------------------------- tables -> rows


@dataclass(slots=True)
class _Cells:
    """One line's phrases by column (complete once placed; texts are cached)."""

    line: Line
    cells: dict[str, list[Phrase]]
    ambiguous: bool = False
    prose: bool = False
    _texts: dict[str, str] = field(default_factory=dict)

    def text(self, kind: str) -> str:
        if kind not in self._texts:
            self._texts[kind] = " ".join(p.text for p in self.cells.get(kind, []))
        return self._texts[kind]

    def value_kind(self) -> str | None:
        for kind in cols.VALUE_KINDS:
            if self.text(kind).strip():
                return kind
        return None

    def name_words(self) -> list[Word]:
        return [w for ph in self.cells.get(cols.NAME, []) for w in ph.words]


def place(line: Line, header: Header) -> _Cells:
    """Put each phrase of the line (within the table's span) into a column."""
    cells: dict[str, list[Phrase]] = {}
    ambiguous = False
    prose = is_prose(Line([w for w in line.words if header.contains(w.x0, w.x1)], line.page, line.ocr))
    for phrase in line.phrases():
        if not header.contains(phrase.x0, phrase.x1):
            continue
        kind = header.assign(phrase.x0, phrase.x1, phrase.text, median_size(phrase.words))
        if kind is None:
            if len(phrase.words) >= _SENTENCE_WORDS - 2:
                prose = True  # a sentence running across columns
                continue
            ambiguous = True
            for word in phrase.words:
                wkind = header.assign(word.x0, word.x1, word.text, word_size(word)) or \
                    header.nearest(word.x0, word.x1)
                _add(cells, wkind, Phrase([word]))
            continue
        _add(cells, kind, phrase)
    return _Cells(line, cells, ambiguous, prose)


def _add(cells: dict[str, list[Phrase]], kind: str, phrase: Phrase) -> None:
    bucket = cells.setdefault(kind, [])
    if bucket and phrase.x0 - bucket[-1].x1 < 3 * word_size(phrase.words[0]):
        bucket[-1] = Phrase(bucket[-1].words + phrase.words)
    else:
        bucket.append(phrase)


def table_rows(lines: list[Line], header: Header, panel: str | None,
               specimen: str | None, titled: bool = False, fonts: bool = True
               ) -> tuple[list[RawRow], str | None, str | None]:
    """Rows of one table region; returns the rows and the panel/specimen in force at the end.

    `titled`: the table has a title above its header, which stays its panel name; headings
    inside it are sub-sections ("BLOOD INDICES"), not panels.
    """
    phrases = [(p.x0, p.x1, p.text) for line in lines for p in line.phrases()]
    header = cols.resolve_unknown(header, phrases)
    header = cols.with_unlabelled_columns(header, phrases)
    placed = [place(line, header) for line in lines]
    placed = [c for c in placed if any(p for p in c.cells.values()) or c.prose]
    name_sizes = [c.line.size for c in placed if c.text(cols.NAME) and c.value_kind()]
    row_size = statistics.median(name_sizes) if name_sizes else None
    row_bold = _mostly_bold([c for c in placed if c.text(cols.NAME) and c.value_kind()])
    row_caps = _mostly_caps([c.text(cols.NAME) for c in placed if c.value_kind()])
    name_starts = [ph[0].x0 for c in placed if c.value_kind() and (ph := c.cells.get(cols.NAME))]
    name_x0 = statistics.median(name_starts) if name_starts else None

    annotations = _annotation_lines(placed)
    rows: list[RawRow] = []
    pending: list[_Cells] = []  # name-only lines since the last row
    last: RawRow | None = None
    last_line: Line | None = None

    def heading_like(c: _Cells) -> bool:
        text = c.text(cols.NAME).strip()
        if not text or c.prose or len(text.split()) > 7 or re.search(r"[.;]$", text):
            return False
        if text.endswith(":") and len(text.split()) <= 5:
            return True
        bold = _mostly_bold([c])
        bigger = row_size is not None and c.line.size > (1.1 if fonts else 1.2) * row_size
        caps = text.isupper() and not row_caps and len(text) > 3 and text[:1].isalpha()
        if bigger or (bold and not row_bold) or caps:
            return True
        if fonts:
            return False
        # OCR knows no fonts: a heading sticks out left of the names, or names a panel.
        outdented = name_x0 is not None and name_x0 - c.line.x0 > 0.5 * c.line.size
        return outdented or (bool(_PANEL_WORDS.search(text)) and not re.search(r"[,(&/-]$|\b(and|of)$", text))

    def method_like(c: _Cells) -> bool:
        text = c.text(cols.NAME)
        # Method lines are printed smaller than the row above them (OCR box heights
        # vary with the letters, so only a clear difference counts there).
        reference = last_line.size if last_line is not None else row_size
        smaller = reference is not None and c.line.size < (0.85 if fonts else 0.7) * reference
        return bool(_METHOD_LINE.match(text)) or smaller or (
            bool(_METHOD_WORDS.search(text)) and len(text.split()) <= 4 and text[:1] in "([")

    for c in placed:
        value_kind = c.value_kind()
        name = c.text(cols.NAME).strip()
        if c.prose:
            pending.append(c)
            continue
        if value_kind is None:
            extra = set(c.cells) - {cols.NAME}
            tier = bool(extra) and extra <= {cols.RANGE, cols.UNITS, cols.FLAG}
            if tier and last is not None and last_line is not None and \
                    c.line.top - last_line.bottom < 1.2 * c.line.size and not pending:
                _continue_row(last, c)  # a multi-line range or a unit on the next line
                last_line = c.line
                if name:
                    pending.append(c)  # a method or comment printed beside the range's tier
                continue
            if name:
                pending.append(c)
            continue
        # A value line: its name may be on this line, above it, or both.
        value = c.text(value_kind).strip()
        if len(value.split()) >= _SENTENCE_WORDS:
            pending.append(c)
            continue
        prefix: list[str] = []
        prefix_words: list[Word] = []
        orphan: _Cells | None = None  # the last plain name line, for a value printed below it
        named_above = _garbled_name_under(c, pending) if c.line.ocr else None
        if named_above is not None:
            name = ""  # OCR merged the garbled method line under the name into the value line
        for p in pending:
            ptext = p.text(cols.NAME).strip()
            if p.prose:
                continue
            if p is not named_above and method_like(p) and (fonts or not heading_like(p)):
                if last is not None and last.method is None:
                    last.method = ptext
                continue
            if _looks_like_specimen(ptext):
                specimen = ptext
                continue
            close_below_last = last_line is not None and \
                p.line.top - last_line.bottom < 0.8 * p.line.size and not prefix
            close_above_this = c.line.top - p.line.bottom < 0.6 * p.line.size
            if close_below_last and last is not None and not name.startswith(ptext) \
                    and _continues(last.name, ptext):
                last.name = f"{last.name} {ptext}"
                last.words.extend(p.name_words())
                continue
            if id(p) in annotations:
                if last is not None and last.method is None:
                    last.method = ptext  # the table prints a method/comment under each row
                continue
            if heading_like(p):
                if not titled:
                    panel = _heading(ptext)
                prefix = []
                continue
            if _comment_sentence(ptext):
                prefix, prefix_words = [], []  # "Confirmed on a second aliquot." under a row
                continue
            if close_above_this and not _NON_RESULT_NAMES.match(ptext):
                prefix.append(ptext)
                prefix_words.extend(p.name_words())
                continue
            prefix, prefix_words = [], []  # a comment or heading-less text between rows
            orphan = p if not _NON_RESULT_NAMES.match(ptext) else None
        pending = []
        if not prefix and not name and orphan is not None and \
                c.line.top - orphan.line.bottom < 2 * c.line.size:
            # The value sits a line below its name, with a gap.
            prefix = [orphan.text(cols.NAME).strip()]
            prefix_words = orphan.name_words()
        full_name = " ".join([*prefix, name]).strip()
        if not full_name:
            continue  # a value with no name anywhere near: nothing to attach it to
        if _looks_like_specimen(full_name):
            specimen = c.text(value_kind).strip() or specimen
            continue
        row = RawRow(
            page=c.line.page,
            name=full_name,
            value=value,
            value_kind=value_kind,
            flag=c.text(cols.FLAG).strip() or None,
            units=c.text(cols.UNITS).strip() or None,
            range_text=c.text(cols.RANGE).strip() or None,
            panel=panel,
            specimen=specimen,
            words=prefix_words + [w for w in c.line.words if header.contains(w.x0, w.x1)],
            unit_column=cols.UNITS in header.kinds,
            ambiguous=c.ambiguous,
            ocr=c.line.ocr,
        )
        rows.append(row)
        last, last_line = row, c.line
    # Headings after the last row name the next table's panel (it may be on the next page).
    for p in pending:
        ptext = p.text(cols.NAME).strip()
        if method_like(p) and last is not None and last.method is None and last_line is not None \
                and p.line.top - last_line.bottom < 1.5 * p.line.size:
            last.method = ptext
        elif heading_like(p):
            panel = _heading(ptext)
    return [r for r in rows if not _NON_RESULT_NAMES.match(r.name)], panel, specimen


# A table "prints a line under its rows" when at least this many rows have one and most of
# those lines read as methods; then every such line belongs to the row above it.
_MIN_ANNOTATED_ROWS = 3


def _annotation_lines(placed: list[_Cells]) -> set[int]:
    """ids of the name-only lines printed directly under a result row, when the table does
    that consistently (a method, specimen or comment line under each result) rather than
    now and then (a heading or the first line of the next name).

    Two readings of such a line are possible; the table decides between them: when most of
    them read as methods, all of them are taken as the row's annotation."""
    followers: list[_Cells] = []
    value_rows = 0
    for i, c in enumerate(placed):
        if c.value_kind() is None or c.prose:
            continue
        value_rows += 1
        j = i + 1  # past the row's own continuation lines (a range's second tier)
        while j < len(placed) and _is_tier(placed[j]):
            c, j = placed[j], j + 1
        if j >= len(placed):
            break
        below = placed[j]
        text = below.text(cols.NAME).strip()
        if below.value_kind() is None and not below.prose and text and \
                set(below.cells) - {cols.NAME} <= {cols.RANGE, cols.UNITS, cols.FLAG} and \
                below.line.top - c.line.bottom < 0.8 * below.line.size:
            followers.append(below)
    if len(followers) < max(_MIN_ANNOTATED_ROWS, 0.4 * value_rows):
        return set()
    methods = sum(bool(_METHOD_WORDS.search(f.text(cols.NAME)) or _METHOD_LINE.match(f.text(cols.NAME)))
                  for f in followers)
    return {id(f) for f in followers} if methods >= 0.5 * len(followers) else set()


# An OCR name cell read this unsurely is not a name but a smudge (a small method line).
_GARBLED_NAME_CONFIDENCE = 0.6
_SURE_NAME_CONFIDENCE = 0.85


def _garbled_name_under(c: _Cells, pending: list[_Cells]) -> _Cells | None:
    """On an OCR page, the confident name-only line just above (or overlapping) a value line
    whose own name cell is all unsure words: the printed name, with the garbled small method
    line tesseract merged into the value line in place of it. None otherwise."""
    name_words = c.name_words()
    if not name_words or max(w.conf for w in name_words) >= _GARBLED_NAME_CONFIDENCE:
        return None
    above = [p for p in pending if not p.prose and p.text(cols.NAME).strip()]
    if not above:
        return None
    p = above[-1]
    p_words = p.name_words()
    if not p_words or min(w.conf for w in p_words) < _SURE_NAME_CONFIDENCE:
        return None
    if c.line.top - p.line.bottom >= 0.6 * p.line.size:
        return None
    return p


def _comment_sentence(text: str) -> bool:
    """A sentence (several words, a full stop after a word) is a comment, never part of a
    test name; dotted abbreviations ("S.G.O.T.") are single words."""
    return len(text.split()) >= 3 and bool(re.search(r"[a-z]{3}\.$", text))


def _is_tier(c: _Cells) -> bool:
    """A line holding only more of the row above: a range tier, its units or flag."""
    return c.value_kind() is None and bool(c.cells) and \
        set(c.cells) <= {cols.RANGE, cols.UNITS, cols.FLAG}


def _continue_row(row: RawRow, c: _Cells) -> None:
    extra_range = c.text(cols.RANGE).strip()
    if extra_range:
        row.range_text = f"{row.range_text} {extra_range}" if row.range_text else extra_range
    extra_units = c.text(cols.UNITS).strip()
    if extra_units and not row.units:
        row.units = extra_units
    extra_flag = c.text(cols.FLAG).strip()
    if extra_flag and not row.flag:
        row.flag = extra_flag
    row.words.extend(w for kind, phrases in c.cells.items() if kind != cols.NAME
                     for ph in phrases for w in ph.words)


def _continues(name: str, text: str) -> bool:
    """Does `text` read as the second line of a wrapped test name?"""
    if _METHOD_WORDS.search(text) and not re.search(r"[,(&/-]$", name):
        return False
    parenthetical = text.startswith("(") and text.endswith(")")
    return bool(re.search(r"[,(&/-]$|\band$|\bof$", name)) or text[:1].islower() or \
        name.count("(") > name.count(")") or text[:1] in ")-&" or parenthetical


def _heading(text: str) -> str:
    """A heading without the decoration around it (">> LIPID PROFILE", "-- CBC --:")."""
    return re.sub(r"^[\s>*=#•·:\-–]+|[\s<*=#•·:\-–]+$", "", text)


def _looks_like_specimen(text: str) -> bool:
    return bool(re.match(r"^\W*(sample|specimen)(\s+type)?\s*[:\-]?", text, re.I))


def _mostly_bold(cells: list[_Cells]) -> bool:
    words = [w for c in cells for w in c.name_words()]
    return bool(words) and sum(w.bold for w in words) > len(words) / 2


def _mostly_caps(names: list[str]) -> bool:
    names = [n for n in names if any(ch.isalpha() for ch in n)]
    return bool(names) and sum(n.isupper() for n in names) > len(names) / 2


# ------------------------------------------------------------ no header: by content


def content_rows(lines: list[Line], panel: str | None) -> list[RawRow]:
    """Rows of a page without a header: `name  value  [flag]  [units]  [range]` by content."""
    rows = []
    for line in lines:
        phrases = line.phrases()
        if len(phrases) < 2:
            continue
        name = phrases[0].text.strip()
        if not re.search(r"[A-Za-z]{2}", name) or _NON_RESULT_NAMES.match(name):
            continue
        kinds = [cols.content_kind(p.text) for p in phrases[1:]]
        if not kinds or kinds[0] != cols.RESULT:
            continue
        row = RawRow(page=line.page, name=name, value=phrases[1].text.strip(),
                     words=list(line.words), from_header=False, ocr=line.ocr)
        for phrase, kind in zip(phrases[2:], kinds[1:]):
            if kind == cols.FLAG and row.flag is None:
                row.flag = phrase.text.strip()
            elif kind == cols.UNITS and row.units is None:
                row.units = phrase.text.strip()
            elif kind == cols.RANGE and row.range_text is None:
                row.range_text = phrase.text.strip()
        if row.range_text is None and row.units is None:
            continue  # a number after a label is not enough to call it a result
        row.panel = panel
        rows.append(row)
    return rows


# ------------------------------------------------------------------ whole document


def document_rows(doc: Document) -> list[RawRow]:
    """All result rows of a document, tables carried across pages."""
    keys = boilerplate_keys(doc)
    rows: list[RawRow] = []
    carried: list[Header] = []
    carried_width = 0.0
    panel: str | None = None
    specimen: str | None = None
    for page in doc.pages:
        lines = [l for l in page_lines(page)
                 if not is_boilerplate(l, page, keys) or _header_line(l, page)]
        regions = _regions(lines, page)
        if not regions and carried:
            scale = page.width / carried_width if carried_width else 1.0
            regions = [(h.shifted(scale), lines, None) for h in carried]
        if not regions:
            rows.extend(content_rows(lines, panel))
            continue
        for header, region_lines, title in regions:
            if title is not None:
                panel, specimen = title, None
            found, panel, specimen = table_rows(region_lines, header, panel, specimen,
                                                titled=title is not None,
                                                fonts=page.source == "text")
            rows.extend(found)
        carried = [h for h, _, _ in regions if h.page == page.number] or carried
        carried_width = page.width
    return rows


def _header_line(line: Line, page: Page) -> bool:
    """Table headers repeat on every page but are not boilerplate: they place the columns."""
    return bool(_line_headers(line, page))


def _line_headers(line: Line, page: Page) -> list[Header]:
    return cols.find_headers([(w.text, w.x0, w.x1) for w in line.words], line.top, line.bottom,
                             page.number, page.width)


def _regions(lines: list[Line], page: Page) -> list[tuple[Header, list[Line], str | None]]:
    """Each header with the lines below it down to the next header over the same span
    (tables side by side each run on until a new header covers their own span)."""
    active: list[tuple[Header, int, str | None]] = []
    regions: list[tuple[Header, list[Line], str | None]] = []
    skip_to = 0
    for i, line in enumerate(lines):
        if i < skip_to:
            continue
        found, used = _header_at(lines, i, page)
        if not found:
            continue
        headers = [cols.header_without_name(h) for h in found]
        headers = [h for h in headers if _confirmed(h, lines[i + used:i + used + _CONFIRM_LINES])]
        if not headers:
            continue
        still_active = []
        for header, start, title in active:
            if any(_overlap(header, h) for h in headers):
                regions.append((header, lines[start:i], title))
            else:
                still_active.append((header, start, title))
        skip_to = i + used
        active = still_active + [(h, skip_to, _title_above(lines[:i], h)) for h in headers]
    regions.extend((header, lines[start:], title) for header, start, title in active)
    return regions


_CONFIRM_LINES = 12  # lines under a doubtful header whose content must show a value column


def _confirmed(header: Header, below: list[Line]) -> bool:
    """A header whose value heading is a word the vocabulary lacks stands only if the content
    under it votes a value column there (two readings: a table header, or a plain line)."""
    if not cols.needs_confirmation(header):
        return True
    phrases = [(p.x0, p.x1, p.text) for line in below for p in line.phrases()]
    return bool(cols.resolve_unknown(header, phrases).kinds & set(cols.VALUE_KINDS))


def _header_at(lines: list[Line], i: int, page: Page) -> tuple[list[Header], int]:
    """The headers of line i, read together with the next line when labels are stacked on two
    lines ("Reference / Interval", "Previous Result / and Date"); and how many lines they use."""
    line = lines[i]
    single = _line_headers(line, page)
    if i + 1 < len(lines) and any(cols.label_key(w.text) in cols.LABEL_WORDS for w in line.words) \
            and _stacked_label_line(line, lines[i + 1]):
        pair = [line, lines[i + 1]]
        double = cols.find_headers(_stacked_words(pair), line.top, pair[1].bottom, page.number,
                                   page.width)
        if sum(len(h.columns) for h in double) > sum(len(h.columns) for h in single):
            return double, 2
    return single, 1


def _stacked_label_line(line: Line, below: Line) -> bool:
    """Is `below` the second line of labels printed on two lines?"""
    if below.top - line.bottom > 0.8 * max(line.size, below.size) or any(
            ch.isdigit() for ch in below.text):
        return False
    for part in (line, below):
        keys = [k for k in (cols.label_key(w.text) for w in part.words) if k]
        if not keys or sum(k in cols.LABEL_WORDS for k in keys) < 0.5 * len(keys):
            return False  # each line must be mostly labels (a title above is not)
    return True


def _stacked_words(lines: list[Line]) -> list[tuple[str, float, float]]:
    """Words of several lines as one line of labels: words stacked in a column join."""
    clusters: list[list[Word]] = []
    for word in sorted((w for line in lines for w in line.words), key=lambda w: w.x0):
        if clusters and word.x0 < max(w.x1 for w in clusters[-1]) + 2:
            clusters[-1].append(word)
        else:
            clusters.append([word])
    stacked = []
    for cluster in clusters:
        ordered = sorted(cluster, key=lambda w: (round(w.top / max(w.bottom - w.top, 1)), w.x0))
        stacked.append((" ".join(w.text for w in ordered), min(w.x0 for w in cluster),
                        max(w.x1 for w in cluster)))
    return stacked


def _overlap(a: Header, b: Header) -> bool:
    return min(a.x_end, b.x_end) - max(a.x_start, b.x_start) > 0


def _title_above(lines: list[Line], header: Header) -> str | None:
    """The panel title printed just above a header, within the header's span."""
    candidates = []
    for line in lines:
        if line.bottom > header.top + 0.5:
            continue
        phrases = [p for p in line.phrases() if header.contains(p.x0, p.x1)]
        if phrases:
            candidates.append((line, phrases))
    if not candidates:
        return None
    line, phrases = max(candidates, key=lambda c: c[0].bottom)
    size = median_size([w for p in phrases for w in p.words])
    if header.top - line.bottom > 3 * size or any(is_flag(p.text) for p in phrases):
        return None
    if len(phrases) > 1:
        return None  # a title is one phrase; several are a block of labels or a table row
    text = phrases[0].text.strip()
    if len(text.split()) > 8 or ":" in text or not re.search(r"[A-Za-z]{3}", text):
        return None
    return _heading(text)
