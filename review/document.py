"""Signs about the whole document that no row's evidence can show: was it read from an image?

A scan or a photo loses rows no check can miss (a line the OCR mangled into no row, a row cut off
at the photo's edge) and misreads digits into other plausible values; on layouts the parser has
not seen, those jobs skipped review with many wrong or missing rows (issue 10). The parser says
which pages it read by OCR (`ReportData.ocr_pages`, kept by the service with the job); a row on
such a page is an OCR doubt until a person has read it: a reviewer's correction of what the row
reads, or a row a person adds, carries `PERSON_READ_CONFIDENCE` (review.corrections sets it).

Reports whose OCR pages are not known (`ocr_pages` None: jobs stored before the service kept them,
reports built by hand) are told as before from the rows' reader confidences: text from a PDF's
own layer has confidence 1.0 lowered only by the parser's fixed doubt factors (parser/normalize.py:
a row read without a header, a repaired unit, a flag that disagrees, ...), while OCR rows carry
the recogniser's own word confidences. Measured on real-like batch 1-3 dev and html fit seeds
(224 documents): every digital document had 0 rows off those products, every scan or photo at
least a third of its rows. The parser's pages decide the same on real-like batch 1-3 dev (60 of
60 scans and photos, 0 of 30 digital documents; per-job decisions identical).
"""

from __future__ import annotations

import itertools
import math

from parser.models import LabReportResult, ReportData

# A row's confidence once a person has read it (review.corrections: a corrected value, unit or
# range, a row a person adds). The recogniser gives a row 1.0 only when every word of it was read
# with certainty and nothing about it is doubted (none of the 1307 OCR-page rows of real-like
# batch 1-3 dev); the confidence inference below counted such a row as a text-layer row too.
PERSON_READ_CONFIDENCE = 1.0
# Share of rows that must be OCR doubts for the report to count as read by OCR: a text PDF with a
# scanned page appended counts when that page holds a fifth of the rows, and a job whose reviewer
# has read all but a few of its OCR rows goes through (digital documents: 0; scans and photos:
# 0.33 and up, before any correction).
OCR_ROW_SHARE = 0.2

# The old inference, for reports whose OCR pages are not known. The factors parser/normalize.py
# multiplies a digital row's confidence by (ambiguous row or no header 0.85, missing unit or
# unread range 0.9, flag conflict 0.7, value repaired 0.8, unit repaired 0.95, OCR-only factor 0.6
# kept so a changed OCR rule cannot make a digital row odd), as they were when jobs stopped
# relying on them (migration 0008): a changed factor there no longer reaches this table's users.
DIGITAL_DOUBTS = (0.85, 0.9, 0.7, 0.8, 0.95, 0.6)
# A row's confidence holds at most this many of those factors at once.
MOST_DOUBTS = 5


def _digital_confidences() -> frozenset[float]:
    products = {1.0}
    for count in range(1, MOST_DOUBTS + 1):
        for factors in itertools.combinations_with_replacement(DIGITAL_DOUBTS, count):
            products.add(round(math.prod(factors), 3))
    return frozenset(products)


DIGITAL_CONFIDENCES = _digital_confidences()


def read_by_ocr(report: ReportData) -> bool:
    """Were the report's rows read from an image (a scan or a photo) rather than a text layer,
    and not yet read again by a person?"""
    rows = report.results
    if report.ocr_pages is None:
        doubts = sum(round(row.extraction_confidence, 3) not in DIGITAL_CONFIDENCES for row in rows)
    else:
        pages = set(report.ocr_pages)
        doubts = sum(row.page in pages and not read_by_person(row) for row in rows)
    return doubts >= 1 and doubts >= OCR_ROW_SHARE * len(rows)


def read_by_person(row: LabReportResult) -> bool:
    """Has a person read the row off the page (corrected it, or added it)?"""
    return row.extraction_confidence >= PERSON_READ_CONFIDENCE


# How far down page 1 (a share of its height) the first row read may start. A report's first table
# begins in the page's upper part, under the header; rows starting lower mean a table above them
# went unread with no unread line counted (a cumulative blood count whose lines hold two numbers).
# Measured: the first row starts at most 0.31 down in all 342 real-like batch 1-3 dev and html
# fit/check documents (current parser), and at 0.52 and 0.58 in the two old-parser dev parses of
# unseen layouts that skipped review missing 13 rows each (batch 3 at c0a59f2, batch 2 at f942c31).
FIRST_ROW_LOWEST = 0.4


def _page_tops(report: ReportData) -> dict[int, float]:
    """Page (1 when unknown) -> the top of its highest row read, over the rows with a box."""
    tops: dict[int, float] = {}
    for row in report.results:
        if row.bbox:
            page = row.page or 1
            tops[page] = min(tops.get(page, row.bbox[1]), row.bbox[1])
    return tops


def first_rows_low(report: ReportData) -> bool:
    """Do the rows read start low on page 1 (or not on page 1 at all), leaving its top unread?"""
    tops = _page_tops(report)
    if not tops:
        return False  # nothing says where the rows were (a report built by hand), or no rows
    return 1 not in tops or tops[1] > FIRST_ROW_LOWEST


# How much lower than on page 1 (a share of the page's height, about three lines) the rows of a later
# page may start. A report prints the same head on every page, so its tables start at the same
# height on each; a later page whose rows start lower lost a table above them (a one-row table
# whose row the parser rejected leaves no row to doubt and no unread line). Measured: at most 0.011
# lower in the 342 current parses of real-like batch 1-3 dev and html fit/check documents and 0.006
# in the error-free old-parser parses of batches 2, 3, 4 and 7 dev; 0.072 in the batch-4 dev parse
# at 881afed that skipped review without its fasting glucose (tuned there, checked on batch 7).
LATER_PAGE_LOWER = 0.04


def later_rows_low(report: ReportData) -> bool:
    """Do the rows of a later page start well below where page 1's rows start?"""
    tops = _page_tops(report)
    if 1 not in tops:
        return False  # page 1's rows: first_rows_low's case
    return any(top - tops[1] > LATER_PAGE_LOWER for page, top in tops.items() if page > 1)
