"""The real-like fixtures (fixtures/reallike): stored files are what their data produces, every
expected value is printed in the PDF, values and units are plausible, patients are distinct."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pypdfium2
import pytest

from fixtures.catalog import discover
from fixtures.htmlgen.printing import Printer
from fixtures.reallike.build import ROOT, STYLES, batch_of, expected_of, folder_of, print_report, style
from fixtures.reallike.model import Row, Test, interpretation, number

REPORTS = [(name, index, report) for name in STYLES
           for index, report in enumerate(style(name).REPORTS, start=1)]
IDS = [report.stem for _, _, report in REPORTS]
# What a real lab prints as the unit of a number (folded: lower case, µ as u, no spaces).
UNITS = {"%", "g/dl", "g/l", "mg/dl", "mg/l", "mmol/l", "umol/l", "t/l", "g/l", "fl", "pg", "u/l", "ui/l",
         "iu/l", "miu/l", "mui/l", "uiu/ml", "uui/ml", "uu/ml", "ng/ml", "ng/dl", "pg/ml", "ug/l", "ug/dl", "/nl", "mio/ul",
         "tsd/ul", "x10e3/ul", "x10e6/ul", "x10^3/ul", "x10^6/ul", "mill/mm3", "thou/mm3", "ml/min/1.73m2", "ml/min/1,73m2",
         "ml/min/1.73", "mmol/mol", "%oftotalhgb", "10^9/l", "10^12/l", "10*9/l", "10*12/l", "10^3/ul", "10^6/ul",
         "mu/l", "ng/l", "l/l", "mg/mmol", "ml/min", "ml/min/1,73m²", "ml/min/1.73m²", "nmol/l", "pmol/l", "giga/l", "tera/l", "mg/g", "s", "ratio",
         "gm/dl", "cells/cumm", "lakhs/cumm", "mill/cumm", "mil/ul", "x10^9/l", "x10^12/l", "10^3/ul", "cumm", "k/ul", "m/ul", "/cumm", "meq/l", "10^6/ul", "u/l", "xe9/l", "xe12/l", "x10⁶/ul", "x10³/ul", "mm/h", "mui/ml",
         # batches 8 and 9: Cerner "unit/L" and "sec", UK "mL/min/1.73m*2", Canadian / Pakistani x10E9/L, Maghreb and
         # Venezuelan counts per mm³ and the old French µ³ (fL), ESR "mm" (1ère heure) / "mm/1st hr" / "mm/hour" /
         # "mm/1ª h", German /pl, anti-HBs mIU/mL, a urine strip's /µL, urine sediment per high-power field
         "unit/l", "sec", "seg", "ml/min/1.73m*2", "x10e9/l", "x10e12/l", "/mm³", "/mm3", "x10⁶/mm³", "u³", "mm",
         "mm/1sthr", "mm/hour", "mm/1ªh", "/pl", "miu/ml", "/ul", "/hpf", "/campo",
         # batch 10 (Y1): US "mcg/dL" / "mcg/L", Indian / Nepali counts per cumm and "gm%"
         "mcg/dl", "mcg/l", "million/cumm", "millions/cumm", "/cumm", "gm%", "mm/1sthour", "mm/hr",
         # batch 10 (Y2): German laboratory physicians' counts with a dot (de_harz "Tsd./µl", "Mio./µl")
         "tsd./ul", "mio./ul",
         # batch 11 (Z1): a CD4 absolute count in cells per microlitre (zm_kafue)
         "cells/ul",
         # batch 11 (Z2): a Spanish town lab's old count units (es_duero "mill/mm³", "miles/mm³")
         "mill/mm³", "miles/mm³",
         # batch 12 (A2): East-Belgian counts with superscript powers (be_hohesvenn "10³/µl", "10⁶/µl")
         "10³/ul", "10⁶/ul"}

# Word results as labs print them (the fourth batch's urine strips and serology), with a strength; batches 8
# and 9: reactive / non-reactive serology, present / absent, traces, a strip's "2+", a urine's colour and
# appearance, a sediment's "few" and "2-4" per field, a malaria smear's finding.
QUALITATIVE = re.compile(
    r"(negati[fv]e?|n[ée]gatif|negativo|positi[fv]e?|positivo|neg\.|pos\.|(non[- ]?|no )?rea[ck]ti(ve|f|vo)"
    r"|assent[ei]|present[ei]|absent|trace|tracce|trazas|spur|[1-4]\+|escas[ao]s|few|\d{1,2}-\d{1,2}"
    r"|(pale |dark )?(yellow|amber|straw)|amarillo|giallo( paglierino| carico)?"
    r"|((slightly|leggermente|ligeramente) )?(clear|cloudy|turbid|torbido|turbio|claro|limpido)"
    r"|no mps seen|p\. (falciparum|vivax|malariae|ovale) seen)"
    r"( \(\+{1,4}\)| \((pf|pv|pan)\))?", re.I)


def _unit_key(unit: str) -> str:
    return unit.replace("µ", "u").replace("μ", "u").replace(" ", "").lower()


@pytest.mark.parametrize("name,index,report", REPORTS, ids=IDS)
def test_stored_expected_output_is_what_the_data_gives(name, index, report):
    path = ROOT / folder_of(index) / f"{report.stem}.pdf"
    stored = json.loads(Path(f"{path}.expected.json").read_text())
    assert stored == expected_of(style(name), report)
    scan = path.with_name(f"{report.stem}_scan.pdf")
    if scan.exists():
        assert json.loads(Path(f"{scan}.expected.json").read_text()) == stored


def test_printing_the_dev_reports_again_gives_the_stored_bytes():
    """The stored PDFs are what the templates print now (a template edit without a rebuild fails)."""
    with Printer() as printer:
        for name, index, report in REPORTS:
            if index == 1:
                stored = (ROOT / "dev" / f"{report.stem}.pdf").read_bytes()
                assert print_report(printer, style(name), report) == stored, report.stem


def _page_texts(path: Path) -> list[str]:
    pdf = pypdfium2.PdfDocument(str(path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


@pytest.mark.parametrize("name,index,report", REPORTS, ids=IDS)
def test_every_expected_value_is_printed_on_its_page(name, index, report):
    path = ROOT / folder_of(index) / f"{report.stem}.pdf"
    texts = [re.sub(r"\s+", " ", t) for t in _page_texts(path)]
    assert len(texts) == len(report.pages)  # no page spilled over (the printer checks boxes too)
    expected = json.loads(Path(f"{path}.expected.json").read_text())
    for row in expected["results"]:
        page = texts[row["page"] - 1]
        assert re.search(rf"(?<![\d,.]){re.escape(row['value'])}(?![\d])", page), (row["test_name"], row["value"])
        assert row["test_name"].split()[0] in page, row["test_name"]
    meta = expected["metadata"]
    first = texts[0].lower()
    for field in ("patient_first_name", "patient_last_name", "specimen_number"):
        assert meta[field].lower() in first, field


@pytest.mark.parametrize("name,index,report", REPORTS, ids=IDS)
def test_values_are_numbers_in_plausible_units(name, index, report):
    expected = expected_of(style(name), report)
    assert expected["results"], "a report without results"
    for row in expected["results"]:
        if number(row["value"]) is None:  # a word result (urine strip, serology): a word labs print
            # a strip's unit column may stand beside the word ("Negativo mg/dL"): then a plausible unit
            assert QUALITATIVE.fullmatch(row["value"]), row
            assert row["units"] is None or _unit_key(row["units"]) in UNITS, row
            if re.fullmatch(r"\d+-\d+", row["value"]):  # "2-4": cells per field of a urine sediment, never else
                assert _unit_key(row["units"] or "") in ("/hpf", "/campo"), row
            continue
        assert row["units"] is None or _unit_key(row["units"]) in UNITS, row["units"]
        low, high = row["min_reference_range"], row["max_reference_range"]
        if low is not None and high is not None:
            assert low < high, row
        value = number(row["value"])  # a misplaced decimal sign puts the value far from its range
        assert low is None or value >= low / 20, row
        assert high is None or value <= high * 50, row  # markers (CRP, NT-proBNP) rise tens of times
        if row["interpretation"] == "normal":
            assert not row["is_above_max_range"] and not row["is_below_min_range"], row


def test_no_two_reports_share_a_patient_or_a_specimen():
    patients = [(r.patient.first, r.patient.last) for _, _, r in REPORTS]
    specimens = [r.specimen for _, _, r in REPORTS]
    assert len(set(patients)) == len(patients)
    assert len(set(specimens)) == len(specimens)


def test_each_style_has_a_dev_report_and_sealed_ones_with_scans_and_photos():
    found = discover(families=("reallike",))
    for name in STYLES:
        mine = [f for f in found if f.layout == name]
        assert {f.path.parent.name for f in mine} == {"dev", "sealed"}, name
        assert {f.modality for f in mine} == {"digital", "scanned", "photo"}, name
        assert all(f.family == "reallike" for f in mine)


def test_reallike_files_stay_out_of_the_default_discovery():
    assert not [f for f in discover() if f.family == "reallike"]


def test_every_row_has_an_analyte_and_counts_get_count_codes():
    from fixtures.reallike.loinc import acceptable_codes, analyte

    for name, _, report in REPORTS:
        for row in expected_of(style(name), report)["results"]:
            assert analyte(row["test_name"]), row["test_name"]
            codes = acceptable_codes(row)
            if row["units"] in ("G/l", "x10^3/µL", "x10E3/uL") and analyte(row["test_name"]) == "neut":
                assert codes == {"751-8", "26499-4"}, row
            if row["units"] == "%" and analyte(row["test_name"]) == "neut":
                assert "770-8" in codes, row


@pytest.mark.parametrize("name,index,report", [x for x in REPORTS if x[1] == 1], ids=[r.stem for _, i, r in REPORTS if i == 1])
def test_tiered_ranges_print_every_tier_and_the_patients_bound(name, index, report):
    """A range printed over several lines in one cell: every line is on the page, and the bound the
    expected output keeps is one of the printed numbers (the patient's or the normal tier)."""
    path = ROOT / "dev" / f"{report.stem}.pdf"
    texts = [re.sub(r"\s+", " ", t) for t in _page_texts(path)]
    for row in expected_of(style(name), report)["results"]:
        text = row["reference_range_text"] or ""
        if "\n" not in text:
            continue
        for line in text.split("\n"):
            assert re.sub(r"\s+", " ", line) in texts[row["page"] - 1], (row["test_name"], line)
        printed = {float(n.replace(",", ".")) for n in re.findall(r"\d+(?:[.,]\d+)?", text)}  # "13,5": a decimal comma
        for bound in (row["min_reference_range"], row["max_reference_range"]):
            assert bound is None or bound in printed, (row["test_name"], bound)
        assert row["min_reference_range"] is not None or row["max_reference_range"] is not None, row["test_name"]


def test_every_dev_report_has_enough_rows_and_some_styles_repeat_their_header():
    multi = 0
    for name, index, report in REPORTS:
        if index == 1:
            assert len(expected_of(style(name), report)["results"]) >= 15, report.stem
            multi += len(report.pages) > 1
    assert multi >= 3


def test_a_word_result_is_normal_only_when_it_is_the_printed_reference_word():
    strip = Test("Nitrite", None, None, None, "Negative")
    assert interpretation(Row(strip, "negative"), None) == "normal"
    assert interpretation(Row(strip, "Positive"), None) == "unknown"  # differs, no flag: not said
    assert interpretation(Row(strip, "Positive"), "A") == "abnormal"
    assert interpretation(Row(Test("Colour", None, None, None, None), "Yellow"), None) == "unknown"
    assert interpretation(Row(Test("Sediment", "/hpf", 0, 5, "0-5"), "2-4"), None) == "unknown"


def test_a_name_that_is_no_registered_style_has_no_batch():
    assert batch_of("gy_demerara") == "14"
    with pytest.raises(ValueError, match="ug_kololo_1"):
        batch_of("ug_kololo_1")  # a scan's stem: never batch 1 (opened), whose rows benchmarks print
