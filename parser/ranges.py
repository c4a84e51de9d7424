"""Reference ranges as printed -> numeric bounds. Pure functions, no layout knowledge.

Handles `3.5-5.0`, `3.5 - 5.0`, `(70 - 99)`, `<200`, `<= 5`, `> 40`, `Upto 130`,
`Up to 5.0`, decimal commas (`3,5 - 5,1`), thousands separators (`150,000 - 450,000`)
and sex-specific ranges (`M: 13-17 F: 12-15`), picked by the patient's gender when known.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from parser import vocabulary

# One printed number: optional sign, digits with thousands separators or a decimal comma.
NUMBER = r"[-+]?\d+(?:[.,]\d+)*"

# Printed comparator -> its canonical spelling.
COMPARATORS = {
    "<": "<", "<=": "<=", "≤": "<=", "=<": "<=",
    ">": ">", ">=": ">=", "≥": ">=", "=>": ">=",
}
_UPTO = re.compile(r"^\s*(?:up\s*to|upto|till|below|less\s+than|under)\s*(" + NUMBER + r")", re.I)
_ABOVE = re.compile(r"^\s*(?:above|over|greater\s+than|more\s+than)\s*(" + NUMBER + r")", re.I)
_COMPARATOR = re.compile(r"^\s*(<=|>=|=<|=>|<|>|≤|≥)\s*(" + NUMBER + r")")
# "to" and its European words: "3,5 à 5,0", "3,5 bis 5,0", "3,5 a 5,0".
# A colon or semicolon before the dash is OCR's reading of a speck ("2,15:- 2,55").
_BETWEEN = re.compile(r"^\s*(" + NUMBER + r")\s*[:;]?\s*(?:-|–|—|to|\.\.|(?<=\s)(?:à|a|bis)(?=\s))\s*("
                      + NUMBER + r")", re.I)
_SEX_WORDS = vocabulary.range_sex_words()
# The words leading a sex's tier, longest first (parser/layout/fields.py uses it too).
SEX_WORDS_PATTERN = "|".join(sorted(map(re.escape, _SEX_WORDS), key=len, reverse=True))
_SEX_PART = re.compile(
    r"\b(" + SEX_WORDS_PATTERN + r")\s*[:\-]?\s*(?=[<>≤≥(\[]?\s*(?:up\s*to|upto)?\s*\d)", re.I
)


# A previous result and its date run on after the range from an anteriority column printed
# close to it ("150 à 400 260 (12/01/24)", "< 5,0 2,1 vom 03.01.2024"): never part of the range.
_DATED_TAIL = re.compile(
    r"\s+[<>≤≥]?\s*" + NUMBER + r"(?:\s*%)?(?:\s*[(\[]\s*|\s+(?:(?:du|le|del|dal|vom|am|of|on|from)\s+)?)"
    r"\d{1,2}[/.\-]\d{1,2}[/.\-]\d{2,4}\s*[)\]]?$", re.I)
_GROUPED_DOTS = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+")
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?:[ \u00a0\u2009\u202f]\d{3})+(?![\d.,])")


@dataclass(frozen=True, slots=True)
class Range:
    low: float | None
    high: float | None
    low_inclusive: bool = True
    high_inclusive: bool = True


def parse_number(text: str, decimal_comma: bool = False) -> float | None:
    """A printed number, reading `3,5` as 3.5 and `150,000` as 150000; None if not a number.

    `decimal_comma`: the report writes decimals with a comma, so `1,005` is 1.005.
    """
    token = text.strip().replace(" ", "")
    if not re.fullmatch(NUMBER, token):
        return None
    sign = ""
    if token[0] in "+-":
        sign, token = token[0], token[1:]
    if "," in token and "." in token:
        # The later separator is the decimal one: 1,234.5 or 1.234,5.
        if token.rfind(",") > token.rfind("."):
            token = token.replace(".", "").replace(",", ".")
        else:
            token = token.replace(",", "")
    elif "," in token:
        groups = token.split(",")
        if len(groups) > 2 or not decimal_comma and all(len(g) == 3 for g in groups[1:]) \
                and len(groups[0]) <= 3 and groups[0] != "0":
            token = token.replace(",", "")  # thousands: 150,000
        else:
            token = token.replace(",", ".")  # decimal comma: 3,5
    elif decimal_comma and "." in token and _GROUPED_DOTS.fullmatch(token):
        token = token.replace(".", "")  # a decimal-comma report groups thousands with dots: 4.000
    elif token.count(".") > 1:
        return None
    try:
        number = float(sign + token)
    except ValueError:
        return None
    return number if math.isfinite(number) else None  # 400 nines overflow to inf: not a reading


def parse_range(text: str | None, gender: str | None = None,
                decimal_comma: bool = False) -> Range | None:
    """Bounds of a printed reference range, or None when it has no usable numbers."""
    if not text:
        return None
    cleaned = " ".join(text.replace("\n", " ").split())
    # Quest prints ">= 60" as "> OR = 60".
    cleaned = re.sub(r"([<>])\s*or\s*=\s*", r"\1=", cleaned, flags=re.I)
    cleaned = _DATED_TAIL.sub("", cleaned)
    cleaned = cleaned.strip("()[] ")
    if decimal_comma:  # "4 000 à 10 000": thousands grouped with (thin) spaces
        cleaned = _SPACED_THOUSANDS.sub(lambda m: re.sub(r"[ \u00a0\u2009\u202f]", "", m.group(0)), cleaned)
    sexed = _split_by_sex(cleaned)
    if sexed:
        if gender not in sexed:
            return None
        cleaned = sexed[gender]
    normal = _normal_tier(cleaned)
    return _parse_single(normal if normal is not None else cleaned, decimal_comma)


def repair_ocr_range(text: str, decimal_comma: bool = False) -> str:
    """An OCR'd range cell with its slips undone, for a second reading when the first fails:
    a decimal sign read as ';' or ':' ("3;5-5;1", "2:15 à 2,55", "3.5:-5:5"), specks read as ':' ';' or
    quotes ("[<\"5;2]", "3,5 à:5,1"), and a thin dash lost between the two bounds
    ("[2,15 2,55]": two numbers alone in a range cell, the lower first)."""
    repaired = re.sub(r"[\"'“”]", " ", text)
    repaired = re.sub(r"(?<=\d)[;:]{1,2}(?=\d)", "," if decimal_comma else ".", repaired)
    repaired = re.sub(r"[;:]+", " ", repaired)
    core = repaired.strip().strip("()[] ")
    if m := re.fullmatch(r"(\d+(?:[.,]\d+)?)\s+(\d+(?:[.,]\d+)?)", core):
        low, high = (parse_number(g, decimal_comma) for g in m.groups())
        if low is not None and high is not None and low < high:
            repaired = f"{m.group(1)} - {m.group(2)}"
    return repaired


def _parse_single(text: str, decimal_comma: bool = False) -> Range | None:
    text = text.strip().strip("()[] ")
    if m := _BETWEEN.match(text):
        low, high = parse_number(m.group(1), decimal_comma), parse_number(m.group(2), decimal_comma)
        if low is None or high is None or low > high:
            return None
        return Range(low, high)
    if m := _COMPARATOR.match(text):
        op, value = COMPARATORS[m.group(1)], parse_number(m.group(2), decimal_comma)
        if value is None:
            return None
        if op.startswith("<"):
            return Range(None, value, high_inclusive=op == "<=")
        return Range(value, None, low_inclusive=op == ">=")
    if m := _UPTO.match(text):
        value = parse_number(m.group(1), decimal_comma)
        return None if value is None else Range(None, value)
    if m := _ABOVE.match(text):
        value = parse_number(m.group(1), decimal_comma)
        return None if value is None else Range(value, None, low_inclusive=False)
    return None


def _tier_words(kind: str) -> str:
    words = sorted(vocabulary.RANGE_TIER_WORDS[kind], key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)


_TIER_LABEL = re.compile(r"(?<![\w-])(?:(?P<normal>" + _tier_words("normal") + r")|(?P<other>"
                         + _tier_words("other") + r"))(?![\w-])", re.I)


def names_a_tier(name: str) -> bool:
    """A 'name' ending in a tier's label after a colon ("Vitamin D Status: Deficiency") is a
    line of the interpretive tiers printed under a result, not a test."""
    m = next(reversed(list(_TIER_LABEL.finditer(name))), None)
    return m is not None and m.end() == len(name.rstrip(" :.")) and ":" in name[:m.start()]


def _normal_tier(text: str) -> str | None:
    """The bounds of the normal tier of interpretive tiers ("Below 6.0% : Normal 6.0% - 6.5% :
    Prediabetic >6.5% : Diabetic" -> "Below 6.0", "Deficiency < 20 Insufficiency 20 - 30
    Sufficiency 30 - 100" -> "30 - 100"); None unless one normal and another tier are labelled.
    The labels lead their bounds when the text starts with one, else they follow them."""
    marks = list(_TIER_LABEL.finditer(text))
    normal = [i for i, m in enumerate(marks) if m.group("normal")]
    if len(normal) != 1 or not any(m.group("other") for m in marks):
        return None
    i = normal[0]
    if not text[:marks[0].start()].strip(" :;,/|-"):
        start, end = marks[i].end(), marks[i + 1].start() if i + 1 < len(marks) else len(text)
    else:
        start, end = (marks[i - 1].end() if i else 0), marks[i].start()
    bounds = text[start:end].strip(" :;,/|=")
    bounds = re.sub(r"(?<=\d)\s*%", "", bounds)  # "6.0% - 6.5%": the unit between the numbers
    return bounds if re.search(r"\d", bounds) else None


def _split_by_sex(text: str) -> dict[str, str] | None:
    """`M: 13-17 F: 12-15` -> {"male": "13-17", "female": "12-15"}; None if not sex-specific."""
    marks = list(_SEX_PART.finditer(text))
    if len(marks) < 2:
        return None
    parts: dict[str, str] = {}
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        sex = _SEX_WORDS[mark.group(1).lower()]
        parts.setdefault(sex, text[mark.end():end].strip(" ;,/|"))
    return parts if len(parts) == 2 else None


def looks_like_range(text: str) -> bool:
    """True for text that reads as a reference range (used to place columns without headers)."""
    stripped = text.strip()
    return parse_range(stripped) is not None and not re.fullmatch(NUMBER, stripped)


_DECIMAL_COMMA = re.compile(r"(?<![\d,.])\d+,\d{1,2}(?![\d,])")
_POINT_DECIMAL = re.compile(r"(?<![\d,.])\d+\.\d+(?![\d,])")


def uses_decimal_comma(texts: list[str]) -> bool:
    """Does the report write decimals with a comma (`4,2`, `3,5 - 5,1`) rather than a point?"""
    commas = sum(len(_DECIMAL_COMMA.findall(t)) for t in texts)
    points = sum(len(_POINT_DECIMAL.findall(t)) for t in texts)
    return commas >= 2 and commas > points
