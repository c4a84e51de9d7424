"""Sibling codes that only a row's arithmetic tells apart: the anion gap with or without potassium.

LOINC codes the anion gap as Na - (Cl + HCO3) (33037-3, the code in use) and as (Na + K) - (Cl +
HCO3) ("Anion gap 4", 1863-0); reports print "Anion gap" for either, and the name cannot choose
(the matcher leaves such a row for review with the two codes two points apart). The lab computes
the printed value from the electrolytes printed beside it, so the formula it agrees with is the
code. Seen on real-like batches 8, 10 and 11 dev (us_powerflow, us_chesapeake, ca_fundy): each
printed gap equals Na - Cl - HCO3 exactly and misses the potassium formula by 3.3 or more; the
matcher's first code was the potassium one on all three.
"""

from __future__ import annotations

from collections.abc import Callable

from loinc.matcher import AUTO_MATCH, get_matcher
from parser.models import LabReportResult, ReportData

WITHOUT_POTASSIUM, WITH_POTASSIUM = "33037-3", "1863-0"
_PARTS = {"na": ("2951-2", "2947-0"), "k": ("2823-3", "6298-4"), "cl": ("2075-0", "2069-3"),
          "hco3": ("1963-8", "2028-9", "1959-6", "20565-8")}
_FORMULAS: dict[str, Callable[..., float]] = {
    WITHOUT_POTASSIUM: lambda na, k, cl, hco3: na - cl - hco3,
    WITH_POTASSIUM: lambda na, k, cl, hco3: na + k - cl - hco3,
}
# Printed electrolytes are whole numbers (potassium one decimal): a gap computed from them and
# rounded is within one of the printed value; potassium (2.5 and up) moves the other formula further.
AGREE_WITHIN = 1.0
_MILLIMOLES = {"mmol/l", "meq/l"}


def choose_anion_gap_codes(report: ReportData) -> None:
    """Put first, and auto-match, the anion gap code whose formula the printed value agrees with
    (in place); rows are left as they are when the parts are missing or both or neither agree."""
    parts = {name: _millimoles(report.results, codes) for name, codes in _PARTS.items()}
    if None in parts.values():
        return
    for row in report.results:
        top = row.loinc_matches[0].loinc_code if row.loinc_matches else None
        value = _number(row.value) if top in _FORMULAS else None
        if value is None or _unit(row) not in _MILLIMOLES:
            continue
        agreeing = [code for code, formula in _FORMULAS.items() if abs(formula(**parts) - value) <= AGREE_WITHIN]
        if len(agreeing) == 1:
            _lead_with(row, agreeing[0])


def _lead_with(row: LabReportResult, code: str) -> None:
    from loinc.annotate import to_loinc_match  # annotate calls this module

    confidence = row.loinc_matches[0].confidence_score
    entry = get_matcher().lookup(code)
    if entry is None:
        return
    rest = [match for match in row.loinc_matches if match.loinc_code != code]
    row.loinc_matches = [to_loinc_match(entry, max(confidence, *(m.confidence_score for m in rest[:1]))), *rest][:5]
    row.loinc_match_status = AUTO_MATCH


def _millimoles(rows: list[LabReportResult], codes: tuple[str, ...]) -> float | None:
    """The value of the one row coded as one of `codes`, in mmol/L; None when absent or repeated."""
    found = [row for row in rows if row.loinc_matches and row.loinc_matches[0].loinc_code in codes]
    if len(found) != 1 or _unit(found[0]) not in _MILLIMOLES:
        return None
    return _number(found[0].value)


def _unit(row: LabReportResult) -> str:
    return "".join((row.units or "").split()).lower()


def _number(text: str) -> float | None:
    try:
        return float((text or "").strip().replace(",", "."))
    except ValueError:
        return None
