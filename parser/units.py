"""Units as printed: a lexicon built from the shipped unit data (parser/data/units.json,
made by parser/data/build_units.py) and the recogniser the layout and normaliser share.

Recognised whatever the spacing (`mg / dl`), micro sign (µ, μ, u, mc), power notation
(`10^9/L`, `x10³/µL`, `10*3/uL`, `x E9/L`) or OCR slip between look-alike glyphs (l/I/1, O/0).
Home of the one set of unit spelling rules (unit_key, canonical_unit, damaged_power_unit) that
loinc/units, parser/locale_forms and parser/ocr call (loinc/ may import parser/, not back).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from parser.ranges import parse_number

_DATA = Path(__file__).resolve().parent / "data" / "units.json"
MAX_UNIT_CHARS = 24
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
# "10³", "x10⁹/L": a power of ten printed in superscript, read before the digits are flattened
# (so "10³/µL" is 10^3/µL, not "103/µL").
_SUPER_POWER = re.compile(r"10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_OCR_FOLD = str.maketrans({"l": "i", "1": "i", "|": "i", "!": "i", "ı": "i", "0": "o", "£": "f"})
# "x10^9/L", "10^3/uL", "10*3/µL", "x 10E9/l", "10³/mm3", "/cumm", "cells/µL".
_POWER = re.compile(r"^(?:x|\*)?10(?:\^|\*|e)?\d{1,2}/[a-z]{1,4}\d?$")
# Words a table never prints as a unit even though a unit table lists them.
_NOT_UNITS = {"a", "h", "l", "n", "c", "s", "d", "m", "g", "u", "x", "hh", "ll", "hi", "lo",
              "ratio", "index", "mass", "total", "ph", "high", "low", "normal", "positive",
              "negative", "test", "result", "units", "unit", "range", "flag"}
# "/mm°", "/mm?": OCR's readings of a cube's ³ after mm or cm (a "?" only at the unit's end).
CUBE_SLIP = re.compile(r"(?<=[mc]m)(?:°|\?(?=\s*$))")
# "1,73m?": OCR's reading of the ² of a body surface (a "?" after a number's metres).
SQUARE_SLIP = re.compile(r"(?<=\d[mM])\?(?=\s*$)")
_ANNOTATION = re.compile(r"\{(\d[\d.,]*_?m2)\}")  # UCUM's body surface: "{1.73_m2}"


def unit_key(text: str) -> str:
    """The lookup form of a printed unit as spelt: lower case, no spaces, micro as u, powers as
    ^ ("10*3", "10e3", "10³", LifeLabs' "x E9", the UK GP systems' "1.73m*2"), "mc" as micro.
    The spelling rules every reader of units shares (see canonical_unit for the spellings of one
    unit in different words)."""
    key = _SUPER_POWER.sub(lambda m: "10^" + m.group(1).translate(_SUPERSCRIPTS), text.strip())
    key = unicodedata.normalize("NFKC", key.rstrip(".,;:").lower().translate(_SUPERSCRIPTS))
    key = key.replace("µ", "u").replace("μ", "u").replace("×", "x")
    key = CUBE_SLIP.sub("3", key)
    key = SQUARE_SLIP.sub("2", _SPACES.sub("", key))  # "1,73 m?" as "1,73m?"
    if "{" in key:  # UCUM's annotation braces: "ml/min/{1.73_m2}" is ml/min/1.73m2 (OCR's
        # braces for a range's brackets are never a whole annotation of this shape)
        key = _ANNOTATION.sub(lambda m: m.group(1).replace("_", ""), key)
    key = _MICRO_MC.sub("u", key)
    key = _PER_MICRO_MC.sub("/u", key)
    key = _E_NOTATION.sub("x10^", key)  # LifeLabs' "x E9/L": E-notation, the 10 left out
    key = _SURFACE_POWER.sub("^", key)  # a body surface in ASCII powers: "1.73m*2"
    return _ASCII_POWER.sub("10^", key)


# unit_key's spelling rules, compiled once (it runs for every cell a unit may be in).
_SPACES = re.compile(r"\s+")
_MICRO_MC = re.compile(r"^mc(?=g|mol|l|iu|u)")
_PER_MICRO_MC = re.compile(r"/mc(?=g|l)")
_E_NOTATION = re.compile(r"^x?e(?=\d{1,2}/)")
_SURFACE_POWER = re.compile(r"(?<=\dm)\*(?=2$)")
_ASCII_POWER = re.compile(r"10\*{1,2}(?=-?\d)|10e(?=\d)")


# Spellings of one unit in other words, beyond unit_key's folding: the canonical key names each
# unit once, so two labs' spellings compare equal (unit kinds, team aliases, count powers).
# The lexicon keeps unit_key's spellings: OCR repairs give back the spelling printed.
_SAME_UNIT: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^[x*]10\^"), "10^"),  # "x10^9/L" is 10^9/L: the times sign adds nothing
    # The international unit as Romance languages print it ("UI/l", "mUI/ml") and German ("IE/l").
    (re.compile(r"(?<![a-z])([mun]?)(?:ui|ie)(?=/)"), r"\1iu"),
    (re.compile(r"mcg"), "ug"),
    (re.compile(r"gms"), "g"),
    (re.compile(r"gm/"), "g/"),
    (re.compile(r"(?:(?<=/)|^)(?:cu\.?mm|cmm)$"), "mm3"),  # a cubic millimetre: "/cumm", "/cmm"
    (re.compile(r"\[iu\]"), "iu"),
    (re.compile(r"mm\[hg\]"), "mmhg"),
    (re.compile(r"/1[.,]73m(?:\^?2)$"), "/1.73m2"),  # eGFR's body surface: "1,73 m²", "1.73m^2"
)


@lru_cache(maxsize=4096)
def canonical_unit(text: str | None) -> str:
    """The one spelling key of a printed unit ('' when absent): unit_key, then the spellings
    of one unit in other words (_SAME_UNIT): "x10^9/L", "10*9/l" and "x E9/L" are all "10^9/l",
    "mUI/ml" is "miu/ml", "/cumm" is "/mm3"."""
    if not text or not text.strip():
        return ""
    key = unit_key(text)
    for pattern, spelling in _SAME_UNIT:
        key = pattern.sub(spelling, key)
    return key.strip(".")


# Printed spellings the shipped tables lack: counts per thousand or million of a mm³ or µL,
# and per nanolitre (/nl = G/l, German reports).
_PRINTED_UNITS = frozenset({"thou/mm3", "thou/ul", "mill/mm3", "million/ul", "millions/ul",
                            "/nl", "/pl", "tsd/mm3", "mio/mm3"})
# The international unit as Romance languages print it (UI: "UI/l", "mUI/ml", "µUI/mL") and
# German (IE: "IE/l"): every lexicon unit counted in IU has them too.
_IU_SPELLINGS = ("ui", "ie")


@lru_cache(maxsize=1)
def _lexicon() -> tuple[frozenset[str], frozenset[str]]:
    shipped = set(json.loads(_DATA.read_text())["keys"]) | _PRINTED_UNITS
    shipped |= {re.sub(r"iu(?=/)", spelling, key) for key in shipped if re.search(r"(?:^|[mku])iu/", key)
                for spelling in _IU_SPELLINGS}
    # The tables' UCUM leftovers: "mmol/" (an annotation's unit cut off), "ulu/ml" (µIU/mL with
    # the I typed as l). OCR makes both of whole units ("mmol/l" with its l lost, "µIU/mL" with
    # I read as l), so they would keep a damaged reading from being put right.
    partial = {key for key in shipped if len(key) > 1 and key.endswith("/")}
    typed_l = {key for key in shipped if "lu" in key and key.replace("lu", "iu") in shipped}
    keys = frozenset(shipped - partial - typed_l) - _NOT_UNITS
    return keys, frozenset(k.translate(_OCR_FOLD) for k in keys)


@lru_cache(maxsize=8192)
def is_unit(text: str, ocr: bool = False) -> bool:
    """Is `text` (one cell's or phrase's text) a unit? `ocr`: also accept look-alike slips."""
    stripped = text.strip()
    if not stripped or len(stripped) > MAX_UNIT_CHARS or not re.search(r"[A-Za-zµμ%/]", stripped):
        return False
    if " " in stripped and stripped.rsplit(None, 1)[-1].endswith(":"):
        return False  # "x10^6 / uL M:": a unit, then a label (the male tier of a range)
    key = unit_key(stripped)
    keys, folded = _lexicon()
    if key in keys or _POWER.match(key):
        return True
    return ocr and len(key) >= 3 and key.translate(_OCR_FOLD) in folded


def runs_on(unit: str, more: str) -> str | None:
    """A unit whose cell wrapped, its end on the next line ("ml/min/1,73" then "m²"): the
    whole unit when `unit` followed by `more` is a lexicon unit, else None."""
    if not unit.strip() or not more.strip():
        return None
    whole = f"{unit.strip()} {more.strip()}"
    return whole if is_unit(whole) else None


def tidy(text: str) -> str:
    """A unit as printed, with the spaces around '/' closed up (`mg / dl` -> `mg/dl`)."""
    return _SPACED_SLASH.sub("/", " ".join(text.split()))


_SPACED_SLASH = re.compile(r"\s*/\s*")


def split_trailing_unit(text: str, ocr: bool = False) -> tuple[str, str | None]:
    """("65-99", "mg/dL") from "65-99 mg/dL", ("<5.7", "%") from "<5.7 % of total Hgb";
    the text unchanged and None when no unit follows its last number."""
    words = text.split()
    # The earliest cut after a number (or its closing bracket) whose remainder is a unit,
    # perhaps followed by a gloss ("of total Hgb"): the longest unit wins ("mL/min/1.73m2").
    for cut in range(1, len(words)):
        if not re.search(r"\d[)\]]?$", words[cut - 1]):
            continue
        tail = words[cut:]
        for n in range(len(tail), 0, -1):
            candidate = " ".join(tail[:n])
            if is_unit(candidate, ocr):
                rest = " ".join(tail[n:])
                if rest and not re.match(r"^(of|in)\b", rest, re.I):
                    break  # words after the unit that are not a unit's gloss
                return " ".join(words[:cut]), tidy(candidate)
    return text, None


# Lexicon units that a lab report hardly ever prints but OCR makes of common ones: "mol/L"
# (the prefix of µmol/L or mmol/L lost), "pg/L" (µg/L with the micro sign read as p), "mg/d"
# (mg/dL with its L lost). Nothing tells which unit was printed, so none is repaired: the
# reading is kept and doubted (sent to review).
_DOUBTFUL_READINGS = frozenset({"mol/l", "pg/l", "mg/d"})
# "UL": L/L or U/L with the slash lost; a microlitre is printed "uL" or "µL", never in capitals.
_DOUBTFUL_AS_PRINTED = frozenset({"UL"})


def doubtful_reading(text: str) -> bool:
    """Is `text` (one OCR word) a unit more likely misread than printed?"""
    return unit_key(text) in _DOUBTFUL_READINGS or text.strip() in _DOUBTFUL_AS_PRINTED


# Specks OCR reads as marks at a unit's edges ("=mg/dl", "=~mg/dl", "mg/dL'").
_EDGE_MARKS = re.compile(r"^[=~—–_'\"`.,:;]+|[=~—–_'\"`,;:]+$")
# The times sign doubled ("xX10E3/uL": the x read twice).
_DOUBLED_TIMES = re.compile(r"^[xX×]{2}(?=10)")
# A count's power unit as OCR damages it: its caret misread (as 7, 4, A, °, *, %, quotes, or two
# of them) or lost, marks after the power or around the slash, the micro sign of its µL read as
# p, p1, 1, j, y, yu, U, 4 or 4U and its l as 1, | or I ("x10%3/p1L", "x107*3/1L", "x10”73/uL",
# "1073/4L", "103/41"): counts are printed per µL or L with powers 3, 6, 9 or 12 only, so the
# reading is unambiguous.
_DAMAGED_POWER = re.compile(
    r"^([xX×]?)10(?:[\^4Aa°º*7%?~'\"“”‘’]{1,2})?(3|6|9|12)[%;:,.'\-]*/[\-;:.,]*"
    r"(4U|yu|p1|[pjyuUµμ14])?([Ll1|I])$")


# A count's power unit in UCUM spelling, the caret printed as one "*" ("10*9/L", "10*3/uL": UK
# and Canadian systems print it so); tesseract reads a printed caret as "*" as often.
_UCUM_POWER = r"[xX×]?10\*(?:3|6|9|12)"
_UCUM_POWER_UNIT = re.compile(rf"^{_UCUM_POWER}/[uµμ]?[Ll]$")
_UCUM_POWER_PIECE = re.compile(rf"^{_UCUM_POWER}$")


def ucum_power_spelling(text: str, *, piece: bool = False) -> bool:
    """Is `text` a count's power unit printed in UCUM spelling ("10*9/L"), read intact? With
    `piece`: the power alone, read as a word apart from its unit ("x10*6" then "/uL")."""
    return (_UCUM_POWER_PIECE if piece else _UCUM_POWER_UNIT).match(text) is not None


def damaged_power_unit(text: str) -> str | None:
    """The count's power unit one OCR word is a reading of ("x10%3/p1L" -> x10^3/µL, "1073/UL"
    -> 10^3/µL), else None; "1043/ul" without its times sign may be a value and is None. A
    "10*9/L" is most often a caret read as a star, so it is read as one: only the ink can tell
    a printed UCUM star (parser.ocr)."""
    power = _DAMAGED_POWER.match(text)
    if power is None or (not power.group(1) and text.startswith("104")):
        return None
    times, exponent, micro, litre = power.groups()
    return f"{times}10^{exponent}/{'µ' if micro else ''}{'L' if litre == 'L' else 'l'}"


# Readings _POWER takes for units though their caret is a digit ("x1046/uL" is x10^6/µL, not
# x10^46).
_DAMAGED_POWER_ONLY = re.compile(r"^[xX×]?10[47]\d{1,2}/")
# The whole second line of a wrapped body-surface unit ("mL/min/1,73" then "m²"), its ² read as "?".
_SQUARE_METRE_SLIP = re.compile(r"^m\?$")


def repair_ocr_word(text: str) -> str | None:
    """One OCR word that is a unit with a slash but for OCR damage (marks at its edges, look-alike
    glyphs, a lost l, a misread micro sign: see repair): the unit put right. None for a word that
    is a unit already, has no slash and letter, or is no lexicon unit however read: a word
    elsewhere on the page ("ESC/EAS", "12/05/24") is left as it is."""
    if _SQUARE_METRE_SLIP.match(text):
        return "m²"
    if "/" not in text or not re.search(r"[A-Za-zµμ]", text) or len(text) > MAX_UNIT_CHARS:
        return None
    bare = _DOUBLED_TIMES.sub("x", _EDGE_MARKS.sub("", text))
    bare = SQUARE_SLIP.sub("²", CUBE_SLIP.sub("³", bare))  # "1,73m?" is 1,73 m² misread
    if bare == text and is_unit(text) and not _DAMAGED_POWER_ONLY.match(text):
        return None
    if (power := damaged_power_unit(bare)) is not None:
        return power
    fixed = bare if "/" in bare and is_unit(bare) else repair(bare)
    return fixed if fixed != text else None


def restored_slash_unit(first: str, reread: str) -> str | None:
    """The unit a second reading of a cell finds ("U/I" -> U/l, or "UA" with the "/l" closed
    into an A, as repair reads "GA" and "TA") where the first reading lost its slash and thin
    strokes ("ul", "U", "u"): only when the first reading is that unit with nothing but slashes
    and l, I, |, 1 left out, so the second reading adds no letter."""
    if "/" in first:
        return None
    if "/" in reread:
        unit = reread if is_unit(reread) else repair_ocr_word(reread)
    else:
        unit = _edge_slash_slip(reread, unit_key(reread), _lexicon()[0])
    if unit is None or "/" not in unit or not is_unit(unit):
        return None
    return unit if _adds_only_thin_strokes(first, unit) else None


_THIN_STROKES = frozenset("/lI|1iı!")


def _adds_only_thin_strokes(first: str, unit: str) -> bool:
    """Is `unit` the reading `first` with only slashes and l-like strokes (not a capital L)
    put in?"""
    def glyph(char: str) -> str:
        return char.lower().replace("µ", "u").replace("μ", "u").translate(_OCR_FOLD)

    at = 0
    for char in unit:
        if at < len(first) and glyph(char) == glyph(first[at]):
            at += 1
        elif char not in _THIN_STROKES:
            return False
    return at == len(first)


_MOL_SLIP = re.compile(r"(?<=mo)(?:[t1][l1I|]?|[lL][l1I|]|V)(?=\s*/|$)")


def repair(text: str) -> str | None:
    """A unit with OCR look-alike slips put right (`mmo1/L` -> `mmol/L`), keeping the printed
    case where the letters agree; None when no lexicon unit differs only by such slips."""
    text = text.strip().rstrip("_").strip()  # a rule under the cell read as "_"
    key = unit_key(text)
    keys, _ = _lexicon()
    if key in keys or len(key) < 2:
        return None
    # Each reading accepts only a result that is a lexicon unit; the first that finds one wins.
    for reading in (_mol_slip, _stray_marks, _slash_slip, _edge_slash_slip, _micro_slip,
                    _run_together_slash, _folded_slip, _litre_slip, _lost_litre, _descender_slip,
                    _twice_read):
        found = reading(text, key, keys)
        if found is not None:
            return found
    return None


def _mol_slip(text: str, key: str, keys: frozenset[str]) -> str | None:
    """The "l" of "mol" read as t, tl, 1l, Ll, V (tesseract's European data: "mmotl/L",
    "mmo1l/L", "pmot/L"; photos: "mmoV/L"), and "g" as 9 ("9/L")."""
    moles = _MOL_SLIP.sub("l", re.sub(r"^9(?=\s*/)", "g", text))
    return re.sub(r"\s+", "", moles) if moles != text and unit_key(moles) in keys else None


def _stray_marks(text: str, key: str, keys: frozenset[str]) -> str | None:
    """Stray marks OCR reads around a slash or in the cell ("ug:/-dl", "mg/dL'", "/[cumm")."""
    bare = re.sub(r"[:;,'\"`~_]+|(?<=/)[\-.\[\]|]+|[\-.\[\]|]+(?=/)", "", text)
    return re.sub(r"\s+", "", bare).rstrip(".") if bare != text and unit_key(bare) in keys else None


def _slash_slip(text: str, key: str, keys: frozenset[str]) -> str | None:
    """The slash read as I, l, 1, |, i, s or j ("LIL" for L/L, "ngidl" for ng/dl, "UsL", "Gjl" for G/l:
    a slash reaching below the baseline), or lost ("mmolL", "LL"): only when exactly one reading is a
    unit."""
    if "/" in key:
        return None
    printed = re.sub(r"\s+", "", text)
    slashes = {printed[:i] + "/" + printed[i + 1:] for i, char in enumerate(printed)
               if char in "Il1|isjJ" and 0 < i < len(printed) - 1}
    slashes = {s for s in slashes if unit_key(s) in keys}
    if not slashes:
        slashes = {printed[:i] + "/" + printed[i:] for i in range(1, len(printed))}
        slashes = {s for s in slashes if unit_key(s) in keys}
    return slashes.pop() if len(slashes) == 1 else None


def _edge_slash_slip(text: str, key: str, keys: frozenset[str]) -> str | None:
    """A leading slash read as I, l, 1, | or J ("IHPF", "JHPF" for /HPF), and "/l" closed up into one "A"
    ("GA" for G/l, "TA" for T/l)."""
    if "/" in key:
        return None
    printed = re.sub(r"\s+", "", text)
    for reading in (re.sub(r"^[Il1|J](?=[A-Za-z]{2})", "/", printed), re.sub(r"(?<=[A-Za-z])A$", "/l", printed)):
        if reading != printed and unit_key(reading) in keys:
            return reading
    return None


# How OCR reads a micro sign, as printed (case kept: "pu" of "pumol", never "pU" of "pUI").
_MICRO_READINGS = ("yu", "pu", "ju", "ui", "y", "j", "w", "h", "H", "p")


def _micro_slip(text: str, key: str, keys: frozenset[str]) -> str | None:
    """The micro sign read as y, yu, pu, ju, ui, j, w, H or p, at the unit's start or after its
    slash ("yumol/L", "jmol/L", "uimol/l", "wIU/mL", "Hmol/L", "Tsd/yul", "pUI/mL"), perhaps
    with the I of IU read as l ("wlU/mL"): only when exactly one such reading is a unit."""
    printed = re.sub(r"\s+", "", text)
    if len(printed) != len(key):
        return None  # a spelling the key folds ("mcg", "10*3"): positions would not agree
    starts = (0, printed.index("/") + 1) if "/" in printed else (0,)
    readings = set()
    for start, micro in ((s, m) for s in starts for m in _MICRO_READINGS):
        end = start + len(micro)
        if printed.startswith(micro, start) and end < len(printed) and printed[end].isalpha():
            candidate = f"{key[:start]}u{key[end:]}"
            target = candidate if candidate in keys else _fold_target(candidate)
            if target is not None:
                readings.add(printed[:start] + "µ" + _cased(printed[end:], target[start + 1:]))
    return readings.pop() if len(readings) == 1 else None


def _fold_target(key: str) -> str | None:
    """The one lexicon unit `key` is with look-alike glyphs (_OCR_FOLD) put right, or None."""
    return _folded_index().get(key.translate(_OCR_FOLD))


def _cased(printed: str, target: str) -> str:
    """`target` (a lexicon key) in the printed case where the letters agree; an I put back
    for an l or 1 as the capital OCR took for them (IU, UI), a micro sign kept."""
    if len(printed) != len(target):
        return target
    return "".join(p if p.lower().translate(_SUPERSCRIPTS) == t or (p in "µμ" and t == "u")
                   else "I" if t == "i" else t for p, t in zip(printed, target))


def _run_together_slash(text: str, key: str, keys: frozenset[str]) -> str | None:
    """"L/" run together into "U" ("mUmin/1.73m2" for mL/min/1.73m2): only where "U" is no
    unit letter (the key is no unit) and exactly one reading is."""
    slashed = [key[:i] + "l/" + key[i + 1:] for i, char in enumerate(key) if char == "u"]
    slashed = [candidate for candidate in slashed if candidate in keys]
    if len(slashed) != 1:
        return None
    i = next(i for i, char in enumerate(text) if char in "uU" and
             unit_key(text[:i] + "L/" + text[i + 1:]) == slashed[0])
    return re.sub(r"\s+", "", text[:i] + "L/" + text[i + 1:]).rstrip(".,;:")


def _folded_slip(text: str, key: str, keys: frozenset[str]) -> str | None:
    """Letters OCR confuses (_OCR_FOLD), letter for letter, keeping the printed case."""
    target = _folded_index().get(key.translate(_OCR_FOLD))
    printed = re.sub(r"\s+", "", text.rstrip(".,;:"))
    if target is None or len(target) != len(printed):
        return None
    return _cased(printed, target)


# A capital L read as t, b or U on photos ("mg/dt", "g/t", "ng/db", "mU/min/1.73m2").
_LITRE_SLIPS = {"t": "L", "b": "L", "U": "L"}


def _litre_slip(text: str, key: str, keys: frozenset[str]) -> str | None:
    """One letter of _LITRE_SLIPS read for an L: only when exactly one such reading is a unit
    (so "mU/L", itself a unit, never gets here, and no letter is guessed between two units)."""
    printed = re.sub(r"\s+", "", text.rstrip(".,;:"))
    if "/" not in printed:
        return None  # a bare "Ut" is no unit misread: the slips seen are in "x/L"-shaped units
    readings = {printed[:i] + litre + printed[i + 1:] for i, char in enumerate(printed)
                if (litre := _LITRE_SLIPS.get(char)) is not None}
    readings = {reading for reading in readings if unit_key(reading) in keys}
    return readings.pop() if len(readings) == 1 else None


def _lost_litre(text: str, key: str, keys: frozenset[str]) -> str | None:
    """A unit ending in its slash ("G/", "mmol/", "U/"): the thin l after it left no reading
    (the tables' own "mmol/"-like keys are not units, see _lexicon)."""
    printed = re.sub(r"\s+", "", text)
    if printed.endswith("/") and len(printed) > 1 and unit_key(printed + "l") in keys:
        return printed + "l"
    return None


def _descender_slip(text: str, key: str, keys: frozenset[str]) -> str | None:
    """A "j" read from a g's tail where it meets the slash ("mgj/dl", "Gj/l")."""
    printed = re.sub(r"\s+", "", text)
    reading = re.sub(r"(?<=[gG])j(?=/)", "", printed)
    return reading if reading != printed and unit_key(reading) in keys else None


def _twice_read(text: str, key: str, keys: frozenset[str]) -> str | None:
    """One glyph read twice, in both cases ("muUI/" for mUI/l: the U as "uU"), perhaps with
    another slip (a lost l): the capital kept, only when the result is a unit."""
    printed = re.sub(r"\s+", "", text)
    twice = [i for i in range(len(printed) - 1)
             if printed[i] != printed[i + 1] and printed[i].lower() == printed[i + 1].lower()]
    if len(twice) != 1:
        return None
    i = twice[0]
    once = printed[:i] + max(printed[i:i + 2], key=str.isupper) + printed[i + 2:]
    if unit_key(once) in keys:
        return once
    return _lost_litre(once, unit_key(once), keys) or _folded_slip(once, unit_key(once), keys)


@lru_cache(maxsize=1)
def _folded_index() -> dict[str, str | None]:
    """Each folded key's lexicon unit; None where two units fold alike ("ml" and "mi")."""
    index: dict[str, str | None] = {}
    for key in sorted(_lexicon()[0]):
        folded = key.translate(_OCR_FOLD)
        index[folded] = None if folded in index else key
    return index


_GLUED = re.compile(r"^([<>≤≥]?\d[\d.,]*?)(HH|LL|H|L|\*|↑|↓)?([^\d\s.,].*)?$")


def unglue(tokens: list[str]) -> list[str]:
    """A value glued to its flag and unit, as OCR reads tight cells: "116Lpg/mL" -> 116 L
    pg/mL, "16L%" -> 16 L %, "299,738/cumm" -> 299,738 /cumm; only when what follows the
    number (and flag) is a unit of the lexicon."""
    if not tokens:
        return tokens
    m = _GLUED.match(tokens[0])
    if m is None or parse_number(m.group(1).lstrip("<>≤≥")) is None or \
            not (m.group(2) or m.group(3)):
        return tokens
    if m.group(3) is None:  # "6.1H %": the flag glued, the unit apart
        return [m.group(1), m.group(2), *tokens[1:]]
    rest = " ".join([m.group(3), *tokens[1:2]]).rstrip("_.,;")
    unit = m.group(3).rstrip("_.,;")
    if not (is_unit(unit, True) or is_unit(rest, True)):
        return tokens
    return [m.group(1), *([m.group(2)] if m.group(2) else []), unit, *tokens[1:]]
