"""Blocks of lines read apart from the page's tables (sideways tables, transposed grids).

A reader is asked at each line whether a block of its kind starts there; the lines of the
blocks it reads leave the page, the others stay for the table reading.
"""

from __future__ import annotations

from typing import Callable

from parser.layout.rows import RawRow
from parser.lines import Line

# (the page's lines, the index of a line, the lines kept so far) -> (lines the block uses from
# that line on, its rows), or None when no block starts there. The reader may take a title it
# reads from the end of the kept lines, or keep a block it leaves unread by adding its lines.
BlockReader = Callable[[list[Line], int, list[Line]], "tuple[int, list[RawRow]] | None"]


def blocks_apart(lines: list[Line], block_at: BlockReader) -> tuple[list[Line], list[RawRow]]:
    """The lines less those of the blocks `block_at` reads, and the blocks' rows in order."""
    kept: list[Line] = []
    rows: list[RawRow] = []
    i = 0
    while i < len(lines):
        found = block_at(lines, i, kept)
        if found is None:
            kept.append(lines[i])
            i += 1
            continue
        used, block_rows = found
        rows.extend(block_rows)
        i += used
    return kept, rows
