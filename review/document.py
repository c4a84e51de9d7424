"""Signs about the whole document that no row's evidence can show: was it read from an image?

A scan or a photo loses rows no check can miss (a line the OCR mangled into no row, a row cut off
at the photo's edge) and misreads digits into other plausible values; on layouts the parser has
not seen, those jobs skipped review with many wrong or missing rows (issue 10). Routing sees only
the report, so the reading is told from the rows' reader confidences: text from a PDF's own
layer has confidence 1.0 lowered only by the parser's fixed doubt factors (parser/normalize.py:
a row read without a header, a repaired unit, a flag that disagrees, ...), while OCR rows carry
the recogniser's own word confidences. Measured on real-like batch 1-3 dev and html fit seeds
(224 documents): every digital document had 0 rows off those products, every scan or photo at
least a third of its rows.
"""

from __future__ import annotations

import itertools
import math

from parser.models import ReportData

# The factors parser/normalize.py multiplies a digital row's confidence by (ambiguous row or no
# header 0.85, missing unit or unread range 0.9, flag conflict 0.7, value repaired 0.8, unit
# repaired 0.95, OCR-only factor 0.6 kept so a changed OCR rule cannot make a digital row odd).
DIGITAL_DOUBTS = (0.85, 0.9, 0.7, 0.8, 0.95, 0.6)
# A row's confidence holds at most this many of those factors at once.
MOST_DOUBTS = 5
# Share of rows whose confidence no digital reading gives, from which the report was read by OCR
# (digital documents: 0; scans and photos: 0.33 and up).
OCR_ROW_SHARE = 0.2


def _digital_confidences() -> frozenset[float]:
    products = {1.0}
    for count in range(1, MOST_DOUBTS + 1):
        for factors in itertools.combinations_with_replacement(DIGITAL_DOUBTS, count):
            products.add(round(math.prod(factors), 3))
    return frozenset(products)


DIGITAL_CONFIDENCES = _digital_confidences()


def read_by_ocr(report: ReportData) -> bool:
    """Were the report's rows read from an image (a scan or a photo) rather than a text layer?"""
    rows = report.results
    if not rows:
        return False
    odd = sum(round(row.extraction_confidence, 3) not in DIGITAL_CONFIDENCES for row in rows)
    return odd >= 1 and odd >= OCR_ROW_SHARE * len(rows)
