"""Which specimen a report row is about, and how well a LOINC system fits it.

The hint comes from the printed name ("Urine creatinine", "S. Calcium"), else the parser's
sample_type, else the panel heading ("Urine Routine Examination", "CBC"). Entry specimen
groups come from loinc.table.specimen_group.
"""

from __future__ import annotations

import re
from functools import lru_cache

from loinc.names import fold, read_name

_SAMPLE_TYPE_SPECIMEN = {
    "urine": "urine", "serum_plasma_blood": "any_blood", "capillary_blood": "blood", "stool": "stool",
}
_PANEL_RULES = (
    # Spanish "orina", German "Harn" (not "Harnstoff": urea) and "Urin..." head urine sections too.
    (re.compile(r"\burin|\bua\b|\bre me\b|routine examination|\borina\b|\bharn(?!stoff|saure)"), "urine"),
    (re.compile(r"\bstool|\bmotion|\bfaec|\bfec"), "stool"),
    (re.compile(r"\bcsf\b|cerebrospinal"), "csf"),
    (re.compile(r"\bcbc\b|blood count|haemogram|hemogram|differential|\bdlc\b|\bhematology|\bhaematology"), "blood"),
)
_SEDIMENT = re.compile(r"microscop|sediment|deposit|\bhpf\b")
# A urine test strip named in five languages ("dipstick", "Urin-Stix", "Teststreifen", "bandelette",
# "striscia reattiva", "tira reactiva"): its rows are the strip's pads, not sediment microscopy.
_STRIP = re.compile(r"\b(?:strip|strips|dipstick|dip stick|stix|teststreifen|streifen|bandelette|bandelettes"
                    r"|striscia|strisce|tira|tiras|reagent strip)\b")

# Hint -> score for each entry specimen group; groups not listed get MISMATCH.
_SCORES = {
    # Chemistry on printed reports is serum/plasma unless the name says whole blood.
    None: {"serum_plasma": 5, "blood": 2, "unspecified": 3, "urine": -6},
    "any_blood": {"serum_plasma": 5, "blood": 2, "unspecified": 2},
    "serum_plasma": {"serum_plasma": 6, "blood": 1, "unspecified": 2},
    "blood": {"blood": 6, "serum_plasma": 1, "unspecified": 3},
    "urine": {"urine": 8, "unspecified": 0},
    "body_fluid": {"body_fluid": 8, "pleural": 2, "peritoneal": 2, "synovial": 2, "unspecified": 0},
    "pleural": {"pleural": 10, "body_fluid": 5, "unspecified": 0},
    "peritoneal": {"peritoneal": 10, "body_fluid": 5, "unspecified": 0},
    "synovial": {"synovial": 10, "body_fluid": 5, "unspecified": 0},
}
MISMATCH = -20.0
NO_HINT_OTHER = -10.0  # CSF, stool, fluids... when the row names no specimen at all
SAME_GROUP = 8.0       # hints without a row in _SCORES (csf, stool, bone marrow)


@lru_cache(maxsize=4096)
def panel_specimen(panel: str | None) -> str | None:
    text = fold(panel or "")
    if not text:
        return None
    for pattern, group in _PANEL_RULES:
        if pattern.search(text):
            return group
    return "any_blood"  # a chemistry or immunology section heading


@lru_cache(maxsize=1024)
def sample_type_specimen(specimen: str | None) -> str | None:
    """A parser sample_type ("urine", "serum_plasma_blood") or a specimen word ("Pleural")."""
    if not specimen:
        return None
    if specimen in _SAMPLE_TYPE_SPECIMEN:
        return _SAMPLE_TYPE_SPECIMEN[specimen]
    return read_name(specimen).specimen


def specimen_hint(name: str, specimen: str | None, panel: str | None) -> str | None:
    return read_name(name or "").specimen or sample_type_specimen(specimen) or panel_specimen(panel)


def specimen_score(hint: str | None, group: str) -> float:
    table = _SCORES.get(hint)
    if table is None:
        return SAME_GROUP if group == hint else (0.0 if group == "unspecified" else MISMATCH)
    return table.get(group, NO_HINT_OTHER if hint is None else MISMATCH)


def specimen_fits(group: str, hint: str | None) -> bool:
    """Auto-matching needs the code's specimen to be the one the row names (or a plain default)."""
    if hint is None or hint in ("any_blood", "serum_plasma", "blood"):
        return group in ("serum_plasma", "blood", "unspecified")
    return group == hint


@lru_cache(maxsize=4096)
def mentions_sediment(name: str, panel: str | None, unit: str | None) -> bool:
    """Urine microscopy rows: counts per high-power field of the sediment."""
    return bool(_SEDIMENT.search(fold(f"{name} {panel or ''} {unit or ''}")))


@lru_cache(maxsize=4096)
def mentions_strip(name: str, panel: str | None, unit: str | None) -> bool:
    """A urine strip row: the name or its section names the strip, and nothing names the sediment."""
    text = fold(f"{name} {panel or ''} {unit or ''}")
    return bool(_STRIP.search(text)) and not _SEDIMENT.search(text)
