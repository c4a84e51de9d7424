"""The shipped LOINC table (built by `python -m loinc.build`), loaded into plain entries."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from loinc.names import read_name
from loinc.units import MOLAR_FRACTION, property_kind, unit_kind

TABLE_PATH = Path(__file__).parent / "data" / "loinc_table.json"
I18N_ALIASES_PATH = Path(__file__).parent / "data" / "aliases_i18n.tsv"
UNRANKED = 3000


@dataclass(slots=True)
class Entry:
    code: str
    long_name: str
    short_name: str
    cls: str
    rank: int | None
    lists: list[str]
    component: str
    loinc_component: str      # LOINC's COMPONENT field, spelled as LOINC stores it
    property: str
    system: str
    method: str
    timing: str
    units: list[str]
    aliases: list[list[str]]  # [printed label, fluid, unit] from the curated MIMIC map
    specimen: str = ""        # specimen group of the system (see specimen_group)
    kinds: frozenset[str] = field(default_factory=frozenset)  # unit kinds the code accepts

    @property
    def display_name(self) -> str:
        """Short human label: the component and, when LOINC names one, the specimen."""
        return f"{self.component}, {self.system}" if self.system else self.component


def specimen_group(system: str) -> str:
    """Coarse specimen group of a LOINC system, as report context can name it."""
    text = system.lower()
    if not text:
        return "unspecified"
    if text.startswith(("serum", "plasma", "platelet poor plasma")):
        return "serum_plasma"
    if "urine" in text:
        return "urine"
    if "dried blood" in text:
        return "other"
    if "blood" in text or text.startswith(("red blood", "erythrocytes", "leukocytes")):
        return "blood"
    if "cerebral spinal" in text:
        return "csf"
    if text.startswith("stool"):
        return "stool"
    if text.startswith("bone marrow"):
        return "bone_marrow"
    for fluid in ("pleural", "peritoneal", "synovial"):
        if text.startswith(fluid):
            return fluid
    if "fluid" in text:
        return "body_fluid"
    return "other"


def _kinds(prop: str, units: list[str]) -> frozenset[str]:
    kinds = {kind for kind in [property_kind(prop), *(unit_kind(u) for u in units)] if kind}
    if prop.strip().lower() in ("moles fraction", "molar fraction"):
        kinds.add(MOLAR_FRACTION)  # printed as mmol/mol as well as %
    return frozenset(kinds)


def load_table(path: Path = TABLE_PATH) -> list[Entry]:
    if not path.is_file():
        raise FileNotFoundError(f"LOINC table {path} is missing: regenerate it with `python -m loinc.build`")
    raw = json.loads(path.read_text(encoding="utf-8"))
    entries = []
    for item in raw["entries"]:
        entry = Entry(**item)
        entry.specimen = specimen_group(entry.system)
        entry.kinds = _kinds(entry.property, entry.units)
        entries.append(entry)
    add_i18n_aliases(entries)
    return entries


def add_i18n_aliases(entries: list[Entry], path: Path = I18N_ALIASES_PATH) -> None:
    """French, German, Italian and Spanish report names (data/aliases_i18n.tsv) as aliases.

    A bare analyte name ("Kreatinin") names every code of its analyte, as the English component
    name does, so the row's unit, specimen and panel choose among them; a name that says its
    specimen ("Créatinine urinaire") names only the codes of that analyte and specimen."""
    by_analyte: dict[str, list[Entry]] = {}
    for entry in entries:
        by_analyte.setdefault(_analyte_key(entry), []).append(entry)
    by_code = {entry.code: entry for entry in entries}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        code, _language, name = line.split("\t")[:3]
        if code not in by_code:  # a reduced table (tests); the shipped one has every code
            continue
        entry = by_code[code]
        named = by_analyte[_analyte_key(entry)]
        if read_name(name).specimen is not None:
            named = [e for e in named if e.system == entry.system]
        for twin in named:
            if all(label != name for label, _fluid, _unit in twin.aliases):
                twin.aliases.append([name, "", ""])


# A time as a ratio to the normal one ("Prothrombin time (PT) actual/?Normal": the Quick value in %) is
# named like the time itself: a German "Thromboplastinzeit" printed in % is that ratio, in s the time.
_TO_NORMAL = re.compile(r" actual/\??normal$")


def _analyte_key(entry: Entry) -> str:
    """The analyte whose report names a code shares: "Neutrophils/100 leukocytes" is neutrophils."""
    return _TO_NORMAL.sub("", entry.component.lower().split("/100 ")[0])
