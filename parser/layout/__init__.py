"""The layout stage: positioned words -> result rows (`RawRow`), before normalisation.

- rows.py      the row model and the label/method/section words (from parser/vocabulary.py)
- cells.py     one line's phrases placed in its table's columns
- table.py     placed lines of one table grouped into rows (headings, methods, wrapped names)
- document.py  tables found by their headers across a document's pages
- cumulative.py  value columns headed by dates (the latest is the result)
- sideways.py  tables printed one column per test, a line per field
- content.py   rows read by content: headerless pages, lines no table reads
"""

from parser.layout.content import content_rows
from parser.layout.document import document_rows
from parser.layout.rows import RawRow, is_non_result_label
from parser.layout.table import table_rows

__all__ = ["RawRow", "content_rows", "document_rows", "is_non_result_label", "table_rows"]
