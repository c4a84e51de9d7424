"""Reference ranges printed in a block under a table, each naming its test.

Thyrocare-kind reports print no range column: under each table a labelled block
("Bio. Ref. Interval. :-") lists `TEST NAME : range [unit]`, one test a line. Those lines
are not results; each range belongs to the row of the table above that bears the same name.
A range is given only to a row whose name matches the block's exactly (case, spacing and
punctuation aside) and only once: a range that may be another test's is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parser import columns as cols
from parser.layout.rows import RawRow
from parser.lines import Line
from parser.ranges import parse_range

# The block's label ends in a colon, perhaps with a dash ("Bio. Ref. Interval. :-").
_LABEL_END = re.compile(r"\s*:\s*-?\s*$")
# "TEST NAME : range": the name, then a colon, then the range (a colon inside the range, as in
# "Below 5.7% : Normal", is the range's own).
_ENTRY = re.compile(r"^(?P<name>[^:]*[^\W\d_][^:]*?)\s*:\s*(?P<range>\S.*)$")


@dataclass(frozen=True, slots=True)
class BlockRange:
    name: str
    range_text: str


def split_range_block(lines: list[Line]) -> tuple[list[Line], list[BlockRange]]:
    """The region's lines less its range blocks, and the blocks' ranges in print order.

    A block is a label line (a range column's heading followed by a colon) then the lines
    that read `name : range` (or name and range in two cells); it ends at the first line that
    does not."""
    kept: list[Line] = []
    found: list[BlockRange] = []
    in_block = False
    for line in lines:
        if is_block_label(line.text):
            in_block = True
            continue
        entry = _entry(line) if in_block else None
        if entry is None:
            in_block = False
            kept.append(line)
            continue
        found.append(entry)
    return kept, found


def attach_block_ranges(rows: list[RawRow], ranges: list[BlockRange]) -> None:
    """Give each row without a range the block range naming it: the same name, or else the
    one row whose name starts with the block's words or is their start ("HDL CHOLESTEROL" for
    "HDL CHOLESTEROL - DIRECT"). A name two rows or two block lines fit gives nothing."""
    keys = [name_key(entry.name) for entry in ranges]
    for entry, key in zip(ranges, keys):
        if keys.count(key) > 1:
            continue
        matches = [r for r in rows if name_key(r.name) == key]
        if not matches:  # by the first words only when no other block line fits that row
            matches = [r for r in rows if _word_prefix(name_key(r.name), key)]
            if len(matches) == 1 and any(_fits(name_key(matches[0].name), k)
                                         for k in keys if k != key):
                continue
        if len(matches) == 1 and matches[0].range_text is None:
            matches[0].range_text = entry.range_text


def name_key(name: str) -> str:
    """A name as compared: lower case, letters and digits only."""
    return " ".join(re.findall(r"[^\W_]+", name.casefold()))


def _word_prefix(a: str, b: str) -> bool:
    """Is one name the other's first words?"""
    short, long = sorted((a.split(), b.split()), key=len)
    return bool(short) and long[:len(short)] == short


def _fits(row_key: str, block_key: str) -> bool:
    return row_key == block_key or _word_prefix(row_key, block_key)


def is_block_label(text: str) -> bool:
    """"Bio. Ref. Interval. :-", "Reference Range :": a range column's heading, then a colon,
    alone on its line."""
    if not _LABEL_END.search(text):
        return False
    label = cols.label_key(_LABEL_END.sub("", text))
    return bool(label) and cols.label_kind(label) == cols.RANGE


def _entry(line: Line) -> BlockRange | None:
    """`name : range` on a line, or the name and the range in two cells set apart."""
    m = _ENTRY.match(line.text.strip())
    if m is not None:
        name, range_text = m.group("name").strip(), m.group("range").strip()
    elif len(phrases := line.phrases()) == 2 and re.search(r"[^\W\d_]{2}", phrases[0].text):
        name, range_text = phrases[0].text.strip(), phrases[1].text.strip()
    else:
        return None
    if parse_range(range_text) is None or not re.search(r"\d", range_text):
        return None
    return BlockRange(name, range_text)
