"""Regenerate the shipped UCUM table from the source files in ../shared/loinc/.

    python -m loinc.ucum_build [--source DIR]

Writes `loinc/data/ucum_units.json`:
- `valid`: every code the sources call UCUM (the LHNCBC map's targets, the MIRACUM
  synonyms' UCUM column, the LHNCBC example units of every LOINC code);
- `spellings`: folded spelling (`loinc.ucum.fold`) -> code. A valid code stands for itself
  (when codes differ only in case, the one the LOINC example units use most wins: `mg/dL`
  over `mg/dl`); the sources' free-text spellings point to their UCUM code. A spelling the
  sources map to two different codes is left out: it has no sure form.
The labunits analytes (printed traditional and SI units) are the check: the build prints
which of them still find no code.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from loinc.ucum import TABLE_PATH, fold, to_ucum

DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "loinc"
LHNCBC_MAP = "lhncbc_unit_to_ucum_mapping.json"
LHNCBC_EXAMPLES = "lhncbc_loinc_unit_v2.67.json"
MIRACUM_SYNONYMS = "miracum_unit_synonyms.tsv"
LABUNITS = "labunits_0.2.1_analytes.json"
# Source spellings that are not sure on an English report: "Units" may be U, [IU] or
# arbitrary units (MIRACUM maps the German lab word to [arb'U]).
UNSURE_SPELLINGS = {"units"}


def read_sources(source: Path) -> tuple[dict[str, str], list[tuple[str, str]], Counter]:
    """(LHNCBC map, MIRACUM synonym pairs, how often each example unit is used by LOINC codes)."""
    lhncbc = json.loads((source / LHNCBC_MAP).read_text(encoding="utf-8"))
    with (source / MIRACUM_SYNONYMS).open(encoding="utf-8", newline="") as handle:
        miracum = [(row["NOT_UCUM"], row["UCUM"]) for row in csv.DictReader(handle, delimiter="\t")]
    examples = json.loads((source / LHNCBC_EXAMPLES).read_text(encoding="utf-8"))
    usage = Counter(unit for code, units in examples.items() if code != "version" for unit in units)
    return lhncbc, miracum, usage


_BRACES = re.compile(r"\{[^{}]*\}")


def ucum_syntax_ok(code: str) -> bool:
    """A cheap syntax check on what the sources call UCUM: printable ASCII, no spaces outside
    {annotations}, no '^' (print form, not a code), balanced brackets. Catches the sources'
    slips such as `10^3/µL`; it does not prove a code valid."""
    bare = _BRACES.sub("", code)
    if not code or not code.isascii() or re.search(r"\s|\^|[{}]", bare):
        return False
    return bare.count("[") == bare.count("]") and bare.count("(") == bare.count(")")


def build_table(source: Path) -> tuple[dict, list[str]]:
    """The table and the build's notes (dropped spellings, unmapped labunits units)."""
    lhncbc, miracum, usage = read_sources(source)
    named = {code.strip() for code in [*lhncbc.values(), *(ucum for _, ucum in miracum), *usage]}
    valid = {code for code in named if ucum_syntax_ok(code)}
    notes = [f"not UCUM syntax, left out: {sorted(named - valid)}"]

    # A valid code stands for itself; case variants of one code resolve to the most used.
    by_key: dict[str, list[str]] = defaultdict(list)
    for code in valid:
        by_key[fold(code)].append(code)
    spellings = {
        key: max(sorted(codes), key=lambda code: usage[code]) for key, codes in by_key.items()
    }

    # Free-text spellings of the sources, unless the spelling is itself a valid code.
    proposed: dict[str, set[str]] = defaultdict(set)
    for printed, code in [*lhncbc.items(), *miracum]:
        key, code = fold(printed), code.strip()
        if key and code in valid and key not in spellings and key not in UNSURE_SPELLINGS:
            proposed[key].add(spellings[fold(code)])
    for key, codes in sorted(proposed.items()):
        if len(codes) == 1:
            spellings[key] = codes.pop()
        else:
            notes.append(f"dropped {key!r}: the sources disagree ({sorted(codes)})")
    table = {
        "about": "built by `python -m loinc.ucum_build` from ../shared/loinc/ (see module doc)",
        "valid": sorted(valid),
        "spellings": dict(sorted(spellings.items())),
    }
    return table, notes


def labunits_units(source: Path) -> list[str]:
    analytes = json.loads((source / LABUNITS).read_text(encoding="utf-8"))
    units = {a.get(field) for a in analytes.values() for field in ("traditional_units", "si_units")}
    return sorted(unit for unit in units if unit)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="the shared/loinc folder")
    args = parser.parse_args(argv)
    table, notes = build_table(args.source)
    TABLE_PATH.write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    to_ucum.cache_clear()
    from loinc import ucum

    ucum._table.cache_clear()
    checked = labunits_units(args.source)
    unmapped = [unit for unit in checked if to_ucum(unit) is None]
    for note in notes:
        print(note)
    print(
        f"{len(table['valid'])} valid codes, {len(table['spellings'])} spellings -> {TABLE_PATH}\n"
        f"labunits check: {len(checked) - len(unmapped)}/{len(checked)} printed units map; "
        f"no sure form: {unmapped}"
    )


if __name__ == "__main__":
    main()
