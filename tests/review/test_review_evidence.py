"""Evidence checks: relations between rows, flag vs range, unit vs LOINC code, eGFR."""

from __future__ import annotations

import pytest

from parser.models import LabReportResult, ReportData, ResultMetadata
from review import evidence, risk
from tests.review.result_rows import row


def cbc(mch: str, hgb_units: str = "g/dL", hgb: str = "14.0") -> ReportData:
    return ReportData(results=[row("718-7", hgb, hgb_units), row("789-8", "4.67", "x10^6/uL"), row("785-6", mch, "pg")])


def test_mch_agreeing_with_hb_and_rbc_confirms_all_three_rows():
    found = evidence.collect(cbc("30.0"))
    assert all("MCH = Hb/RBC" in item.confirmed for item in found)
    assert not any(item.contradicted for item in found)


def test_a_misread_mch_contradicts_its_parts_where_the_lab_computes():
    report = cbc("38.0")  # 30.0 misread as 38.0
    report.results.append(row("787-2", "91.0", "fL"))  # MCV, with a hematocrit that agrees
    report.results.append(row("4544-3", "42.5", "%"))
    report.results.append(row("786-4", "32.9", "g/dL"))  # MCHC agrees too: this lab computes
    found = evidence.collect(report)
    assert all("MCH = Hb/RBC" in found[i].contradicted for i in range(3))
    assert "MCV = Hct/RBC" in found[3].confirmed


def test_a_report_where_no_relation_holds_contradicts_nothing():
    found = evidence.collect(cbc("38.0"))  # the lab prints numbers that do not follow from each other
    assert not any(item.contradicted for item in found)


def test_units_are_converted_before_comparing():
    assert "MCH = Hb/RBC" in evidence.collect(cbc("30.0", hgb_units="g/L", hgb="140"))[2].confirmed


def test_a_gap_between_agreement_and_contradiction_says_nothing():
    found = evidence.collect(cbc("31.8"))  # 6 % off: rounding cannot explain it, a misread would do more
    assert not any("MCH = Hb/RBC" in item.confirmed + item.contradicted for item in found)


def test_a_repeated_analyte_is_ambiguous_and_not_checked():
    report = cbc("30.0")
    report.results.append(row("718-7", "9.0", "g/dL"))
    assert not any("MCH = Hb/RBC" in item.confirmed + item.contradicted for item in evidence.collect(report))


def test_differential_summing_to_100_confirms_and_far_off_says_nothing():
    codes = ["770-8", "736-9", "5905-5", "713-8", "706-2"]
    good = ReportData(results=[row(c, v, "%") for c, v in zip(codes, ["60", "30", "6", "3", "1"])])
    bad = ReportData(results=[row(c, v, "%") for c, v in zip(codes, ["60", "80", "6", "3", "1"])])
    assert all("differential sums to 100" in item.confirmed for item in evidence.collect(good))
    assert not any("differential sums to 100" in item.contradicted + item.confirmed for item in evidence.collect(bad))


def test_friedewald_ldl_confirms_but_never_contradicts_a_measured_ldl():
    lipids = [row("2093-3", "200", "mg/dL"), row("2085-9", "50", "mg/dL"), row("2571-8", "150", "mg/dL")]
    agree = evidence.collect(ReportData(results=[*lipids, row("13457-7", "120", "mg/dL")]))
    off = evidence.collect(ReportData(results=[*lipids, row("13457-7", "160", "mg/dL")]))
    assert "Friedewald LDL" in agree[3].confirmed
    assert not off[3].contradicted


def test_egfr_checked_against_ckd_epi_2021_with_age_and_sex():
    meta = ResultMetadata(dob="1970-05-20", date_collected="2025-05-20", gender="female")
    computed = evidence.ckd_epi_2021(1.0, 55.0, female=True)
    assert 64 < computed < 67  # published example: 55-year-old woman, creatinine 1.0 mg/dL -> 66
    report = ReportData(metadata=meta, results=[row("2160-0", "1.0", "mg/dL"),
                                                row("98979-8", "66", "mL/min/1.73m2")])
    assert "eGFR from creatinine" in evidence.collect(report)[1].confirmed


@pytest.mark.parametrize(
    ("value", "flag", "agrees"),
    [("150", "H", True), ("50", "H", False), ("85", None, True), ("150", None, None), ("85", "L", False),
     ("85", "Normal", True), ("150", "Normal", False), ("<5", "L", None)],
)
def test_flag_and_range_agreement(value, flag, agrees):
    result = row("2345-7", value, "mg/dL", source_flag=flag, min_reference_range=70.0, max_reference_range=99.0,
                 type="range" if value.startswith("<") else "numeric")
    assert evidence.flag_agrees(result) is agrees


def test_unit_must_fit_the_codes_property():
    assert evidence.unit_fits_code(row("2345-7", "95", "mg/dL")) is True  # glucose mass concentration
    assert evidence.unit_fits_code(row("2345-7", "5.3", "mmol/L")) is False
    assert evidence.unit_fits_code(row("2345-7", "95", None)) is None


@pytest.mark.parametrize(
    ("value", "low", "high", "flag", "agrees"),
    [("3.8", None, 5.0, None, True), ("6.2", None, 5.0, None, None), ("6.2", None, 5.0, "H", True),
     ("95", 60.0, None, None, True), ("45", 60.0, None, None, None), ("45", 60.0, None, "L", True),
     ("95", 60.0, None, "L", False)],
)
def test_a_value_on_the_allowed_side_of_a_one_sided_range_agrees(value, low, high, flag, agrees):
    # "< 5.0" (Chol/HDL ratio) and "> 60" (eGFR): no flag beside a value inside the range is agreement.
    result = row("9830-1", value, None, source_flag=flag, min_reference_range=low, max_reference_range=high)
    assert evidence.flag_agrees(result) is agrees


@pytest.mark.parametrize(
    ("value", "range_text", "flag", "confirms"),
    [("Negative", "Negative", None, True), ("NIL", "Nil", None, True), ("Positive", "Negative", None, False),
     ("Negative", None, None, False), ("Negative", "Negative", "A", False), ("Trace", "Trace", None, False),
     ("Négatif", "Négatif", None, True), ("nicht nachweisbar", "Nicht nachweisbar", None, True),
     ("Positivo", "Negativo", None, False)],
)
def test_a_qualitative_result_equal_to_its_normal_word_confirms_itself(value, range_text, flag, confirms):
    result = row("5804-0", value, None, type="boolean", reference_range_text=range_text, source_flag=flag)
    assert evidence.qualitative_matches_normal(result) is confirms
    assert (evidence.NORMAL_WORD in evidence.collect(ReportData(results=[result]))[0].confirmed) is confirms


def test_a_censored_value_on_the_allowed_side_agrees_with_its_range():
    from review.evidence import flag_agrees

    def row(value, low, high, flag=None):
        return LabReportResult(test_name="x", value=value, type="comment", min_reference_range=low,
                               max_reference_range=high, source_flag=flag)

    assert flag_agrees(row(">90", 60.0, None)) is True  # eGFR ">90" against "> 60"
    assert flag_agrees(row("<0.5", None, 1.0)) is True
    assert flag_agrees(row("<0.5", 0.0, 1.0)) is True
    assert flag_agrees(row(">90", None, 60.0)) is None  # says nothing about a maximum
    assert flag_agrees(row("<30", 60.0, None)) is None
    assert flag_agrees(row(">90", 60.0, None, flag="H")) is None


@pytest.mark.parametrize(("value", "flag", "agrees"), [
    ("52", "+", True), ("21", "-", True), ("90", "++", True), ("30", "+", None), ("52", "-", None), ("30", "-", None)])
def test_a_sign_beside_a_value_on_its_side_of_the_range_agrees_and_never_contradicts(value, flag, agrees):
    from review.evidence import flag_agrees

    result = LabReportResult(test_name="x", value=value, type="numeric", min_reference_range=25.0,
                             max_reference_range=40.0, source_flag=flag)
    assert flag_agrees(result) is agrees


@pytest.mark.parametrize(
    ("value", "range_text", "flag", "agrees"),
    [("Positive", "Negative", "*", True), ("Amber", "Yellow", "A", True), ("Positive", "Negative", None, False),
     ("Negative", "Negative", "*", False), ("Trace", "Trace", "A", False), ("12", "Negative", "H", False)],
)
def test_a_flagged_word_result_other_than_its_normal_word_agrees(value, range_text, flag, agrees):
    result = row("5802-4", value, None, type="boolean", reference_range_text=range_text, source_flag=flag)
    assert evidence.qualitative_flag_agrees(result) is agrees
    found = evidence.collect(ReportData(results=[result]))[0]
    assert ("flag agrees with range" in found.confirmed) is agrees


def test_the_normal_colour_of_urine_confirms_itself():
    result = row("5778-6", "Pale Yellow", None, type="comment", reference_range_text="Pale yellow")
    assert evidence.qualitative_matches_normal(result) is True


@pytest.mark.parametrize(
    ("value", "low", "high", "flag", "interpretation", "contradicts"),
    [("5.0", None, 5.0, None, "abnormal", True),  # "<5.0": the reader excluded the bound, the range text may not
     ("4.2", 3.5, 5.0, None, "abnormal", True), ("6.1", 3.5, 5.0, None, "normal", True),
     ("4.2", 3.5, 5.0, None, "normal", False), ("6.1", 3.5, 5.0, None, "abnormal", False),
     ("4.2", 3.5, 5.0, "H", "abnormal", False),  # a printed flag is the other checks' business
     ("4.2", None, None, None, "abnormal", False), ("4.2", 3.5, 5.0, None, "unknown", False)],
)
def test_an_interpretation_the_value_and_range_contradict_is_a_hard_doubt(value, low, high, flag, interpretation,
                                                                         contradicts):
    result = row("9830-1", value, None, min_reference_range=low, max_reference_range=high, source_flag=flag,
                 interpretation=interpretation)
    assert evidence.interpretation_contradicts(result) is contradicts
    doubts = risk.assess(ReportData(results=[result]))[0].hard_doubts
    assert (evidence.INTERPRETATION_CONTRADICTS in doubts) is contradicts


@pytest.mark.parametrize(
    ("value", "range_text", "flag", "contradicts"),
    [("Yellow", "Yellow Clear", "A", True), ("Negative", "Negative", "*", True), ("Yellow", "Yellow Clear", None, False),
     ("Amber", "Yellow", "A", False), ("Yellowish", "Yellow Clear", "A", False), ("12", "12", "H", False)],
)
def test_a_flagged_word_result_that_is_its_normal_word_contradicts(value, range_text, flag, contradicts):
    result = row("5778-6", value, None, type="comment", reference_range_text=range_text, source_flag=flag)
    assert evidence.qualitative_flag_contradicts(result) is contradicts
    doubts = risk.assess(ReportData(results=[result]))[0].hard_doubts
    assert ("value contradicts range and flag" in doubts) is contradicts


def test_a_comma_before_three_digits_is_read_as_the_range_says():
    from review.plausibility import row_number
    from tests.review.conftest import glucose_row

    gravity = glucose_row(test_name="Specific gravity", value="1,010", units=None, min_reference_range=1.005,
                          max_reference_range=1.030, loinc_matches=[])
    assert row_number(gravity) == 1.010
    assert not evidence.interpretation_contradicts(gravity.model_copy(update={"interpretation": "normal"}))
    platelets = glucose_row(test_name="Platelets", value="250,000", units="/uL", min_reference_range=150000.0,
                            max_reference_range=450000.0, loinc_matches=[])
    assert row_number(platelets) == 250000.0
    # A thousands reading inside its range stays one.
    count = glucose_row(value="4,500", min_reference_range=4000.0, max_reference_range=11000.0)
    assert row_number(count) == 4500.0


def test_a_count_grouped_with_dots_is_read_as_the_range_says():
    """"359.000 /mm³" against "150.000 - 400.000" on a decimal-comma report is 359000 platelets, as
    the parser read the range: read as 359.0 it was implausible and contradicted its "normal"."""
    from review.plausibility import row_number

    platelets = row("26515-7", "359.000", "/mm³", test_name="Plaquetas", min_reference_range=150000.0,
                    max_reference_range=400000.0, reference_range_text="150.000-400.000", interpretation="normal")
    assert row_number(platelets) == 359000.0
    found = evidence.collect(ReportData(results=[platelets]))[0]
    assert not found.contradicted and "plausible for the analyte" in found.confirmed
    low = row("26464-8", "2.600", "/mm³", min_reference_range=4000.0, max_reference_range=11000.0)
    assert row_number(low) == 2600.0
    # A decimal value whose range is of its own size stays as printed ("1.005" specific gravity).
    gravity = row("2965-2", "1.005", None, min_reference_range=1.005, max_reference_range=1.030)
    assert row_number(gravity) == 1.005
