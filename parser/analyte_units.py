"""OCR unit slips that the analyte settles (OCR rows only).

Some glyph slips leave a unit that the glyphs alone cannot put right, while the test it belongs
to can: a haematocrit is a volume fraction (L/L or %), never the enzyme unit U/L that OCR makes
of "L/L" ('UL', 'U/L': the L's foot read as a U's bowl); and a cell count per microlitre is
printed with the power of ten of its cell kind (red cells 10⁶, white cells, platelets and the
differential 10³; per litre 10¹² and 10⁹), a power printed in superscript that OCR reads as a
mark or a wrong digit ('x10”/uL', 'x10%/uL', 'x107/uL', '1073/nL').
"""

from __future__ import annotations

import re

from parser import units as unit_lexicon

_VOLUME_FRACTION = re.compile(
    r"h(?:a|ä|e|é)?ematocri|h[äa]matokrit|ematocrito|\bhct\b|\bpcv\b|packed\s+cell\s+volume", re.I)
# The enzyme unit read for a printed litre ratio ("L/L" as "UL", "U/L", "Ul").
_ENZYME_READING = re.compile(r"^U\s*/?\s*([Ll])$")

_RED_CELLS = re.compile(
    r"\brbc\b|red\s+(?:blood\s+)?cells?|erythro|eritro|h[ée]mat[ií]es|gl[óo]bulos\s+rojos|"
    r"globuli\s+rossi|globules\s+rouges", re.I)
_OTHER_COUNTS = re.compile(
    r"\bwbc\b|white\s+(?:blood\s+)?cells?|leu[ck]o|gl[óo]bulos\s+blancos|globuli\s+bianchi|"
    r"globules\s+blancs|\bplt\b|platelet|plaquet|thrombo|trombo|piastrin|neutro|lympho|linfo|"
    r"mono[cz]|eosino|baso|granulo|polynucl", re.I)
# Counts whose power is not their cell kind's: nucleated red cells, reticulocytes.
_OTHER_POWERS = re.compile(r"nrbc|nucleated|normoblast|erythroblast|eritroblast|reti[ck]", re.I)
# A count unit whose power OCR garbled: "x10" (or a bare "10"), what OCR made of the printed
# power (marks, at most two digits), a slash and a volume.
_GARBLED_POWER = re.compile(
    r"^(?P<times>[xX×]?)\s*10(?P<power>[^A-Za-z/\s]{0,3})\s*/\s*[\-.,]?\s*(?P<per>[uµμpjyHn]?)(?P<litre>[Ll])$")
_COUNT_UNIT = re.compile(r"^x?10\^(3|6|9|12)/u?l$")  # unit_key's spelling of a count unit
_MICRO = "uµμ"
# A caret OCR read as a 7 ("1073/nL" for 10^3/µL), and the 7 it makes of a superscript ³ ("x107/uL").
_CARET_DIGIT = "7"
# The power of each cell kind: (per microlitre, per litre).
_POWERS = {"red": ("6", "12"), "other": ("3", "9")}


def settled_unit(name: str, units: str) -> str:
    """`units` put right where the analyte `name` settles an OCR slip; else `units`."""
    text = units.strip()
    if (m := _ENZYME_READING.match(text)) and _VOLUME_FRACTION.search(name):
        return f"{m.group(1)}/{m.group(1)}"
    if _COUNT_UNIT.match(unit_lexicon.unit_key(text)):
        return units  # read whole ("10*9/L", "x10^3/uL"): the printed unit stays as printed
    if (m := _GARBLED_POWER.match(text)) and (kind := _cell_kind(name)) is not None:
        return _count_unit(m, kind) or units
    return units


def _cell_kind(name: str) -> str | None:
    if _OTHER_POWERS.search(name):
        return None
    if _RED_CELLS.search(name):
        return "red"
    return "other" if _OTHER_COUNTS.search(name) else None


def _count_unit(m: re.Match, kind: str) -> str | None:
    """The count unit of a cell `kind` for a garbled power, or None when the reading shows
    digits that are no misreading of the kind's power (a power read is never overruled)."""
    per_microlitre = bool(m.group("per"))
    power = _POWERS[kind][0 if per_microlitre else 1]
    digits = re.sub(r"\D", "", m.group("power"))
    if digits not in ("", power, _CARET_DIGIT + power) and not (digits == _CARET_DIGIT and power == "3"):
        return None
    if not per_microlitre:
        return f"{m.group('times')}10^{power}/{m.group('litre')}"
    volume = m.group("per") + m.group("litre") if m.group("per") in _MICRO else "µL"
    return f"{m.group('times')}10^{power}/{volume}"
