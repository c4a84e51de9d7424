"""Units OCR damaged on scans and photos, put right as a class before the layout reads them."""

import pytest

from parser.ocr import (_better_reading, power_unit, repair_power_units, repair_unit_words,
                        units_from_first_pass)
from parser.page import Word
from parser.units import is_unit, repair, repair_ocr_word, restored_slash_unit


def _word(text: str, x0: float = 0.0, conf: float = 0.5) -> Word:
    return Word(text=text, x0=x0, top=10, x1=x0 + 6 * len(text), bottom=20, conf=conf, size=10)


@pytest.mark.parametrize("damaged, unit", [
    ("UI/I", "UI/l"), ("G/I", "G/l"), ("G/|", "G/l"), ("mmol/|", "mmol/l"), ("/nı", "/nl"),  # l as I, |, ı
    ("G/", "G/l"), ("T/", "T/l"), ("mmol/", "mmol/l"), ("umol/", "umol/l"),  # the l lost after the slash
    ("Tsd/yul", "Tsd/µl"), ("Mio/yul", "Mio/µl"), ("HUl/mL", "µUI/mL"), ("pUI/mL", "µUI/mL"),  # micro sign
    ("uimol/l", "µmol/l"), ("wlU/mL", "µIU/mL"),
    ("mgj/dl", "mg/dl"), ("Gj/l", "G/l"),  # a g's tail read as j by the slash
    ("=mg/dl", "mg/dl"), ("=~mg/dl", "mg/dl"), ("xX10E3/uL", "x10E3/uL"),  # specks, a doubled x
    ("mi/min/1,73m?", "ml/min/1,73m²"), ("mL/min/1.73m?", "mL/min/1.73m²"), ("m?", "m²"),  # ² as ?
    ("muUI/", "mUI/l"), ("muUI/|", "mUI/l"),  # the U read twice ("uU")
    ("x10%3/p1L", "x10^3/µL"), ("x107*3/1L", "x10^3/µL"), ("x10”73/uL", "x10^3/µL"),  # caret, µ
    ("1073/ul", "10^3/µl"), ("1076/µl", "10^6/µl"),
])
def test_damaged_units_are_put_right(damaged, unit):
    assert repair_ocr_word(damaged) == unit


@pytest.mark.parametrize("word", ["mg/dL", "U/L", "mU/L", "pg/L", "ESC/EAS", "12/05/24", "TC/", "N/A",
                                  "A/G", "Hemoglobin", "ul", "1043/ul", "1073/cumm", "x107/L"])
def test_units_words_and_ambiguous_readings_are_left_alone(word):
    assert repair_ocr_word(word) is None


def test_european_spellings_of_the_international_unit_are_units():
    assert all(is_unit(text) for text in ("UI/l", "mUI/ml", "µUI/mL", "IE/l", "/nl", "thou/mm3"))


def test_the_tables_partial_and_typed_keys_are_no_units():
    # "mmol/" and "µlU/mL" are OCR's damage of whole units, not units of their own.
    assert not is_unit("mmol/") and not is_unit("µlU/mL")
    assert repair("µlU/mL") == "µIU/mL"


def test_a_stray_mark_before_a_unit_is_dropped_and_damaged_units_repaired():
    words = [_word("112", 0, 0.9), _word("=", 20, 0.4), _word("ng/dL", 28), _word("G/I", 80)]
    assert [w.text for w in repair_unit_words(words)] == ["112", "ng/dL", "G/l"]


def test_an_unsure_dash_beside_a_unit_is_dropped():
    before = [_word("2,87", 0, 0.9), _word("—", 30, 0.35), _word("µUI/ml", 38, 0.4)]
    assert [w.text for w in repair_unit_words(before)] == ["2,87", "µUI/ml"]
    after = [_word("mg/dL", 0), _word("–", 34, 0.2), _word("0,50-0,90", 42)]
    assert [w.text for w in repair_unit_words(after)] == ["mg/dL", "0,50-0,90"]
    assert [w.text for w in repair_unit_words(after[:2])] == ["mg/dL"]


def test_a_dash_before_a_bare_bound_or_a_sure_one_is_kept():
    bound = [_word("mg/dL", 0), _word("–", 34, 0.2), _word("5,0", 42)]
    assert [w.text for w in repair_unit_words(bound)] == ["mg/dL", "–", "5,0"]
    sure = [_word("mg/dL", 0), _word("—", 34, 0.95)]
    assert [w.text for w in repair_unit_words(sure)] == ["mg/dL", "—"]
    assert [w.text for w in repair_unit_words([_word("—", 0, 0.3), _word("Total", 8)])] == ["—", "Total"]


def test_a_sure_mark_or_one_before_a_word_is_kept():
    assert [w.text for w in repair_unit_words([_word("=", 0, 0.95), _word("mg/dL", 8)])] == ["=", "mg/dL"]
    assert [w.text for w in repair_unit_words([_word("=", 0, 0.4), _word("Total", 8)])] == ["=", "Total"]


@pytest.mark.parametrize("first, reread, unit", [
    ("ul", "U/|", "U/l"), ("U", "U/l", "U/l"), ("u", "U/I", "U/l"), ("ul", "U/L", "U/L"),
    ("ul", "UA", "U/l"), ("u", "TA", None),  # "/l" closed into an A; a T the first never had
    ("ul", "Ul", None),  # no slash read
    ("mg", "mg/dl", None), ("IU", "IU/L", None),  # letters the first reading never had
    ("u", "Us|", None),
])
def test_a_slash_lost_in_a_unit_is_taken_from_the_cells_second_reading(first, reread, unit):
    assert restored_slash_unit(first, reread) == unit


def test_a_doubtful_cell_takes_a_unit_from_its_re_reading_only_when_it_restores_a_slash():
    assert _better_reading(_word("U/I", conf=0.3), [_word("ul", conf=0.0)]) == "U/l"
    assert _better_reading(_word("ug/l", conf=0.9), [_word("ul", conf=0.0)]) is None


def test_a_wrapped_body_surface_unit_with_its_square_misread_is_one_unit():
    assert is_unit("mL/min/1,73 m?")


def test_a_unit_printed_spaced_after_its_slash_is_not_given_an_l():
    spaced = [_word("mg/", 0), _word("dl", 22)]
    assert [w.text for w in repair_unit_words(spaced)] == ["mg/", "dl"]
    assert [w.text for w in repair_unit_words([_word("G/", 0), _word("(4,00-10,00)", 80)])] == ["G/l", "(4,00-10,00)"]


@pytest.mark.parametrize("damaged, unit", [
    ("1073/UL", "10^3/µL"), ("1073/4L", "10^3/µL"), ("1073/4UL", "10^3/µL"), ("10°6/4L", "10^6/µL"),
    ("107*3/UL", "10^3/µL"), ("103/41", "10^3/µl"), ("x1079/L", "x10^9/L"), ("1012/L", "10^12/L"),
])
def test_power_units_with_caret_and_micro_misread_are_put_right(damaged, unit):
    assert power_unit(damaged) == unit


@pytest.mark.parametrize("word", ["10^3/µL", "1043/ul", "x107/L", "1073/cumm", "10/L", "1073/nL", "107"])
def test_other_words_are_no_power_units(word):
    assert power_unit(word) is None


def test_a_power_unit_split_where_its_caret_was_is_joined():
    words = [_word("4,1", 0, 0.9), _word("107", 40), _word("3/uL", 60), _word("4,0-10,0", 120)]
    assert [w.text for w in repair_power_units(words)] == ["4,1", "10^3/µL", "4,0-10,0"]
    # A value before a unit stays apart.
    words = [_word("107", 0), _word("mg/dL", 20)]
    assert [w.text for w in repair_power_units(words)] == ["107", "mg/dL"]


def test_the_language_pass_takes_a_unit_only_the_english_pass_read_in_the_same_box():
    english = [_word("0,98", 0, 0.9), _word("mg/dL", 40, 0.8), _word("12,0", 100, 0.9), _word("mm", 160, 0.0)]
    german = [_word("0,98", 0, 0.9), _word("mog/dL", 40, 0.7), _word("12,5", 100, 0.5), _word("m", 160, 0.9)]
    # Numbers and a blank English guess stay as the language pass read them.
    assert [w.text for w in units_from_first_pass(german, english)] == ["0,98", "mg/dL", "12,5", "m"]
    assert [w.text for w in units_from_first_pass([_word("mg/dl", 40)], english)] == ["mg/dl"]


def test_an_english_unit_spanning_two_language_words_is_not_taken():
    english = [Word(text="1073/uL", x0=40, top=10, x1=100, bottom=20, conf=0.6, size=10)]
    german = [Word(text="107", x0=40, top=10, x1=58, bottom=20, conf=0.6, size=10),
              Word(text="3/uL", x0=62, top=10, x1=100, bottom=20, conf=0.6, size=10)]
    assert [w.text for w in units_from_first_pass(german, english)] == ["107", "3/uL"]


def test_a_degree_speck_before_a_percent_is_dropped_and_yu_is_a_micro_sign():
    words = [_word("61", 0, 0.9), _word("°", 20, 0.6), _word("%", 28, 0.8)]
    assert [w.text for w in repair_unit_words(words)] == ["61", "%"]
    assert power_unit("1076/yuL") == "10^6/µL"


def test_a_power_unit_split_at_a_caret_read_as_a_quote_is_joined():
    # parser.units.damaged_power_unit: the caret marks the unit repair reads are the ones joined here.
    words = [_word("0,48", 0, 0.9), _word("x10”", 40), _word("3/uL", 68), _word("0,2-1,0", 120)]
    assert [w.text for w in repair_power_units(words)] == ["0,48", "x10^3/µL", "0,2-1,0"]
