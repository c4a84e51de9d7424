"""The layout stage: positioned words -> result rows (`RawRow`), before normalisation.

- rows.py      the row model and the label/method/section words (from parser/vocabulary.py)
- cells.py     one line's phrases placed in its table's columns
- table.py     placed lines of one table grouped into rows (headings, methods, wrapped names)
- document.py  tables found by their headers across a document's pages
- cumulative.py  value columns headed by dates (the latest is the result)
- sideways.py  tables printed one column per test, a line per field
- transposed_grid.py  cumulative grids printed one column per test, a line per date (the latest read)
- blocks.py    such blocks of lines read apart from the page's tables
- range_under.py  each row's range and unit on a line of their own under its name
- word_results.py  a finding in words set across the columns after the value's
- content.py   rows read by content: headerless pages, lines no table reads
"""

from parser.layout.content import content_rows
from parser.layout.document import document_rows
from parser.layout.rows import RawRow, is_non_result_label
from parser.layout.table import table_rows

__all__ = ["RawRow", "content_rows", "document_rows", "is_non_result_label", "table_rows"]
