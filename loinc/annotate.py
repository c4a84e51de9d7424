"""Fill the LOINC fields of every result of a parsed report, in place."""

from __future__ import annotations

import logging
import re

from loinc import formulas
from loinc.matcher import AUTO_MATCH, NEEDS_REVIEW, MatchResult, get_matcher
from loinc.names import read_name
from loinc.table import Entry
from loinc.units import COUNT_CONC, FRACTION, MASS_CONC, MOLAR_CONC, ORDINAL, unit_kind
from parser import vocabulary
from parser.models import LabReportResult, LoincMatch, ReportData

log = logging.getLogger(__name__)

# Parser sample types that say nothing about the specimen.
_NO_SPECIMEN = {"unknown", "other"}


def to_loinc_match(entry: Entry, confidence: float) -> LoincMatch:
    return LoincMatch(
        loinc_code=entry.code,
        loinc_name=entry.long_name,
        display_name=entry.display_name,
        aliases=list(_shown_aliases(entry)),
        confidence_score=max(0.0, min(1.0, confidence)),
    )


# Per entry (by id, the entry kept alongside so a recycled id is noticed): the table is built
# once and every result of every report asks for its candidates' aliases.
_ALIASES: dict[int, tuple[Entry, tuple[str, ...]]] = {}


def _shown_aliases(entry: Entry) -> tuple[str, ...]:
    cached = _ALIASES.get(id(entry))
    if cached is not None and cached[0] is entry:
        return cached[1]
    # The table lists a label once per (fluid, unit) it was seen with: show each name once.
    aliases: list[str] = []
    seen: set[str] = set()
    for label in (entry.short_name, *(label for label, _fluid, _unit in entry.aliases)):
        if label and label.casefold() not in seen and len(aliases) < 6:
            seen.add(label.casefold())
            aliases.append(label)
    if len(_ALIASES) > 20_000:
        _ALIASES.clear()
    _ALIASES[id(entry)] = (entry, tuple(aliases))
    return tuple(aliases)


# A flag letter the reader left at the end of the name ("Urea H", "Iron, Total L").
_TRAILING_FLAG = re.compile(r"\s+\(?(H|L|HH|LL)\)?\s*$")


def name_for_matching(result: LabReportResult) -> str:
    """The printed name without a trailing flag letter that the row's value and range bear out.

    Only when no flag was read separately and the value lies on that side of its range: "Factor H"
    inside its range keeps its letter.
    """
    name = result.test_name
    found = _TRAILING_FLAG.search(name)
    if found is None or result.source_flag:
        return name
    try:
        value = float(result.value.strip().replace(",", "."))
    except ValueError:
        return name
    high = found.group(1).startswith("H")
    limit = result.max_reference_range if high else result.min_reference_range
    if limit is None or not (value > limit if high else value < limit):
        return name
    return name[:found.start()]


# Printed results that are a finding on an ordinal scale (dipstick, serology): without a unit they
# say the code is a presence-type one, not a mass concentration. The English words, and the French,
# German, Italian and Spanish negatives and positives as the parser reads them (parser.vocabulary;
# positives are its "posi..." words, as parser.normalize picks them). On the non-sealed html_i18n
# and real_i18n rows with such a word and no unit: 15 of 28 auto-matched right (7 before), top-1
# unchanged (20), no wrong auto-match.
# "Trace" on a strip, in French, Italian, Spanish and German: an ordinal step like "1+".
_EUROPEAN_TRACE = ["traces", "trace", "tracce", "traccia", "indicios", "trazas", "spuren", "spur"]
_EUROPEAN_ORDINAL = sorted(vocabulary.european_presence_words(), key=len, reverse=True)
_ORDINAL_VALUE = re.compile(
    r"^(?:negative|positive|neg|pos|nil|absent|present|trace|reactive|non[ -]?reactive|detected|"
    r"not detected|[1-4]\s?\+|\+{1,4}|" + "|".join(map(re.escape, _EUROPEAN_ORDINAL + _EUROPEAN_TRACE)) + r")$",
    re.IGNORECASE)


def value_kind(result: LabReportResult) -> str | None:
    """ORDINAL for a unit-less result like "Negative", "Trace", "2+"; None otherwise."""
    if result.units or not _ORDINAL_VALUE.match(" ".join(result.value.split())):
        return None
    return ORDINAL


# A unitless differential prints fractions of the leucocytes (0.58, summing to 1) or percentages
# (summing to 100); absolute counts without a unit sum to the white count. The sum of the rows
# says which, where one row alone cannot (basophils 0.03 is a fraction or a count in 10^9/L).
_SUM_OF_FRACTIONS = ((0.9, 1.1), (90.0, 110.0))
_COUNT_SUM_TOLERANCE = 0.15
_WHITE_COUNT_CODES = {"6690-2", "26464-8"}


def _number(value: str) -> float | None:
    try:
        return float(value.strip().replace(",", "."))
    except ValueError:
        return None


def _is_differential_cell(found: MatchResult) -> bool:
    """The row's best code is a white cell type (LOINC counts it per 100 leukocytes)."""
    return bool(found.matches) and get_matcher().white_cell_type(found.matches[0][0])


def differential_kinds(results: list[LabReportResult], found: list[MatchResult] | None = None) -> dict[int, str]:
    """Row index -> FRACTION or COUNT_CONC for the unitless rows of a white-cell differential,
    decided by what their values add up to; empty when the sum says nothing. `found`: the rows'
    matches without report context (_plain_matches)."""
    found = found or _plain_matches(results)
    cells = {index: _number(result.value) for index, result in enumerate(results)
             if not result.units and _number(result.value) is not None}
    cells = {index: value for index, value in cells.items() if _is_differential_cell(found[index])}
    if len(cells) < 3:
        return {}
    total = sum(cells.values())
    if any(low <= total <= high for low, high in _SUM_OF_FRACTIONS):
        return dict.fromkeys(cells, FRACTION)
    white = next((_number(r.value) for r, f in zip(results, found) if r.units and _top_code(f) in _WHITE_COUNT_CODES),
                 None)
    if white and abs(total - white) <= _COUNT_SUM_TOLERANCE * white:
        return dict.fromkeys(cells, COUNT_CONC)
    return {}


def unit_system(results: list[LabReportResult], found: list[MatchResult]) -> str | None:
    """MASS_CONC or MOLAR_CONC when every row of the report that prints a unit for a test labs
    report either way (glucose, creatinine, lipids) prints that kind, at least two rows; else None.
    A row whose unit was lost (OCR) most likely follows its report's convention."""
    kinds, rows = set(), 0
    for result, match in zip(results, found):
        kind = unit_kind(result.units) if result.units else None
        if kind in (MASS_CONC, MOLAR_CONC) and _reported_both_ways(match):
            kinds.add(kind)
            rows += 1
    return next(iter(kinds)) if len(kinds) == 1 and rows >= 2 else None


def report_kinds(results: list[LabReportResult], found: list[MatchResult] | None = None) -> dict[int, str]:
    """Row index -> the kind of quantity the report says of a unitless row: a differential's
    fractions or counts (differential_kinds), or mass vs moles by the report's convention.
    `found`: the rows' matches without report context (_plain_matches), matched here if not given."""
    found = found or _plain_matches(results)
    kinds = differential_kinds(results, found)
    unitless = [i for i, r in enumerate(results)
                if not r.units and i not in kinds and _number(r.value) is not None]
    if not unitless:
        return kinds
    system = unit_system(results, found)
    if system is None:
        return kinds
    for index in unitless:
        if _reported_both_ways(found[index]):
            kinds[index] = system
    return kinds


# A urinalysis printed under a heading that names no urine ("CLINICAL PATHOLOGY", "Chimica clinica"):
# rows of one section lying between two rows matched to urine-only codes ("Colore", "Peso specifico",
# "Nitriti", "Pus Cells"), at most this many in a row, whose own names name no specimen, are the
# strip's rows too ("pH", "Proteine", "Glucosio", "Emoglobina"), and are matched again as urine.
_URINE_GAP = 3


def urine_strip_rows(results: list[LabReportResult], found: list[MatchResult]) -> set[int]:
    """Indices of rows read as urine from the urine-only rows around them (see _URINE_GAP)."""
    urine = [i for i, f in enumerate(found) if f.matches and f.matches[0][0].specimen == "urine"]
    rows: set[int] = set()
    for before, after in zip(urine, urine[1:]):
        if not 0 < after - before - 1 <= _URINE_GAP:
            continue
        panel = results[before].source_panel_name
        if any(results[i].source_panel_name != panel for i in range(before, after + 1)):
            continue
        rows.update(i for i in range(before + 1, after) if read_name(results[i].test_name or "").specimen is None)
    return rows


def _plain_matches(results: list[LabReportResult]) -> list[MatchResult]:
    """Each row matched on its own (no aliases, no report context): what report_kinds reads."""
    return [match_result(result) for result in results]


def _reported_both_ways(found: MatchResult) -> bool:
    return bool(found.matches) and get_matcher().reported_both_ways(found.matches[0][0])


def _top_code(found: MatchResult) -> str | None:
    return found.matches[0][0].code if found.matches else None


def unit_in_text(units: str | None) -> str | None:
    """The one unit inside a unit cell that carries more ("T mmol/L", "nmol/l 75-250", "° %"), or None
    when the cell is a unit already, holds no unit, or holds units of different kinds."""
    if not units or unit_kind(units) is not None:
        return None
    found = {unit_kind(token): token for token in units.split() if unit_kind(token) is not None}
    return next(iter(found.values())) if len(found) == 1 else None


def match_result(result: LabReportResult, aliases: dict[tuple[str, str], str] | None = None,
                 kind: str | None = None, specimen: str | None = None) -> MatchResult:
    """`kind`: what the report says of the row's quantity when the row has no unit (differential_kinds);
    `specimen`: the specimen the report's neighbouring rows say (urine_strip_rows), else the row's own."""
    if specimen is None:
        specimen = None if result.sample_type in _NO_SPECIMEN else result.sample_type
    units = result.units
    recovered = unit_in_text(units)
    found = get_matcher().match(
        name_for_matching(result),
        recovered or units,
        panel=result.source_panel_name,
        specimen=specimen,
        calculated=result.measurement_kind == "calculated",
        aliases=aliases,
        value_kind=kind or value_kind(result),
    )
    if recovered and found.status == AUTO_MATCH:  # the unit cell read more than a unit: a person checks
        return MatchResult(NEEDS_REVIEW, found.matches)
    if found.status == AUTO_MATCH and _finding_on_blood_quantity(result, found.matches[0][0]):
        return MatchResult(NEEDS_REVIEW, found.matches)
    return found


# Properties (as the shipped table spells them) whose results are amounts, never a word.
_AMOUNTS = {"Mass/volume", "Moles/volume", "Units/volume", "#/volume", "Enzymatic activity/volume",
            "Number fraction", "Mass fraction", "Volume Fraction", "Moles fraction", "Molar fraction",
            "Entitic volume", "Entitic mass"}


def _finding_on_blood_quantity(result: LabReportResult, entry: Entry) -> bool:
    """A word result ("assente", "Trace", "2+") matched to an amount in blood, serum or plasma.

    A blood glucose is never "absent": such a row is a urine strip read without its urine heading
    (the unit mg/dL printed on strips kept the serum code), and the code is a guess. Urine codes in
    mass units are left alone: strips report "Negative" against them. Measured on every developable
    digital report (stored families and opened real-like dev, 94 word results auto-matched): the 2
    matched to a blood-side amount were both wrong (it_sannio's urine strip), the 92 others right.
    """
    if not _ORDINAL_VALUE.match(" ".join(result.value.split())):
        return False
    return entry.property in _AMOUNTS and entry.specimen in _BLOOD_SIDE


_BLOOD_SIDE = {"serum_plasma", "blood"}


def annotate_report(report: ReportData, aliases: dict[tuple[str, str], str] | None = None) -> None:
    """Set `loinc_matches` (<= 5, best first) and `loinc_match_status` on every result.

    `aliases` maps a team's (normalized printed name, normalized unit) -> LOINC code, keyed
    with `loinc.matcher.alias_key`; an exact hit is an auto_match.
    """
    counts = {"auto_match": 0, "needs_review": 0, "no_match": 0}
    plain = _plain_matches(report.results)
    kinds = report_kinds(report.results, plain)
    urine = urine_strip_rows(report.results, plain)
    for index, result in enumerate(report.results):
        kind = kinds.get(index)
        # a row with neither a team alias nor a kind from its report is matched already
        found = plain[index] if kind is None and not aliases else match_result(result, aliases, kind)
        if index in urine:
            again = match_result(result, aliases, kind, specimen="urine")
            if again.matches and again.matches[0][0].specimen == "urine":
                found = MatchResult(NEEDS_REVIEW, again.matches)  # the specimen was inferred: a person checks
        result.loinc_matches = [to_loinc_match(entry, confidence) for entry, confidence in found.matches[:5]]
        result.loinc_match_status = found.status
        counts[found.status] = counts.get(found.status, 0) + 1
    formulas.choose_anion_gap_codes(report)  # the printed arithmetic tells two sibling codes apart
    log.debug("loinc annotate: %d results %s", len(report.results), counts)
