"""Regenerate the shipped LOINC table from the source files in ../shared/loinc/.

    python -m loinc.build [--source DIR]

Writes `loinc/data/loinc_table.json` (one entry per code: names, parsed parts of the
long common name, rank, example units, curated MIMIC aliases) and the MIMIC hold-out
used only by `benchmarks/loinc.py` (`benchmarks/data/mimic_heldout.tsv`). The split is
by a hash of the printed label, so it is the same on every run; held-out labels never
become aliases. Every MIMIC-mapped code enters the table with its LOINC long name (the
OMOP concept name), the held-out ones too, but without their labels: a full LOINC table
would hold them, and the hold-out then measures matching unseen names, not table coverage.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
import shutil
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"
TABLE_PATH = DATA_DIR / "loinc_table.json"
UNIT_SYNONYMS_PATH = DATA_DIR / "unit_synonyms.json"
SUPPLEMENT_PATH = DATA_DIR / "supplement.tsv"
DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "loinc"
HELDOUT_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "mimic_heldout.tsv"

HELDOUT_PERCENT = 30
LOINC_CODE = re.compile(r"^\d{1,7}-\d$")
UNRANKED = 3000  # the Top 2000 lists use 3000 for "not ranked"
# Classes that are not lab results a report row could carry (ages, report sections, vital signs).
EXCLUDED_CLASSES = {
    "MISC", "CLIN", "OB.US", "PATH", "CYTO", "SPEC", "ATTACH.CLINRPT", "H&P.HX", "SURVEY.RFC",
    "BDYWGT.ATOM", "BDYWGT.MOLEC", "BDYTMP.ATOM", "BDYSURF.ATOM", "HEMODYN.MOLEC", "PULM",
}

# First words of LOINC system (specimen) names, to find where the component ends.
_SYSTEM_HEADS = (
    "Serum", "Plasma", "Blood", "Urine", "Cerebral", "Body", "Pleural", "Peritoneal",
    "Synovial", "Stool", "Bone", "Platelet", "Arterial", "Venous", "Capillary", "Cord",
    "Mixed", "Dried", "Saliva", "Sputum", "Amniotic", "Cervix", "Cervical", "Vaginal",
    "Unspecified", "Red", "Gastric", "Semen", "Sweat", "Tissue", "Hair", "Exhaled",
    "Dialysis", "Pericardial", "Bronchial", "Nasopharynx", "Throat", "Wound", "Skin",
    "Isolate", "Specimen", "Calculus", "Urethra", "Genital", "Respiratory", "Lymph",
    "Vitreous", "Milk", "Meconium", "24", "12", "Erythrocytes", "Leukocytes", "Fluid",
    "Nose", "Anal", "Rectum", "Ascites", "Breath", "Duodenal", "Bile", "Spermatozoa",
)
_SYSTEM_RE = re.compile(r" (?:in|of) (?=(?:unspecified time )?(?:%s)\b)" % "|".join(_SYSTEM_HEADS))
_PROPERTY_RE = re.compile(r"\s*\[([^\]]+)\]")
# Short-name suffixes that name the property when the long name has no bracket.
_SHORT_PROPERTY = {
    "mCnc": "Mass/volume", "sCnc": "Moles/volume", "cCnc": "Catalytic activity/volume",
    "aCnc": "Units/volume", "nCnc": "#/volume", "NFr": "Number fraction",
    "MFr": "Mass fraction", "VFr": "Volume fraction", "SFr": "Moles fraction",
    "mRto": "Mass ratio", "sRto": "Molar ratio", "ArVRat": "Volume rate/area",
}


# MIMIC-IV map rows whose code names another test: "Anti-Microsomal Antibody" is the thyroid
# microsomal (thyroperoxidase) antibody, not 8077-0 "Mitochondria Ab"; as an alias it drew
# "Anti-TPO Antibodies" to the mitochondria code.
MIMIC_MISMAPPED = {("Anti-Microsomal Antibody", "8077-0")}


def parse_long_name(long_name: str) -> dict[str, str]:
    """Split a long common name into component, property, system, method and timing."""
    text = long_name
    timing = ""
    if " --" in text:
        text, timing = text.split(" --", 1)
    prop = ""
    found = _PROPERTY_RE.search(text)
    if found:
        prop = found.group(1)
        text = text[: found.start()] + text[found.end():]
    method = ""
    system = ""
    cut = [m for m in _SYSTEM_RE.finditer(text)]
    if cut:
        start = cut[-1]
        component = text[: start.start()]
        rest = text[start.end():]
    else:
        component, rest = text, ""
        if " by " in component:
            component, method = component.split(" by ", 1)
    if rest:
        if " by " in rest:
            system, method = rest.split(" by ", 1)
        else:
            system = rest
    return {
        "component": component.strip(),
        "property": prop.strip(),
        "system": system.strip(),
        "method": method.strip(),
        "timing": timing.strip(),
    }


def property_from_short_name(short_name: str) -> str:
    for token in re.split(r"[\s\-]+", short_name):
        if token in _SHORT_PROPERTY:
            return _SHORT_PROPERTY[token]
    if re.search(r"(^|\s)#(\s|$)", short_name):
        return "#/volume"
    return ""


def label_key(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", label.lower()).strip()


def is_heldout(label: str) -> bool:
    """Split by the printed label (not the itemid): MIMIC repeats labels across itemids and
    fluids, and a held-out name must never be an alias under another itemid."""
    digest = hashlib.sha1(label_key(label).encode()).hexdigest()
    return int(digest[:8], 16) % 100 < HELDOUT_PERCENT


def _read_top2000(path: Path) -> dict[str, dict]:
    out: dict[str, dict] = {}
    with path.open(newline="", encoding="utf-8-sig") as handle:
        for row in csv.DictReader(handle):
            code = row["LOINC #"].strip()
            out[code] = {
                "long_name": row["Long Common Name"].strip(),
                "short_name": row["Short Name"].strip(),
                "cls": row["CLASS"].strip(),
                "rank": int(row["Rank"]),
            }
    return out


def _read_supplement(components: dict[str, str]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for line in SUPPLEMENT_PATH.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        code, long_name, short_name, cls = line.split("\t")
        component = components.get(code)
        parsed = parse_long_name(long_name)["component"]
        if component is None or component.lower() != parsed.lower():
            raise ValueError(f"supplement code {code}: LOINC component {component!r} != {parsed!r}")
        out[code] = {"long_name": long_name, "short_name": short_name, "cls": cls, "rank": UNRANKED}
    return out


def _read_mimic(path: Path) -> tuple[list[dict], list[dict]]:
    train: list[dict] = []
    heldout: list[dict] = []
    with path.open(newline="", encoding="utf-8-sig") as handle:
        for row in csv.DictReader(handle):
            itemid = row["itemid (omop_source_code)"].strip()
            item = {
                "itemid": itemid,
                "label": row["label"].strip(),
                "fluid": row["fluid"].strip(),
                "category": row["category"].strip(),
                "unit": row["valueuom"].strip(),
                "code": row["omop_concept_code"].strip(),
                "concept_name": row["omop_concept_name"].strip(),
            }
            if not label_key(item["label"]):
                continue
            (heldout if is_heldout(item["label"]) else train).append(item)
    return train, heldout


def build(source: Path) -> dict:
    us = _read_top2000(source / "LOINC_1.6_Top2000CommonLabResultsUS.csv")
    si = _read_top2000(source / "LOINC_1.6_Top2000CommonLabResultsSI.csv")
    components: dict[str, str] = {}
    with (source / "razsh98_LoincTableCore_num_component.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            components[row["LOINC_NUM"].strip()] = row["COMPONENT"].strip()
    example_units = json.loads((source / "lhncbc_loinc_unit_v2.67.json").read_text())
    train, heldout = _read_mimic(source / "mimic_d_labitems_to_loinc.csv")

    entries: dict[str, dict] = {}
    for listing in (us, si):
        for code, row in listing.items():
            entry = entries.setdefault(code, {**row, "ranks": [], "lists": []})
            entry["ranks"].append(row["rank"])
            entry["lists"].append("US" if listing is us else "SI")
    for code, row in _read_supplement(components).items():
        if code in entries:  # a listed code whose class hides a result ("Color of Urine" is SPEC)
            entries[code]["cls"] = row["cls"]
            continue
        # "common": picked by hand as in common use, though no Top 2000 rank says how common.
        entries.setdefault(code, {**row, "ranks": [], "lists": ["common"]})
    for item in train:
        code = item["code"]
        if not LOINC_CODE.match(code) or not item["concept_name"] or (item["label"], code) in MIMIC_MISMAPPED:
            continue
        entry = entries.setdefault(
            code,
            {"long_name": item["concept_name"], "short_name": "", "cls": "", "rank": UNRANKED,
             "ranks": [], "lists": []},
        )
        entry.setdefault("aliases", []).append([item["label"], item["fluid"], item["unit"]])
    for item in heldout:  # the code and its LOINC name only; the printed label stays unseen
        if LOINC_CODE.match(item["code"]) and item["concept_name"]:
            entries.setdefault(item["code"], {"long_name": item["concept_name"], "short_name": "", "cls": "",
                                              "rank": UNRANKED, "ranks": [], "lists": []})

    table = []
    for code, entry in sorted(entries.items(), key=lambda kv: (min(kv[1]["ranks"] or [UNRANKED]), kv[0])):
        if entry["cls"] in EXCLUDED_CLASSES:
            continue
        parts = parse_long_name(entry["long_name"])
        if not parts["property"]:
            parts["property"] = property_from_short_name(entry["short_name"])
        rank = min(entry["ranks"] or [UNRANKED])
        table.append({
            "code": code,
            "long_name": entry["long_name"],
            "short_name": entry["short_name"],
            "cls": entry["cls"],
            "rank": None if rank >= UNRANKED else rank,
            "lists": entry["lists"],
            "loinc_component": components.get(code, ""),
            **parts,
            "units": example_units.get(code, []),
            "aliases": entry.get("aliases", []),
        })
    return {"table": table, "heldout": heldout}


def _unit_synonyms(source: Path) -> dict[str, str]:
    synonyms = json.loads((source / "lhncbc_unit_to_ucum_mapping.json").read_text())
    with (source / "miracum_unit_synonyms.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            synonyms.setdefault(row["NOT_UCUM"].strip(), row["UCUM"].strip())
    return synonyms


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    args = parser.parse_args(argv)
    built = build(args.source)
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    TABLE_PATH.write_text(json.dumps({"version": "LOINC Top2000 1.6 + MIMIC-IV map", "entries": built["table"]},
                                     separators=(",", ":")))
    UNIT_SYNONYMS_PATH.write_text(json.dumps(_unit_synonyms(args.source), indent=0, sort_keys=True))
    shutil.copyfile(args.source / "README.md", DATA_DIR / "SOURCES.txt")
    HELDOUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    with HELDOUT_PATH.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t")
        writer.writerow(["itemid", "label", "fluid", "category", "unit", "code"])
        for item in built["heldout"]:
            if item["code"] and not LOINC_CODE.match(item["code"]):
                item["code"] = ""  # MIMIC has a few placeholder codes such as "-56064"
            writer.writerow([item["itemid"], item["label"], item["fluid"], item["category"],
                             item["unit"], item["code"]])
    print(f"{len(built['table'])} codes -> {TABLE_PATH}; {len(built['heldout'])} held-out labels -> {HELDOUT_PATH}")


if __name__ == "__main__":
    main()
