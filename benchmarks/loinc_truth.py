"""The LOINC codes a generated row should get, known from the analyte the generator drew.

The expected JSON has no LOINC codes (the parser knows nothing of LOINC), so the `fully_right`
figure finds the analyte again from a row's printed name and sample type (every generated name
comes from fixtures/generator/analytes.py) and takes its acceptable codes from here: the
conventional-unit codes, or the SI (moles) ones when the row prints the analyte's SI unit.
Alternatives are the same analyte, property and specimen under a method variant LOINC lists
separately (as in benchmarks/data/labelled_names.tsv); a urinalysis "Blood" row may also be
"Blood [Presence] in Urine" (53963-5, as MIMIC-IV codes it) besides the dipstick's haemoglobin. Rows of real reports have no entry:
`expected_codes` returns None and `fully_right` judges them without the code.
"""

from __future__ import annotations

from functools import lru_cache

from benchmarks.scoring import normalize_name, normalize_unit
from fixtures.generator.analytes import ANALYTES, PANELS

_GFR = "33914-3|48642-3|48643-1|62238-1|98979-8|50044-7|88293-6|88294-4|69405-9|77147-7"
# analyte key -> (codes with conventional units, codes with SI units or None when the same)
CODES: dict[str, tuple[str, str | None]] = {
    "wbc": ("6690-2|26464-8", None), "rbc": ("789-8|26453-1", None), "hgb": ("718-7", None),
    "hct": ("4544-3|20570-8", None), "mcv": ("787-2|30428-7", None), "mch": ("785-6|28539-5", None),
    "mchc": ("786-4|28540-3", None), "rdw": ("788-0|30385-9", None), "plt": ("777-3|26515-7", None),
    "neut": ("770-8|26511-6", None), "lymph": ("736-9|26478-8", None), "mono": ("5905-5|26485-3", None),
    "eos": ("713-8|26450-7", None), "baso": ("706-2|30180-4", None),
    "wbc_cumm": ("6690-2|26464-8", None), "plt_cumm": ("777-3|26515-7", None),
    "glu": ("2345-7|1558-6", "14749-6|14771-0"), "bun": ("3094-0", None), "urea": ("3091-6", "22664-7"),
    "crea": ("2160-0", "14682-9"), "egfr": (_GFR, None), "na": ("2951-2", None), "k": ("2823-3", None),
    "cl": ("2075-0", None), "co2": ("2028-9|1963-8", None), "ca": ("17861-6", "2000-8"),
    "tp": ("2885-2", None), "alb": ("1751-7", None), "tbil": ("1975-2", "14631-6"), "alp": ("6768-6", None),
    "ast": ("1920-8", None), "alt": ("1742-6", None),
    "chol": ("2093-3", "14647-2"), "trig": ("2571-8", "14927-8"), "hdl": ("2085-9", "14646-4"),
    "ldl": ("13457-7|2089-1|18262-6", "22748-8|39469-2"), "nonhdl": ("43396-1", None),
    "cholhdl": ("9830-1", None),
    "tsh": ("3016-3|11580-8", None), "ft4": ("3024-7", "14920-3"), "ft3": ("3051-0", "14928-6"),
    "a1c": ("4548-4|17856-6", "59261-8"), "iron": ("2498-4", "14798-3"), "tibc": ("2500-7", "14800-7"),
    "ferr": ("2276-4", None), "tsat": ("2502-3", None), "vitd": ("1989-3|62292-8", "14635-7"),
    "b12": ("2132-9", "14685-2"), "folate": ("2284-8", "14732-2"), "crp": ("1988-5|30522-7", None),
    "psa": ("2857-1", None),
    "ua_color": ("5778-6", None), "ua_app": ("5767-9", None), "ua_sg": ("5811-5|2965-2", None),
    "ua_ph": ("5803-2|2756-5", None), "ua_prot": ("5804-0|2888-6|20454-5", None),
    "ua_glu": ("5792-7|2350-7|25428-4|2349-9", None), "ua_ket": ("5797-6|2514-8|49779-2|33903-6", None),
    "ua_blood": ("5794-3|53963-5", None), "ua_nit": ("5802-4|32710-6", None), "ua_le": ("5799-2", None),
    "ua_wbc": ("5821-4", None), "ua_rbc": ("13945-1", None),
}


def _unit_key(unit: str | None) -> str | None:
    """A printed unit folded so "gm / dl" and "µmol/L" meet "g/dL" and "umol/L"."""
    text = normalize_unit(unit)
    return None if text is None else text.replace("gm/", "g/")


@lru_cache(maxsize=1)
def _index() -> dict[tuple[str, str], list[str]]:
    """(normalized printed name, sample type) -> analyte keys that print that name."""
    sample_types = {a: PANELS[p].sample_type for p in PANELS for a in PANELS[p].analytes}
    index: dict[tuple[str, str], list[str]] = {}
    for key, analyte in ANALYTES.items():
        for name in analyte.names + ((analyte.long_name,) if analyte.long_name else ()):
            index.setdefault((normalize_name(name), sample_types[key]), []).append(key)
    from fixtures.htmlgen.i18n import NAMES  # the European reports' names (issue 13)

    for key, languages in NAMES.items():
        for name in {name for names in languages for name in names}:
            keys = index.setdefault((normalize_name(name), sample_types[key]), [])
            if key not in keys:
                keys.append(key)
    return index


def expected_codes(row: dict) -> set[str] | None:
    """Acceptable top LOINC codes of an expected row, or None when the row's analyte is unknown."""
    keys = _index().get((normalize_name(row.get("test_name")), row.get("sample_type")), [])
    codes: set[str] = set()
    for key in keys:
        conventional, si = CODES[key]
        analyte_si = ANALYTES[key].si
        uses_si = si and analyte_si and _unit_key(row.get("units")) == _unit_key(analyte_si.unit)
        codes.update((si if uses_si else conventional).split("|"))
    return codes or None
