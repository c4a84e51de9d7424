"""Tables printed sideways: one column per test, one line per field.

    Test     WBC        RBC        Haemoglobin   Hct
    Units    x10^9/L    x10^12/L   g/L           L/L
    Result   11.9 H     3.61 L     104 L         0.33 L
    Ref.     4.0-11.0   3.8-5.8    115-165       0.37-0.47

Hospital systems print a blood count or a short panel this way to save lines. Each line opens
with a column heading of the vocabulary (the names', the results', the units', the range's),
the first the names' line; the cells under one name, aligned with it, are that test's. Only
word boxes are used, so a page OCR read is read the same way.
"""

from __future__ import annotations

from parser import columns as cols
from parser.layout.blocks import blocks_apart
from parser.layout.rows import RawRow
from parser.lines import Line, Phrase

# The fields a sideways table prints on its lines, each once, after the names' line.
_FIELD_KINDS = (cols.RESULT, cols.UNITS, cols.RANGE, cols.FLAG)
# A sideways table prints at least this many tests side by side (two cells after the heading
# could be a table's header line and its row).
_MIN_TESTS = 3
# The lines of one block sit at most this many line heights apart.
_MAX_LINE_GAP = 1.0


def sideways_rows(lines: list[Line]) -> tuple[list[Line], list[RawRow]]:
    """The page's lines less those of sideways tables, and those tables' rows (by test,
    left to right, block after block)."""
    return blocks_apart(lines, lambda page, i, _kept: None if (block := _block_at(page, i)) is None
                        else (len(block), _block_rows(block)))


def _heading_kind(line: Line) -> str | None:
    """The column kind the line's first cell names ("Test", "Units", "Result", "Ref.")."""
    phrases = line.phrases()
    return cols.label_kind(cols.label_key(phrases[0].text)) if phrases else None


def _block_at(lines: list[Line], i: int) -> list[Line] | None:
    """The lines of a sideways table whose names' line is line i; None if it is not one: the
    names' line, then lines each opening with another field's heading, a result line among
    them, every cell of theirs under one of the names."""
    first = lines[i]
    if _heading_kind(first) != cols.NAME or len(first.phrases()) - 1 < _MIN_TESTS:
        return None
    names = first.phrases()[1:]
    if any(cols.label_kind(cols.label_key(p.text)) is not None for p in names):
        return None  # a header line of labels ("Test  Result  Units  Reference")
    block, seen = [first], set()
    for line in lines[i + 1:]:
        kind = _heading_kind(line)
        if kind not in _FIELD_KINDS or kind in seen or line.top - block[-1].bottom > _MAX_LINE_GAP * line.size:
            break
        if any(_column_of(p, names) is None for p in line.phrases()[1:]):
            break
        seen.add(kind)
        block.append(line)
    return block if cols.RESULT in seen else None


def _column_of(phrase: Phrase, names: list[Phrase]) -> int | None:
    """The name the cell stands under: the one its extent overlaps most (None: none)."""
    overlaps = [min(phrase.x1, n.x1) - max(phrase.x0, n.x0) for n in names]
    best = max(range(len(names)), key=lambda k: overlaps[k])
    return best if overlaps[best] > 0 else None


def _block_rows(block: list[Line]) -> list[RawRow]:
    names = block[0].phrases()[1:]
    fields: list[dict[str, Phrase]] = [{} for _ in names]
    for line in block[1:]:
        kind = _heading_kind(line)
        for phrase in line.phrases()[1:]:
            fields[_column_of(phrase, names)][kind] = phrase
    rows = []
    for name, cells in zip(names, fields):
        value = cells.get(cols.RESULT)
        if value is None:
            continue  # a test without a result (not yet reported)

        def text(kind: str) -> str | None:
            return cells[kind].text.strip() if kind in cells else None

        words = [*name.words, *(w for p in cells.values() for w in p.words)]
        rows.append(RawRow(page=block[0].page, name=name.text.strip(), value=value.text.strip(),
                           flag=text(cols.FLAG), units=text(cols.UNITS), range_text=text(cols.RANGE),
                           words=words, unit_column=cols.UNITS in cells, ocr=block[0].ocr))
    return rows
