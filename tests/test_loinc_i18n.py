"""French, German, Italian and Spanish test names against the LOINC table (issue 13)."""

import sys
from pathlib import Path

import pytest

from loinc.annotate import annotate_report
from loinc.table import I18N_ALIASES_PATH, add_i18n_aliases, load_table
from loinc.units import unit_kind
from parser.models import LabReportResult, ReportData

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.loinc_i18n import load_cases  # noqa: E402

LANGUAGES = {"fr", "de", "it", "es"}


def _alias_rows():
    rows = []
    for line in I18N_ALIASES_PATH.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(line.split("\t"))
    return rows


def test_alias_table_is_well_formed_and_every_code_is_shipped():
    codes = {entry.code for entry in load_table()}
    rows = _alias_rows()
    assert len(rows) >= 300
    assert all(len(row) == 4 and row[1] in LANGUAGES and row[2].strip() and row[3].strip() for row in rows)
    assert {row[0] for row in rows} <= codes
    assert len({tuple(row[:3]) for row in rows}) == len(rows), "duplicate alias lines"
    assert {row[1] for row in rows} == LANGUAGES


def test_a_bare_name_names_its_analyte_and_a_name_with_a_specimen_only_that_specimen():
    entries = {entry.code: entry for entry in load_table()}
    labels = lambda code: {label for label, _fluid, _unit in entries[code].aliases}  # noqa: E731
    assert "Créatinine" in labels("2160-0") and "Créatinine" in labels("14682-9")  # mass and moles
    assert "Créatinine" in labels("2161-8")  # as "Creatinine" names urine creatinine too
    assert "Créatinine urinaire" in labels("2161-8") and "Créatinine urinaire" not in labels("2160-0")
    assert "Neutrófilos" in labels("770-8") and "Neutrófilos" in labels("751-8")  # per cent and count


@pytest.mark.parametrize("name, unit, code", [
    ("Kalium im Urin", "mmol/l", "2828-2"),  # the specimen words of the row choose the code
    ("Potasio en orina", "mmol/L", "2828-2"),
    ("Kalium im Serum", "mmol/l", "2823-3"),
    ("Potassio nel siero", "mmol/L", "2823-3"),
])
def test_specimen_words_in_other_languages(name, unit, code):
    from loinc.matcher import get_matcher

    assert get_matcher().match(name, unit).matches[0][0].code == code


def test_aliases_for_codes_missing_from_a_reduced_table_are_skipped():
    entries = [e for e in load_table() if e.code == "718-7"]
    entries[0].aliases = []
    add_i18n_aliases(entries)
    assert {"Hémoglobine", "Hämoglobin", "Emoglobina", "Hemoglobina"} <= {a[0] for a in entries[0].aliases}


@pytest.mark.parametrize("name, unit, code", [
    ("Créatinine", "µmol/l", "14682-9"),  # the unit picks the substance twin
    ("Créatinine", "mg/l", "2160-0"),
    ("HEMATIES", "T/l", "26453-1"),  # accents and case folded; T/l is a count
    ("Polynucléaires neutrophiles", "G/l", "26499-4"),
    ("Neutrófilos %", "%", "26511-6"),
    ("Globuli bianchi", "10^3/µL", "26464-8"),
    ("Kreatinin", "mg/dl", "2160-0"),
    ("Índice de riesgo cardiovascular", None, "9830-1"),
    ("T.G.M.H.", "pg", "28539-5"),  # French "teneur globulaire moyenne": the MCH
    ("CGMH", "g/L", "28540-3"),  # its concentration: the MCHC
    ("DVE", "%", "30385-9"),  # Quebec French "distribution du volume érythrocytaire": the RDW
    ("VHS", "mm/h", "30341-2"),  # Latin American "velocidad de hemosedimentación": the ESR
    ("Abastonados", "%", "26508-2"),  # Latin American band neutrophils
])
def test_non_english_names_reach_their_code(name, unit, code):
    report = ReportData(results=[LabReportResult(test_name=name, value="1", units=unit)])
    annotate_report(report)
    [result] = report.results
    assert result.test_name == name  # printed name kept
    best = result.loinc_matches[0]
    assert best.loinc_code == code
    entry = next(e for e in load_table() if e.code == code)
    assert best.display_name == entry.display_name  # the LOINC (English) name, not the alias


def test_giga_and_tera_per_litre_are_counts_but_grams_are_not():
    assert unit_kind("G/l") == unit_kind("T/l") == "count_conc"
    assert unit_kind("g/l") == unit_kind("G/L") == "mass_conc"  # capitals: a report in upper case


def test_evaluation_names_are_not_aliases_verbatim():
    aliases = {row[2] for row in _alias_rows()}
    cases = load_cases()
    assert len(cases) >= 120 and {c.language for c in cases} == LANGUAGES
    assert not [c.name for c in cases if c.name in aliases]


@pytest.mark.parametrize("which", ["dev", "fresh"])
def test_top1_on_name_variants_meets_the_issue_target(which):
    from benchmarks.loinc_i18n import evaluate
    from loinc.matcher import get_matcher

    figures = evaluate(get_matcher(), [c for c in load_cases() if c.set == which])["all"]
    assert figures["top1"] / figures["n"] >= 0.80, figures["misses"]


@pytest.mark.parametrize("name", ["Quick", "Quick-Wert", "Taux de prothrombine", "Attività protrombinica",
                                  "Actividad de protrombina", "Índice de Quick"])
def test_the_prothrombin_time_in_percent_is_the_pt_ratio_not_factor_ii(name):
    """Quick / taux de prothrombine / attività protrombinica in %: the prothrombin time as a percentage
    of normal (5894-1), never the activity of coagulation factor II (3289-6, which MIMIC's "Factor II" is)."""
    from loinc.matcher import get_matcher

    found = get_matcher().match(name, "%")
    assert found.matches[0][0].code == "5894-1"
    assert found.status == "auto_match"


@pytest.mark.parametrize("name, unit, codes", [
    ("POLY. NEUTROPHILES", "%", {"26511-6", "770-8"}), ("POLY. EOSINOPHILES", "G/l", {"26449-9", "711-2"}),
    ("Poly. basophiles", "%", {"30180-4", "706-2"}), ("PNN", "G/L", {"26499-4", "751-8"}),
])
def test_french_granulocytes_abbreviated_as_poly_or_pn(name, unit, codes):
    """'Polynucléaires' abbreviated ('Poly.', 'PNN', 'PNE', 'PNB') names the same granulocytes."""
    from loinc.matcher import get_matcher

    found = get_matcher().match(name, unit)
    assert found.status == "auto_match" and found.matches[0][0].code in codes
