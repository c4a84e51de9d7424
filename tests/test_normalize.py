import pytest

from parser.layout import RawRow
from parser.normalize import Context, clean_test_name, normalize_row, repair_number, result_type, split_value
from parser.page import Word


def row(**fields) -> RawRow:
    fields.setdefault("page", 1)
    fields.setdefault("name", "Glucose")
    fields.setdefault("value", "92")
    return RawRow(**fields)


def result(context=None, **fields):
    return normalize_row(row(**fields), context or Context())


@pytest.mark.parametrize(
    "value, kind",
    [("90", "numeric"), ("4,2", "numeric"), ("<0.5", "range"), (">=10", "range"), ("5.4%", "percentage"),
     ("1:40", "ratio"), ("12 sec", "duration"), ("Negative", "boolean"), ("Not Detected", "boolean"),
     ("Non-Reactive", "boolean"), ("Trace", "comment"), ("1+", "comment"), ("Pale Yellow", "comment")],
)
def test_result_types(value, kind):
    assert result_type(value) == kind


@pytest.mark.parametrize(
    "printed, value, flag, units",
    [("13.2 H", "13.2", "H", None), ("H 13.2", "13.2", "H", None), ("13.2*", "13.2", "*", None),
     ("↑13.2", "13.2", "↑", None), ("*11,4", "11,4", "*", None), ("13.2 g/dL", "13.2", None, "g/dL"),
     ("< 0.5", "<0.5", None, None),
     ("Not Detected", "Not Detected", None, None), ("66 L", "66", "L", None),
     ("12,4 +", "12,4", "+", None), ("512 ++", "512", "++", None), ("3,2 -", "3,2", "-", None),
     ("1+", "1+", None, None)],
)
def test_value_cell_splits_glued_flag_and_units(printed, value, flag, units):
    got_value, got_flag, got_units, repaired = split_value(printed)
    assert (got_value, got_flag, got_units, repaired) == (value, flag, units, False)


@pytest.mark.parametrize("token, fixed", [("1O.2", "10.2"), ("l2.5", "12.5"), ("1S0", "150"), ("0.S", "0.5")])
def test_ocr_look_alikes_inside_numbers_are_repaired(token, fixed):
    assert repair_number(token) == fixed


@pytest.mark.parametrize("token", ["Negative", "SO", "O", "AB", "1O.2.3", "Hb"])
def test_words_are_not_turned_into_numbers(token):
    assert repair_number(token) is None


def test_repair_lowers_confidence():
    clean = result(value="10.2")
    repaired = result(value="1O.2")
    assert repaired.value == "10.2"
    assert repaired.extraction_confidence < clean.extraction_confidence == 1.0


@pytest.mark.parametrize(
    "printed, clean",
    [("Hemoglobin*", "Hemoglobin"), ("Glucose ¹", "Glucose"), ("* Sodium", "Sodium"),
     ("TSH Method: CLIA", "TSH"), ("Vitamin B12 (a)", "Vitamin B12"), ("HbA1c:", "HbA1c")],
)
def test_test_names_lose_footnote_marks_and_methods(printed, clean):
    assert clean_test_name(printed) == clean


def test_full_row_with_flag_units_and_range():
    got = result(name="Hemoglobin", value="10.2", flag="L", units="g/dL", range_text="12.0 - 17.5")
    assert (got.test_name, got.value, got.type, got.units, got.min_reference_range,
            got.max_reference_range, got.interpretation, got.is_below_min_range, got.source_flag) == (
        "Hemoglobin", "10.2", "numeric", "g/dL", 12.0, 17.5, "abnormal", True, "L")


def test_units_inside_the_range_cell_are_split_off():
    got = result(value="66", range_text="70-99 mg/dL")
    assert (got.units, got.reference_range_text, got.min_reference_range) == ("mg/dL", "70-99", 70)


@pytest.mark.parametrize("ocr, range_text, units, kept", [
    # The unit glued to the range's last number (OCR closes up the gap, some labs print it so).
    (False, "0 - 6%", "%", "0 - 6"), (True, "0 -25%", "%", "0 -25"), (False, "3.5-5.0g/dL", "g/dL", "3.5-5.0"),
    # A sex-specific range, before the patient's gender is known.
    (False, "M: 4.50 to 5.90 F: 3.90 to 5.10 x10^6/µL", "x10^6/µL", "M: 4.50 to 5.90 F: 3.90 to 5.10"),
    # OCR: a misread unit that repair puts right; a range damaged beyond reading.
    (True, "98 - 107 mmotl/L", "mmol/L", "98 - 107"), (True, "4.0 to 11.0 x10%3/uL", "x10^3/uL", "4.0 to 11.0"),
    (True, "@ to 6 %", "%", "@ to 6"),
])
def test_units_at_the_end_of_a_range_cell_are_split_off(ocr, range_text, units, kept):
    got = result(value="5", range_text=range_text, ocr=ocr)
    assert (got.units, got.reference_range_text) == (units, kept)


@pytest.mark.parametrize("ocr, range_text", [
    (False, "@ to 6 %"),  # printed text that is no range keeps its words
    (False, "4.0 to 11.0 x10%3/uL"),  # never cut inside a unit ("x10%3" + "/uL")
    (True, "Negative"), (True, "(0,27-4,20] Colore Giallo"),
])
def test_range_cells_without_a_trailing_unit_keep_their_text(ocr, range_text):
    got = result(value="5", range_text=range_text, ocr=ocr)
    assert (got.units, got.reference_range_text) == (None, range_text)


def test_out_of_range_column_value_is_abnormal():
    got = result(value="66 L", value_kind="out_of_range", range_text="70-99 mg/dL")
    assert (got.value, got.source_flag, got.interpretation) == ("66", "L", "abnormal")


def test_sex_specific_range_uses_patient_gender():
    male = result(value="14.0", range_text="M: 13-17 F: 12-15", context=Context(gender="male"))
    unknown = result(value="14.0", range_text="M: 13-17 F: 12-15")
    assert (male.min_reference_range, male.max_reference_range) == (13, 17)
    assert (unknown.min_reference_range, unknown.max_reference_range) == (None, None)
    assert unknown.reference_range_text == "M: 13-17 F: 12-15"


def test_qualitative_result_against_expected_text():
    reactive = result(name="HBsAg", value="Reactive", range_text="Non Reactive")
    negative = result(name="Urine Glucose", value="Negative", range_text="Negative")
    assert (reactive.type, reactive.interpretation) == ("boolean", "abnormal")
    assert negative.interpretation == "normal"


@pytest.mark.parametrize(
    "name, value",
    [("Borderline High", "200 - 239"), ("Optimal < 40", "<100"), ("Note", "see below"),
     ("Glucose", "12/03/2024"), ("Remarks", "Indicates presence of antigen in the sample today"),
     ("LDL", "Cholesterol")],
)
def test_non_results_are_rejected(name, value):
    assert result(name=name, value=value) is None


def test_qualitative_results_are_results():
    for value in ("Trace", "1+", "Clear", "Pale Yellow", "Not Detected", "2-4 /hpf", "Positive (+)",
                  "Positive (2+)", "Negative (±)"):
        assert result(name="Urine Protein", value=value) is not None, value


def test_missing_unit_in_a_unit_table_lowers_confidence():
    assert result(value="92", unit_column=True).extraction_confidence < 1.0
    assert result(value="92", unit_column=True, units="mg/dL").extraction_confidence == 1.0


def test_ocr_word_confidence_flows_into_extraction_confidence():
    words = [Word("Glucose", 0, 0, 10, 10, conf=0.6), Word("92", 20, 0, 30, 10, conf=0.95)]
    assert result(words=words).extraction_confidence == pytest.approx(0.6)


def test_sample_type_and_measurement_kind():
    urine = result(name="Protein", value="Trace", panel="URINALYSIS")
    calc = result(name="LDL Cholesterol", value="100", method="Calculated")
    ratio = result(name="Chol/HDL Ratio", value="3.2")
    assert urine.sample_type == "urine"
    assert calc.measurement_kind == "calculated"
    assert ratio.measurement_kind == "ratio"


def test_flag_words_after_qualitative_values_are_split_off():
    got = result(name="Color", value="Dark Yellow Abnormal", range_text="Yellow")
    assert (got.value, got.source_flag, got.interpretation) == ("Dark Yellow", "Abnormal", "abnormal")


def test_qualitative_value_differing_from_expected_text_is_abnormal():
    assert result(name="Urine Protein", value="Trace", range_text="Negative").interpretation == "abnormal"
    assert result(name="Appearance", value="Clear", range_text="Clear").interpretation == "normal"


def test_ocr_unit_slips_are_repaired_only_for_ocr_rows():
    assert result(value="5.3", units="x1043/uL", ocr=True).units == "x10^3/uL"
    assert result(value="2.5", units="ulU/mL", ocr=True).units == "uIU/mL"
    assert result(value="5.3", units="x1043/uL").units == "x1043/uL"


def test_ocr_value_far_outside_its_range_is_doubted():
    slipped = result(name="Potassium", value="41", range_text="3.5 - 5.1", ocr=True)
    printed = result(name="Potassium", value="41", range_text="3.5 - 5.1")
    assert slipped.extraction_confidence < 0.7
    assert printed.extraction_confidence == 1.0


@pytest.mark.parametrize("read, meant", [
    ("HbAlc", "HbA1c"), ("Hemoglobin Alc", "Hemoglobin A1c"), ("HBALC", "HBA1C"),
    ("25-0H Vitamin D", "25-OH Vitamin D"), ("Free 13", "Free T3"), ("FREE 14", "FREE T4"),
    ("C0RTISOL", "CORTISOL"), ("HbAïlc", "HbA1c"), ("HbAic", "HbA1c"), ("HBAIC", "HBA1C"),
    ("C.C.MH.", "C.C.M.H."), ("T.GM.H.", "T.G.M.H."), ("V.GM.", "V.G.M."),
    ("V.G.M.", "V.G.M."), ("LDH.", "LDH."), ("CCMH", "CCMH"), ("CM.", "CM."), ("TSH", "TSH"),
    ("Alcohol", "Alcohol"), ("CA 125", "CA 125"), ("Vitamin B12", "Vitamin B12"), ("PO2", "PO2"),
    ("San—Hemoglobina Alc; fr.sust.", "San—Hemoglobina A1c; fr.sust."), ("TA libre", "T4 libre"),
    ("Srm—y-Glutamiltransferasa; c.cat.", "Srm—γ-Glutamiltransferasa; c.cat."), ("y-GT", "γ-GT"),
    ("VES (1? ora)", "VES (1ª ora)"), ("VES (18 ora)", "VES (1ª ora)"), ("VSG (1? hora)", "VSG (1ª hora)"), ("VSG (1° hora)", "VSG (1° hora)"),
    ("TA", "TA"), ("Gray-GT", "Gray-GT"), ("VES (18 ore)", "VES (18 ore)"), ("FTA-ABS", "FTA-ABS"),
])
def test_ocr_slips_in_test_name_codes_are_repaired(read, meant):
    from parser.normalize import repair_ocr_name

    assert repair_ocr_name(read) == meant


def test_ocr_name_repair_applies_to_ocr_rows_only():
    row = RawRow(page=1, name="HbAlc", value="5.4", units="%", range_text="4.0 - 5.6", ocr=True)
    assert normalize_row(row, Context()).test_name == "HbA1c"
    row.ocr = False
    assert normalize_row(row, Context()).test_name == "HbAlc"


def test_power_unit_micro_misread_as_p_is_microlitre():
    from parser.normalize import repair_unit

    assert repair_unit("x10^6/pL") == "x10^6/µL"


def test_value_cell_with_a_count_unit_whose_caret_ocr_misread():
    row = RawRow(page=1, name="Red Blood Cell Count", value="6.55 x10%12/L (4.50-5.90)", ocr=True)
    result = normalize_row(row, Context())
    assert (result.value, result.units, result.max_reference_range) == ("6.55", "x10^12/L", 5.9)


@pytest.mark.parametrize("name, value, test_name, interpretation", [
    ("PH-WERT erhöht", "9,2", "PH-WERT", "abnormal"), ("AUSSEHEN pathol", "leicht trüb", "AUSSEHEN", "abnormal"),
    ("WBC H", "6", "WBC", "abnormal"),
])
def test_flag_word_read_into_a_capitals_name_is_the_flag(name, value, test_name, interpretation):
    row = RawRow(page=1, name=name, value=value, range_text=None, ocr=True)
    result = normalize_row(row, Context(decimal_comma=True))
    assert (result.test_name, result.interpretation) == (test_name, interpretation)


def test_a_mixed_case_name_ending_in_a_letter_keeps_it():
    row = RawRow(page=1, name="Factor H", value="45", range_text=None)
    assert normalize_row(row, Context()).test_name == "Factor H"


def test_cubic_millimetre_read_with_a_degree_sign():
    row = RawRow(page=1, name="Leucocytes", value="9 980 /mm°", range_text="4 000 - 11 000", ocr=True)
    result = normalize_row(row, Context(decimal_comma=True))
    assert (result.value, result.units, result.min_reference_range) == ("9980", "/mm³", 4000.0)


@pytest.mark.parametrize("printed, name", [("K+", "K+"), ("CL-", "CL-"), ("HCO3-", "HCO3-"), ("Ca++", "Ca++"),
                                           ("Glucose -", "Glucose"), ("Potassium-", "Potassium"), ("CRP-", "CRP")])
def test_an_ions_charge_stays_in_its_name_and_a_dash_after_a_word_goes(printed, name):
    from parser.layout.rows import has_name_letters
    from parser.normalize import plausible_test_name

    assert clean_test_name(printed) == name
    assert plausible_test_name(name) and has_name_letters(name)


def test_a_comparator_glued_to_the_unit_belongs_to_the_range():
    result = normalize_row(RawRow(page=1, name="eGFR (CKD-EPI)", value="92", units="mL/min/1.73m2>", range_text="90"),
                           Context())
    assert (result.units, result.min_reference_range, result.max_reference_range) == ("mL/min/1.73m2", 90.0, None)


def test_a_boxed_flag_read_by_ocr_as_brackets_leaves_the_value():
    # A flag printed in a box after the value: OCR reads the box as brackets, glued to the
    # value or not, and may misread its letter ("1,31 [E]"); the row was rejected as text.
    assert split_value("61[H]")[:2] == ("61", "[H]")
    assert split_value("4,5 [L]")[:2] == ("4,5", "[L]")
    assert split_value("1,31 [E]")[:2] == ("1,31", None)
    assert split_value("Positive [E]")[0] == "Positive [E]"  # only after a number
