"""Rows of one table region: placed lines (cells.py) grouped into result rows.

A wrapped name joins its row, a small "Method: ..." line under a name is kept as the row's
method, a line with a name but no value is a panel heading, an annotation or the first line
of the next name, and a value a line below its name finds it. Headings and method lines are
told from rows by how they differ from the table's own rows (TableStyle); where a line could
be read two ways, the whole table decides (annotation_lines).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass

from parser import columns as cols
from parser.columns import Header
from parser.flags import is_flag
from parser.layout import typewriter
from parser.layout.cells import Cells, is_tier, place
from parser.layout.measures import measurement, with_second
from parser.layout.name_units import unit_after_name
from parser.layout.range_below import range_under_row, take_range
from parser.layout.rows import (
    METHOD_LINE, METHOD_WORDS, NON_RESULT_NAMES, PANEL_WORDS, SENTENCE_WORDS, RawRow,
    comment_sentence, continues_name, heading_text, looks_like_specimen, trim_ocr_leader,
    without_marks,
)
from parser.lines import Line, Phrase, median_size, word_size
from parser.locale_forms import merge_spaced_groups
from parser.page import Word
from parser.ranges import looks_like_range
from parser.units import is_unit, runs_on

_DIGIT = re.compile(r"\d")

# An OCR name cell read this unsurely is not a name but a smudge (a small method line).
_GARBLED_NAME_CONFIDENCE = 0.6
_SURE_NAME_CONFIDENCE = 0.85
# A table "prints a line under its rows" when at least this many rows have one and most of
# those lines read as methods; then every such line belongs to the row above it.
_MIN_ANNOTATED_ROWS = 3
# A names column is full when its widest name ends within this many sizes of the next
# column's label (the cells' padding): its names wrap where a word would not fit.
_FULL_COLUMN_SLACK = 2.0
# A line with this many section words ("Differential", "Count") over a row is a heading.
_SECTION_WORDS = 2
# A plain-text print's section heading set in a rule ("=== PARASITOLOGY ====="): no name
# wraps onto a line starting so.
_RULED_HEADING = re.compile(r"^\s*(?:={2,}|\*{3,}|#{2,})")
# A first line of a wrapped name fills most of the widest name; a section title need not.
_WRAP_SHARE = 0.6
# The space between two words of a name, as a share of their size (a wrapped name's next word
# must not have fitted after the space).
_SPACE_SHARE = 0.25


def table_rows(lines: list[Line], header: Header, panel: str | None,
               specimen: str | None, titled: bool = False, fonts: bool = True,
               placed: dict[int, Cells] | None = None) -> tuple[list[RawRow], str | None, str | None]:
    """Rows of one table region; returns the rows and the panel/specimen in force at the end.

    `titled`: the table has a title above its header, which stays its panel name; headings
    inside it are sub-sections ("BLOOD INDICES"), not panels. `placed`: lines already placed in
    `header`, by line id (taken as they are while the columns stay that header's).
    """
    by_line = [[(p.x0, p.x1, p.text) for p in line.phrases()] for line in lines]
    phrases = [phrase for line in by_line for phrase in line]
    size = median_size([w for line in lines for w in line.words]) if lines else 0.0
    ocr = bool(lines) and lines[0].ocr
    resolved = cols.with_unlabelled_columns(cols.flags_under_remarks(cols.resolve_unknown(header, phrases), phrases),
                                            phrases, cols.ocr_edge_tolerance(size) if ocr else 1.0)
    if lines:
        inside = [[ph for ph in line if resolved.contains(ph[0], ph[1])] for line in by_line]
        resolved = cols.with_code_column(resolved, inside, size)
    placed = placed_lines(lines, resolved, placed if resolved is header else None)
    header = resolved
    placed = [c for c in placed if any(p for p in c.cells.values()) or c.prose]
    annotations = annotation_lines(placed)
    reader = TableReader(header, TableStyle.of(placed, fonts), annotations, panel, specimen, titled)
    reader.wraps_down = wraps_names_down(placed, annotations)
    reader.wrap_right = names_right(placed, header, reader.wraps_down)
    reader.wraps_up = names_wrap_up(placed)
    for c in placed:
        reader.read(c)
    reader.finish()
    rows = [r for r in reader.rows if not NON_RESULT_NAMES.match(r.name)]
    return rows, reader.panel, reader.specimen


def placed_lines(lines: list[Line], header: Header,
                 known: dict[int, Cells] | None = None) -> list[Cells]:
    """Each line placed in its table's columns; the lines of a block headed by units of its
    own ("Formule leucocytaire  %  Valeur absolue G/l  ...") in that block's columns, for as
    long as they print a number under each of those headings. `known`: cells of lines already
    placed in `header`, by line id."""
    known = known or {}
    placed: list[Cells] = []
    i = 0
    while i < len(lines):
        sub, used = _block_header(lines, i, header)
        end = i + used
        while sub is not None and end < len(lines) and _fits_block(lines[end], sub):
            end += 1
        if end == i + used:
            cells = known.get(id(lines[i]))
            placed.append(cells if cells is not None else place(lines[i], header))
            i += 1
            continue
        block = lines[i + used:end]
        sub = cols.widened(sub, [(p.x0, p.x1, p.text) for line in block for p in line.phrases()[1:]])
        placed.extend(place(line, sub) for line in block)
        i = end
    return placed


def _block_header(lines: list[Line], i: int, header: Header) -> tuple[Header | None, int]:
    """The header of a block headed by units on line i, and how many lines it uses: one, or
    two when a unit is printed under its heading ("Valeur absolue" over "/mm³")."""
    phrases = [(p.x0, p.x1, p.text) for p in lines[i].phrases()]
    sub = cols.unit_subheader(phrases, header, lines[i].ocr)
    if sub is not None or i + 1 >= len(lines):
        return sub, 1
    stacked = _units_stacked_under(phrases, lines[i], lines[i + 1])
    if stacked is None:
        return None, 1
    sub = cols.unit_subheader(stacked, header, lines[i].ocr)
    return sub, 2


def _units_stacked_under(phrases: list[tuple[float, float, str]], line: Line, below: Line
                         ) -> list[tuple[float, float, str]] | None:
    """The line's headings with the units of the next line joined to the heading each stands
    under, when that line, close under it, prints only units; None otherwise."""
    if below.top - line.bottom > line.size:
        return None
    joined = list(phrases)
    for unit in below.phrases():
        over = [k for k, (x0, x1, _) in enumerate(joined) if min(x1, unit.x1) - max(x0, unit.x0) > 0]
        if len(over) != 1 or cols.heading_unit(unit.text, below.ocr) is None:
            return None
        x0, x1, text = joined[over[0]]
        joined[over[0]] = (min(x0, unit.x0), max(x1, unit.x1), f"{text} {unit.text}")
    return joined


def _fits_block(line: Line, block: Header) -> bool:
    """Does the line hold a number, and only a number, under each unit heading of the block?
    (A row after the block prints its unit, or nothing, where the block has numbers.)"""
    phrases = line.phrases()[1:]
    for col in block.columns:
        if not col.unit or col.kind not in (cols.RESULT, cols.OTHER):
            continue
        under = [p.text for p in phrases if min(p.x1, col.x1) - max(p.x0, col.x0) > 0]
        if len(under) != 1 or not _bare_count(under[0]):
            return False
    return True


@dataclass(slots=True)
class TableStyle:
    """What the table's result rows look like (size, weight, case, indent of the names)."""

    fonts: bool  # sizes and weights are known (text layer), not guessed from OCR boxes
    row_size: float | None
    row_bold: bool
    row_caps: bool
    name_x0: float | None
    name_width: float = 0.0  # the widest name cell of a result row
    # A monospaced table's names field: where it ends, and the character pitch (typewriter).
    names_field: tuple[float, float] | None = None

    @classmethod
    def of(cls, placed: list[Cells], fonts: bool) -> "TableStyle":
        named = [c for c in placed if c.text(cols.NAME) and c.value_kind()]
        sizes = [c.line.size for c in named]
        starts = [ph[0].x0 for c in placed if c.value_kind() and (ph := c.cells.get(cols.NAME))]
        return cls(
            fonts=fonts,
            row_size=statistics.median(sizes) if sizes else None,
            row_bold=_mostly_bold(named),
            row_caps=_mostly_caps([c.text(cols.NAME) for c in placed if c.value_kind()]),
            name_x0=statistics.median(starts) if starts else None,
            name_width=max((_name_width(c) for c in named), default=0.0),
            names_field=typewriter.names_field(named) if fonts else None,
        )

    def heading_like(self, c: Cells, by_words: bool = True, over_row: bool = False) -> bool:
        """A heading stands out from the rows: bigger, bolder, capitals, or ends in ':'.
        `by_words`: on OCR pages, section words ("HORMONE", "HbA1c") also make a heading."""
        text = c.text(cols.NAME).strip()
        if not text or c.prose or len(text.split()) > 7 or re.search(r"[.;]$", text):
            return False
        if text.endswith(":") and len(text.split()) <= 5:
            return True
        bold = _mostly_bold([c]) or (self.fonts and _bold_lead(c))
        bigger = self.row_size is not None and c.line.size > (1.1 if self.fonts else 1.2) * self.row_size
        caps = text.isupper() and not self.row_caps and len(text) > 3 and text[:1].isalpha()
        if bigger or (bold and not self.row_bold) or caps:
            return True
        # A heading sticks out left of the names (a wrapped name's first line starts where
        # names do).
        outdented = self.name_x0 is not None and self.name_x0 - c.line.x0 > 0.5 * c.line.size
        if self.fonts:
            # Fonts tell headings on a text layer, except a plain-text print's group label right
            # over its indented rows ("CBC W/ DIFF" over "WBC", `over_row`); a footer after the
            # last row ("**** End of Report ****") may stand left of the names too.
            return outdented and over_row
        # OCR knows no fonts: a heading sticks out left of the names, or names a panel.
        return outdented or (by_words and bool(PANEL_WORDS.search(text)) and
                             not re.search(r"[,(&/-]$|\b(and|of)$", text))

    def short_heading(self, c: Cells, row: Cells) -> bool:
        """A name-only line `c` above a row that has its own name is that row's section, not
        the first line of its wrapped name, when it cannot have wrapped: a name wraps only
        when its next word does not fit the column (and not mid-phrase), and keeps its case."""
        text = c.text(cols.NAME).strip()
        if _RULED_HEADING.match(text):
            return True  # "=== HAEMATOLOGY =====" right over the first row
        if len(text) <= 3 or not text[:1].isalpha() or comment_sentence(text) \
                or re.search(r"[,(&/-]$|\b(and|of|AND|OF)$", text):
            return False
        return _name_width(c) < _WRAP_SHARE * self.name_width or self._fits_before(c, row) \
            or self._case_breaks(text, row.text(cols.NAME).strip()) \
            or typewriter.fits_field(c.name_words(), row.name_words(), self.names_field)

    def _fits_before(self, c: Cells, row: Cells) -> bool:
        """Line `c` and the first word of the row's name fit within the widest one-line name
        of the table, so the column had room: the name would not have wrapped there."""
        above, below = c.name_words(), row.name_words()
        if not above or not below or self.name_width <= 0:
            return False
        space = _SPACE_SHARE * word_size(below[0])
        width = (above[-1].x1 - above[0].x0) + space + (below[0].x1 - below[0].x0)
        return width <= self.name_width

    def _case_breaks(self, text: str, name: str) -> bool:
        """In a table of capitals names, a line with small letters over a capitals name is not
        that name's first line (a wrapped name keeps its case)."""
        return self.row_caps and name.isupper() and any(ch.islower() for ch in text)

    def method_like(self, c: Cells, above: Line | None, by_size: bool = True) -> bool:
        """A method line: labelled, method words in brackets, or printed smaller than the
        row above it (OCR box heights vary with the letters: only a clear difference; not
        at all when `by_size` is off)."""
        text = c.text(cols.NAME)
        reference = above.size if above is not None else self.row_size
        smaller = by_size and reference is not None and \
            c.line.size < (0.85 if self.fonts else 0.7) * reference
        return bool(METHOD_LINE.match(text)) or smaller or (  # the cheap tests before the word search
            text[:1] in "([" and len(text.split()) <= 4 and bool(METHOD_WORDS.search(text)))


class TableReader:
    """Reads placed lines top to bottom, keeping the name-only lines since the last row
    (`pending`) until a value line decides what they were."""

    def __init__(self, header: Header, style: TableStyle, annotations: set[int],
                 panel: str | None, specimen: str | None, titled: bool) -> None:
        self.header, self.style, self.annotations = header, style, annotations
        self.panel, self.specimen, self.titled = panel, specimen, titled
        self.rows: list[RawRow] = []
        self.pending: list[Cells] = []
        self.last: RawRow | None = None
        self.last_line: Line | None = None
        self.last_value: list[Phrase] = []  # the last row's value cell, as printed
        # Where the names' text ends, when the table shows it wraps names (see
        # wrapped_names_right); None otherwise.
        self.wrap_right: float | None = None
        self.wraps_up = False  # some name runs on from a line above its value line
        self.wraps_down = False  # names run on under their value line (wraps_names_down)

    def read(self, c: Cells) -> None:
        if c.prose:
            self.pending.append(c)
            return
        kind = c.value_kind()
        if kind is None:
            self._no_value(c)
            return
        value = c.text(kind).strip()
        if _sentence(value):
            self.pending.append(c)  # a sentence in the value column (not a value and range)
            return
        if self._wraps_word_value(c, kind, value):
            self.last.value = f"{self.last.value} {value}"  # "giallo" / "paglierino"
            self.last.words.extend(w for p in c.cells[kind] for w in p.words)
            self.last_line, self.last_value = c.line, self.last_value + c.cells[kind]
            return
        self._value_line(c, kind, value)

    def _wraps_word_value(self, c: Cells, kind: str, value: str) -> bool:
        """A line holding only words in the value column, set tight under the last row's word
        value and aligned with it on one side: the value wrapped in a narrow column ("giallo" /
        "paglierino", "leggermente" / "torbido"), never a row of its own (it has no name)."""
        if set(c.cells) != {kind} or self.pending or self.last is None or self.last_line is None \
                or self.last.value_kind != kind or not self.last_value:
            return False
        if _DIGIT.search(value) or _DIGIT.search(self.last.value) or \
                c.line.top - self.last_line.bottom > 0.5 * c.line.size:
            return False
        x0, x1 = min(p.x0 for p in c.cells[kind]), max(p.x1 for p in c.cells[kind])
        above0, above1 = min(p.x0 for p in self.last_value), max(p.x1 for p in self.last_value)
        tolerance = 0.3 * c.line.size  # a glyph's side bearing, text-layer positions
        return abs(x1 - above1) <= tolerance or abs(x0 - above0) <= tolerance

    def _no_value(self, c: Cells) -> None:
        # OCR lost this row's value ("Leukozyten  142,:@lE  4,0 - 10,0"): a name with a range
        # beside it is a row, never the first line of the next row's name.
        unread_value = c.line.ocr and looks_like_range(c.text(cols.RANGE).strip())
        if c.ambiguous and cols.NAME in c.cells:
            # A phrase split word by word across the columns (a wide heading "INFLAMMATION
            # MARKERS", a comment) is one text, never a tier of the row above.
            words = sorted((w for phrases in c.cells.values() for p in phrases for w in p.words),
                           key=lambda w: w.x0)
            c = Cells(c.line, {cols.NAME: [Phrase(words)]}, c.ambiguous, c.prose)
        name = c.text(cols.NAME).strip()
        extra = set(c.cells) - {cols.NAME}
        tier = bool(extra) and extra <= {cols.RANGE, cols.UNITS, cols.FLAG}
        if tier and self.last is not None and self.last_line is not None and not self.pending \
                and c.line.top - self.last_line.bottom < 1.2 * c.line.size:
            above = self.last_line
            continue_row(self.last, c)  # a multi-line range or a unit on the next line
            self.last_line = c.line
            if name:  # text beside the row's own next tier belongs to that row
                if continues_name(self.last.name, name) or (
                        self.wrap_right is not None and self._wraps_last(c, above, None)):
                    self.last.name = f"{self.last.name} {name}"
                    self.last.words.extend(c.name_words())
                elif self.last.method is None:
                    self.last.method = name
            return
        if not self.pending and range_under_row(c, self.last, self.last_line):
            take_range(c, self.last)  # "V.R.: 12,0 - 15,5" under the row's name
            self.last_line = c.line
            return
        if name and not unread_value:
            self.pending.append(c)

    def _value_line(self, c: Cells, kind: str, value: str) -> None:
        """A value line: its name may be on this line, above it, or both."""
        name = c.text(cols.NAME).strip()
        name_words = c.name_words()
        words = trim_ocr_leader(name_words) if c.line.ocr else name_words
        if words and (kept := without_marks(words)) != name_words:
            name = " ".join(w.text for w in kept)  # a leader or a footnote mark trimmed
        named_above = garbled_name_under(c, self.pending) if c.line.ocr else None
        method = None
        if named_above is None and c.line.ocr and name:
            named_above = method_under_name(name, c, self.pending)
            method = name if named_above is not None else None
        if named_above is not None:
            name = ""  # OCR merged the method line under the name into the value line
        prefix, prefix_words, orphan = self._settle_pending(c, name, named_above, method is not None)
        self.pending = []
        if not prefix and not name and orphan is not None and \
                c.line.top - orphan.line.bottom < 2 * c.line.size:
            # The value sits a line below its name, with a gap.
            prefix, prefix_words = [orphan.text(cols.NAME).strip()], orphan.name_words()
        full_name = " ".join([*prefix, name]).strip()
        if not full_name:
            return  # a value with no name anywhere near: nothing to attach it to
        if looks_like_specimen(full_name):
            self.specimen = c.text(kind).strip() or self.specimen
            return
        row = RawRow(
            page=c.line.page,
            name=full_name,
            value=value,
            value_kind=kind,
            flag=c.text(cols.FLAG).strip() or None,
            units=c.text(cols.UNITS).strip() or c.heading_units.get(kind),
            range_text=c.text(cols.RANGE).strip() or None,
            panel=self.panel,
            specimen=self.specimen,
            words=prefix_words + [w for w in c.line.words if self.header.contains(w.x0, w.x1)],
            unit_column=cols.UNITS in self.header.kinds,
            ambiguous=c.ambiguous,
            ocr=c.line.ocr,
            method=method or self._method_cell(c),
        )
        if row.units is None and cols.names_carry_units(self.header):
            row.name, row.units = unit_after_name(row.name)  # "Sodium (mmol/L)"
        if (other := _other_measurement(c)) is not None:
            row.second = other  # "soit 3,57 G/l" in a column no label names
            if (apart := _ranges_either_side(c)) is not None:
                # "56,2 %  40,0 - 75,0  3,28 10^3/µL  2,00 - 7,50": each measurement its range
                row.range_text, row.second_range = apart
                row.ranges_apart = True
            elif row.range_text and c.heading_units.get(cols.RANGE) not in (None, row.units) \
                    and measurement(other)[1] == c.heading_units[cols.RANGE]:
                # "Valeurs de référence (G/l)": the range is the second measurement's
                row.ranges_apart, row.second_range, row.range_text = True, row.range_text, None
        self.rows.append(with_second(row))
        self.last, self.last_line, self.last_value = row, c.line, c.cells.get(kind, [])

    def _settle_pending(self, c: Cells, name: str, named_above: Cells | None,
                        above_method: bool = False) -> tuple[list[str], list[Word], Cells | None]:
        """Decide what each name-only line above value line `c` was: the last row's method
        or wrapped name, a specimen, a heading, an annotation, a comment, or the first part
        of this row's name. Returns that name prefix, its words, and the last plain name line
        (for a value printed a line below its name)."""
        prefix: list[str] = []
        prefix_words: list[Word] = []
        orphan: Cells | None = None
        last, last_line, style = self.last, self.last_line, self.style
        for p in self.pending:
            ptext = p.text(cols.NAME).strip()
            if p.prose:
                continue
            if p is named_above and above_method:
                prefix.append(ptext)  # the name over the method line that holds the value
                prefix_words.extend(p.name_words())
                continue
            if p is not named_above and style.method_like(p, last_line, self._size_tells(p, last_line, c)) \
                    and (style.fonts or not style.heading_like(p)):
                if last is not None and last.method is None:
                    last.method = ptext
                continue
            if looks_like_specimen(ptext):
                self.specimen = ptext
                continue
            close_below_last = last_line is not None and not prefix and \
                p.line.top - last_line.bottom < 0.8 * p.line.size
            if close_below_last and last is not None and not name.startswith(ptext) \
                    and (continues_name(last.name, ptext) or self._wraps_last(p, last_line, c)):
                last.name = f"{last.name} {ptext}"
                last.words.extend(p.name_words())
                last_line = p.line  # a third line of the same name continues from this one
                continue
            if id(p) in self.annotations:
                if last is not None and last.method is None:
                    last.method = ptext  # the table prints a method/comment under each row
                continue
            if style.heading_like(p, over_row=True):
                if not self.titled:
                    self.panel = heading_text(ptext)
                prefix = []
                continue
            if comment_sentence(ptext):
                prefix, prefix_words = [], []  # "Confirmed on a second aliquot." under a row
                continue
            if name and (style.short_heading(p, c) or self._section_over_row(p, c)):
                if not self.titled:
                    self.panel = heading_text(self._block_text(p, c))
                prefix = []
                continue
            if c.line.top - p.line.bottom < 0.6 * p.line.size and not NON_RESULT_NAMES.match(ptext):
                prefix.append(ptext)
                prefix_words.extend(p.name_words())
                continue
            prefix, prefix_words = [], []  # a comment or heading-less text between rows
            orphan = p if not NON_RESULT_NAMES.match(ptext) else None
        return prefix, prefix_words, orphan

    def _section_over_row(self, p: Cells, row: Cells) -> bool:
        """A line of section words ("DIFFERENTIAL LEUCOCYTE COUNT", "Differential Leucocyte
        Count (DLC)"; on two lines, with the name-only line tight above it) over a row that
        has a name of its own, in a table whose names never wrap: a sub-section heading
        printed like the rows, not the first line of a name."""
        text = self._block_text(p, row)
        if self.wraps_down or self.wraps_up or re.search(r"[,(&/-]$|\b(and|of|AND|OF)$", text):
            return False
        return len({word.lower() for word in PANEL_WORDS.findall(text)}) >= _SECTION_WORDS

    def _block_text(self, p: Cells, row: Cells) -> str:
        """The names of `p`'s block (_block_of), as one text."""
        return " ".join(q.text(cols.NAME).strip() for q in self._block_of(p, row))

    def _block_of(self, p: Cells, row: Cells) -> list[Cells]:
        """`p` with the name-only lines read just before it that sit tighter to it than it
        sits to the row under it (one text set on several lines, apart from that row; a
        name's lines over its value, "Gamma Glutamyl" / "Transferase 41", are not)."""
        at = next((i for i, q in enumerate(self.pending) if q is p), None)
        gap_to_row = row.line.top - p.line.bottom
        block = [p]
        while at:
            above = self.pending[at - 1]
            if above.prose or not above.text(cols.NAME).strip() or \
                    block[0].line.top - above.line.bottom >= gap_to_row - 0.1 * p.line.size:
                break
            block.insert(0, above)
            at -= 1
        return block

    def _name_room(self, x0: float) -> float:
        """The width the names have from x0 to the next column's label."""
        right = [c.x0 for c in self.header.columns if c.kind != cols.NAME and c.x0 > x0]
        return min(right) - x0 if right else 0.0

    def _method_cell(self, c: Cells) -> str | None:
        """The row's cell in a column headed as the method ("TECHNOLOGY": "C.L.I.A",
        "CALCULATED"): never the name's or the value's, it tells how the value was got."""
        if not any(col.kind == cols.OTHER and METHOD_LINE.match(col.label)
                   for col in self.header.columns):
            return None
        return c.text(cols.OTHER).strip() or None

    def _wraps_last(self, p: Cells, above: Line, below: Cells | None) -> bool:
        """Is name-only line `p` the rest of the row name above it, wrapped in a narrow column
        ("THYROID STIMULATING" / "HORMONE (TSH)")? It starts where that name starts, sits a
        line's spacing under it, clearly nearer to it than to the next value line (whose own
        first name line would sit nearer that row), and is no heading."""
        words = p.name_words()
        # In a table that shows wrapped names, section words in the line ("HORMONE (TSH)")
        # are no sign of a heading: names hold them too.
        if self.last is None or not words or not self.last.words \
                or self.style.heading_like(p, by_words=not self.wraps_down) \
                or id(p) in self.annotations or METHOD_WORDS.search(p.text(cols.NAME)) \
                or NON_RESULT_NAMES.match(p.text(cols.NAME)) or comment_sentence(p.text(cols.NAME)) \
                or _RULED_HEADING.match(p.text(cols.NAME)):
            return False  # a heading, or the method/comment line the table prints under rows
            # ("Comment: Fasting glucose above 7.0 mmol/L ...": a label or a sentence; a
            # plain-text print's "=== ELECTROLYTES AND RENAL =====" rule)
        line = [w for w in self.last.words if above.top <= (w.top + w.bottom) / 2 <= above.bottom
                and self.header.assign(w.x0, w.x1, w.text, word_size(w)) == cols.NAME]
        if not line or abs(words[0].x0 - line[0].x0) > 0.5 * p.line.size or \
                re.search(r"[.…_]{3,}$", line[-1].text):
            return False  # a name run to a dotted leader did not wrap
        # It wrapped: its first word did not fit after the line above, within the room the
        # names have up to the next column (a note under a short name, "CRP" / "Nüchtern-
        # blutentnahme ...", or a method "GLUKOSE" / "Hexokinase" would have).
        room = max(self.style.name_width, self._name_room(line[0].x0)) if self.wrap_right is None \
            else self.wrap_right - line[0].x0
        width = line[-1].x1 - line[0].x0 + _SPACE_SHARE * word_size(words[0]) + words[0].x1 - words[0].x0
        if width <= room or all(PANEL_WORDS.fullmatch(w.text) for w in words):
            return False  # it fitted; or the next section's heading ("IMMUNOLOGIE")
        gap_above = p.line.top - above.bottom
        after = self._line_after(p)
        if after is not None and gap_above > after.top - p.line.bottom + 0.1 * p.line.size:
            return False  # nearer the line under it: a block of its own ("Differential
            # Leucocyte" / "Count", a heading on two lines)
        if below is None:
            return gap_above < 0.5 * p.line.size
        return gap_above < (below.line.top - p.line.bottom) - 0.1 * p.line.size

    def _size_tells(self, p: Cells, above: Line | None, below: Cells | None) -> bool:
        """Does line `p` printed smaller than the row read as its method? Not on an OCR page
        of a table that wraps its names when `p` reads as the row's name wrapped (its first
        word did not fit the column): box heights vary with the letters ("RATIO" under
        "TC / HDL CHOLESTEROL"), and a bracketed method line fits."""
        return self.style.fonts or not self.wraps_down or above is None \
            or not self._wraps_last(p, above, below)

    def _line_after(self, p: Cells) -> Line | None:
        """The name-only line read after `p`, if any (the lines are read top to bottom)."""
        for earlier, later in zip(self.pending, self.pending[1:]):
            if earlier is p:
                return later.line
        return None

    def finish(self) -> None:
        """Lines after the last row: its method, or a heading naming the next table's panel
        (which may be on the next page)."""
        last, last_line = self.last, self.last_line
        for p in self.pending:
            ptext = p.text(cols.NAME).strip()
            if id(p) in self.annotations:
                if last is not None and last.method is None:
                    last.method = ptext
                continue
            if last is not None and last_line is not None \
                    and not self.style.method_like(p, last_line, self._size_tells(p, last_line, None)) \
                    and p.line.top - last_line.bottom < 0.8 * p.line.size and self._wraps_last(p, last_line, None):
                last.name = f"{last.name} {ptext}"  # the last row's wrapped name
                last.words.extend(p.name_words())
                last_line = p.line
                continue
            if self.style.method_like(p, last_line) and last is not None and last.method is None \
                    and last_line is not None and p.line.top - last_line.bottom < 1.5 * p.line.size:
                last.method = ptext
            elif looks_like_specimen(ptext):
                continue  # "Sample: Serum" over the next table: its specimen, never its panel
            elif self.style.heading_like(p):
                self.panel = heading_text(ptext)
        self.pending = []


def annotation_lines(placed: list[Cells]) -> set[int]:
    """ids of the name-only lines printed directly under a result row, when the table does
    that consistently (a method, specimen or comment line under each result) rather than
    now and then (a heading or the first line of the next name).

    Two readings of such a line are possible; the table decides between them: when most of
    them read as methods, all of them are taken as the row's annotation."""
    followers: list[Cells] = []
    value_rows = 0
    for i, c in enumerate(placed):
        if c.value_kind() is None or c.prose:
            continue
        value_rows += 1
        j = i + 1  # past the row's own continuation lines (a range's second tier)
        while j < len(placed) and is_tier(placed[j]):
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
    methods = sum(bool(METHOD_WORDS.search(f.text(cols.NAME)) or METHOD_LINE.match(f.text(cols.NAME)))
                  for f in followers)
    return {id(f) for f in followers} if methods >= 0.5 * len(followers) else set()


# A table "wraps its names" when at least this many name-only lines under a row read as
# that row's name running on ("BLOOD UREA NITROGEN" / "(BUN)", "HDL CHOLESTEROL -" / "DIRECT").
_MIN_WRAPPED_NAMES = 2


def wraps_names_down(placed: list[Cells], annotations: set[int]) -> bool:
    """Does the table show names running on under their value line ("BLOOD UREA NITROGEN" /
    "(BUN)", "HDL CHOLESTEROL -" / "DIRECT"), a method line under each row aside?"""
    wrapped = 0
    for c, below in zip(placed, placed[1:]):
        name, text = c.text(cols.NAME).strip(), below.text(cols.NAME).strip()
        if c.value_kind() and name and text and below.value_kind() is None and not below.prose \
                and below.line.top - c.line.bottom < 0.8 * below.line.size \
                and continues_name(name, text) and not METHOD_WORDS.search(text) \
                and id(below) not in annotations:
            wrapped += 1
    return wrapped >= _MIN_WRAPPED_NAMES


def names_right(placed: list[Cells], header: Header, wraps: bool) -> float | None:
    """Where the names' text ends, for a table whose names wrap in a narrow column: the right
    edge of its widest name line inside the column. The room to the next column's label
    overstates the column (cell padding); a name wraps when its next word would pass this
    edge. Only when the table shows wrapped names, or its names fill the column up to that
    padding; None otherwise (a line under a short name in a roomy column is more likely a
    note than the name's second line)."""
    names = [col for col in header.columns if col.kind == cols.NAME]
    after = [col.x0 for col in header.columns if names and col.x0 > names[0].x1]
    limit = min(after) if after else header.x_end
    named = [(ph[-1].x1, c.line.size) for c in placed if not c.prose and (ph := c.cells.get(cols.NAME))
             and ph[-1].x1 < limit]
    if not named:
        return None
    right = max(x1 for x1, _ in named)
    size = statistics.median(s for _, s in named)
    return right if wraps or limit - right < _FULL_COLUMN_SLACK * size else None


def names_wrap_up(placed: list[Cells]) -> bool:
    """Does some name in the table start on the line above its value line, as its words tell
    ("Glucose," / "Fasting 92", "Total Iron" / "binding capacity")?"""
    for p, c in zip(placed, placed[1:]):
        above, name = p.text(cols.NAME).strip(), c.text(cols.NAME).strip()
        if above and name and p.value_kind() is None and not p.prose and c.value_kind() \
                and c.line.top - p.line.bottom < 0.6 * p.line.size and continues_name(above, name):
            return True
    return False


def garbled_name_under(c: Cells, pending: list[Cells]) -> Cells | None:
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


def method_under_name(name: str, c: Cells, pending: list[Cells]) -> Cells | None:
    """On an OCR page, the name-only line just above (or overlapping) a value line whose own
    name cell is a method ("Modified Jaffe, Kinetic", "Indirect ISE"): the printed name. A
    tilted photo or a value set between the name and its method puts the value on the
    method's line. None otherwise."""
    if not METHOD_WORDS.search(name) or len(name.split()) > 4:
        return None
    above = [p for p in pending if not p.prose and p.text(cols.NAME).strip()]
    if not above:
        return None
    p = above[-1]
    text = p.text(cols.NAME).strip()
    if METHOD_WORDS.search(text) or NON_RESULT_NAMES.match(text) or \
            c.line.top - p.line.bottom >= 0.6 * p.line.size:
        return None
    return p


def _other_measurement(c: Cells) -> str | None:
    """A second measurement in a column the header does not name (an unlabelled units or
    SI column); never the previous result's column."""
    for kind in (cols.OTHER, cols.UNKNOWN):
        text = c.text(kind).strip()
        if text and kind in c.heading_units and _bare_count(text):
            text = f"{text} {c.heading_units[kind]}"  # its unit printed as the column's heading
        if text and measurement(text) is not None:
            return text
        # Several unnamed cells: the measurement, and a column of older results whose label
        # OCR lost ("7,72 G/l ... 4,91" under an "Antériorités" read as "note"). The one cell
        # that is a number and its unit is the measurement; bare numbers never are.
        cells = c.cells.get(kind, [])
        found = [p.text.strip() for p in cells if measurement(p.text.strip()) is not None]
        if len(cells) > 1 and len(found) == 1:
            return found[0]
    return None


def _ranges_either_side(c: Cells) -> tuple[str, str] | None:
    """The two ranges of a line printing one after each measurement (a range, the second
    measurement, then its own range); None unless the range cells are two, either side."""
    ranges = c.cells.get(cols.RANGE, [])
    second = [p for kind in (cols.OTHER, cols.UNKNOWN) for p in c.cells.get(kind, [])]
    if len(ranges) != 2 or not second:
        return None
    if ranges[0].x1 <= min(p.x0 for p in second) and max(p.x1 for p in second) <= ranges[1].x0:
        return ranges[0].text.strip(), ranges[1].text.strip()
    return None


def _bare_count(text: str) -> bool:
    """A number alone, its thousands perhaps grouped with spaces ("3 944", "204")."""
    tokens = merge_spaced_groups(text.split())
    return len(tokens) == 1 and bool(cols.BARE_NUMBER.fullmatch(tokens[0].replace(" ", "")))


def continue_row(row: RawRow, c: Cells) -> None:
    extra_range = c.text(cols.RANGE).strip()
    if extra_range:
        row.range_text = f"{row.range_text} {extra_range}" if row.range_text else extra_range
    extra_units = c.text(cols.UNITS).strip()
    if extra_units and not row.units:
        if is_unit(extra_units):  # a word under the units ("segue", "Siero") is none
            row.units = extra_units
    elif extra_units and (whole := runs_on(row.units, extra_units)):
        row.units = whole  # a wrapped unit cell: "ml/min/1,73" then "m²"
    extra_flag = c.text(cols.FLAG).strip()
    if extra_flag and not row.flag:
        row.flag = extra_flag
    row.words.extend(w for kind, phrases in c.cells.items() if kind != cols.NAME
                     for ph in phrases for w in ph.words)


def _sentence(value: str) -> bool:
    """Many words in the value column that do not start with a number (after a flag: "L 40
    mL / min / 1.73m2" is a value with its spaced unit) are prose."""
    tokens = value.split()
    if len(tokens) < SENTENCE_WORDS:
        return False
    start = 1 if is_flag(tokens[0]) else 0
    return not re.match(r"^\W{0,2}\d", tokens[start])


def _mostly_bold(cells: list[Cells]) -> bool:
    words = [w for c in cells for w in c.name_words()]
    return bool(words) and sum(w.bold for w in words) > len(words) / 2


def _bold_lead(c: Cells) -> bool:
    """A line that opens in bold and runs on in smaller regular type ("HEMATOLOGÍA · Sangre
    total EDTA", "Magnesium Level  Plasma · Light green top"): a heading with its specimen or
    order note, never a name's first line (a wrapped name keeps one weight and size)."""
    words = c.name_words()
    lead = next((i for i, w in enumerate(words) if not w.bold), len(words))
    if lead == 0 or lead == len(words) or any(w.bold for w in words[lead:]):
        return False
    return max(word_size(w) for w in words[lead:]) < 0.95 * min(word_size(w) for w in words[:lead])


def _mostly_caps(names: list[str]) -> bool:
    names = [n for n in names if any(ch.isalpha() for ch in n)]
    return bool(names) and sum(n.isupper() for n in names) > len(names) / 2


def _name_width(c: Cells) -> float:
    phrases = c.cells.get(cols.NAME)
    return phrases[-1].x1 - phrases[0].x0 if phrases else 0.0
