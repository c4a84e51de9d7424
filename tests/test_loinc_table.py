import json
from pathlib import Path

import pytest

from loinc import build
from loinc.table import TABLE_PATH, load_table, specimen_group


def test_parse_long_name_reads_the_parts():
    parts = build.parse_long_name("Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation")
    assert parts == {"component": "Cholesterol in LDL", "property": "Mass/volume",
                     "system": "Serum or Plasma", "method": "calculation", "timing": ""}
    parts = build.parse_long_name("Glucose [Mass/volume] in Serum or Plasma --fasting")
    assert (parts["component"], parts["timing"]) == ("Glucose", "fasting")
    parts = build.parse_long_name("Hematocrit [Volume Fraction] of Blood by Automated count")
    assert (parts["component"], parts["system"]) == ("Hematocrit", "Blood")
    assert build.parse_long_name("Neutrophils/100 leukocytes in Blood")["system"] == "Blood"


def test_short_name_gives_the_property_when_the_long_name_has_none():
    assert build.property_from_short_name("Hgb A1c MFr Bld") == "Mass fraction"
    assert build.property_from_short_name("Creat SerPl-mCnc") == "Mass/volume"


def test_split_is_by_label_and_stable():
    assert build.is_heldout("Creatinine") == build.is_heldout("creatinine ")
    labels = [f"label {i}" for i in range(1000)]
    share = sum(map(build.is_heldout, labels)) / len(labels)
    assert 0.2 < share < 0.4


def test_shipped_table_loads_with_parsed_fields():
    entries = {entry.code: entry for entry in load_table()}
    hemoglobin = entries["718-7"]
    assert hemoglobin.component == "Hemoglobin" and hemoglobin.property == "Mass/volume"
    assert hemoglobin.specimen == "blood" and "mass_conc" in hemoglobin.kinds
    assert entries["2160-0"].rank == 1
    assert entries["3091-6"].long_name.startswith("Urea [Mass/volume]")  # from supplement.tsv
    assert "19145-2" not in entries  # "Reference lab test name" is not a lab result


def test_licence_notice_ships_next_to_the_table():
    notice = (TABLE_PATH.parent / "LICENSE-LOINC.txt").read_text()
    assert "Regenstrief Institute" in notice and "https://loinc.org/license" in notice


@pytest.mark.parametrize(
    ("system", "group"),
    [("Serum or Plasma", "serum_plasma"), ("Arterial blood", "blood"), ("24 hour Urine", "urine"),
     ("Pleural fluid", "pleural"), ("Cerebral spinal fluid", "csf"), ("", "unspecified")],
)
def test_specimen_groups(system, group):
    assert specimen_group(system) == group


def test_build_reproduces_the_shipped_table():
    # The sources are the contract's (../shared/loinc), always beside a clone in CI: fail, never skip.
    assert build.DEFAULT_SOURCE.is_dir(), f"LOINC sources missing: {build.DEFAULT_SOURCE}"
    shipped = json.loads(TABLE_PATH.read_text())["entries"]
    assert build.build(build.DEFAULT_SOURCE)["table"] == shipped
