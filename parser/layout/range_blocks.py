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

from parser import columns as cols, vocabulary
from parser.layout.rows import RawRow
from parser.lines import Line
from parser.ranges import parse_range

# The block's label ends in a colon, perhaps with a dash ("Bio. Ref. Interval. :-").
_LABEL_END = re.compile(r"\s*:\s*-?\s*$")
# "TEST NAME : range": the name, then a colon, then the range (a colon inside the range, as in
# "Below 5.7% : Normal", is the range's own).
_ENTRY = re.compile(r"^(?P<name>[^:]*[^\W\d_][^:]*?)\s*:\s*(?P<range>\S.*)$")


# Header label (as columns.label_key gives it) -> column kind.
_HEADER_LABELS: dict[str, str] = vocabulary.header_labels()


@dataclass(frozen=True, slots=True)
class BlockRange:
    name: str
    range_text: str


def split_range_block(lines: list[Line]) -> tuple[list[Line], list[BlockRange]]:
    """The region's lines less its range blocks, and the blocks' ranges in print order.

    A block is a label line (a range column's heading followed by a colon) then the lines
    that read `name : range`; it ends at the first line that does not."""
    kept: list[Line] = []
    found: list[BlockRange] = []
    in_block = False
    for line in lines:
        if is_block_label(line.text):
            in_block = True
            continue
        entry = _entry(line.text) if in_block else None
        if entry is None:
            in_block = False
            kept.append(line)
            continue
        found.append(entry)
    return kept, found


def attach_block_ranges(rows: list[RawRow], ranges: list[BlockRange]) -> None:
    """Give each row without a range the block range naming it; a name two rows share, or two
    block lines share, gives nothing (which is meant is unsure)."""
    by_key: dict[str, list[RawRow]] = {}
    for row in rows:
        by_key.setdefault(name_key(row.name), []).append(row)
    counts: dict[str, int] = {}
    for entry in ranges:
        counts[name_key(entry.name)] = counts.get(name_key(entry.name), 0) + 1
    for entry in ranges:
        key = name_key(entry.name)
        matches = by_key.get(key, [])
        if counts[key] == 1 and len(matches) == 1 and matches[0].range_text is None:
            matches[0].range_text = entry.range_text


def name_key(name: str) -> str:
    """A name as compared: lower case, letters and digits only."""
    return " ".join(re.findall(r"[^\W_]+", name.casefold()))


def is_block_label(text: str) -> bool:
    """"Bio. Ref. Interval. :-", "Reference Range :": a range column's heading, then a colon,
    alone on its line."""
    if not _LABEL_END.search(text):
        return False
    label = cols.label_key(_LABEL_END.sub("", text))
    return bool(label) and _HEADER_LABELS.get(label) == cols.RANGE


def _entry(text: str) -> BlockRange | None:
    m = _ENTRY.match(text.strip())
    if m is None:
        return None
    range_text = m.group("range").strip()
    if parse_range(range_text) is None or not re.search(r"\d", range_text):
        return None
    return BlockRange(m.group("name").strip(), range_text)
