"""Dates of a report's metadata: ISO YYYY-MM-DD only when the day and month cannot be
confused; an ambiguous numeric date (4/6/2021) is kept as printed, an unreadable one is None."""

from __future__ import annotations

import datetime as dt
import re

from parser.locale_forms import find_word_date

_MONTHS = {m.lower(): i for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)}
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)[a-z]*\.?"
_ISO_DATE = re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b")
NUMERIC_DATE = re.compile(r"\b(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{2,4})\b")  # day and month in either order
DATE_PATTERNS = [
    ("iso", _ISO_DATE),
    ("dmy_text", re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?[\s\-/.,]*" + _MONTH + r"[\s\-/.,]*(\d{2,4}|\w+)\b", re.I)),
    ("mdy_text", re.compile(r"\b" + _MONTH + r"[\s\-/.]*(\d{1,2})(?:st|nd|rd|th)?,?[\s\-/.]*(\d{4})\b", re.I)),
    ("numeric", NUMERIC_DATE),
]


def date_order(values: list[str]) -> str | None:
    """"dmy" or "mdy" when some numeric date on the report settles which comes first."""
    orders = set()
    for value in values:
        m = NUMERIC_DATE.search(value)
        if m and not _ISO_DATE.search(value):
            a, b = int(m.group(1)), int(m.group(2))
            if a > 12 >= b:
                orders.add("dmy")
            elif b > 12 >= a:
                orders.add("mdy")
    return orders.pop() if len(orders) == 1 else None


def read_date(text: str, order: str | None = None, *, recent: bool = False) -> str | None:
    """ISO date when unambiguous; the printed date when day and month could swap; else None.

    `recent`: a report or collection date, so a two-digit year (`24/06/25`) is 20YY when that
    year is not after the current one; a birth date's century is never guessed."""
    for kind, pattern in DATE_PATTERNS:
        m = pattern.search(text)
        if not m:
            continue
        if kind == "iso":
            return _iso(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if kind == "dmy_text":
            year = _year(m.group(3), recent)
            return _iso(year, _MONTHS[m.group(2).lower()[:3]], int(m.group(1))) if year else None
        if kind == "mdy_text":
            return _iso(int(m.group(3)), _MONTHS[m.group(1).lower()[:3]], int(m.group(2)))
        a, b, year = int(m.group(1)), int(m.group(2)), _year(m.group(3), recent)
        if year is None:
            return None
        if a > 12 >= b or (order == "dmy" and a <= 12 and b <= 12):
            return _iso(year, b, a)
        if b > 12 >= a or (order == "mdy" and a <= 12 and b <= 12):
            return _iso(year, a, b)
        if a == b:
            return _iso(year, a, b)
        return m.group(0)  # ambiguous: keep as printed
    return find_word_date(text)  # "3. März 2024", "12 de marzo de 2024"


def _year(text: str, recent: bool = False) -> int | None:
    if not text.isdigit():
        return None
    year = int(text)
    if len(text) == 2:  # the century is a guess, except for a date of this century's report
        return 2000 + year if recent and 2000 + year <= dt.date.today().year else None
    return year if 1900 <= year <= 2100 else None


def _iso(year: int, month: int, day: int) -> str | None:
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None
