"""A row's range printed with its label on a line of its own under the row's name, in a table
with no range column to hold it:

    Hemoglobina                 11,2*     g/dL
      V.R.: 12,0 - 15,5
    Hematocrito                 34,8*     %

The label ("V.R.:", "Ref.:") says the line is a range, set tight under the row it belongs to;
without the label a number line is left alone (it may be a wrapped name or a note).
"""

from __future__ import annotations

from parser import columns as cols
from parser.layout.cells import Cells
from parser.layout.rows import RawRow
from parser.lines import Line
from parser.ranges import labelled_range

# The line stands at most this many line sizes under the row's last line (the row's padding,
# never a blank line between).
MAX_GAP_SIZES = 1.2


def range_under_row(c: Cells, last: RawRow | None, last_line: Line | None) -> bool:
    """Is name-only line `c` the labelled range of row `last` (printed on `last_line`)?"""
    if last is None or last_line is None or last.range_text or set(c.cells) != {cols.NAME}:
        return False
    if c.line.top - last_line.bottom >= MAX_GAP_SIZES * c.line.size:
        return False
    return labelled_range(c.text(cols.NAME).strip())


def take_range(c: Cells, last: RawRow) -> None:
    """Give row `last` the range line `c` prints."""
    last.range_text = c.text(cols.NAME).strip()
    last.words.extend(c.name_words())
