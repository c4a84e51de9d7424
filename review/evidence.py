"""Evidence that a row is right: checks that confirm it, or show it contradicts its neighbours.

A lab prints numbers that hang together: MCH = Hb / RBC x 10, the differential sums to 100,
LDL = total - HDL - TG/5, a value above its range carries an "H". A misread digit, a lost decimal
point or a value read from the wrong row breaks those relations; a row that satisfies one was
almost certainly read as printed. Each check here answers "confirms", "contradicts" or nothing.

Analytes are recognised by their top LOINC code (mass and substance twins alike) and brought to
one canonical unit before comparing; a unit we cannot convert makes the check stay silent.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import re
from dataclasses import dataclass, field
from typing import Callable

from parser import flags, vocabulary
from parser.models import LabReportResult, ReportData
from review.plausibility import (
    _PER_UL, CENSORED, has_range, parse_number, row_number, unit_key, unitless_code, value_is_plausible,
)

# Relative agreement within which a derived value confirms its parts (printed values are rounded),
# and beyond which it contradicts them (a misread changes a number by far more).
AGREE_WITHIN = 0.04
CONTRADICT_BEYOND = 0.15
# Relations that must hold on a report before a failing one counts as a contradiction.
COMPUTES_WITNESSES = 2


@dataclass(frozen=True)
class Analyte:
    codes: frozenset[str]
    units: dict[str, float]  # unit key -> factor to the canonical unit; "count" = per-microlitre scale


def _a(codes: str, units: dict[str, float]) -> Analyte:
    return Analyte(frozenset(codes.split()), units)


_GDL = {"g/dl": 1.0, "g/l": 0.1, "gm/dl": 1.0, "gm%": 1.0, "g%": 1.0}
_MMOL = {"mmol/l": 1.0, "meq/l": 1.0}
_CHOL = {"mg/dl": 1.0, "g/l": 100.0, "mmol/l": 38.67}
_PCT = {"%": 1.0}
_BILI = {"mg/dl": 1.0, "mg/l": 0.1, "umol/l": 1 / 17.1}
# Counts are compared in 10^3/uL (WBC, differential) or 10^6/uL (RBC): _PER_UL scales / 1e3 or 1e6.
_K_UL = {unit: scale / 1e3 for unit, scale in _PER_UL.items()}
_M_UL = {unit: scale / 1e6 for unit, scale in _PER_UL.items()}

ANALYTES: dict[str, Analyte] = {
    "hgb": _a("718-7 59260-0 20509-6", {**_GDL, "mmol/l": 1.611}),
    "rbc": _a("789-8 26453-1", _M_UL),
    "hct": _a("4544-3 20570-8 71833-8", {"%": 1.0, "l/l": 100.0}),
    "mcv": _a("787-2 30428-7", {"fl": 1.0, "u3": 1.0, "um3": 1.0}),  # a cubic micrometre is a femtolitre
    "mch": _a("785-6 28539-5", {"pg": 1.0}),
    "mchc": _a("786-4 28540-3", {**_GDL, "%": 1.0}),
    "wbc": _a("6690-2 26464-8 33256-9", _K_UL),
    "neut%": _a("770-8 26511-6 23761-0", _PCT), "lymph%": _a("736-9 26478-8", _PCT),
    "mono%": _a("5905-5 26485-3", _PCT), "eos%": _a("713-8 26450-7", _PCT), "baso%": _a("706-2 30180-4", _PCT),
    "neut#": _a("751-8 26499-4 753-4", _K_UL), "lymph#": _a("731-0 26474-7 732-8", _K_UL),
    "mono#": _a("742-7 26484-6 743-5", _K_UL), "eos#": _a("711-2 26449-9 712-0", _K_UL),
    "baso#": _a("704-7 26444-0 705-4", _K_UL),
    "chol": _a("2093-3 14647-2", _CHOL), "hdl": _a("2085-9 14646-4", _CHOL),
    "ldl": _a("13457-7 2089-1 22748-8 18262-6 39469-2", _CHOL), "vldl": _a("13458-5 2091-7 46986-6", _CHOL),
    "nonhdl": _a("43396-1 70204-3", _CHOL), "chol/hdl": _a("9830-1 32309-7", {"": 1.0, "ratio": 1.0}),
    "trig": _a("2571-8 14927-8", {"mg/dl": 1.0, "g/l": 100.0, "mmol/l": 88.57}),
    "tp": _a("2885-2", _GDL), "alb": _a("1751-7 61151-7 2862-1", _GDL), "glob": _a("2336-6 10834-0", _GDL),
    "a/g": _a("1759-0", {"": 1.0, "ratio": 1.0}),
    "tbil": _a("1975-2 14631-6", _BILI),
    "dbil": _a("1968-7 15152-2 14629-0", _BILI),
    "ibil": _a("1971-1 14630-8", _BILI),
    "na": _a("2951-2 2947-0", _MMOL), "k": _a("2823-3 6298-4", _MMOL), "cl": _a("2075-0 2069-3", _MMOL),
    "hco3": _a("1963-8 2028-9 1959-6 20565-8", _MMOL), "gap": _a("33037-3 1863-0 10466-1 41276-7", _MMOL),
    "crea": _a("2160-0 14682-9 38483-4", {"mg/dl": 1.0, "mg/l": 0.1, "umol/l": 1 / 88.4}),
    "egfr": _a("98979-8 62238-1 33914-3 48642-3 48643-1 50044-7 77147-7 69405-9 88293-6 88294-4",
               {"ml/min/1.73m2": 1.0, "ml/min/1.73sqm": 1.0, "ml/min": 1.0}),
    "bun": _a("3094-0 6299-2", {"mg/dl": 1.0, "mmol/l": 2.8}),
    "bun/crea": _a("3097-3", {"": 1.0, "ratio": 1.0}),
    "iron": _a("2498-4 14798-3", {"ug/dl": 1.0, "umol/l": 5.585}),
    "tibc": _a("2500-7 14800-7", {"ug/dl": 1.0, "umol/l": 5.585}),
    "tsat": _a("2502-3 14801-5", _PCT),
    # HbA1c in % (NGSP/DCCT; the IFCC mmol/mol code converts with an offset: left out) and the mean
    # glucose labs estimate from it (eAG, "average blood glucose"), in mg/dL or mmol/L.
    "a1c": _a("4548-4 17856-6", _PCT),
    "eag": _a("27353-2 53553-4", {"mg/dl": 1.0, "mmol/l": 18.016}),
}
_BY_CODE = {code: key for key, analyte in ANALYTES.items() for code in analyte.codes}
DIFFERENTIAL = ("neut", "lymph", "mono", "eos", "baso")


def analyte_of(result: LabReportResult) -> str | None:
    if not result.loinc_matches:
        return None
    return _BY_CODE.get(result.loinc_matches[0].loinc_code)


def canonical(key: str, result: LabReportResult) -> float | None:
    """The row's value in the analyte's canonical unit; None when not a plain number or unit unknown."""
    number = row_number(result) if result.type in ("numeric", "percentage", "ratio") else None
    factor = ANALYTES[key].units.get(unit_key(result.units))
    if number is None or factor is None:
        return None
    return number * factor


def agreement(printed: float, computed: float, rounding: tuple[float, float, float] | None = None) -> bool | None:
    """True when a derived value agrees with its parts, False when it contradicts them, None between.

    `rounding` is (the printed value's rounding, lowest and highest value the parts' printed
    rounding allows): small numbers printed with few decimals ("0,5 %" of 6,4 G/l printed "0,03
    G/l") differ from their computed value by more than AGREE_WITHIN by rounding alone. Within
    CONTRADICT_BEYOND such a value agrees; beyond it (numbers too coarse to tell a misread) a gap
    rounding can explain says nothing."""
    if not math.isfinite(computed) or computed <= 0:
        return None
    gap = abs(printed - computed) / computed
    if gap <= AGREE_WITHIN:
        return True
    if rounding is not None and printed - rounding[0] <= rounding[2] and printed + rounding[0] >= rounding[1]:
        return True if gap <= CONTRADICT_BEYOND else None
    return False if gap > CONTRADICT_BEYOND else None


_PRINTED_DECIMALS = re.compile(r"^\s*\d+(?:[.,](\d+))?\s*%?\s*$")


def rounding_of(key: str, result: LabReportResult) -> float:
    """Half the last printed digit of the row's value, in the analyte's canonical unit (0: unknown)."""
    found = _PRINTED_DECIMALS.match(result.value or "")
    factor = ANALYTES[key].units.get(unit_key(result.units))
    if found is None or factor is None or row_number(result) != parse_number(result.value):
        return 0.0  # "1,010" read as the range says: its digits do not say its rounding
    return 0.5 * 10.0 ** -len(found.group(1) or "") * factor


def _span(formula: Callable[..., float], parts: list[tuple[float, float]]) -> tuple[float, float] | None:
    """Lowest and highest value of `formula` over the parts' (value, rounding) intervals; every
    relation here is monotonic in each part, so the extremes lie on the corners."""
    corners = []
    for signs in itertools.product((-1.0, 1.0), repeat=len(parts)):
        try:
            corners.append(formula(*(value + sign * slack for (value, slack), sign in zip(parts, signs))))
        except ZeroDivisionError:
            return None
    finite = [c for c in corners if math.isfinite(c)]
    return (min(finite), max(finite)) if len(finite) == len(corners) else None


@dataclass(frozen=True)
class Relation:
    name: str  # short, free of patient data: it becomes a review reason
    target: str
    parts: tuple[str, ...]
    formula: Callable[..., float]
    may_contradict: bool = True  # False when the lab may have measured the target directly


COUNT_RELATION = "absolute count = % x WBC"


def _friedewald(chol: float, hdl: float, trig: float) -> float:
    return chol - hdl - trig / 5.0 if trig < 400 else float("nan")  # not valid above 400 mg/dL


RELATIONS: tuple[Relation, ...] = (
    Relation("MCV = Hct/RBC", "mcv", ("hct", "rbc"), lambda hct, rbc: hct / rbc * 10),
    Relation("MCH = Hb/RBC", "mch", ("hgb", "rbc"), lambda hgb, rbc: hgb / rbc * 10),
    Relation("MCHC = Hb/Hct", "mchc", ("hgb", "hct"), lambda hgb, hct: hgb / hct * 100),
    Relation("globulin = protein - albumin", "glob", ("tp", "alb"), lambda tp, alb: tp - alb),
    Relation("A/G ratio", "a/g", ("alb", "tp"), lambda alb, tp: alb / (tp - alb)),
    Relation("A/G ratio", "a/g", ("alb", "glob"), lambda alb, glob: alb / glob),
    Relation("Friedewald LDL", "ldl", ("chol", "hdl", "trig"), _friedewald, may_contradict=False),
    Relation("non-HDL = total - HDL", "nonhdl", ("chol", "hdl"), lambda chol, hdl: chol - hdl),
    Relation("cholesterol/HDL ratio", "chol/hdl", ("chol", "hdl"), lambda chol, hdl: chol / hdl),
    Relation("VLDL = TG/5", "vldl", ("trig",), lambda trig: trig / 5.0, may_contradict=False),
    Relation("indirect bilirubin", "ibil", ("tbil", "dbil"), lambda tbil, dbil: tbil - dbil),
    Relation("anion gap", "gap", ("na", "cl", "hco3"), lambda na, cl, hco3: na - cl - hco3, may_contradict=False),
    Relation("BUN/creatinine ratio", "bun/crea", ("bun", "crea"), lambda bun, crea: bun / crea),
    Relation("transferrin saturation", "tsat", ("iron", "tibc"), lambda iron, tibc: iron / tibc * 100),
    # ADAG (Nathan 2008), the formula behind every printed eAG; confirm only: an older lab's may differ.
    Relation("eAG from HbA1c", "eag", ("a1c",), lambda a1c: 28.7 * a1c - 46.7, may_contradict=False),
    *(Relation(COUNT_RELATION, f"{cell}#", (f"{cell}%", "wbc"), lambda pct, wbc: pct * wbc / 100)
      for cell in DIFFERENTIAL),
)


# Names of the checks a row passes on its own (the risk model counts them; the rest are relations).
NORMAL_WORD = "result is its normal word"
OWN_CHECKS = ("flag agrees with range", NORMAL_WORD, "plausible for the analyte", "unit fits the LOINC code")


@dataclass
class RowEvidence:
    confirmed: list[str] = field(default_factory=list)  # names of checks the row passes
    contradicted: list[str] = field(default_factory=list)  # names of checks the row fails
    range_on_count: bool = False  # a share without a range whose lab prints the range on its count row
    computed_agrees: bool = False  # the row is a value computed from other rows (not a cell count) and agrees with them


def ckd_epi_2021(creatinine_mg_dl: float, age: float, female: bool) -> float:
    """eGFR (mL/min/1.73 m2), CKD-EPI 2021 creatinine equation (race-free)."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine_mg_dl / kappa
    egfr = 142 * min(ratio, 1.0) ** alpha * max(ratio, 1.0) ** -1.200 * 0.9938 ** age
    return egfr * 1.012 if female else egfr


def _age(report: ReportData) -> float | None:
    meta = report.metadata
    try:
        born = dt.date.fromisoformat(meta.dob or "")
        when = dt.date.fromisoformat(meta.date_collected or meta.date_reported or "")
    except ValueError:
        return None
    return (when - born).days / 365.25


def collect(report: ReportData) -> list[RowEvidence]:
    """Evidence for every row of `report`, in row order."""
    rows = report.results
    found = [RowEvidence() for _ in rows]
    by_analyte: dict[str, list[tuple[int, float]]] = {}
    for index, row in enumerate(rows):
        _own_checks(row, found[index])
        key = analyte_of(row)
        value = canonical(key, row) if key else None
        if value is not None:
            by_analyte.setdefault(key, []).append((index, value))
    first = {key: hits[0] for key, hits in by_analyte.items() if len(hits) == 1}  # repeated = ambiguous
    slack = {key: rounding_of(key, rows[index]) for key, (index, _) in first.items()}
    outcomes = []
    for relation in RELATIONS:
        if relation.target not in first or not all(part in first for part in relation.parts):
            continue
        target_index, printed = first[relation.target]
        try:
            computed = relation.formula(*(first[part][1] for part in relation.parts))
        except ZeroDivisionError:
            continue
        span = _span(relation.formula, [(first[part][1], slack[part]) for part in relation.parts])
        rounding = (slack[relation.target], *span) if span else None
        outcomes.append((relation, agreement(printed, computed, rounding),
                         [target_index, *(first[p][0] for p in relation.parts)]))
    # A failed relation says "misread" only on a report whose lab computes its derived values,
    # i.e. where at least COMPUTES_WITNESSES other relations hold; where they do not (a demo or
    # generated report printing independent numbers: one relation may hold by chance) a
    # mismatch says nothing about the reading.
    computes = sum(agrees is True for _, agrees, _ in outcomes) >= COMPUTES_WITNESSES
    for relation, agrees, indexes in outcomes:
        _record(found, relation.name, agrees, relation.may_contradict and computes, indexes)
        if agrees and relation.name != COUNT_RELATION:  # an analyser counts the cells: their ranges are printed
            found[indexes[0]].computed_agrees = True
    _differential(first, found)
    _egfr(report, first, found)
    _ranges_on_counts(rows, first, found)
    return found


def _record(found: list[RowEvidence], name: str, agrees: bool | None, may_contradict: bool, indexes: list[int]):
    for index in indexes:
        if agrees:
            found[index].confirmed.append(name)
        elif agrees is False and may_contradict:
            found[index].contradicted.append(name)


def _differential(first: dict[str, tuple[int, float]], found: list[RowEvidence]) -> None:
    """Five percentages summing to about 100 confirm each other.

    Confirm only: a sum far from 100 does not say which row is wrong (and bands, immature
    cells or blasts printed elsewhere make real sums fall short), and the generated fitting
    material draws the five independently, so it could not measure such a rule.
    """
    present = [first[f"{cell}%"] for cell in DIFFERENTIAL if f"{cell}%" in first]
    if len(present) < len(DIFFERENTIAL):
        return
    total = sum(value for _, value in present)
    agrees = True if abs(total - 100) <= 1.5 else None
    _record(found, "differential sums to 100", agrees, False, [index for index, _ in present])


def _ranges_on_counts(rows: list[LabReportResult], first: dict[str, tuple[int, float]],
                      found: list[RowEvidence]) -> None:
    """Shares of the differential printed without a range because the lab prints it on the
    absolute count ("Neutrophiles 58,3 % soit 3,57 G/l  1,80 - 7,00"): no share of the report has
    a range, and each such share is pinned to its count by % x WBC, the count carrying a range.
    A range the reader lost from one share leaves its siblings' ranges; a lost range column takes
    the counts' ranges too."""
    shares = [first[f"{cell}%"][0] for cell in DIFFERENTIAL if f"{cell}%" in first]
    if not shares or any(has_range(rows[index]) for index in shares):
        return
    for cell in DIFFERENTIAL:
        if f"{cell}%" in first and f"{cell}#" in first and has_range(rows[first[f"{cell}#"][0]]):
            share = first[f"{cell}%"][0]
            found[share].range_on_count = COUNT_RELATION in found[share].confirmed


def _egfr(report: ReportData, first: dict[str, tuple[int, float]], found: list[RowEvidence]) -> None:
    """eGFR against creatinine, age and sex (CKD-EPI 2021; older equations may differ: confirm only)."""
    age = _age(report)
    if "egfr" not in first or "crea" not in first or age is None or report.metadata.gender not in ("male", "female"):
        return
    computed = ckd_epi_2021(first["crea"][1], age, report.metadata.gender == "female")
    _record(found, "eGFR from creatinine", agreement(first["egfr"][1], computed), False,
            [first["egfr"][0], first["crea"][0]])


def _own_checks(row: LabReportResult, evidence: RowEvidence) -> None:
    """Checks a row passes or fails on its own: flag vs range, plausibility, unit vs LOINC property."""
    agrees = flag_agrees(row)
    if agrees is None and qualitative_flag_agrees(row):
        agrees = True
    if agrees is True:
        evidence.confirmed.append("flag agrees with range")
    elif agrees is False or qualitative_flag_contradicts(row):
        evidence.contradicted.append("value contradicts range and flag")
    if interpretation_contradicts(row):
        evidence.contradicted.append(INTERPRETATION_CONTRADICTS)
    if qualitative_matches_normal(row):
        evidence.confirmed.append(NORMAL_WORD)
    plausible = value_is_plausible(row)
    if plausible is True:
        evidence.confirmed.append("plausible for the analyte")
    elif plausible is False:
        evidence.contradicted.append("value implausible for the analyte")
    fits = unit_fits_code(row)
    if fits is True:
        evidence.confirmed.append("unit fits the LOINC code")
    elif fits is False:
        evidence.contradicted.append("unit does not fit the LOINC code")


# German-speaking labs mark a value above its range "+" and one below "-" (doubled for far off);
# the parser keeps them as printed, since elsewhere a dash fills an empty flag cell.
SIGN_FLAGS = {"+": "high", "++": "high", "-": "low", "--": "low"}


def flag_agrees(row: LabReportResult) -> bool | None:
    """True when value, range and a printed flag tell the same story; False when they disagree.

    Needs a number and a two-sided or relevant one-sided range. Without a printed flag a value
    inside its range agrees (the lab printed no flag because there was none to print) and one
    outside it says nothing: the layout may simply not print flags. A one-sided range ("< 5.0",
    "> 60": ratios, eGFR, lipids) counts the same way: a value on its allowed side is inside it.
    """
    number = row_number(row)
    low, high = row.min_reference_range, row.max_reference_range
    if number is None and not row.source_flag:
        return _censored_inside(row.value, low, high)
    if number is None or row.type == "range" or (low is None and high is None):
        return None
    above = high is not None and number > high
    below = low is not None and number < low
    flag = flags.parse_flag(row.source_flag)
    if flag is None:
        sign = SIGN_FLAGS.get((row.source_flag or "").strip())
        if sign is not None:  # confirms only: a dash may also fill an empty flag cell
            return (above if sign == "high" else below) or None
        if row.source_flag:
            return None
        return True if not above and not below else None
    direction = "normal" if flag.interpretation == "normal" else flag.direction
    if direction == "high":
        return above
    if direction == "low":
        return below
    if direction == "normal":
        return not above and not below
    return above or below  # "*" / "A": abnormal without a side


INTERPRETATION_CONTRADICTS = "interpretation contradicts value and range"


def interpretation_contradicts(row: LabReportResult) -> bool:
    """No printed flag, and the row's interpretation says the opposite of its number against its
    printed range: "abnormal" for "5.0" against "<5.0" (a bound a lab may or may not include), or a
    misread. Measured on the drawn fit reports: 3 such rows, all wrong; 119 values on a bound read
    "normal" were right."""
    number = row_number(row)
    low, high = row.min_reference_range, row.max_reference_range
    if (row.source_flag or number is None or row.type == "range" or (low is None and high is None)
            or row.interpretation not in ("normal", "abnormal", "critical")):
        return False
    inside = not (high is not None and number > high) and not (low is not None and number < low)
    return inside != (row.interpretation == "normal")


def _censored_inside(value: str, low: float | None, high: float | None) -> bool | None:
    """A censored value on the allowed side of a one-sided range (">90" for "> 60", "<0.5" for
    "< 1.0") is inside it, like a plain number; anything else says nothing."""
    found = CENSORED.match(value or "")
    if found is None:
        return None
    bound = float(found.group(2).replace(",", "."))
    if found.group(1) == ">" and high is None and low is not None and bound >= low:
        return True
    if found.group(1) == "<" and (low is None or low <= 0) and high is not None and bound <= high:
        return True
    return None


# Words a lab prints as a qualitative result and as its normal "range" (urinalysis, serology): the
# English ones, and the French, German, Italian and Spanish negatives the parser reads
# (parser.vocabulary.NEGATIVE_WORDS: "Négatif" against "Négatif" agrees like "Negative" does).
_NORMAL_WORDS = {"negative", "nil", "absent", "not detected", "non reactive", "non-reactive", "nonreactive",
                 "normal", "clear", "none seen",
                 # urine colour and appearance as labs print the normal finding
                 "yellow", "pale yellow", "light yellow", "straw", "straw yellow", "transparent",
                 *(word.casefold() for word in vocabulary.words(vocabulary.NEGATIVE_WORDS))}


def _words(text: str | None) -> str:
    return " ".join((text or "").casefold().split())


def qualitative_flag_agrees(row: LabReportResult) -> bool:
    """A word result other than its printed normal word, carrying an abnormal flag ("Positive" *
    against "Negative", "Amber" A against "Yellow"): value, normal word and flag tell one story."""
    value, normal = _words(row.value), _words(row.reference_range_text)
    flag = flags.parse_flag(row.source_flag)
    if not value or value == normal or normal not in _NORMAL_WORDS or parse_number(row.value) is not None:
        return False
    return flag is not None and flag.interpretation != "normal"


def qualitative_flag_contradicts(row: LabReportResult) -> bool:
    """A word result that is its printed normal finding, or a word of it ("Yellow" against "Yellow
    Clear"), carrying an abnormal flag: the flag (or the range) belongs to another row. Drawn fit
    reports: 3 such rows, all wrong (a neighbour's flag and normal word merged into the row); no
    other material had one. The 461 unflagged word results inside their normal text were right
    but for 3."""
    value, normal = _words(row.value), _words(row.reference_range_text)
    if not value or not normal or parse_number(row.value) is not None:
        return False
    flag = flags.parse_flag(row.source_flag)
    return flag is not None and flag.interpretation != "normal" and f" {value} " in f" {normal} "


def qualitative_matches_normal(row: LabReportResult) -> bool:
    """A qualitative result that is the very word its printed normal range says ("Negative" / "Negative").

    Such a row agrees with its range the way a number inside its range does; a misread word
    rarely becomes the normal word by chance. Flagged rows are left to the other checks.
    """
    value = " ".join(row.value.casefold().split())
    normal = " ".join((row.reference_range_text or "").casefold().split())
    return not row.source_flag and value in _NORMAL_WORDS and value == normal


def unit_fits_code(row: LabReportResult) -> bool | None:
    """Does the printed unit measure what the top LOINC code's property is? None without either."""
    from loinc.matcher import get_matcher
    from loinc.units import unit_kinds

    if not row.units and row.loinc_matches and unitless_code(row):
        return True  # INR, pH, specific gravity, ratios: no unit is this code's unit
    if not row.units or not row.loinc_matches:
        return None
    entry = get_matcher().lookup(row.loinc_matches[0].loinc_code)
    kinds = unit_kinds(row.units)  # "G/L" on a cell count is giga-cells, not grams
    if entry is None or not kinds or not entry.kinds:
        return None
    return not kinds.isdisjoint(entry.kinds)
