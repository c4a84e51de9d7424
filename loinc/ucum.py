"""A printed unit -> its UCUM code, or None when no sure UCUM form exists.

The spellings and the set of valid codes come from the shipped table
`loinc/data/ucum_units.json` (built by `python -m loinc.ucum_build` from the LHNCBC
unit-to-UCUM map, the MIRACUM unit synonyms and the LHNCBC example units per LOINC code).
Here live only the rewrites that turn a lab's spelling into a UCUM-like one: each is an
exact equivalence (mm3 is uL, "thou" is 10*3, IU is [IU]), never a guess. Whatever the
rewrites give must still be a code of the table, or the answer is None.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from loinc.units import ESR_PER_HOUR, GIGA_TERA_PER_LITRE
from parser.models import LabReportResult

TABLE_PATH = Path(__file__).parent / "data" / "ucum_units.json"
UCUM_SYSTEM = "http://unitsofmeasure.org"

# "G/L" printed in capitals is grams on an English capitals report and 10^9/L on a French one.
_CAPITAL_G_OR_T_PER_LITRE = re.compile(r"^\s*[GT]\s*/\s*L\s*$")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
# "10³", "x10⁹": a power of ten printed with superscript digits, before NFKC flattens it to "103".
_SUPER_POWER = re.compile(r"10([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")

# Rewrites on the folded (lower-case, spaceless) text, applied in order.
_REWRITES: list[tuple[re.Pattern[str], str]] = [
    # x10^3, 10e3, 10*3, ×10^3 -> 10*3
    (re.compile(r"^[x×*]?10(?:\^|\*|e)(\d+)"), r"10*\1"),
    # Count words in front of a per-volume unit.
    (re.compile(r"^(?:k|thou|thous|thousands?)(?=/)"), "10*3"),
    (re.compile(r"^(?:mill|mil|millions?)(?=/)"), "10*6"),
    (re.compile(r"^(?:lakhs?|lacs?)(?=/)"), "10*5"),
    (re.compile(r"^cells?(?=/)"), "{cells}"),
    (re.compile(r"^#(?=/)"), ""),  # "#/uL": a count per microlitre is "/uL"
    # One cubic millimetre is one microlitre.
    (re.compile(r"/(?:mm3|mm\^3|cumm|cu\.?mm|cmm)$"), "/ul"),
    # Mass and time spellings.
    (re.compile(r"(?<![a-z])(?:gm|gms|grams?)(?=/|$)"), "g"),
    (re.compile(r"(?<![a-z])mcg(?=/|$)"), "ug"),
    (re.compile(r"/(?:hr|hrs|hour)$"), "/h"),
    (ESR_PER_HOUR, "mm/h"),  # an ESR's first hour in every spelling
    (re.compile(r"/(?:day|24h|24hr|24hrs|24hours?)$"), "/d"),
    # International units: IU, mIU, uIU, kIU.
    (re.compile(r"(?<![a-z\[])([munk]?)iu(?![a-z\]])"), r"\1[iu]"),
    # Per body surface: 1.73m2, 1.73 m^2, 1.73 sq m.
    (re.compile(r"/1\.73(?:m2|m\^2|sqm|sq\.m)$"), "/{1.73_m2}"),
    # Per microscope field.
    (re.compile(r"/(hpf|lpf)$"), r"/[\1]"),
    (re.compile(r"^(?:percent|pct)$"), "%"),
    # A time printed as a word.
    (re.compile(r"^(?:hrs?|hours?)$"), "h"),
    (re.compile(r"^(?:secs?|seconds?)$"), "s"),
    (re.compile(r"^(?:mins?|minutes?)$"), "min"),
    (re.compile(r"^days?$"), "d"),
]


def fold(unit: str) -> str:
    """The lookup key of a spelling: NFKC, micro signs as u, lower case, no spaces."""
    text = _SUPER_POWER.sub(lambda m: "10^" + m.group(1).translate(_SUPERSCRIPTS), unit)
    text = unicodedata.normalize("NFKC", text).replace("µ", "u").replace("μ", "u")
    return re.sub(r"\s+", "", text).lower().rstrip(".")


def rewrite(folded: str) -> str:
    """Apply the equivalence rewrites to a folded spelling."""
    for pattern, replacement in _REWRITES:
        folded = pattern.sub(replacement, folded)
    return folded


@lru_cache(maxsize=1)
def _table() -> tuple[frozenset[str], dict[str, str]]:
    raw = json.loads(TABLE_PATH.read_text(encoding="utf-8"))
    return frozenset(raw["valid"]), raw["spellings"]


def valid_codes() -> frozenset[str]:
    """Every code the shipped sources call valid UCUM."""
    return _table()[0]


def is_valid(code: str | None) -> bool:
    return bool(code) and code in valid_codes()


@lru_cache(maxsize=4096)
def to_ucum(unit: str | None) -> str | None:
    """The UCUM code of a printed unit, or None when it has no sure UCUM form."""
    if not unit or not unit.strip():
        return None
    giga_tera = GIGA_TERA_PER_LITRE.match(unit.strip())
    if giga_tera:  # case decides here and folding would lose it: "G/l" is 10^9/L, "g/l" grams
        return f"10*{9 if giga_tera.group(1) == 'G' else 12}/L"
    if _CAPITAL_G_OR_T_PER_LITRE.match(unit):  # grams in capitals, or a French count: unsure
        return None
    spellings = _table()[1]
    folded = fold(unit)
    for key in (folded, rewrite(folded)):
        code = spellings.get(key)
        if code is not None:
            return code
    return None


def annotate_units(results: Iterable[LabReportResult]) -> None:
    """Set `ucum_units` of every result from its printed `units`, in place."""
    for result in results:
        result.ucum_units = to_ucum(result.units)
