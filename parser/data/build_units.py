"""Build parser/data/units.json, the parser's lexicon of printed unit spellings.

    python parser/data/build_units.py [../shared/loinc]

The parser may not import loinc/, so it keeps its own lexicon, built from the shared unit
data: the lhncbc printed-unit -> UCUM map (keys and values), the MIRACUM unit synonyms
(both columns) and the example units of the lhncbc LOINC unit list, plus the spellings lab
reports print that those tables lack (gm/dl, mill/cumm, lakhs/cumm...). Entries are stored
as lookup keys (see parser.units.unit_key): lower case, no spaces, micro signs as "u".
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from parser.units import unit_key  # noqa: E402  (the same normalisation the reader uses)

# Printed on lab reports but absent from the shared tables.
EXTRA = [
    "gm/dl", "gm%", "g%", "mg%", "mgs/dl", "mill/cumm", "million/cumm", "mill/cmm", "millions/cumm",
    "lakhs/cumm", "lakh/cumm", "thou/cumm", "thousand/cumm", "/cumm", "cumm", "/cmm", "cells/cumm",
    "cells/ul", "cells/mm3", "x10^3/ul", "x10^6/ul", "x10^9/l", "x10^12/l", "10^3/ul", "10^6/ul",
    "10^9/l", "10^12/l", "10*3/ul", "10*6/ul", "10*9/l", "10*12/l", "k/ul", "m/ul", "thou/ul",
    "mil/ul", "g/l", "giga/l", "tera/l", "t/l", "mm/hr", "mm/1st hr", "mm/h", "fl", "pg", "pg/cell",
    "%", "sec", "secs", "seconds", "min", "ratio", "index", "iu/l", "iu/ml", "miu/l", "miu/ml",
    "uiu/ml", "mu/l", "u/l", "u/ml", "ku/l", "kiu/l", "meq/l", "mmol/l", "umol/l", "nmol/l",
    "pmol/l", "mol/l", "mosm/kg", "mosm/l", "ng/ml", "ng/dl", "ng/l", "pg/ml", "ug/dl", "ug/l",
    "ug/ml", "mcg/dl", "mcg/l", "mcg/ml", "mg/l", "mg/dl", "g/dl", "mg/24hrs", "mg/24h", "g/24h",
    "mg/g", "mg/mmol", "ml/min", "ml/min/1.73m2", "ml/min/1.73 m2", "ml/min/1.73m^2", "/hpf",
    "/lpf", "hpf", "lpf", "/ul", "/ml", "/l", "copies/ml", "au/ml", "ru/ml", "index value",
    "s/co", "coi", "titre", "titer", "mmhg", "kpa", "mg/kg", "ug/g", "nmol/mmol", "umol/mmol",
    "ph", "mm3", "/mm3", "10^3/mm3", "10^6/mm3", "g/mol", "µmol/l", "µg/l", "µiu/ml", "µg/dl",
    "kg/m2", "eu/dl", "ehrlich u/dl", "mmol/mol", "umol/min", "units/l", "iu/dl", "cells/hpf",
]
WORD_UNITS = {"cells", "copies", "cumm", "mmhg", "titer", "titre", "secs", "seconds", "units",
              "mmol", "umol", "nmol", "fmol", "kcal"}
MAX_LENGTH = 24  # longer "units" in the tables are descriptions, not printed units


def build(shared: Path) -> list[str]:
    spellings: set[str] = set(EXTRA)
    mapping = json.loads((shared / "lhncbc_unit_to_ucum_mapping.json").read_text())
    spellings.update(mapping)
    spellings.update(v for v in mapping.values() if isinstance(v, str))
    with (shared / "miracum_unit_synonyms.tsv").open(newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            spellings.update(cell for cell in row[:2] if cell and cell != "NOT_UCUM" and cell != "UCUM")
    examples = json.loads((shared / "lhncbc_loinc_unit_v2.67.json").read_text())
    for key, units in examples.items():
        if key != "version" and isinstance(units, list):
            spellings.update(u for u in units if isinstance(u, str))
    keys = set()
    for spelling in spellings:
        # UCUM annotations ({cells}) and bracketed units are written, not printed, that way.
        plain = re.sub(r"\{[^}]*\}", "", spelling).strip()
        if not plain or len(plain) > MAX_LENGTH or not re.search(r"[A-Za-z%µμ/]", plain):
            continue
        if re.search(r"[\[\]]", plain) and not re.fullmatch(r"\[[a-zA-Z_]+\]", plain):
            continue
        keys.add(unit_key(plain))
    # Plain words in the tables (date, years, score, risk...) would read ordinary text as units.
    extra = {unit_key(e) for e in EXTRA}
    return sorted(k for k in keys if k and (k in extra or k in WORD_UNITS
                                            or not re.fullmatch(r"[a-z]{4,}", k)))


def main() -> None:
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parents[2] / "shared" / "loinc"
    keys = build(shared)
    (HERE / "units.json").write_text(json.dumps({"source": "shared/loinc unit tables + EXTRA",
                                                 "keys": keys}, indent=0) + "\n")
    print(f"{len(keys)} unit spellings written to {HERE / 'units.json'}")


if __name__ == "__main__":
    main()
