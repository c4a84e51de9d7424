"""How European reports print numbers, count units and dates. Pure functions, no layout.

Numbers: decimal commas (`4,2`), thousands grouped with spaces, thin spaces, apostrophes or
dots (`4 700 000`, `4 700 000`, `4'700'000`, `4.700.000`), both separators (`1.234,5`).
Count units: `10^9/l`, `G/l` (giga per litre), `T/l` (tera per litre), `/mm³`, `x10^3/µL`, read
as a power of ten per litre so `G/l` and `10^9/L` are known to be the same unit.
Dates: `DD/MM/YYYY`, `DD.MM.YYYY`, `DD-MM-YY` and month names in English, French, German,
Italian and Spanish (`12 mars 2024`, `3. März 2024`, `12 de marzo de 2024`).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from parser.units import canonical_unit

# ---------------------------------------------------------------- numbers

# Characters printed between thousands groups: space, no-break space, thin spaces, apostrophe.
GROUP_SPACES = " \u00a0\u2009\u202f'’"
_SPACED = re.compile(r"^[-+]?\d{1,3}(?:[" + GROUP_SPACES + r"]\d{3})+(?:[.,]\d+)?$")
_PLAIN = re.compile(r"^[-+]?\d+(?:[.,]\d+)*$")


def parse_number(text: str, *, decimal_comma: bool | None = None) -> float | None:
    """A printed number as a float, or None when `text` is not one number.

    `decimal_comma`: True when the report writes decimals with a comma (then `4.700` is 4700
    and `1,005` is 1.005), False when with a point, None when not known (then a single
    separator followed by exactly three digits is ambiguous and gives None: a wrong value that
    looks right is worse than none).
    """
    token = text.strip()
    if _SPACED.match(token):
        token = re.sub("[" + GROUP_SPACES + "]", "", token)
    if not _PLAIN.match(token):
        return None
    sign = -1.0 if token.startswith("-") else 1.0
    token = token.lstrip("+-")
    commas, dots = token.count(","), token.count(".")
    if commas and dots:  # the later separator is the decimal one: 1.234,5 / 1,234.5
        decimal = "," if token.rfind(",") > token.rfind(".") else "."
        grouping = "." if decimal == "," else ","
        if token.count(decimal) > 1 or not _grouped(token.split(decimal)[0], grouping):
            return None
        token = token.replace(grouping, "").replace(decimal, ".")
    elif commas or dots:
        separator = "," if commas else "."
        parts = token.split(separator)
        if len(parts) > 2:  # 4.700.000: only thousands repeat
            if not _grouped(token, separator):
                return None
            token = token.replace(separator, "")
        elif len(parts[1]) == 3 and parts[0] != "0":
            is_decimal = _three_digit_reading(separator, decimal_comma)
            if is_decimal is None:
                return None
            token = token.replace(separator, "." if is_decimal else "")
        else:
            token = token.replace(separator, ".")
    return sign * float(token)


def _grouped(token: str, separator: str) -> bool:
    groups = token.split(separator)
    return 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])


def _three_digit_reading(separator: str, decimal_comma: bool | None) -> bool | None:
    """Is the one separator in `1,005` / `4.700` a decimal one? None when it cannot be told."""
    if decimal_comma is None:
        return None
    return (separator == ",") == decimal_comma


def merge_spaced_groups(tokens: list[str]) -> list[str]:
    """Words of one cell with a number split at its thousands spaces joined again:
    ["4", "700", "000", "/mm³"] -> ["4 700 000", "/mm³"]. Only exact 3-digit groups after a
    1-3 digit head join (the last may carry decimals), so "12 150" joins but "5 10" does not."""
    merged: list[str] = []
    for token in tokens:
        if merged and re.fullmatch(r"\d{3}(?:[.,]\d+)?", token) \
                and re.fullmatch(r"[-+]?\d{1,3}(?: \d{3})*", merged[-1]):
            merged[-1] = f"{merged[-1]} {token}"
        else:
            merged.append(token)
    return merged


# ---------------------------------------------------------------- count units

# Per-litre power of ten of the volume a count is given per (as parser.units.canonical_unit spells it).
_VOLUMES = {"l": 0, "dl": 1, "ml": 3, "ul": 6, "mm3": 6, "nl": 9}
_PREFIXES = {"k": 3, "m": 6, "g": 9, "t": 12}  # G/l = 10^9/l, T/l = 10^12/l
_POWER_UNIT = re.compile(r"^10\^?(-?\d{1,2})/(\w+)$")
_PREFIX_UNIT = re.compile(r"^([kMGT])/([dmµun]?[lL])$")  # case matters: m/l is milli, not a count
_PER_VOLUME = re.compile(r"^(?:cells?|cellules?|zellen)?/(mm3|ul|nl)$")


def count_unit_power(unit: str | None) -> int | None:
    """The power of ten per litre of a cell-count unit: `10^9/L`, `G/l`, `x E9/L` and
    `x10^3/µL` -> 9; `T/l`, `10^12/L` and `x10^6/µL` -> 12; `/mm³` and `/µL` -> 6. None for
    other units."""
    if not unit:
        return None
    if match := _PREFIX_UNIT.match(re.sub(r"\s+", "", unit).replace("μ", "µ")):
        return _PREFIXES[match.group(1).lower()] + _VOLUMES[match.group(2).lower().replace("µ", "u")]
    key = canonical_unit(unit)
    if match := _POWER_UNIT.match(key):
        volume = _VOLUMES.get(match.group(2))
        return None if volume is None else int(match.group(1)) + volume
    if match := _PER_VOLUME.match(key):
        return _VOLUMES[match.group(1)]
    return None


def same_count_unit(a: str | None, b: str | None) -> bool:
    """Two spellings of one count unit (`G/l` and `10^9/L`, `/mm³` and `/µL`)."""
    pa, pb = count_unit_power(a), count_unit_power(b)
    return pa is not None and pa == pb


# ---------------------------------------------------------------- dates

MONTHS: dict[str, dict[str, int]] = {
    "en": {"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
           "august": 8, "september": 9, "october": 10, "november": 11, "december": 12},
    "fr": {"janvier": 1, "fevrier": 2, "mars": 3, "avril": 4, "mai": 5, "juin": 6, "juillet": 7,
           "aout": 8, "septembre": 9, "octobre": 10, "novembre": 11, "decembre": 12},
    "de": {"januar": 1, "jaenner": 1, "februar": 2, "maerz": 3, "marz": 3, "april": 4, "mai": 5,
           "juni": 6, "juli": 7, "august": 8, "september": 9, "oktober": 10, "november": 11,
           "dezember": 12},
    "it": {"gennaio": 1, "febbraio": 2, "marzo": 3, "aprile": 4, "maggio": 5, "giugno": 6,
           "luglio": 7, "agosto": 8, "settembre": 9, "ottobre": 10, "novembre": 11,
           "dicembre": 12},
    "es": {"enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7,
           "agosto": 8, "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11,
           "diciembre": 12},
}
_MONTH_NUMBER: dict[str, int] = {}
for _months in MONTHS.values():
    for _name, _number in _months.items():
        _MONTH_NUMBER.setdefault(_name, _number)
        if len(_name) > 4:  # abbreviations: "janv", "févr", "sept", "dic", "Okt"
            _MONTH_NUMBER.setdefault(_name[:3], _number)
            _MONTH_NUMBER.setdefault(_name[:4], _number)
_MONTH_NUMBER["mar"] = 3  # "mar" abbreviates March in every language; "mär" folds to "mar"

_NUMERIC_DATE = re.compile(r"^(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})$")
_WORD_DATE = re.compile(
    r"^(\d{1,2})(?:er|º|°)?\.?\s+(?:de\s+)?([^\W\d_]+)\.?,?\s+(?:de\s+)?(\d{2,4})$")
_ENGLISH_WORD_DATE = re.compile(r"^([^\W\d_]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$")
DAY_FIRST = {"fr", "de", "it", "es"}  # and English outside the US: only sure when day > 12
# Two-digit years above this (with the current century's) are of the last century: a birth
# date "01/01/80" is 1980, a collection date "24/06/25" is 2025.
TWO_DIGIT_YEAR_PIVOT = date.today().year % 100 + 1


def _fold(text: str) -> str:
    text = text.lower().replace("ä", "ae").replace("ß", "ss")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:
        year += 1900 if year > TWO_DIGIT_YEAR_PIVOT else 2000
    return year


def _iso(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def parse_date(text: str, language: str | None = None) -> str | None:
    """An ISO date from a printed one, or None when it is not a date or its day/month order
    cannot be told. Day first for `DD.MM.YYYY` always and for slashes in the European
    languages; an English `04/06/2021` is ambiguous (None) unless a part exceeds 12."""
    text = " ".join(text.strip().split())
    if match := _NUMERIC_DATE.match(text):
        first, separator, second, year = match.groups()
        if len(first) == 4:  # 2024-06-12
            return _iso(int(first), int(second), int(year)) if len(year) <= 2 else None
        a, b = int(first), int(second)
        if separator == "." or language in DAY_FIRST:
            day, month = a, b
        elif a > 12 >= b:
            day, month = a, b
        elif b > 12 >= a:
            day, month = b, a
        elif a == b:
            day = month = a
        else:
            return None
        return _iso(_year(year), month, day)
    folded = _fold(text)
    if match := _WORD_DATE.match(folded):
        month = _MONTH_NUMBER.get(match.group(2))
        return _iso(_year(match.group(3)), month, int(match.group(1))) if month else None
    if match := _ENGLISH_WORD_DATE.match(folded):
        month = _MONTH_NUMBER.get(match.group(1))
        return _iso(int(match.group(3)), month, int(match.group(2))) if month else None
    return None


_WORD_DATE_IN_TEXT = re.compile(
    r"\b(\d{1,2})(?:er|º|°)?\.?\s+(?:de\s+)?([^\W\d_]{3,})\.?,?\s+(?:de\s+)?(\d{4})\b")


def find_word_date(text: str) -> str | None:
    """The first date with a month name (any of the five languages) inside `text`, as ISO:
    "Prélevé le 3 mars 2024 à 08h30" -> "2024-03-03". None when there is none."""
    for match in _WORD_DATE_IN_TEXT.finditer(_fold(text)):
        month = _MONTH_NUMBER.get(match.group(2))
        if month:
            return _iso(int(match.group(3)), month, int(match.group(1)))
    return None

