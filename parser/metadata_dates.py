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
    ("ymd_text", re.compile(r"\b(\d{4})[\s\-/.]" + _MONTH + r"[\s\-/.](\d{1,2})\b", re.I)),  # "2025-Mar-14"
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


# A numeric date with a four-digit year, as a report prints it anywhere (a footer's print date,
# a previous result's date): a version or a range of numbers is never one.
_PRINTED_DATE = re.compile(r"(?<![\d/.\-])(\d{1,2})([/.\-])(\d{1,2})\2((?:19|20)\d{2})(?![\d/.\-])")


def printed_date_order(texts: list[str]) -> str | None:
    """"dmy" or "mdy" when the numeric dates printed anywhere on the report (not only its
    labelled ones) settle which comes first, and none says the other."""
    # One search over the texts a line apart: no date runs over a line break, and a break is
    # no digit, '/', '.' or '-' for the edges' look-arounds: the same dates, in the same order.
    return date_order([m.group(0) for m in _PRINTED_DATE.finditer("\n".join(texts))])


def dotted_order(values: list[str]) -> str | None:
    """"dmy" when the numeric dates among `values` are all printed with dots ("09.07.1975",
    "09.03.25 06:40"): the dotted form is the day-first countries' (Germany, Austria,
    Switzerland and their neighbours'; a Commonwealth line printer's); month-first systems
    print slashes. Measured on the stored families' and the opened real-like reports' text
    layers (seventeenth session): every dotted date a part above 12 settles is day-first
    (149 dates in 22 files), none month-first."""
    found = [m for value in values for m in NUMERIC_DATE.finditer(value) if not _ISO_DATE.search(value)]
    return "dmy" if found and all(m.group(0).count(".") == 2 for m in found) else None


def order_by_age(births: list[str], dates: list[str], age: float | None) -> str | None:
    """The order under which the birth date and the sampling (or report) date give the age the
    report prints ("Birthdate 09/03/1977", "Collected 02/06/2025", "Age 47": month first), when
    only one order does."""
    if age is None or not births or not dates:
        return None
    fits = {order for order in ("dmy", "mdy")
            if _age(read_date(births[0], order), read_date(dates[0], order, recent=True)) == age}
    return fits.pop() if len(fits) == 1 else None


def _age(born: str | None, on: str | None) -> int | None:
    if not is_iso(born) or not is_iso(on):
        return None
    return years_between(dt.date.fromisoformat(born), dt.date.fromisoformat(on))


def years_between(born: dt.date, on: dt.date) -> int:
    """Whole years from `born` to `on`: a person's age on that day."""
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def is_iso(text: str | None) -> bool:
    return bool(text) and _ISO_DATE.fullmatch(text) is not None


# A year and the clock time after it read as one word, as OCR may ("23 May 202511:12 AM").
_GLUED_TIME = re.compile(r"\b((?:19|20)\d{2})(\d{1,2}:\d{2})")


def read_date(text: str, order: str | None = None, *, recent: bool = False) -> str | None:
    """ISO date when unambiguous; the printed date when day and month could swap; else None.

    `recent`: a report or collection date, so a two-digit year (`24/06/25`) is 20YY when that
    year is not after the current one; a birth date's century is never guessed."""
    text = _GLUED_TIME.sub(r"\1 \2", text)
    for kind, pattern in DATE_PATTERNS:
        m = next((m for m in pattern.finditer(text) if not _other_calendar(kind, m)), None)
        if not m:
            continue
        if kind == "iso":
            return _iso(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if kind == "ymd_text":
            return _iso(int(m.group(1)), _MONTHS[m.group(2).lower()[:3]], int(m.group(3)))
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
    # "3. März 2024", "12 de marzo de 2024"; a hospital system's "14-ENE-2025", "14/gen/2025".
    return find_word_date(_WORD_MONTH_JOINED.sub(r"\1 \2 \3", text))


# A day, a month's word and a year joined by dashes, slashes or dots ("14-ENE-2025", "14.Mrz.2025").
_WORD_MONTH_JOINED = re.compile(r"\b(\d{1,2})[\-/.]([^\W\d_]{3,5})\.?[\-/.]((?:19|20)\d{2})\b")


def _other_calendar(kind: str, m: re.Match) -> bool:
    """A year-first date of another calendar printed beside the Gregorian one ("2081/12/01
    B.S. (14/03/2025 A.D.)" in Nepal, a Thai 2568 or a Hijri 1446): its year is past next
    year or before 1900, where no report or birth date is; the date after it is read."""
    if kind not in ("iso", "ymd_text"):
        return False
    year = int(m.group(1))
    return not 1900 <= year <= dt.date.today().year + 1


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
