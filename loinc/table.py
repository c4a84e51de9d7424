"""The shipped LOINC table (built by `python -m loinc.build`), loaded into plain entries."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from loinc.units import property_kind, unit_kind

TABLE_PATH = Path(__file__).parent / "data" / "loinc_table.json"
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
    return entries
