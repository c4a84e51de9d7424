"""The parser's unit lexicon (parser/data/units.json) and its recogniser."""

import pytest

from parser import units
from parser.units import doubtful_reading, is_unit, repair, split_trailing_unit, tidy, unit_key


@pytest.mark.parametrize("text", [
    "mg/dL", "mg / dl", "gm / dl", "U / L", "µmol/l", "μmol/L", "umol/L", "mcg/dL", "10^9/l",
    "x10³/µL", "10*3/uL", "G/l", "mmol/L", "mill/cumm", "fL", "%", "mL/min/1.73m2", "IU/L",
    "x E9/L", "x E12/L", "xE9/L",  # LifeLabs' E-notation
])
def test_printed_units_are_recognised(text):
    assert is_unit(text)


@pytest.mark.parametrize("text", ["Hemoglobin", "of", "Up to", "13.2", "H", "L", "High",
                                  "Negative", "total", "Date", "years", ""])
def test_words_numbers_and_flags_are_not_units(text):
    assert not is_unit(text)


def test_ocr_slips_are_units_only_when_reading_ocr():
    assert not is_unit("mmo1/L")
    assert is_unit("mmo1/L", ocr=True)


def test_repair_keeps_printed_case_and_fixes_look_alikes():
    assert repair("mmo1/L") == "mmol/L"
    assert repair("g/dI") == "g/dl"
    assert repair("mg/dL") is None  # already a unit


def test_l_slash_run_together_into_u_is_repaired_only_where_u_is_no_unit_letter():
    assert repair("mUmin/1.73m2") == "mL/min/1.73m2"
    assert repair("mUmin/1.73m2_") == "mL/min/1.73m2"  # a rule under the cell read as "_"
    assert repair("mU/L") is None and repair("U/L") is None and repair("uIU/mL") is None


def test_unit_key_folds_spacing_micro_and_powers():
    assert unit_key("µg / dL") == unit_key("ug/dl") == unit_key("mcg/dL")
    assert unit_key("10*9/L") == unit_key("10^9/l")


@pytest.mark.parametrize("text, head, unit", [
    ("65-99 mg/dL", "65-99", "mg/dL"),
    ("Up to 46 U / L", "Up to 46", "U/L"),
    ("<5.7 % of total Hgb", "<5.7", "%"),
    ("13.5 - 18.0", "13.5 - 18.0", None),
    ("0.2 - 1.2 mg/dl Adult", "0.2 - 1.2 mg/dl Adult", None),  # a word after it: not a gloss
])
def test_unit_trailing_a_range(text, head, unit):
    assert split_trailing_unit(text) == (head, unit)


def test_tidy_closes_spaces_around_slash():
    assert tidy("mg / dl") == "mg/dl"


def test_leading_slash_read_as_i_and_slash_l_closed_into_a_are_repaired():
    assert repair("IHPF") == "/HPF" and repair("1cumm") == "/cumm"
    assert repair("GA") == "G/l" and repair("TA") == "T/l"
    assert repair("IU") is None and repair("IgA") is None and repair("A") is None


def test_slash_read_as_i_or_lost_is_repaired_where_one_reading_is_a_unit():
    assert repair("ngidl") == "ng/dl" and repair("mmolL") == "mmol/L" and repair("LL") == "L/L"
    assert repair("Il") is None and repair("mg") is None and repair("IgA") is None


def test_micro_sign_and_f_look_alikes_read_by_ocr_are_repaired():
    assert repair("yumol/L") == "µmol/L"
    assert repair("ymol/L") == "µmol/L"
    assert repair("£L") == "fL"


def test_flag_read_into_the_units_cell_is_split_off():
    from parser.normalize import _flag_before_unit

    assert _flag_before_unit("H = mmol/L") == ("H", "mmol/L")
    assert _flag_before_unit("L/L") is None
    assert _flag_before_unit("L / L") is None


def test_power_of_ten_units_misread_by_ocr_are_repaired_only_for_usual_powers():
    from parser.normalize import repair_unit

    assert repair_unit("x10712/L") == "x10^12/L"  # caret read as 7
    assert repair_unit("x10%12/L") == "x10^12/L"
    assert repair_unit("x10*9;/1") == "x10^9/L"
    assert repair_unit("x1043/uL") == "x10^3/uL"
    assert repair_unit("x107/L") == "x107/L"  # 10^7: not a power counts are printed with


@pytest.mark.parametrize("printed", ["10*9/L", "10*12/L", "10*3/uL", "x10*6/µL"])
def test_a_power_unit_in_ucum_spelling_read_intact_is_kept_as_printed(printed):
    from parser.normalize import repair_unit

    assert repair_unit(printed) == printed  # the OCR stage kept its star: parser.ocr._printed_star


def test_a_ucum_power_unit_with_other_damage_is_still_put_right():
    from parser.normalize import repair_unit

    assert units.damaged_power_unit("x10*3/pL") == "x10^3/µL"  # the micro sign read as p
    assert units.damaged_power_unit("x107*3/1L") == "x10^3/µL"  # a caret read as two marks
    assert repair_unit("10*12/1") == "10^12/l"  # the l read as 1


@pytest.mark.parametrize("damaged, unit", [
    ("ug:/-dl", "ug/dl"), ("mg/-dL", "mg/dL"), ("mg/dL'", "mg/dL"),  # stray marks by the slash
    ("LIL", "L/L"), ("mmolIL", "mmol/L"),  # the slash read as I
    ("jmol/L", "µmol/L"), ("jg/L", "µg/L"),  # the micro sign read as j
])
def test_ocr_damage_around_slash_and_micro_is_repaired(damaged, unit):
    assert repair(damaged) == unit


@pytest.mark.parametrize("text", ["pmol/L", "mmol/L", "IU", "Il"])
def test_repair_leaves_units_and_non_units_alone(text):
    assert repair(text) is None


@pytest.mark.parametrize("damaged, unit", [
    ("mmotl/L", "mmol/L"), ("pmot/L", "pmol/L"), ("mmoLl/L", "mmol/L"), ("mmo1/mo1l", "mmol/mol"),
    ("umotl/L", "umol/L"), ("9/L", "g/L"),
])
def test_mol_and_gram_slips_of_european_ocr_data_are_repaired(damaged, unit):
    assert repair(damaged) == unit


@pytest.mark.parametrize("damaged, unit", [
    ("mg/dt", "mg/dL"), ("g/t", "g/L"), ("ng/db", "ng/dL"), ("mU/min/1.73m2", "mL/min/1.73m2"),  # L read as t, b, U
    ("mmoV/L", "mmol/L"),  # the l of mol read as V
    ("wIU/mL", "µIU/mL"), ("wg/dl", "µg/dl"), ("Hmol/L", "µmol/L"),  # the micro sign read as w or H
    ("UsL", "U/L"),  # the slash read as s
    ("Gjl", "G/l"), ("TJl", "T/l"), ("mgjdl", "mg/dl"),  # the slash read as j, its foot below the line
])
def test_photo_slips_of_litre_micro_and_slash_are_repaired(damaged, unit):
    assert repair(damaged) == unit


@pytest.mark.parametrize("text", ["mU/L", "Ut", "U/L"])
def test_an_l_is_never_guessed_into_a_unit_or_a_bare_word(text):
    assert repair(text) is None


def test_units_ocr_makes_of_common_ones_are_doubted_not_repaired():
    assert all(doubtful_reading(t) for t in ("mol/L", "pg/L", "mg/d", "UL"))
    assert not any(doubtful_reading(t) for t in ("µmol/L", "mmol/L", "pg/mL", "mg/dL", "µg/L", "uL", "U/L"))
    assert repair("pg/L") is None and repair("mol/L") is None


@pytest.mark.parametrize("printed", ["ml/min/1,73 m²", "mL/min/1.73 m2", "ml/min/1,73m²", "mL/min/{1.73_m2}"])
def test_egfr_unit_read_whole(printed):
    assert units.is_unit(printed)
    assert units.split_trailing_unit(f"> 60 {printed}") == ("> 60", printed)


def test_wrapped_unit_runs_on_only_into_a_unit():
    assert units.runs_on("ml/min/1,73", "m²") == "ml/min/1,73 m²"
    assert units.runs_on("mL/min/1.73", "m2") == "mL/min/1.73 m2"
    assert units.runs_on("mg/dL", "H") is None
    assert units.runs_on("mg/dL", "") is None


def test_e_notation_counts_read_as_powers_of_ten():
    assert unit_key("x E9/L") == unit_key("x10^9/L") and unit_key("x E12/L") == unit_key("x10^12/L")


@pytest.mark.parametrize("spellings, key", [
    (("x E9/L", "E9/L", "x10^9/L", "10*9/l", "x10⁹/L", "10**9/L", "× 10^9 / L"), "10^9/l"),
    (("x E12/L", "10^12/L", "x10E12/L"), "10^12/l"),
    (("10³/µL", "x10^3/uL", "x 10*3/μl", "10e3/mcL"), "10^3/ul"),
    (("mUI/ml", "mIU/mL", "mIE/ml", "m[IU]/mL"), "miu/ml"),
    (("/cumm", "/cmm", "/cu.mm", "/mm³"), "/mm3"),
    (("mL/min/1,73 m²", "ml/min/{1.73_m2}", "mL/min/1.73m^2", "mL/min/1.73 m?"), "ml/min/1.73m2"),
    (("mcg/dL", "µg/dL", "ug / dl"), "ug/dl"),
    (("gm/dL", "g/dL"), "g/dl"),
])
def test_spellings_of_one_unit_have_one_canonical_key(spellings, key):
    assert {units.canonical_unit(spelling) for spelling in spellings} == {key}


def test_canonical_key_keeps_units_apart():
    assert units.canonical_unit("10^9/L") != units.canonical_unit("10^12/L")
    assert units.canonical_unit("mg/dL") != units.canonical_unit("g/dL")
    assert units.canonical_unit("mmol/L") != units.canonical_unit("mol/L")
    assert units.canonical_unit(None) == units.canonical_unit("  ") == ""


def test_the_lexicon_key_keeps_the_printed_spelling():
    # OCR repairs give back the unit as printed, so the lexicon key does not fold UI into IU.
    assert unit_key("mUI/ml") == "mui/ml" and is_unit("mUI/ml") and is_unit("IE/l")


@pytest.mark.parametrize("damaged, unit", [
    ("x10%3/p1L", "x10^3/µL"), ("x107*3/1L", "x10^3/µL"), ("1073/UL", "10^3/µL"),
    ("103/41", "10^3/µl"), ("x10^9;/-L", "x10^9/L"), ("X10”12/L", "X10^12/L"),
])
def test_damaged_power_units_are_read(damaged, unit):
    assert units.damaged_power_unit(damaged) == unit


@pytest.mark.parametrize("word", ["1043/ul", "x1023/L", "10/L", "x10^3/mL", "1073/cumm"])
def test_other_words_are_no_damaged_power_units(word):
    assert units.damaged_power_unit(word) is None


def test_a_body_surface_in_ascii_powers_is_the_egfr_unit():
    # UK GP systems print powers with "*" ("10*9/L", "mL/min/1.73m*2"): the same unit as "1.73m2".
    assert is_unit("mL/min/1.73m*2")
    assert units.canonical_unit("mL/min/1.73m*2") == units.canonical_unit("mL/min/1.73m2")
    assert not is_unit("m*2x")
