"""Printed units -> the kind of quantity they measure (the canonical spelling is the parser's:
parser.units.canonical_unit, one set of spelling rules for every reader of units).

The kind is what lets a unit rule a LOINC code in or out: mg/dL is a mass
concentration, mmol/L a substance concentration, x10^3/uL a count, % a fraction.
Kinds are coarse on purpose: two units of the same kind never contradict each other.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from parser.units import canonical_unit

_SYNONYMS_PATH = Path(__file__).parent / "data" / "unit_synonyms.json"

MASS_CONC = "mass_conc"
MOLAR_CONC = "molar_conc"
COUNT_CONC = "count_conc"
COUNT_AREA = "count_area"
FRACTION = "fraction"
MOLAR_FRACTION = "molar_fraction"  # mmol/mol: HbA1c by IFCC; a mass-fraction code (%) cannot carry it
ARB_UNITS = "units"  # enzyme and arbitrary (IU, U) activity per volume
ENTITIC_VOLUME = "entitic_volume"
ENTITIC_MASS = "entitic_mass"
TIME = "time"
VELOCITY = "velocity"
PRESSURE = "pressure"
RATIO = "ratio"
AMOUNT_RATE = "amount_rate"
VOLUME_RATE = "volume_rate"
OSMOLALITY = "osmolality"
TITER = "titer"
ORDINAL = "ordinal"  # presence, type, identifier: reported without a unit

# LOINC property (as printed in the long name's brackets) -> kind.
PROPERTY_KINDS = {
    "mass/volume": MASS_CONC,
    "moles/volume": MOLAR_CONC,
    "#/volume": COUNT_CONC,
    "log #/volume": COUNT_CONC,
    "#/area": COUNT_AREA,
    "number fraction": FRACTION,
    "mass fraction": FRACTION,
    "volume fraction": FRACTION,
    "moles fraction": FRACTION,
    "molar fraction": FRACTION,
    "catalytic activity/volume": ARB_UNITS,
    "enzymatic activity/volume": ARB_UNITS,
    "units/volume": ARB_UNITS,
    "arbitrary units/volume": ARB_UNITS,
    "entitic volume": ENTITIC_VOLUME,
    "entitic mass": ENTITIC_MASS,
    "time": TIME,
    "velocity": VELOCITY,
    "partial pressure": PRESSURE,
    "mass ratio": RATIO,
    "molar ratio": RATIO,
    "ratio": RATIO,
    "mass/time": AMOUNT_RATE,
    "moles/time": AMOUNT_RATE,
    "volume rate/area": VOLUME_RATE,
    "volume rate": VOLUME_RATE,
    "titer": TITER,
    "presence": ORDINAL,
    "identifier": ORDINAL,
    "type": ORDINAL,
    "finding": ORDINAL,
    "interpretation": ORDINAL,
    "susceptibility": ORDINAL,
}

_MASS = r"(?:k?g|mg|ug|ng|pg)"  # as canonical_unit spells them: "mcg" is ug, "gm/" g/
_VOL = r"(?:l|dl|ml|ul|100ml)"
# An ESR's millimetres in the first hour as labs print it: "mm/hr", "mm/1st hour", "mm in 1st hr",
# Spanish "mm/1ª h", French "mm/1ère h", German "mm/Std." and "mm/1. Std.", "mm/60 min".
ESR_PER_HOUR = re.compile(r"^mm ?(?:/|in) ?(?:1 ?(?:st|a|ère|re|e|\.)? ?)?(?:h|hr|hour|heure|std|stunde|60 ?min)$")
_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(?:%|percent|pct|%\{.*\}|/100\{?\w*\}?|/100\w*)$"), FRACTION),
    (re.compile(r"^l/l$"), FRACTION),  # a volume fraction (haematocrit in SI)
    # A percentage that names its whole: "% of total Hgb" (HbA1c), "% of WBC", "%Hb" (as canonical: no spaces).
    (re.compile(r"^%(?:of(?:total)?[a-z]+|(?:total)?(?:hb|hgb|thb|hemoglobin|haemoglobin|wbc|leukocytes?|leucocytes?))$"),
     FRACTION),
    (re.compile(r"^(?:mmol|umol)/mol$"), MOLAR_FRACTION),
    (re.compile(r"^(?:mg|g|gm)%$"), MASS_CONC),
    (re.compile(rf"^{_MASS}/{_VOL}$"), MASS_CONC),
    (re.compile(rf"^(?:m|u|n|p|f)?(?:mol|eq|meq)/{_VOL}$"), MOLAR_CONC),
    (re.compile(r"^(?:mval|meq)/l$"), MOLAR_CONC),
    (re.compile(r"^(?:m|u|n|k)?(?:\[?iu\]?|u|units?|\[arb'u\]|au|kat|ukat|eu)/{0,1}(?:l|dl|ml|ul)?$"), ARB_UNITS),
    (re.compile(r"^(?:fl|um3|u3|cu ?microns?|femtoliters?)$"), ENTITIC_VOLUME),  # "µ³": a cubic micron is a fL
    (re.compile(r"^(?:pg|pg/cell|picograms?)$"), ENTITIC_MASS),
    (re.compile(r"^(?:s|sec|secs|seconds?|min|mins|minutes?)$"), TIME),
    (ESR_PER_HOUR, VELOCITY),
    (re.compile(r"^(?:mm ?\[?hg\]?|kpa)$"), PRESSURE),
    (re.compile(r"^(?:ratio|\{ratio\}|inr|index|\{index_val\}|mg/g|mg/mmol|mg/g\{creat\}|mg/mg\{creat\})$"), RATIO),
    (re.compile(rf"^{_MASS}/(?:24 ?h(?:r|rs|ours?)?|\(24\.h\)|d|day)$"), AMOUNT_RATE),
    (re.compile(r"^ml/min(?:/1\.73(?:m2|sqm))?$"), VOLUME_RATE),
    (re.compile(r"^m?osm/kg(?:h2o)?$"), OSMOLALITY),
    (re.compile(r"^(?:titer|titre|\{titer\})$"), TITER),
    # Per microscope field in the five languages: "/hpf", "/campo", "p/c" (por campo), "/cga" (campo de gran
    # aumento), "/champ", "/Gesichtsfeld", "/GF": a sediment count per area, never per volume.
    (re.compile(r"(?:/|^x|^per|^por|^par|^pro)(?:hpf|lpf|\[hpf\]|\[lpf\]|campo|champ|gesichtsfeld|gf|field|cga|c\.g\.a)$"),
     COUNT_AREA),
]
# Counts: anything per microlitre/cubic millimetre/litre with a multiplier or a cell word. The thousand
# and million words of the five languages: "Tsd./µl", "Tausend/µl", "miles/mm³", "mila/mm³",
# "milliers/mm³", "Mio./µl" (an abbreviation's dot is dropped first, _count_text).
_COUNT = re.compile(
    r"^(?:(?:x?10[\^*e]?\d+|10\*\d+|\d+(?:\.\d+)?|thou|thousands?|mill?(?:ion)?s?|lakhs?|lacs?|k|m|"
    r"tsd|tausend|miles|mila|milliers|mio|"
    r"cells?|\{cells?\}|\{ery\}|\{rbc\}|\{wbc\}|#|/)\s*)*/?\s*(?:ul|mm3|l|nl|pl)$"
)


@lru_cache(maxsize=1)
def _synonyms() -> dict[str, str]:
    raw = json.loads(_SYNONYMS_PATH.read_text())
    return {canonical_unit(k): canonical_unit(v) for k, v in raw.items()}


# Canonical spelling used for kinds and alias keys ('' when absent): the parser's one set of
# spelling rules, so a unit is keyed alike wherever it is read.
normalize_unit = canonical_unit


# Case-sensitive, before any folding: capital G or T over a lower-case l. An all-capitals
# "G/L" stays as folded (grams on a report printed in capitals).
GIGA_TERA_PER_LITRE = re.compile(r"^\s*([GT])\s*/\s*l\s*$")


# A unit cell that says there is no unit ("N/A", "-"): the row has no unit, not an unreadable one.
_NO_UNIT = re.compile(r"^(?:n/?a|-+|none)$")


def placeholder_unit(unit: str | None) -> bool:
    return bool(unit) and bool(_NO_UNIT.match(normalize_unit(unit)))


@lru_cache(maxsize=4096)
def unit_kind(unit: str | None) -> str | None:
    """Kind of quantity the printed unit measures, or None when it is unknown."""
    text = normalize_unit(unit)
    if not text:
        return None
    if GIGA_TERA_PER_LITRE.match(unit) or text == "t/l":  # French counts: "G/l" is 10^9/l, unlike "g/l";
        return COUNT_CONC                                 # "T/L" in any case (no tonnes per litre)
    for candidate in (text, _synonyms().get(text, "")):
        if not candidate:
            continue
        for pattern, kind in _RULES:
            if pattern.search(candidate):
                return kind
        if _COUNT.match(_count_text(candidate).replace("x10", "10")):
            return COUNT_CONC
    return None


_WORD_DOT = re.compile(r"(?<=[a-z])\.(?=/)")


def _count_text(text: str) -> str:
    """"tsd./ul" -> "tsd/ul": the dot of an abbreviated multiplier word says nothing of the unit."""
    return _WORD_DOT.sub("", text)


def property_kind(prop: str) -> str | None:
    return PROPERTY_KINDS.get(prop.strip().lower())


def unit_kinds(unit: str | None) -> frozenset[str]:
    """Every kind the printed unit may measure: "g/L" and "G/L" are grams per litre, or on a cell
    count (French and German reports) giga-cells per litre; the code's property chooses."""
    kind = unit_kind(unit)
    if kind is None:
        return frozenset()
    if kind == MASS_CONC and normalize_unit(unit) == "g/l":
        return frozenset({MASS_CONC, COUNT_CONC})
    return frozenset({kind})


# Count magnitudes: a multiplier word or power of ten over a volume, as cells per litre.
_PER_VOLUME = {"ul": 1e6, "mm3": 1e6, "nl": 1e9, "pl": 1e12, "ml": 1e3, "dl": 10.0,
               "l": 1.0, "hl": 1e-2}
_MULTIPLIER = {"": 1.0, "#": 1.0, "cells": 1.0, "cell": 1.0, "{cells}": 1.0, "thou": 1e3, "thousand": 1e3,
               "thousands": 1e3, "tsd": 1e3, "tausend": 1e3, "miles": 1e3, "mila": 1e3, "milliers": 1e3, "k": 1e3, "mio": 1e6, "mill": 1e6, "million": 1e6, "millions": 1e6,
               "m": 1e6, "mil": 1e6, "lakh": 1e5, "lakhs": 1e5, "lac": 1e5, "lacs": 1e5, "g": 1e9, "gpt": 1e9, "giga": 1e9,
               "t": 1e12, "tpt": 1e12, "tera": 1e12}
_POWER = re.compile(r"^x?10[\^*e]?(\d{1,2})$")


@lru_cache(maxsize=4096)
def count_magnitude(unit: str | None) -> float | None:
    """Cells per litre that one printed count unit stands for ("/nl" 1e9, "Mio/ul" 1e12), or None
    when the unit is no count or its multiplier is unreadable."""
    if COUNT_CONC not in unit_kinds(unit):
        return None
    text = _count_text(normalize_unit(unit))
    if "/" not in text:
        return None
    head, volume = text.rsplit("/", 1)
    per_volume = _PER_VOLUME.get(volume)  # (a canonical unit has no spaces)
    power = _POWER.match(head)
    multiplier = 10.0 ** int(power.group(1)) if power else _MULTIPLIER.get(head)
    if per_volume is None or multiplier is None:
        return None
    return multiplier * per_volume
