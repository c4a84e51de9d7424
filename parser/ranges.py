"""Reference ranges as printed -> numeric bounds. Pure functions, no layout knowledge.

Handles `3.5-5.0`, `3.5 - 5.0`, `(70 - 99)`, `<200`, `<= 5`, `> 40`, `Upto 130`,
`Up to 5.0`, decimal commas (`3,5 - 5,1`), thousands separators (`150,000 - 450,000`)
and sex-specific ranges (`M: 13-17 F: 12-15`), picked by the patient's gender when known.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from parser import vocabulary

# One printed number: optional sign, digits with thousands separators or a decimal comma.
NUMBER = r"[-+]?\d+(?:[.,]\d+)*"
# Compiled once: these run for every cell, and re.fullmatch(NUMBER, ...) looks the pattern up each time.
_NUMBER = re.compile(NUMBER)
_OR_EQUAL = re.compile(r"([<>])\s*or\s*=\s*", re.I)  # Quest's "> OR = 60"
_PERCENT_AFTER_DIGIT = re.compile(r"(?<=\d)\s*%")
_DIGIT = re.compile(r"\d")

# Printed comparator -> its canonical spelling.
COMPARATORS = {
    "<": "<", "<=": "<=", "≤": "<=", "=<": "<=",
    ">": ">", ">=": ">=", "≥": ">=", "=>": ">=",
}
# "Up to 40" and its European words: "hasta 40", "jusqu'à 40", "fino a 40", "bis 40".
# "Less than" and "more than" in each language: "menos de 40", "más de 35", "moins de", "plus
# de", "meno di", "più di", "unter", "über"; "menor a 200", "mayor a 45" (Andean Spanish).
_UPTO = re.compile(r"^\s*(?:up\s*to|upto|till|below|less\s+than|under|hasta|menor\s+(?:de|a)|inferior\s+a|"
                   r"menos\s+de|moins\s+de|meno\s+di|unter|weniger\s+als|"
                   r"jusqu['’]\s*à|inférieur\s+à|fino\s+a|inferiore\s+a|bis)\s*(" + NUMBER + r")", re.I)
_ABOVE = re.compile(r"^\s*(?:above|over|greater\s+than|more\s+than|mayor\s+(?:de|a)|superior\s+a|"
                    r"m[áa]s\s+de|plus\s+de|pi[ùu]\s+di|oltre|über|mehr\s+als|"
                    r"supérieur\s+à|superiore\s+a)\s*(" + NUMBER + r")", re.I)
_COMPARATOR = re.compile(r"^\s*(<=|>=|=<|=>|<|>|≤|≥)\s*(" + NUMBER + r")")
# "to" and its European words: "3,5 à 5,0", "3,5 bis 5,0", "3,5 a 5,0".
# A colon or semicolon before the dash is OCR's reading of a speck ("2,15:- 2,55").
_BETWEEN = re.compile(r"^\s*(" + NUMBER + r")\s*[:;]?\s*(?:-|–|—|to|\.\.|(?<=\s)(?:à|a|bis)(?=\s))\s*("
                      + NUMBER + r")", re.I)
_SEX_WORDS = vocabulary.range_sex_words()
# A label before the range in its cell, with its colon: letters as label_key folds them (dots and
# spaces optional between the letters of an abbreviation, accents as printed or not).
_RANGE_LABEL = re.compile(
    r"^(?:" + "|".join(r"[\s.]*".join(re.escape(part) for part in label.split())
                       for label in vocabulary.range_cell_labels()) + r")\.?\s*:\s*", re.I)


def _unaccented(text: str) -> str:
    """`text` with each letter's accent dropped, one character for one (the vocabulary's labels
    are folded so: "référence" matches "reference" and the match's end holds in `text`)."""
    if text.isascii():
        return text  # most cells: nothing to fold, and parse_range is asked of every range cell
    return "".join(unicodedata.normalize("NFKD", ch)[0] for ch in text)


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
    if not _NUMBER.fullmatch(token):
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
                decimal_comma: bool = False, age: float | None = None) -> Range | None:
    """Bounds of a printed reference range, or None when it has no usable numbers; of tiers,
    the patient's (by `gender` and `age` in years) or the normal one, None when unsure."""
    if not text:
        return None
    cleaned = " ".join(text.replace("\n", " ").split())
    # Quest prints ">= 60" as "> OR = 60".
    cleaned = _OR_EQUAL.sub(r"\1=", cleaned)
    cleaned = _DATED_TAIL.sub("", cleaned)
    if (label := _RANGE_LABEL.match(_unaccented(cleaned))) and ":" not in cleaned[label.end():]:
        cleaned = cleaned[label.end():]  # "V.R.: 4,00 - 5,20"; tiers keep their labels
    cleaned = cleaned.strip("()[] ")
    if decimal_comma:  # "4 000 à 10 000": thousands grouped with (thin) spaces
        cleaned = _SPACED_THOUSANDS.sub(lambda m: re.sub(r"[ \u00a0\u2009\u202f]", "", m.group(0)), cleaned)
    tiers = labelled_tiers(cleaned)
    if tiers is not None:  # "Male: 4.50 - 5.90 Female: ...", "18-59 y: 6 - 20 >=60 y: 8 - 23"
        chosen = patient_tier(tiers, gender, age)
        return None if chosen is None else _parse_single(chosen.bounds, decimal_comma)
    alone = _age_tier_alone(cleaned)  # ">or=18 years: 40-129": the only tier the lab printed
    if alone is not None and (chosen := patient_tier([alone], gender, age)) is not None:
        return _parse_single(chosen.bounds, decimal_comma)
    if not any(m.group("other") for m in _TIER_LABEL.finditer(cleaned)):
        cleaned = _NORMAL_LEAD.sub("", cleaned)  # the normal tier alone: "Desirable: < 200"
    sexed = _split_by_sex(cleaned)
    if sexed:
        if gender not in sexed:
            return None
        cleaned = sexed[gender]
    normal = _normal_tier(cleaned)
    if normal is None and (_NUMBERED_LABEL.match(cleaned) or len(_LABELLED_BOUNDS.findall(cleaned)) >= 2):
        return None  # tiers whose labels are not known ("Luteal: ..."), or an age first
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


# The normal tier's label alone before its bounds: the bounds are the range.
_NORMAL_LEAD = re.compile(r"^(?:" + _tier_words("normal") + r"|fasting)\s*:?\s*(?=[<>≤≥]|\d[\d.,]*\s*[-–])",
                          re.I)


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
    bounds = _PERCENT_AFTER_DIGIT.sub("", bounds)  # "6.0% - 6.5%": the unit between the numbers
    return bounds if _DIGIT.search(bounds) else None


# ------------------------------------------------------------ tiers printed with labels


@dataclass(frozen=True, slots=True)
class Tier:
    """One labelled tier of a range cell ("Female: 4.00 - 5.20", ">=60 y: 8 - 23")."""

    label: str
    bounds: str
    sex: str | None = None
    ages: tuple[float, float] | None = None  # the label's ages in whole years, both inclusive
    decision: str | None = None  # "normal" for the reference tier, "other" for decision limits


# A label ending in a colon, then bounds: two of them are tiers.
_LABELLED_BOUNDS = re.compile(r"[^\W\d_]\.?\s*:\s*(?=[<>≤≥]?\s*\d)")
# Numbers before a colon that bounds follow are a label's ("18-59 y: 6 - 20"), not the range.
_NUMBERED_LABEL = re.compile(r"^\s*[<>≤≥]?=?\s*" + NUMBER + r"(?:\s*[-–]\s*" + NUMBER
                             + r")?\s*(?:[^\W\d_]{1,6}\.?)?\s*:\s*[<>≤≥]?\s*\d")
# The bounds of a tier: a range, a one-sided limit; a percent sign may follow.
_BOUNDS = (r"(?:(?:<=|>=|=<|=>|<|>|≤|≥)\s*" + NUMBER + r"|" + NUMBER + r"\s*(?:-|–|—)\s*[<≤]?\s*" + NUMBER
           + r"|" + NUMBER + r"\s+(?:to|à|a|bis)\s+" + NUMBER
           + r"|(?:up\s*to|upto|till|below|under|less\s+than|above|over|greater\s+than|more\s+than)\s*"
           + NUMBER + r")(?:\s*%)?")
_TIER_BOUNDS = re.compile(r"\s*" + _BOUNDS, re.I)  # the bounds a label leads
_BOUNDS_AT_END = re.compile(r"(?<![\d.,<>=≤≥])" + _BOUNDS + r"\s*$", re.I)  # a label's bounds before it
_AGE_UNIT = r"(?:y|yr|yrs|years?|ans?|a|j|jahre|anni|años|anos)\b\.?"
_AGE_WORD = r"(?:age|âge|alter|età|eta|edad)\b"
# The ages a tier's label names: a span, a limit after a comparator or a word, or an age
# "and over"; each with its unit of years (or, for a span, after the word "age").
_AGE_PATTERNS = [
    (re.compile(r"(?:\b(?:from|de|von|da|desde)\s+)?(\d{1,3})\s*(?:-|–|to|à|a|bis)\s*(\d{1,3})\s*"
                + _AGE_UNIT, re.I), "span"),
    (re.compile(_AGE_WORD + r"\s*:?\s*(\d{1,3})\s*(?:-|–)\s*(\d{1,3})", re.I), "span"),
    (re.compile(r"(\d{1,3})\s*(?:\+\s*" + _AGE_UNIT + r"|" + _AGE_UNIT + r"\s*(?:\+|and\s+(?:over|above|"
                r"older)|or\s+(?:over|above|older)|et\s+plus|und\s+(?:älter|mehr|darüber)|e\s+oltre|"
                r"e\s+più|y\s+más|o\s+más))", re.I), ">="),
    (re.compile(r"(<=|>=|=<|=>|<|>|≤|≥)\s*(\d{1,3})\s*" + _AGE_UNIT, re.I), "op"),
    (re.compile(r"\b(?:over|above|older\s+than|plus\s+de|über|ueber|oltre|mayores\s+de|mayor\s+de|"
                r"más\s+de)\s+(\d{1,3})\s*" + _AGE_UNIT, re.I), ">"),
    (re.compile(r"\b(?:from|dès|ab|desde)\s+(\d{1,3})\s*" + _AGE_UNIT, re.I), ">="),
    (re.compile(r"\b(?:under|below|younger\s+than|moins\s+de|unter|sotto|menores\s+de|menor\s+de|"
                r"menos\s+de)\s+(\d{1,3})\s*" + _AGE_UNIT, re.I), "<"),
]
_AGE_WORDS = {"adult": (18, math.inf), "adults": (18, math.inf), "adulte": (18, math.inf),
              "adultes": (18, math.inf), "erwachsene": (18, math.inf), "adulti": (18, math.inf),
              "adultos": (18, math.inf), "child": (0, 17), "children": (0, 17),
              "enfant": (0, 17), "enfants": (0, 17), "kinder": (0, 17), "bambini": (0, 17),
              "niños": (0, 17)}
# A fasting tier is the reference of a glucose whose random or post-meal limits follow it.
_NORMAL_LABELS = {"fasting", "à jeun", "a jeun", "nüchtern", "a digiuno", "digiuno", "en ayunas",
                  "ayunas"}
_OTHER_LABELS = {"random", "non fasting", "non-fasting", "post prandial", "postprandial",
                 "post-prandial", "postprandiale", "pp", "2 hr pp", "2h pp"}


def labelled_tiers(text: str) -> list[Tier] | None:
    """The tiers of a cell printing two or more `label: bounds` ("Male: 4.50 - 5.90 Female:
    4.00 - 5.20", "18-59 y: 6 - 20 >=60 y: 8 - 23", "Fasting: 70 - 99 Random: 70 - 139");
    None unless every part reads so and every label is a sex, an age or a known tier."""
    parts = re.split(r"\s*:\s*", text.strip())
    if len(parts) < 3:
        return None
    if _TIER_BOUNDS.fullmatch(parts[0]):
        return _tiers_after_bounds(parts)
    tiers, label = [], parts[0]
    for chunk in parts[1:]:
        m = _TIER_BOUNDS.match(chunk)
        if m is None:
            return None
        tier = _tier(label, m.group(0).strip())
        if tier is None:
            return None
        tiers.append(tier)
        label = chunk[m.end():].strip()
    if re.search(r"\d", label):
        return None  # more bounds than labels
    return tiers


def _age_tier_alone(text: str) -> Tier | None:
    """One age tier printed alone (">or=18 years: 40-129"), for `patient_tier` to take when the
    patient's known age falls inside it (an unknown age settles nothing, test_ranges_tiers)."""
    parts = re.split(r"\s*:\s*", text.strip())
    if len(parts) != 2 or not _TIER_BOUNDS.fullmatch(parts[1]):
        return None
    tier = _tier(parts[0], parts[1].strip())
    return tier if tier is not None and tier.ages is not None and tier.sex is None else None


def _tiers_after_bounds(parts: list[str]) -> list[Tier] | None:
    """Tiers printed `bounds : label` ("13.5 - 17.5 : Male 12.0 - 15.5 : Female"), split at
    the colons: each middle part is a label and the next tier's bounds."""
    tiers, bounds = [], parts[0].strip()
    for chunk in parts[1:-1]:
        m = _BOUNDS_AT_END.search(chunk)
        if m is None or not chunk[:m.start()].strip():
            return None
        tier = _tier(chunk[:m.start()].strip(), bounds)
        if tier is None:
            return None
        tiers.append(tier)
        bounds = m.group(0).strip()
    last = _tier(parts[-1], bounds)
    if last is None or _TIER_BOUNDS.fullmatch(parts[-1]):
        return None  # more bounds than labels
    return [*tiers, last]


def _tier(label: str, bounds: str) -> Tier | None:
    """A tier read from its label; None when the label names no sex, age or known tier."""
    words = label.casefold()
    sexes = {_SEX_WORDS[w] for w in re.findall(r"[^\W\d_]+", words) if w in _SEX_WORDS}
    if len(sexes) > 1:
        return None
    ages = _ages(words)
    decision = _decision(words)
    if not sexes and ages is None and decision is None:
        return None
    return Tier(label, bounds, next(iter(sexes), None), ages, decision)


def _ages(label: str) -> tuple[float, float] | None:
    """The ages a tier's label names, in whole years, both ends included."""
    for pattern, kind in _AGE_PATTERNS:
        m = pattern.search(label)
        if m is None:
            continue
        if kind == "span":
            low, high = float(m.group(1)), float(m.group(2))
            return (low, high) if low <= high else None
        if kind == "op":
            op, limit = COMPARATORS[m.group(1)], float(m.group(2))
        else:
            op, limit = kind, float(m.group(1))
        return {"<": (0.0, limit - 1), "<=": (0.0, limit), ">": (limit + 1, math.inf),
                ">=": (limit, math.inf)}[op]
    found = {_AGE_WORDS[w] for w in re.findall(r"[^\W\d_]+", label) if w in _AGE_WORDS}
    return found.pop() if len(found) == 1 else None


def _decision(label: str) -> str | None:
    text = " ".join(re.sub(r"[^\w\s-]", " ", label).split())
    if text in _NORMAL_LABELS:
        return "normal"
    if text in _OTHER_LABELS:
        return "other"
    m = _TIER_LABEL.fullmatch(text)
    if m is None:
        return None
    return "normal" if m.group("normal") else "other"


def patient_tier(tiers: list[Tier], gender: str | None, age: float | None) -> Tier | None:
    """The tier that is the patient's range: of their sex, of their age, and among decision
    tiers the normal one; None when the sex or age it turns on is unknown, or not one tier is
    left."""
    candidates = tiers
    if any(t.sex for t in candidates):
        if gender is None:
            return None
        candidates = [t for t in candidates if t.sex in (None, gender)]
    if any(t.ages for t in candidates):
        if age is None:
            return None
        years = math.floor(age)
        candidates = [t for t in candidates if t.ages is None or t.ages[0] <= years <= t.ages[1]]
    if len(candidates) > 1 and any(t.decision for t in candidates):
        candidates = [t for t in candidates if t.decision == "normal"]
    return candidates[0] if len(candidates) == 1 else None


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


def labelled_range(text: str) -> bool:
    """Is the text a range with its label before it and nothing else ("V.R.: 12,0 - 15,5")?"""
    cleaned = " ".join(text.split())
    label = _RANGE_LABEL.match(_unaccented(cleaned))
    return label is not None and label.end() < len(cleaned) and parse_range(cleaned) is not None


def looks_like_range(text: str) -> bool:
    """True for text that reads as a reference range (used to place columns without headers)."""
    stripped = text.strip()
    return reads_as_range(stripped) and not _NUMBER.fullmatch(stripped)


@lru_cache(maxsize=8192)  # a pure function of the text, asked of every phrase by the layout
def reads_as_range(text: str) -> bool:
    """Does the text read as a reference range, whoever the patient (any sex's or age's tiers)?"""
    return parse_range(text) is not None or labelled_tiers(" ".join(text.split())) is not None \
        or any(parse_range(text, sex) is not None for sex in ("male", "female"))


_DECIMAL_COMMA = re.compile(r"(?<![\d,.])\d+,\d{1,2}(?![\d,])")
_POINT_DECIMAL = re.compile(r"(?<![\d,.])\d+\.\d+(?![\d,])")


def uses_decimal_comma(texts: list[str]) -> bool:
    """Does the report write decimals with a comma (`4,2`, `3,5 - 5,1`) rather than a point?"""
    commas = sum(len(_DECIMAL_COMMA.findall(t)) for t in texts)
    points = sum(len(_POINT_DECIMAL.findall(t)) for t in texts)
    return commas >= 2 and commas > points
