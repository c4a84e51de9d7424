"""A raw table row -> a `LabReportResult`: the value as printed, its type, units, range,
flag and interpretation, and how sure the reader is.

Nothing is invented: an OCR slip inside a number (O for 0, l for 1, S for 5) is repaired
only when the result is unambiguous, and the repair lowers `extraction_confidence`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from parser import analyte_units, analyte_words, panels, skew
from parser.columns import OUT_OF_RANGE, looks_like_unit
from parser.flags import interpret, parse_flag, parse_value_mark
from parser.layout import RawRow, is_non_result_label
from parser import models
from parser.models import LabReportResult
from parser.ranges import (
    NUMBER, names_a_tier, parse_number, parse_range, reads_as_range, repair_ocr_range,
)
from parser import units as unit_lexicon
from parser import vocabulary

_BOOLEAN = {
    "negative", "positive", "reactive", "non reactive", "nonreactive", "non-reactive",
    "detected", "not detected", "present", "absent", "nil", "neg", "pos",
}
_NEGATIVE_WORDS = {"negative", "non reactive", "nonreactive", "non-reactive", "not detected",
                   "absent", "nil", "neg"} | set(vocabulary.words(vocabulary.NEGATIVE_WORDS))
_BOOLEAN |= vocabulary.european_presence_words()
_COMPARATOR_VALUE = re.compile(r"^(<=|>=|=<|=>|<|>|≤|≥)\s*" + NUMBER + r"$")
_PERCENT_VALUE = re.compile(r"^" + NUMBER + r"\s*%$")
_RATIO_VALUE = re.compile(r"^\d+(\.\d+)?\s*:\s*\d+(\.\d+)?$")
_DURATION_VALUE = re.compile(r"^" + NUMBER + r"\s*(sec|secs|seconds|s|min|mins|minutes|hrs?|hours?|days?)$", re.I)
_DATE_LIKE = re.compile(r"^\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}$")
_FOOTNOTES = re.compile(r"(\s*[*#†‡⁰¹²³⁴⁵⁶⁷⁸⁹]+|\s*\(\s*[a-z#*]\s*\)|\s*\^\d)+$")
_LEADING_MARKS = re.compile(r"^[\s*#•·\-–>]+")
# A collection date and time run into the name ("03/14/2025 05:42 EDT WBC": OCR joined a date
# column to the names): no test name starts with a date and a time of day.
_LEADING_STAMP = re.compile(r"^\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?"
                            r"(?:\s+(?:" + "|".join(vocabulary.TIME_ZONES) + r"))?\s+(?=[^\W\d_])")
_TRAILING_ARROW = re.compile(r"\s+([↑↓]{1,2})$")
# Printed qualitative results, every language's (parser/vocabulary.py). Free text outside
# this vocabulary that has no digit is more likely a label or a comment than a result.
_QUALITATIVE_WORDS = vocabulary.qualitative_result()
# A dipstick grade printed in brackets after the finding ("Positive (++)", "Positive (2+)").
_GRADE_AFTER = re.compile(r"\s*\((?:[+]{1,4}|\d\s*\+|±)\)$")
_CATEGORY_NAME = re.compile(
    r"^(?:(?:very|near|above|below|borderline|moderately|mildly|severely)\s+)*(?:high|low|"
    r"optimal|borderline|desirable|undesirable|normal|abnormal|deficient|deficiency|"
    r"insufficient|insufficiency|sufficient|toxic|toxicity|elevated|increased|decreased|"
    r"risk|low\s+risk|high\s+risk|average\s+risk|moderate\s+risk|prediabetes|pre-diabetes|"
    r"prediabetic|diabetes|diabetic|non[\s-]?diabetic|adequate|inadequate|ideal|acceptable|"
    r"target|goal|children|adults?|men|women|males?|females?|infants?|newborns?|"
    r"optimal\s+range|healthy|unhealthy|positive|negative|reactive|non[\s-]?reactive|"
    r"(?:\w+\s+)?trimester|stage\s+\w+|grade\s+\w+|category\s+\w+)(?:\s*\(.*\))?$",
    re.I,
)
_RANGE_IN_NAME = re.compile(r"[<>≤≥]\s*\d|\d(?:\.\d+)?\s+[-–]\s+\d")
_MAX_NAME_WORDS = 10
# A value cell holding value, flag, unit and range: at most this many words before the range
# (the value, a flag and a spaced unit such as "mL / min / 1.73m2").
_MAX_VALUE_CELL_TOKENS = 7
# OCR confusions inside a number, repaired only when the whole token then reads as one.
_OCR_DIGITS = str.maketrans({"O": "0", "o": "0", "D": "0", "l": "1", "I": "1", "|": "1",
                             "S": "5", "s": "5", "B": "8", "Z": "2"})


@dataclass(slots=True)
class Context:
    gender: str | None = None
    age: float | None = None  # in years, for ranges printed in age tiers (parser/patient_age.py)
    page_sizes: dict[int, tuple[float, float]] | None = None
    default_sample: str = "unknown"
    decimal_comma: bool = False  # the report writes 4,2 for 4.2
    # Slopes of photographed pages whose words were levelled: bboxes go back to the image.
    slopes: dict[int, skew.Slopes] | None = None


# A row of a table without a header line, or whose cells could be split more than one way.
LAYOUT_DOUBT = 0.85
LAYOUT_DOUBTS = frozenset({models.DOUBT_NO_HEADER, models.DOUBT_AMBIGUOUS_SPLIT})
# What each doubt the row records (LabReportResult.confidence_doubts) multiplies its confidence by.
DOUBT_FACTORS = {
    models.DOUBT_AMBIGUOUS_SPLIT: LAYOUT_DOUBT,
    models.DOUBT_NO_HEADER: LAYOUT_DOUBT,
    models.DOUBT_UNIT_MISSING: 0.9,
    models.DOUBT_RANGE_UNREAD: 0.9,
    models.DOUBT_FLAG_CONFLICT: 0.7,
    models.DOUBT_FAR_OUTSIDE_OCR: 0.6,  # OCR drops decimal points: 4.1 read as 41 lands far off its range
    models.DOUBT_VALUE_REPAIRED: 0.8,
    models.DOUBT_UNIT_REPAIRED: 0.95,
    models.DOUBT_RANGE_REPAIRED: 0.9,
    models.DOUBT_DECIMAL_POINT: 0.8,
}


def _doubts(row: RawRow, name: str, value: str, value_type: str, units: str | None,
            range_text: str | None, reference, conflict: bool, context: Context) -> list[str]:
    """What the layout and the numbers leave in doubt (DOUBT_FACTORS says by how much)."""
    doubts = []
    if row.ambiguous:
        doubts.append(models.DOUBT_AMBIGUOUS_SPLIT)
    if not row.from_header:
        doubts.append(models.DOUBT_NO_HEADER)
    if row.unit_column and units is None and value_type in ("numeric", "range") and \
            not vocabulary.unitless_test_name().search(name):  # a ratio, pH, INR lose no unit
        doubts.append(models.DOUBT_UNIT_MISSING)
    if range_text and reference is None and value_type in ("numeric", "range") and \
            re.search(r"\d", range_text):
        doubts.append(models.DOUBT_RANGE_UNREAD)
    if conflict:
        doubts.append(models.DOUBT_FLAG_CONFLICT)
    if row.ocr and _far_outside(value, reference, context.decimal_comma):
        doubts.append(models.DOUBT_FAR_OUTSIDE_OCR)
    return doubts


def doubted_confidence(confidence: float, doubts: list[str]) -> float:
    """`confidence` (the words') lowered by each of `doubts`, rounded as rows carry it."""
    confidence = math.prod((DOUBT_FACTORS.get(doubt, 1.0) for doubt in doubts), start=confidence)
    return round(max(0.0, min(1.0, confidence)), 3)


def _printed_flag(flag_cell: str | None, glued_flag: str | None, arrow: re.Match | None) -> str | None:
    """The flag as printed: the flag column's, else one glued to the value, else an arrow after it.
    A status column ("Status: Final") read as the flags' gives way to a flag printed with the value
    ("6.4 (HH)"): the value's own flag is the row's."""
    if glued_flag and flag_cell and parse_flag(flag_cell) is None and parse_flag(glued_flag) is not None:
        return glued_flag
    return flag_cell or glued_flag or (arrow.group(1) if arrow else None)


def normalize_row(row: RawRow, context: Context) -> LabReportResult | None:
    """The result of one row, or None when the row is not a measured result."""
    name, arrow = _row_name(row)
    if name is None:
        return None
    doubts = [models.DOUBT_OCR_WORDS] if row.confidence < 1.0 else []
    raw_value, range_text, context = _value_and_range(row, context)
    value, glued_flag, glued_units, repaired = split_value(raw_value)
    if not value or _DATE_LIKE.match(value):
        return None
    if repaired:
        doubts.append(models.DOUBT_VALUE_REPAIRED)
    value_type = result_type(value)
    if value_type == "comment" and not _is_plausible_text_result(value):
        return None

    out_of_range = row.value_kind == OUT_OF_RANGE
    if out_of_range and row.units and not (row.flag or glued_flag) and \
            parse_flag(glued_units, bare_letters=True) is not None:
        glued_flag, glued_units = glued_units, None  # "118 B" under "Hors normes": B is bas
    flag_text = _printed_flag(row.flag, glued_flag, arrow)
    units, range_text, flag_text, repaired_unit = _units_and_range(
        row, name, row.units or glued_units, range_text, flag_text)
    if repaired_unit:
        doubts.append(models.DOUBT_UNIT_REPAIRED)
    reference, repaired_range = _reference(range_text, row.ocr, context)
    if repaired_range:
        doubts.append(models.DOUBT_RANGE_REPAIRED)  # read through a repair
    if row.ocr and (pointed := _colon_point(name, value, reference, range_text, context)) is not None:
        value, value_type = pointed, "numeric"
        doubts.append(models.DOUBT_DECIMAL_POINT)
    flag = _read_flag(flag_text, row.flag, glued_flag, out_of_range)
    result = interpret(value, reference, flag, out_of_range_column=out_of_range,
                       decimal_comma=context.decimal_comma)
    interpretation = result.interpretation
    if flag is None and value_type in ("boolean", "comment") and range_text:
        interpretation = _qualitative_interpretation(value, range_text) or interpretation
    if flag_text and flag is None and not _is_plausible_text_result(flag_text):
        flag_text = None  # stray text in the flag column is not a flag

    doubts += _doubts(row, name, value, value_type, units, range_text, reference, result.conflict, context)
    return LabReportResult(
        test_name=name,
        value=value,
        type=value_type,
        units=units,
        min_reference_range=reference.low if reference else None,
        max_reference_range=reference.high if reference else None,
        source_panel_name=row.panel,
        sample_type=panels.sample_type(row.specimen, row.panel, name, default=context.default_sample),
        measurement_kind=panels.measurement_kind(name, row.method),
        interpretation=interpretation,
        is_above_max_range=result.is_above_max_range,
        is_below_min_range=result.is_below_min_range,
        reference_range_text=range_text,
        page=row.page,
        bbox=_bbox(row, context),
        extraction_confidence=doubted_confidence(row.confidence, doubts),
        source_flag=flag_text,
        confidence_doubts=doubts,
    )


def _row_name(row: RawRow) -> tuple[str | None, re.Match | None]:
    """The row's test name, without a flag read into the names (and that flag's match); None
    for the name when it is no test's."""
    arrow = _TRAILING_ARROW.search(row.name)  # "CRÉATININE ↓": a flag column read into the names
    if arrow is None and row.flag is None:
        arrow = _trailing_flag(row.name)  # "PH-WERT erhöht", "WBC H": the same, in words
    name = clean_test_name(row.name[:arrow.start()] if arrow else row.name)
    if row.ocr:
        name = repair_ocr_name(name)
    if not plausible_test_name(name) or names_a_tier(name):
        return None, arrow
    return name, arrow


def _read_flag(flag_text: str | None, column_flag: str | None, glued_flag: str | None,
               out_of_range: bool) -> str | None:
    """The flag a row's printed flag text means. A letter flag only when set apart ("B", bas) is
    one in the flag's own cell or place; a sign glued after the value is one, never a column's "-"."""
    flag = parse_flag(flag_text, bare_letters=out_of_range or (flag_text is not None and flag_text == column_flag))
    if flag is None and flag_text is not None and flag_text == glued_flag:
        flag = parse_value_mark(flag_text)
    return flag


def _units_and_range(row: RawRow, name: str, units: str | None, range_text: str | None,
                     flag_text: str | None) -> tuple[str | None, str | None, str | None, bool]:
    """(units, range text, flag text, unit repaired?) once the unit cell is told apart from what
    was read into it or next to it: specks or a range after an OCR'd unit, a unit inside the range
    cell, a comparator glued to the unit, a flag in the unit cell, a slip the analyte settles."""
    if row.ocr and units and (peeled := _unit_and_tail(units)) is not None:
        units, tail = peeled  # "ng/mL z", "mU/l 0.30-4.20": specks, or the range, after the unit
        range_text = range_text or tail
    if range_text and units is None:
        range_text, units = _split_range_units(range_text, row.ocr)
    if units and len(units) > 1 and units[-1] in "<>≤≥" and range_text and range_text[:1].isdigit():
        units, range_text = units[:-1], f"{units[-1]} {range_text}"  # "mL/min/1.73m2>" "90": "> 90"
    repaired_unit = False
    if units:
        units, flag_text, repaired_unit = _clean_units(units, flag_text, row.ocr)
        if row.ocr and (settled := analyte_units.settled_unit(name, units)) != units:
            units, repaired_unit = settled, True  # "UL" for a haematocrit's L/L
    return units, range_text, flag_text, repaired_unit


# Specks OCR reads after a unit in its cell ("z", "EE", "sae", "“ i", "—", "\\"): short tokens
# without a digit. A unit's own words ("% of total Hgb", "µg/L FEU") read as a unit whole.
_SPECK = re.compile(r"^[^\d\s<>≤≥]{1,3}$")  # a comparator is the range's
MAX_SPECKS = 2


def _unit_and_tail(units: str) -> tuple[str, str | None] | None:
    """(unit, range or None) from an OCR'd unit cell holding a unit and, after it, specks or
    the range ("mU/l 0.30-4.20" where the range's gap closed up); None when the cell is a unit
    whole or holds anything else."""
    tokens = units.split()
    if len(tokens) < 2 or unit_lexicon.is_unit(units):
        return None
    for cut in range(len(tokens) - 1, 0, -1):
        head = " ".join(tokens[:cut])
        if not unit_lexicon.is_unit(head):
            continue
        rest = tokens[cut:]
        while rest and _SPECK.match(rest[-1]) and not unit_lexicon.is_unit(rest[-1]):
            rest = rest[:-1]
        if not rest and len(tokens) - cut <= MAX_SPECKS:
            return head, None
        while rest and _SPECK.match(rest[0]) and not unit_lexicon.is_unit(rest[0]):
            rest = rest[1:]  # "% = 20,0 - 45,0": a speck in the gap before the range
        tail = " ".join(rest)
        return (head, tail) if rest and reads_as_range(tail) else None
    return None


def _reference(range_text: str | None, ocr: bool, context: Context):
    """(bounds of the printed range or None, read through an OCR repair?)."""
    reference = parse_range(range_text, context.gender, context.decimal_comma, context.age)
    if reference is not None or not range_text or not ocr:
        return reference, False
    reference = parse_range(repair_ocr_range(range_text, context.decimal_comma),
                            context.gender, context.decimal_comma, context.age)
    return reference, reference is not None


# A decimal sign OCR read as a colon ("4:31" for 4.31, "2:31" for 2,31): a value shaped as a
# ratio or titre, in a row whose range is numbers and no ratio.
_COLON_VALUE = re.compile(r"^(\d{1,3}):(\d{1,2})$")
_RATIO_NAME = re.compile(r"ratio|rapport|quotient|verh[äa]ltnis|cociente|rapporto|relaci[óo]n|"
                         r"tit(?:er|re|olo|ulo)|t[íi]tulo", re.I)
_RATIO_RANGE = re.compile(r"\d\s*:\s*\d")  # "< 1:40"; a tier's label colon ("M: 4.5") is none
# How far beyond its range the pointed value may land: the seven right on the opened and stored
# scans lie inside their ranges or 1.1 times over a bound; one with a digit misread as well
# ("43:5" for 13.5) lands 2.6 times over its bound and stays as read.
MAX_COLON_POINT_SPREAD = 2


def _colon_point(name: str, value: str, reference, range_text: str | None,
                 context: Context) -> str | None:
    """`value` with its colon read as the report's decimal sign, when the row is a measured
    number: a numeric range (no ratio in it), a name that is no ratio or titre, and the number
    within MAX_COLON_POINT_SPREAD times its range; else None."""
    m = _COLON_VALUE.match(value)
    if m is None or reference is None or _RATIO_RANGE.search(range_text or "") or _RATIO_NAME.search(name):
        return None
    pointed = f"{m.group(1)}{',' if context.decimal_comma else '.'}{m.group(2)}"
    number = parse_number(pointed, context.decimal_comma)
    high, low = reference.high, reference.low
    if number is None or (high is not None and number > MAX_COLON_POINT_SPREAD * high) or \
            (low is not None and number < low / MAX_COLON_POINT_SPREAD):
        return None
    return pointed


# A decimal-comma report groups thousands with dots, but only counts reach thousands, and a
# count's reference range spans far more than this share over its low bound (red cells
# "4.000.000 - 5.400.000", 1.35, is the narrowest range in thousands of the opened reports'
# 6,304 ranges; a urine density "1.005 - 1.030" read as thousands spans 1.025).
_MIN_COUNT_SPAN = 1.2
_DOTTED_BOUNDS = re.compile(r"(?<![\d.,])([1-9]\d{0,2}(?:\.\d{3})+)\s*[-–]\s*([1-9]\d{0,2}(?:\.\d{3})+)(?![\d.,])")


def _value_and_range(row: RawRow, context: Context) -> tuple[str, str | None, Context]:
    """The row's value cell before it is split, its range text (peeled off the value cell where
    the lab prints it there: "153 g/L (135-175)") and the context the row is read in."""
    raw_value, range_text = _raw_value(row, context), row.range_text
    if range_text is None and (peeled := _bracketed_range(raw_value)) is not None:
        raw_value, range_text = peeled
    return raw_value, range_text, _row_decimal_sign(context, range_text)


def _row_decimal_sign(context: Context, range_text: str | None) -> Context:
    """The context a row is read in: a decimal-comma report's row whose range reads as
    thousands too close together for a count's ("Densidad 1.022 (1.005 - 1.030)") prints its
    decimals with a point, its value too."""
    m = _DOTTED_BOUNDS.search(range_text or "") if context.decimal_comma else None
    if m is None:
        return context
    low, high = (parse_number(bound, True) for bound in m.groups())
    if low is None or high is None or high >= _MIN_COUNT_SPAN * low:
        return context
    return replace(context, decimal_comma=False)


def _raw_value(row: RawRow, context: Context) -> str:
    """The value cell before it is split: grouped thousands joined, an OCR'd arrow mark dropped."""
    raw_value = join_thousands(row.value) if context.decimal_comma else row.value
    if not row.ocr:
        return raw_value
    raw_value = _GLUED_FLAG.sub(r"\1 ", _STRAY_POINT.sub(r"\1", raw_value))
    return drop_arrow_mark(raw_value)


# A point or comma OCR glued after a whole value ("17. U/L": a speck of the page, a dot of a
# leader): never part of a printed number.
_STRAY_POINT = re.compile(r"^([<>≤≥]?\d+(?:[.,]\d+)?)[.,](?=\s|$)")
# A letter flag OCR glued before the value, the space lost ("L1,7 mmol/L"): no value starts so.
_GLUED_FLAG = re.compile(r"^([HL]{1,2})(?=\d+(?:[.,]\d+)*(?:\s|$))")


def rejection_reason(row: RawRow, context: Context) -> str | None:
    """Why normalize_row gives no result for `row` (for --explain); None when it gives one."""
    name = clean_test_name(row.name)
    if not plausible_test_name(name):
        if is_non_result_label(name):
            return f"{name!r} is a label, not a test name"
        return f"{name!r} does not read as a test name (range, category or prose)"
    raw_value = _raw_value(row, context)
    peeled = _bracketed_range(raw_value) if row.range_text is None else None
    value = split_value(peeled[0] if peeled else raw_value)[0]
    if not value:
        return "empty value"
    if _DATE_LIKE.match(value):
        return f"value {value!r} is a date"
    if result_type(value) == "comment" and not _is_plausible_text_result(value):
        return f"value {value!r} is text that is not a known qualitative result"
    return None if normalize_row(row, context) is not None else "not a result"


# Glyph slips OCR makes in the short codes of test names, put right only where the code is
# unmistakable: "HbAlc" / "Hemoglobin Alc" / "Hemoglobina Alc" (A1c; the French model reads the 1
# "i", "ï", "ïl" too), "25-0H" (OH), "Free 13" (T3), "TA libre" (T4: no test is named so),
# "C0RTISOL", "y-Glutamyl" / "y-GT" (γ: no word starts "y-"), "VES (1? ora)" / "(18 ora)" (the
# ordinal 1ª: 18 would be "18 ore"; a printed "1°" is left as printed), and dotted initials that
# lost one dot between two capitals ("C.C.MH.", a dot squeezed between the kerned M and H).
_OCR_NAME_SLIPS = [
    (re.compile(r"(?<=\bHb)\s?A[lI|iïí]{1,2}c\b|(?<=\bHbA)[lI|iïí]{1,2}c\b|(?<=globin )A[lI|iïí]{1,2}c\b"
                r"|(?<=globina )A[lI|iïí]{1,2}c\b", re.I),
     lambda m: re.sub(r"[lLI|iïíÏÍ]{1,2}", "1", m.group(0))),
    (re.compile(r"(?<![\w.])[A-Z](?:\.?[A-Z]){2,}\.(?!\w)"), lambda m: _initials_dotted(m.group(0))),
    (re.compile(r"\bTA(?=\s+(?:libre|libero|livre)\b)", re.I), lambda m: m.group(0)[0] + "4"),
    (re.compile(r"(?<![^\W\d_])y-(?=glutam|gt\b)", re.I), lambda m: "γ-"),
    (re.compile(r"(?<=\b1)[?8](?=\s*h?ora\b)", re.I), lambda m: "ª"),
    (re.compile(r"(?<=\d-)0(?=H\b)"), lambda m: "O"),  # 25-0H vitamin D
    (re.compile(r"\b(Free|Total|Reverse)\s+1([34])\b", re.I), lambda m: f"{m.group(1)} T{m.group(2)}"),
    (re.compile(r"(?<=[A-Z])0(?=[A-Z])|(?<=\b[A-Z])0(?=[a-z]{2})"), lambda m: "O"),  # "C0RTISOL", "C0lor"
]


_TRAILING_FLAG = re.compile(r"\s+(\S+)$")


def _trailing_flag(name: str) -> re.Match | None:
    """The flag word a flag column beside the names put at the end of a name ("AUSSEHEN
    pathol", "PH-WERT erhöht", "SODIO Alto", "WBC H"): a flag word of three letters or more
    not in capitals after a name in capitals, or H/L/HH/LL after a name of capitals; None
    otherwise."""
    m = _TRAILING_FLAG.search(name)
    head = name[:m.start()] if m else ""
    if m is None or not re.search(r"[A-Z]{2}", head) or head != head.upper():
        return None
    word = m.group(1)
    if re.fullmatch(r"HH|LL|H|L", word) or (word != word.upper() and len(word) >= 3):
        return m if parse_flag(word) is not None else None
    return None


def _initials_dotted(text: str) -> str:
    """Capitals each followed by a dot, when the text lacks just one of those dots
    ("C.C.MH." -> "C.C.M.H."); anything else unchanged ("HDL.", "LDH.")."""
    letters = text.replace(".", "")
    return ".".join(letters) + "." if text.count(".") == len(letters) - 1 >= 2 else text


def repair_ocr_name(name: str) -> str:
    """A test name read by OCR with the slips of _OCR_NAME_SLIPS and the look-alike glyphs of
    analyte words (parser/analyte_words.py) undone."""
    for pattern, fix in _OCR_NAME_SLIPS:
        name = pattern.sub(fix, name)
    return analyte_words.repair_words(name)


def clean_test_name(name: str) -> str:
    name = " ".join(name.split())
    name = re.sub(r"\s*(method|methodology)\s*[:\-].*$", "", name, flags=re.I)
    name = _LEADING_MARKS.sub("", name)
    if (stamp := _LEADING_STAMP.match(name)) and name[stamp.end():] not in vocabulary.TIME_ZONES:
        name = name[stamp.end():]
    name = _FOOTNOTES.sub("", name)
    stripped = name.strip(" :;,.-").strip()
    if name.strip(" :;,.").lower() in vocabulary.ION_NAMES:
        return name.strip(" :;,.")  # "CL-", "HCO3-", "K+": the ion's charge is part of its name
    if _DOTTED_ABBREVIATION.search(name.rstrip(" :;,-")):
        return stripped + "."  # "V.G.M.", "S.G.O.T.": the last dot is the abbreviation's own
    return stripped


# A name ending in a dotted abbreviation (two or more letter groups each with its dot).
_DOTTED_ABBREVIATION = re.compile(r"(?<![\w.])(?:[A-Za-z]{1,4}\.){2,}$")


_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?:[ \u00a0\u2009\u202f]\d{3})+(?![\d.,]|\s\d)")


_ARROW_MARK = re.compile(r"[|!Tt]{1,2}")  # OCR's readings of a printed ↑ or ↓


def drop_arrow_mark(text: str) -> str:
    """An arrow flag between the value and its unit that OCR read as a mark ("9,4 T mmol/L",
    "133 |! mmol/L"): the mark goes (its direction is not known; the range tells it)."""
    tokens = text.split()
    if len(tokens) > 2 and _numberish(tokens[0]) and _ARROW_MARK.fullmatch(tokens[1]) \
            and unit_lexicon.is_unit(tokens[2], True):
        return " ".join([tokens[0], *tokens[2:]])
    return text


def join_thousands(text: str) -> str:
    """`32 100 /mm³` -> `32100 /mm³`: a decimal-comma report groups thousands with (thin)
    spaces; a number and the next one three digits long are one number there."""
    return _SPACED_THOUSANDS.sub(lambda m: re.sub(r"\D", "", m.group(0)), text)


# A flag printed in a box, read by OCR as brackets round a letter, glued to the value or not
# ("61[H]", "1,31 [E]"): the value stands; the mark is its flag when it reads as one, and a
# misread letter is dropped (the range then tells high from low).
_BOXED_MARK = re.compile(r"^(\S*\d)\s?(\[[A-Za-z]{1,2}\])$")


def split_value(text: str) -> tuple[str, str | None, str | None, bool]:
    """(value, flag glued to it, units glued to it, repaired?) from a value cell's text."""
    tokens = unit_lexicon.unglue(text.replace("|", " ").split())
    flag = units = None
    if not tokens:
        return "", None, None, False
    # A flag before or after the value: "H 13.2", "13.2 H", "13.2*", "↑13.2".
    if len(tokens) > 1 and parse_flag(tokens[0]) and _numberish(tokens[1]):
        flag, tokens = tokens[0], tokens[1:]
    if len(tokens) > 1 and parse_flag(tokens[0]) and _QUALITATIVE_WORDS.match(" ".join(tokens[1:])) \
            and not _QUALITATIVE_WORDS.match(" ".join(tokens)):
        flag, tokens = tokens[0], tokens[1:]  # "Abnormal Amber"
    if len(tokens) > 1 and (parse_flag(tokens[-1]) or parse_value_mark(tokens[-1])) \
            and _numberish(tokens[-2]):
        flag, tokens = tokens[-1], tokens[:-1]  # "13.2 H", "12,4 +"
    elif len(tokens) > 1 and parse_flag(tokens[-1]) and \
            _QUALITATIVE_WORDS.match(" ".join(tokens[:-1])):
        flag, tokens = tokens[-1], tokens[:-1]  # "Dark Yellow A", "1+ Abnormal"
    boxed = _BOXED_MARK.match(" ".join(tokens)) if len(tokens) <= 2 else None
    if boxed and _numberish(boxed.group(1)):
        tokens, flag = [boxed.group(1)], boxed.group(2) if parse_flag(boxed.group(2)) else flag
    glued = re.match(r"^(.*?\d)([*↑↓]+|[HL]{1,2})$", tokens[0]) if len(tokens) == 1 else None
    if glued and parse_number(glued.group(1)) is not None:
        tokens, flag = [glued.group(1)], glued.group(2)
    lead = re.match(r"^([↑↓]+|\*{1,2})(\d.*)$", tokens[0])  # "↑13.2"; "*11,4" (OCR closed "* 11,4")
    if lead:
        flag, tokens = lead.group(1), [lead.group(2), *tokens[1:]]
    # Units glued after a number: "13.2 g/dL", "3.2 mmol/L L", "105 mg / dl".
    # A flag between the value and its unit: "12.8 L gm / dl", "2,636 L / cumm" (the flag
    # reading only when the rest is a unit of the lexicon on its own).
    if len(tokens) > 2 and _numberish(tokens[0]) and parse_flag(tokens[1]) and \
            _lexicon_unit(" ".join(tokens[2:])) and \
            not unit_lexicon.is_unit(" ".join(tokens[1:])):  # "0,39 L / L" is litres per litre
        flag, tokens = tokens[1], [tokens[0], *tokens[2:]]
    # Two readings of a trailing "L": the end of a unit ("mmol / L") or a flag; the whole
    # tail reading as a unit wins.
    if len(tokens) > 2 and parse_flag(tokens[-1]) and _numberish(tokens[0]) and \
            not _unit_like(" ".join(tokens[1:])) and _unit_like(" ".join(tokens[1:-1])):
        flag, tokens = tokens[-1], tokens[:-1]
    if len(tokens) > 1 and _numberish(tokens[0]) and _unit_like(" ".join(tokens[1:])):
        units, tokens = unit_lexicon.tidy(" ".join(tokens[1:])), tokens[:1]
    value = " ".join(tokens)
    value = re.sub(r"^(<=|>=|<|>|≤|≥)\s+", r"\1", value)  # "< 0.5" -> "<0.5"
    repaired = False
    if not _numberish(value):
        fixed = repair_number(value)
        if fixed is not None:
            value, repaired = fixed, True
    return value, flag, units, repaired


def _bracketed_range(value: str) -> tuple[str, str] | None:
    """(value cell, range) from a value cell that also prints the reference range after the
    value and its unit: "153 g/L (135-175)", "H 215 mg/dL (Upto 200)", "11.9 gm / dl Male:
    (13.5 to 17.5) Female: (12.0 to 15.5)", or a qualitative result and the expected one,
    "Amber Yellow" / "Abnormal Amber Yellow". None when the cell holds only a value."""
    tokens = value.split()
    start = 1 if len(tokens) > 2 and parse_flag(tokens[0]) else 0
    if len(tokens) - start < 2:
        return None
    if _numberish(tokens[start]):
        for cut in range(start + 1, len(tokens)):
            between, rest = " ".join(tokens[start + 1:cut]), " ".join(tokens[cut:])
            if cut - start > _MAX_VALUE_CELL_TOKENS:
                break
            unit = " ".join(tokens[start + 2:cut]) if parse_flag(tokens[start + 1]) else between
            if unit and not _unit_like(unit):
                continue  # only a flag and a unit may sit between the value and its range
            if _range_start(rest):
                return " ".join(tokens[:cut]), rest
        return None
    for cut in range(start + 1, len(tokens)):
        left, right = " ".join(tokens[start:cut]), " ".join(tokens[cut:])
        if _QUALITATIVE_WORDS.match(left) and _QUALITATIVE_WORDS.match(right):
            return " ".join(tokens[:cut]), right
        flagged = " ".join(tokens[cut + 1:])  # "Jaune foncé anormal Jaune": value, flag, expected
        if parse_flag(tokens[cut]) and _QUALITATIVE_WORDS.match(left) and _QUALITATIVE_WORDS.match(flagged) \
                and not _QUALITATIVE_WORDS.match(f"{tokens[cut]} {flagged}"):
            return " ".join(tokens[:cut + 1]), flagged
    return None


def _range_start(text: str) -> bool:
    """Does `text` read as a whole printed reference range (any sex's, bracketed or not)?"""
    if not re.search(r"\d", text) or not re.match(r"^[(\[<>≤≥]|^(male|female|m|f|up\s*to|upto|"
                                                  r"less|more|below|above)\b|^\d", text, re.I):
        return False
    return reads_as_range(text)


def _clean_units(units: str, flag_text: str | None, ocr: bool) -> tuple[str, str | None, bool]:
    """(units, flag, repaired?): the micro sign as labs print it, a flag read into the units
    cell split off ("H = mmol/L"), spaces around '/' closed, OCR slips repaired."""
    units = units.replace("\u03bc", "\u00b5")  # Greek mu -> micro sign, as labs print it
    if flag_text is None and (split := _flag_before_unit(units)) is not None:
        flag_text, units = split
    if "/" in units and unit_lexicon.is_unit(units, ocr):
        units = unit_lexicon.tidy(units)  # "mg / dl" -> "mg/dl"
    if ocr:
        fixed = repair_unit(units)
        if fixed != units:
            return fixed, flag_text, True
    return units, flag_text, False


def _flag_before_unit(units: str) -> tuple[str, str] | None:
    """("H", "mmol/L") from "H = mmol/L" or "H- mg/dL" (OCR reads a flag and the gap after it
    into the units cell); None unless the rest is a unit of the lexicon."""
    if unit_lexicon.is_unit(units):
        return None  # "L / L" is a unit, not a flag and "/ L"
    m = re.match(r"^(\S{1,2}?)\s*[=\-–:]?\s+(\S.*)$", units.strip())
    if m and parse_flag(m.group(1)) and unit_lexicon.is_unit(m.group(2), True):
        return m.group(1), m.group(2)
    return None


def _lexicon_unit(text: str) -> bool:
    """A unit of the lexicon as printed or with an OCR slip repair_unit undoes ("mmotl/L")."""
    return unit_lexicon.is_unit(text) or unit_lexicon.repair(text) is not None


def _unit_like(text: str) -> bool:
    """A unit, or one OCR damaged in a way repair_unit undoes ("/[cumm", "JHPF")."""
    return unit_lexicon.is_unit(text) or looks_like_unit(text) or _damaged_power_unit(text) \
        or unit_lexicon.repair(text) is not None


def _damaged_power_unit(text: str) -> bool:
    """A count unit whose caret OCR misread ("x10%12/L"): repair_unit knows its reading."""
    m = _POWER_UNIT.match(text.strip().rstrip(".,")) or _BARE_POWER_UNIT.match(text.strip())
    return m is not None and m.group(1) in _POWERS


def repair_number(token: str) -> str | None:
    """`1O.2` -> `10.2` when the token is a number but for OCR look-alike letters."""
    if " " in token or len(token) > 10 or not re.search(r"\d", token):
        return None
    letters = [ch for ch in token if ch.isalpha() or ch == "|"]
    if not letters or len(letters) > 2 or len(letters) * 2 > len(token):
        return None
    fixed = token.translate(_OCR_DIGITS)
    return fixed if parse_number(fixed) is not None else None


_KNOWN_UNITS = [
    "mg/dL", "g/dL", "g/L", "mg/L", "ng/mL", "ng/dL", "pg/mL", "ug/dL", "µg/dL", "ug/L", "µg/L",
    "mmol/L", "µmol/L", "umol/L", "nmol/L", "pmol/L", "mEq/L", "U/L", "IU/L", "IU/mL", "mIU/L",
    "mIU/mL", "uIU/mL", "µIU/mL", "mU/L", "fL", "pg", "%", "L/L", "mL/min/1.73m2", "mm/hr",
    "cells/uL", "/HPF", "/LPF", "mg/mmol", "sec", "ratio", "mill/cumm", "cumm", "/cumm",
]
# OCR reads l and I alike; compare units with both folded to "i".
_UNIT_KEYS = {u.lower().replace("l", "i"): u for u in _KNOWN_UNITS}
# A power-of-ten unit as OCR reads it: the caret as 4, 7, %, *, ° or lost, stray marks
# around the slash, "1" for a final "l" ("x10%12/L", "x10712/L", "x10*9;/1", "X1023%/-UL").
_POWER_UNIT = re.compile(
    r"^[xX×]{1,2}\s*10\s*[\^4Aa°*7%?~'\"“”‘’]?\s*(\d{1,2})\s*[%;:,.'\-]*\s*/\s*[\-;:.,]*\s*"
    r"([A-Za-zµμ]{1,3}|1)$")
# "10^12/l" printed without the "x", its caret misread as quotes ('10”"12/I'): only a caret
# misread as marks (never as a digit, which would change the power).
_BARE_POWER_UNIT = re.compile(r"^10\s*[\^°*%?~'\"“”‘’]{1,2}\s*(\d{1,2})\s*/\s*([A-Za-zµμ]{1,3}|1)$")
_POWERS = {"3", "6", "9", "12"}  # the exponents counts are printed with


def repair_unit(units: str) -> str:
    """Undo common OCR slips in a unit: `ulU/mL` -> `uIU/mL`, `x1043/uL` -> `x10^3/uL`."""
    text = unit_lexicon.CUBE_SLIP.sub("³", units.strip().rstrip(".,"))  # "/mm°" is /mm³ misread
    if unit_lexicon.ucum_power_spelling(text):
        return units  # "10*9/L": the OCR stage kept its star as printed (parser.ocr._printed_star)
    bare = _BARE_POWER_UNIT.match(text)
    if m := bare or _POWER_UNIT.match(text.lstrip("Ll ")):
        exponent, per = m.group(1), m.group(2)
        if exponent not in _POWERS:
            return units  # "x1023": a misread caret and exponent are guessed, never
        if bare:  # printed as "10^12/l": the litre keeps its printed case
            return f"10^{exponent}/{'l' if per in ('1', 'l', 'I') else per}"
        per = "L" if per in ("1", "l") else per
        # Counts are per litre or microlitre, never per picolitre: "pL", "jL", "yL" are µL
        # with the micro sign misread.
        per = "µL" if per in ("pL", "jL", "yL", "pl", "jl", "yl") else per
        return f"x10^{exponent}/{per}"
    known = _UNIT_KEYS.get(text.lower().replace("l", "i"))
    if known is not None or unit_lexicon.is_unit(text):
        return known or text
    return unit_lexicon.repair(text) or text


def _far_outside(value: str, reference, decimal_comma: bool) -> bool:
    """A value five times beyond its range: rare in a patient, common in an OCR slip."""
    number = parse_number(value, decimal_comma)
    if number is None or reference is None:
        return False
    if reference.high is not None and reference.high > 0 and number > 5 * reference.high:
        return True
    return reference.low is not None and reference.low > 0 and number < reference.low / 5


def _numberish(token: str) -> bool:
    token = token.strip().rstrip("%")
    return parse_number(token) is not None or bool(_COMPARATOR_VALUE.match(token))


def result_type(value: str) -> str:
    text = value.strip()
    if _COMPARATOR_VALUE.match(text.replace(" ", "")):
        return "range"
    if _PERCENT_VALUE.match(text):
        return "percentage"
    if _RATIO_VALUE.match(text):
        return "ratio"
    if _DURATION_VALUE.match(text):
        return "duration"
    if parse_number(text) is not None:
        return "numeric"
    if text.lower() in _BOOLEAN:
        return "boolean"
    return "comment"


def plausible_test_name(name: str) -> bool:
    """A test name, not an interpretation-table row ("Borderline High 200 - 239") or prose."""
    # Dotted abbreviations ("S.G.O.T.") are names too: look for two letters without the dots.
    if not name or not (re.search(r"[A-Za-z]{2}", name.replace(".", "")) or name.lower() in vocabulary.ION_NAMES):
        return False
    if len(name.split()) > _MAX_NAME_WORDS or _RANGE_IN_NAME.search(name):
        return False
    if is_non_result_label(name):
        return False
    return not _CATEGORY_NAME.match(name)


def _is_plausible_text_result(value: str) -> bool:
    """Qualitative text (Trace, 1+, Pale Yellow, 2-4 /hpf) rather than a label or prose."""
    text = value.strip()
    if len(text.split()) > 4 or text.endswith(":"):
        return False
    if _QUALITATIVE_WORDS.match(text) or _QUALITATIVE_WORDS.match(_GRADE_AFTER.sub("", text)):
        return True  # "Positive (+)", "Positive (2+)": the word with its grade in brackets
    # Counts such as "2-4 /hpf" or "0-1" carry digits; a range-looking value is not a result
    # unless it is a count per field.
    return bool(re.search(r"\d", text)) and bool(re.search(r"/\s*(hpf|lpf|hpff|field)|^\d+\s*-\s*\d+$", text, re.I))


def _qualitative_interpretation(value: str, range_text: str) -> str | None:
    """A qualitative result against the expected text printed as its range: the same text
    is normal, another qualitative finding (Trace, 1+, Cloudy against Clear) is abnormal."""
    got, expected = _qual_key(value), _qual_key(range_text)
    if not got or not expected or re.search(r"\d", expected):
        return None
    if got == expected or (got in _NEGATIVE_WORDS and expected in _NEGATIVE_WORDS):
        return "normal"
    if _QUALITATIVE_WORDS.match(value.strip()) and _QUALITATIVE_WORDS.match(range_text.strip()):
        return "abnormal"
    return None


def _qual_key(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").split())


def _split_range_units(text: str, ocr: bool = False) -> tuple[str, str | None]:
    """A range cell that also holds the units ("13.0 - 17.0 g/dL") when there is no units column."""
    m = re.match(r"^(.*?\d)\s+([^\d\s].*)$", text.strip())
    if m and parse_range(m.group(1)) is not None:
        unit = m.group(2).rstrip(".,;")  # OCR often reads a speck after the unit as a stop
        if looks_like_unit(unit):
            return m.group(1), unit_lexicon.tidy(unit)
    # Spaced units and a gloss after them: "Up to 46 U / L", "<5.7 % of total Hgb"; a note
    # after the unit is the value's, not the unit's ("<100 mg/dL (calc)").
    bare = _UNIT_NOTE.sub("", text)
    head, unit = unit_lexicon.split_trailing_unit(bare, ocr)
    if unit is None:  # "0 - 6%", "98 - 107 mmotl/L": glued to the number, or misread by OCR
        head, unit = _last_word_unit(bare, ocr)
    if unit is not None and _reads_as_range(head, ocr):
        return head, unit
    return text, None


_UNIT_NOTE = re.compile(r"\s*\((?:calc|calculated|est|estimated|calculé|berechnet|calcolato|"
                        r"calculado)\.?\)\s*$", re.I)


def _last_word_unit(text: str, ocr: bool) -> tuple[str, str | None]:
    """(head, unit) when the cell's last word is a unit after a number, or a number with a unit
    glued to it ("46.0%", "5.0g/dL" as OCR closes up the gap); with `ocr`, a unit OCR misread
    that repair_unit puts right counts too."""
    words = text.split()
    if len(words) < 1:
        return text, None
    last = words[-1].rstrip(".,;")
    # Cut only after a run of range characters ("6", "-25", "3.5-5.0"), never inside a unit.
    cuts = [i for i in range(1, len(last)) if last[i] not in "0123456789.,-–:;)]" and
            re.fullmatch(r"[<>≤≥(\[]?[\d.,\-–]*\d", last[:i])]
    candidates = [(" ".join(words[:-1] + [last[:i]]), last[i:]) for i in cuts]
    if len(words) > 1 and re.search(r"\d[)\]]?$", words[-2]):
        candidates.insert(0, (" ".join(words[:-1]), last))
    for head, unit in candidates:
        if unit_lexicon.is_unit(unit, ocr) or (ocr and unit_lexicon.is_unit(repair_unit(unit))):
            return head, unit_lexicon.tidy(unit)
    return text, None


def _reads_as_range(head: str, ocr: bool) -> bool:
    """Is the text before a unit a range? Sex-specific ranges count ("M: 4.5 to 5.9 F: 3.9 to
    5.1", no gender known yet); with `ocr`, any text ending in a number (OCR damage such as
    "@ to 6" or "11,5:-14,5" leaves the range unread, but the unit after it is still the unit)."""
    if reads_as_range(head):
        return True
    return ocr and bool(re.search(r"\d[)\]]?$", head.strip()))


def _bbox(row: RawRow, context: Context) -> list[float] | None:
    if not row.words or not context.page_sizes or row.page not in context.page_sizes:
        return None
    width, height = context.page_sizes[row.page]
    if not width or not height:
        return None
    slopes = (context.slopes or {}).get(row.page)
    tops, bottoms = [], []
    for w in row.words:
        shift = skew.slope_at(slopes, w.top) * (w.x0 + w.x1) / 2 if slopes else 0.0
        tops.append(w.top + shift)
        bottoms.append(w.bottom + shift)
    x0 = min(w.x0 for w in row.words) / width
    y0 = min(tops) / height
    x1 = max(w.x1 for w in row.words) / width
    y1 = max(bottoms) / height
    return [round(max(0.0, min(1.0, v)), 4) for v in (x0, y0, x1, y1)]
