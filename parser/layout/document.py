"""Words of a document -> result rows: tables found by their headers, carried across pages.

Lines come from lines.py. Each table header (columns.py; cumulative.py for columns headed by
dates) starts a region running down to the next header over the same span; a region's lines
become rows in table.py. A page with no header, and lines no table reads, are read by
content (content.py).
"""

from __future__ import annotations

import re

from parser import columns as cols
from parser.columns import Header
from parser.flags import is_flag
from parser.layout.content import content_rows, with_unread_rows
from parser.layout.cumulative import cumulative_header, dates_line
from parser.layout.gutter import columns_apart
from parser.layout.measures import split_measurements
from parser.layout.paired import grid_rows
from parser.layout.range_above import restore_printed_order, tiers_to_their_rows
from parser.layout.range_blocks import attach_block_ranges, is_block_label, split_range_block
from parser.layout.range_under import range_under_rows
from parser.layout.rows import MAX_TITLE_WORDS, RawRow, heading_text, looks_like_specimen
from parser.layout.sex_columns import label_sex_ranges, sex_labels
from parser.layout.sideways import sideways_rows
from parser.layout.table import table_rows
from parser.layout.transposed_grid import transposed_rows
from parser.lines import Line, boilerplate_keys, is_boilerplate, median_size, page_lines
from parser.metadata_dates import NUMERIC_DATE
from parser.page import Document, Page, Word
from parser.ranges import labelled_range


def document_rows(doc: Document) -> list[RawRow]:
    """All result rows of a document, tables carried across pages."""
    keys = boilerplate_keys(doc)
    rows: list[RawRow] = []
    carried: list[Header] = []
    carried_width = 0.0
    panel: str | None = None
    specimen: str | None = None
    last_table: list[RawRow] = []  # rows of the table read last (a range block may follow it)
    body: list[tuple[Page, list[Line]]] = []
    headed: dict[int, Header] = {}  # the header each line of a table region is read under
    for page in doc.pages:
        lines, sideways = sideways_rows(_content_lines(page, keys))
        rows.extend(sideways)  # tables printed one column per test, read apart
        lines, ranged = range_under_rows(lines)
        rows.extend(ranged)  # each row's range on a line under its name
        lines, transposed = transposed_rows(lines)
        rows.extend(transposed)  # a test per column, an episode per line: the latest's values
        body.append((page, lines))
        continued = [h.shifted(page.width / carried_width) for h in carried]  # the last page's tables
        regions = _regions(lines, page) or [(h, lines, None) for h in continued]
        if not regions:
            lines, block_ranges = split_range_block(columns_apart(lines))
            found = grid_rows(lines, panel, every=True)
            attach_block_ranges(found or last_table, block_ranges)
            rows.extend(found)
            continue
        # The range block of the last page's table, printed at the top of this page.
        first_top = min(h.top for h, _, _ in regions)
        above, above_ranges = split_range_block([l for l in lines if l.bottom <= first_top])
        attach_block_ranges(last_table, above_ranges)
        if not continued:
            rows.extend(grid_rows(above, panel, every=False))  # a grid of two tests a line over the tables
        # The last page's table runs on above this page's first header (other lines above
        # it, a table whose header is not known, are left to with_unread_rows).
        for header in continued if above else []:
            found, panel, specimen = _region_rows(above, header, page, panel, specimen, titled=False)
            rows.extend(found)
            headed.update((id(line), header) for line in above)
        for header, region_lines, title in regions:
            if title is not None:
                panel, specimen = title, None
            last_table, panel, specimen = _region_rows(region_lines, header, page, panel, specimen,
                                                       titled=title is not None)
            rows.extend(last_table)
            headed.update((id(line), header) for line in region_lines)
        carried = [h for h, _, _ in regions if h.page == page.number] or carried
        carried_width = page.width
    rows = with_unread_rows(rows, body, headed, _header_line)
    return [part for row in rows for part in split_measurements(row)]


def _region_rows(lines: list[Line], header: Header, page: Page, panel: str | None,
                 specimen: str | None, titled: bool) -> tuple[list[RawRow], str | None, str | None]:
    """The rows of one table region, with the ranges printed away from their cells: in a block
    under the table, or tiers above the value's line."""
    lines = [part for line in lines if (part := _within(line, header)) is not None]
    lines, block_ranges = split_range_block(lines)
    lines, moved_tiers, placed = tiers_to_their_rows(lines, header)
    found, panel, specimen = table_rows(lines, header, panel, specimen, titled=titled,
                                        fonts=page.source == "text", placed=placed)
    restore_printed_order(found, moved_tiers)
    attach_block_ranges(found, block_ranges)
    label_sex_ranges(lines, found)  # ranges printed in a column per sex
    return found, panel, specimen


def _within(line: Line, header: Header) -> Line | None:
    """The line's words in the table's span: a table beside another sets its lines on its own
    rhythm, so the other table's words, a little higher or lower, must not stretch this
    table's line (its gaps tell wrapped names from rows). None when no word is in the span."""
    inside = [w for p in line.phrases() if header.contains(p.x0, p.x1) for w in p.words]  # as cells place them
    if len(inside) == len(line.words):
        return line
    return Line(inside, line.page, line.ocr, line.cuts) if inside else None


def _content_lines(page: Page, keys: set[tuple[str, int]]) -> list[Line]:
    """The page's lines less its running header and footer; a table header repeated on every
    page stays, with the second line of labels stacked on two lines ("Valeurs de / référence":
    without it "Valeurs de" reads as another column)."""
    lines = page_lines(page)
    kept: list[Line] = []
    for i, line in enumerate(lines):
        if not is_boilerplate(line, page, keys) or _header_line(line, page) or \
                is_block_label(line.text) or dates_line(line) is not None or labelled_range(line.text):
            kept.append(line)  # "Bio. Ref. Interval. :-" under every table; a cumulative
            # table's dates, printed over each of its tables; a row's "V.R.: 3,80 - 5,20"
            # line (its digits' pattern may recur at the same height on the next page)
        elif i and kept and kept[-1] is lines[i - 1] and (_header_line(lines[i - 1], page) and
                                                          (_stacked_label_line(lines[i - 1], line)
                                                           or sex_labels(line) is not None)
                                                          or dates_line(lines[i - 1]) is not None):
            kept.append(line)  # the labels under a header's or the dates' line ("Male  Female")
    return kept


def _header_line(line: Line, page: Page) -> bool:
    """Table headers repeat on every page but are not boilerplate: they place the columns."""
    return bool(_line_headers(line, page))


def _line_headers(line: Line, page: Page) -> list[Header]:
    return cols.find_headers([(_label_text(w, line), w.x0, w.x1) for w in line.words], line.top, line.bottom,
                             page.number, page.width, ocr=line.ocr)


def _label_text(word: Word, line: Line) -> str:
    """A word as header finding reads it: on an OCR line, a heading word misread by a letter
    is its label ("référèhce")."""
    return cols.ocr_label_text(word.text) if line.ocr else word.text


def _label_key(word: Word, line: Line) -> str:
    return cols.label_key(_label_text(word, line))


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
        if not found and (cumulative := cumulative_header(lines, i, page)) is not None:
            found, used = [cumulative[0]], cumulative[1]
        if not found:
            continue
        headers = [cols.header_without_name(h) for h in found]
        headers = [h for h in headers if _confirmed(h, lines[i + used:i + used + _CONFIRM_LINES])]
        # No column gap on the line: a header, or a title? (Two lines of labels, "Reference
        # Range" stacked over "Investigation  Result  Units", are a header.)
        if used == 1 and len(lines[i].phrases()) == 1:
            below = lines[i + used:i + used + _CONFIRM_LINES]
            headers = [h for h in headers if not any(
                _overlap(a, h) and _above_reads_as_well(a, h, below, page) for a, _, _ in active)]
        if not headers:
            continue
        used += _dates_under_previous(headers, lines, i + used)
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


def _dates_under_previous(headers: list[Header], lines: list[Line], j: int) -> int:
    """1 if line j prints dates under the previous-results label of the header just above
    ("Antériorités" over "12/09/2024  05/02/2024", Hexalis-kind reports): they date the
    previous columns, a part of that header, not the header of a cumulative table."""
    if j >= len(lines) or (dated := dates_line(lines[j])) is None:
        return 0
    starts = [c.x0 for h in headers for c in h.columns if c.kind == cols.PREVIOUS]
    ends = [c.x1 for h in headers for c in h.columns if c.kind == cols.RESULT]
    if not starts or not ends:
        return 0
    tolerance = lines[j].size  # the date centred under a label a little narrower than it
    return int(all(p.x0 >= min(starts) - tolerance and p.x0 > max(ends) for p, _ in dated))


_CONFIRM_LINES = 12  # lines under a doubtful header whose content must show a value column


def _confirmed(header: Header, below: list[Line]) -> bool:
    """A header whose value heading is a word the vocabulary lacks stands only if the content
    under it votes a value column there (two readings: a table header, or a plain line)."""
    if not cols.needs_confirmation(header):
        return True
    phrases = [(p.x0, p.x1, p.text) for line in below for p in line.phrases()]
    return cols.confirmed_by(header, phrases)


def _above_reads_as_well(table: Header, header: Header, below: list[Line], page: Page) -> bool:
    """Two readings of the lines under a line of labels set like a title: a new table under
    it, or more rows of the table above. The one that reads more measured rows wins; a tie
    keeps the table above ("Formule leucocytaire (valeurs absolues)" is a heading in it)."""
    return _measured_rows(below, table, page) >= _measured_rows(below, header, page)


def _measured_rows(lines: list[Line], header: Header, page: Page) -> int:
    rows, _, _ = table_rows(lines, header, None, None, fonts=page.source == "text")
    return sum(1 for r in rows if r.value and (r.units or r.range_text))


def _header_at(lines: list[Line], i: int, page: Page) -> tuple[list[Header], int]:
    """The headers of line i, read together with the next line when labels are stacked on two
    lines ("Reference / Interval", "Previous Result / and Date"); and how many lines they use."""
    line = lines[i]
    single = _line_headers(line, page)
    if i + 1 < len(lines) and any(_label_key(w, line) in cols.LABEL_WORDS for w in line.words) \
            and _stacked_label_line(line, lines[i + 1]):
        pair = [line, lines[i + 1]]
        double = cols.find_headers(_stacked_words(pair), line.top, pair[1].bottom, page.number,
                                   page.width, ocr=line.ocr)
        # Three readings: this line, the two as one header, or the next line alone (a line of
        # group labels, "SI UNITS  CONVENTIONAL UNITS", above the header): the most columns win.
        if _header_score(double) > _header_score(single) and \
                _header_score(double) >= _header_score(_line_headers(lines[i + 1], page)):
            return double, 2
    return single, 1


def _header_score(headers: list[Header]) -> tuple[int, int, int]:
    """More labelled columns, then more kinds of column: "Valeurs de / référence" read on two
    lines is the range, where its first line alone reads as a second value column. Headings
    the vocabulary lacks count last: a wrapped cell's second line stacked under the wrong
    label ("Referenzbereich / Intervallo di" over "riferimento") makes unknown headings of
    labels, not columns."""
    known = sum(c.kind != cols.UNKNOWN for h in headers for c in h.columns)
    return (known, sum(len(h.kinds - {cols.UNKNOWN}) for h in headers), sum(len(h.columns) for h in headers))


# A numeric date, perhaps in brackets, as a whole word ("(21/10/24)").
_HEADING_DATE = re.compile(r"\(?" + NUMERIC_DATE.pattern + r"\)?")


def _stacked_label_line(line: Line, below: Line) -> bool:
    """Is `below` the second line of labels printed on two lines?"""
    # A previous result's date under its label ("ANTÉRIORITÉS" over "(21/10/24)") is a label's
    # part; any other digit makes the line a row.
    if below.top - line.bottom > 0.8 * max(line.size, below.size) or any(
            ch.isdigit() for w in below.words if not _HEADING_DATE.fullmatch(w.text) for ch in w.text):
        return False
    for part in (line, below):
        keys = [k for k in (_label_key(w, part) for w in part.words) if k]
        if not keys or sum(k in cols.LABEL_WORDS for k in keys) < 0.5 * len(keys):
            return False  # each line must be mostly labels (a title above is not)
    # The second line's words sit under labels of the first ("Reference / Interval"); a
    # section title under the header ("ESAME URINE") runs where no label is.
    # A label word of its own may sit where the first line has none (LabCorp sets "Units",
    # "Reference Interval" on the lower line of a two-line header).
    # So may the joiner inside such a label ("di" of "Valori di riferimento": OCR gives a line's
    # words one box, so a label beside a two-line cell lands on the cell's lower line).
    slack = 0.2 * max(line.size, below.size)
    keys = [_label_key(w, below) for w in below.words]
    return all(any(w.x0 < a.x1 + slack and w.x1 > a.x0 - slack for a in line.words) or
               keys[i] in cols.LABEL_WORDS or _joiner_between_labels(keys, i)
               for i, w in enumerate(below.words))


def _joiner_between_labels(keys: list[str], i: int) -> bool:
    """Is keys[i] a joiner ("di", "de", "of") between two label words?"""
    return keys[i] in cols.HEADING_JOINERS and 0 < i < len(keys) - 1 and \
        keys[i - 1] in cols.LABEL_WORDS and keys[i + 1] in cols.LABEL_WORDS


def _stacked_words(lines: list[Line]) -> list[tuple[str, float, float]]:
    """Words of several lines as one line of labels: words stacked in a column join."""
    clusters: list[list[Word]] = []
    texts = {id(w): "" if _HEADING_DATE.fullmatch(w.text) else _label_text(w, line)  # "(21/10/24)"
             for line in lines for w in line.words}
    row = {id(w): n for n, line in enumerate(lines) for w in line.words}  # lines come top to bottom
    wrapped = _wrapped_label_ends(lines)
    for word in sorted((w for line in lines for w in line.words if id(w) not in wrapped), key=lambda w: w.x0):
        if clusters and word.x0 < max(w.x1 for w in clusters[-1]) + 2:
            clusters[-1].append(word)
        else:
            clusters.append([word])
    cluster_of = {id(w): cluster for cluster in clusters for w in cluster}
    for word, end in wrapped.values():
        cluster_of[id(end)].append(word)
    stacked = []
    for cluster in clusters:
        ordered = sorted(cluster, key=lambda w: (row[id(w)], w.x0))
        placed = [w for w in cluster if id(w) not in wrapped]  # a wrapped end keeps its cell's place
        stacked.append((" ".join(texts[id(w)] for w in ordered if texts[id(w)]), min(w.x0 for w in placed),
                        max(w.x1 for w in placed)))
    return stacked


def _wrapped_label_ends(lines: list[Line]) -> dict[int, tuple[Word, Word]]:
    """Words of a lower line that end a label a cell of the line above wrapped at its left
    edge ("Referenzbereich / Intervallo di" over "riferimento"), by id: each with the last word
    of that cell, whose column it joins (not the word it happens to sit under)."""
    ends: dict[int, tuple[Word, Word]] = {}
    for upper, lower in zip(lines, lines[1:]):
        for phrase in upper.phrases():
            keys = [_label_key(w, upper) for w in phrase.words]
            under = [w for w in lower.words if phrase.x0 - 1 <= w.x0 < phrase.x1]
            if not under or len(phrase.words) < 2:
                continue
            tail = " ".join(_label_key(w, lower) for w in under)
            if any(cols.label_kind(" ".join([*keys[k:], tail])) is not None for k in range(1, len(keys))) and \
                    cols.label_kind(" ".join([keys[0], tail])) is None:
                ends.update((id(w), (w, phrase.words[-1])) for w in under)
    return ends


def _overlap(a: Header, b: Header) -> bool:
    return min(a.x_end, b.x_end) - max(a.x_start, b.x_start) > 0


def _title_above(lines: list[Line], header: Header) -> str | None:
    """The panel title printed just above a header, within the header's span."""
    candidates = []
    for line in lines:
        if line.bottom > header.top + 0.5:
            continue
        phrases = [p for p in line.phrases() if header.contains(p.x0, p.x1)]
        if phrases and not looks_like_specimen(phrases[0].text):
            candidates.append((line, phrases))  # the title over a specimen line over the header
    if not candidates:
        return None
    line, phrases = max(candidates, key=lambda c: c[0].bottom)
    size = median_size([w for p in phrases for w in p.words])
    if header.top - line.bottom > 3 * size or any(is_flag(p.text) for p in phrases):
        return None
    if len(phrases) > 1:
        return None  # a title is one phrase; several are a block of labels or a table row
    text = phrases[0].text.strip()
    if len(text.split()) > MAX_TITLE_WORDS or ":" in text or not re.search(r"[A-Za-z]{3}", text):
        return None
    return heading_text(text)
