import pytest

from parser.flags import interpret, is_flag, parse_flag, parse_value_mark
from parser.ranges import parse_range


@pytest.mark.parametrize(
    "printed, interpretation, direction",
    [
        ("H", "abnormal", "high"), ("L", "abnormal", "low"), ("HH", "critical", "high"),
        ("LL", "critical", "low"), ("A", "abnormal", None), ("*", "abnormal", None),
        ("High", "abnormal", "high"), ("low", "abnormal", "low"), ("Critical", "critical", None),
        ("↑", "abnormal", "high"), ("↓", "abnormal", "low"), ("(H)", "abnormal", "high"),
        ("Normal", "normal", None), ("PANIC", "critical", None),
    ],
)
def test_printed_flags(printed, interpretation, direction):
    flag = parse_flag(printed)
    assert flag is not None
    assert (flag.interpretation, flag.direction, flag.printed) == (interpretation, direction, printed)


@pytest.mark.parametrize("text", ["", None, "mg/dL", "Hemoglobin", "12.0"])
def test_non_flags(text):
    assert parse_flag(text) is None


def test_printed_flag_wins_over_numbers():
    result = interpret("5.0", parse_range("3.5-5.5"), parse_flag("H"))
    assert result.interpretation == "abnormal"
    assert result.is_above_max_range is False  # the numbers still say what they say


def test_critical_flag_gives_critical():
    assert interpret("7.1", parse_range("3.5-5.1"), parse_flag("HH")).interpretation == "critical"


def test_numbers_outside_range_are_abnormal_without_flag():
    result = interpret("10.2", parse_range("12.0 - 17.5"))
    assert (result.interpretation, result.is_above_max_range, result.is_below_min_range) == (
        "abnormal", False, True)


def test_numbers_inside_range_are_normal():
    result = interpret("13.00", parse_range("13.00 - 17.00"))
    assert (result.interpretation, result.is_above_max_range, result.is_below_min_range) == (
        "normal", False, False)


def test_comparator_value_conclusively_above():
    result = interpret(">2000", parse_range("0 - 1100"))
    assert (result.interpretation, result.is_above_max_range) == ("abnormal", True)


def test_comparator_value_inconclusive():
    result = interpret(">500", parse_range("0 - 1100"))
    assert (result.interpretation, result.is_above_max_range, result.is_below_min_range) == (
        "unknown", None, False)


def test_less_than_value_below_a_lower_bound():
    result = interpret("<0.5", parse_range("0.5 - 2.0"))
    assert (result.is_below_min_range, result.is_above_max_range) == (True, False)


def test_one_sided_range_leaves_the_open_side_unknown():
    result = interpret("150", parse_range("<200"))
    assert (result.interpretation, result.is_above_max_range, result.is_below_min_range) == (
        "normal", False, None)


def test_value_equal_to_strict_bound_is_outside():
    assert interpret("200", parse_range("<200")).is_above_max_range is True


def test_out_of_range_column_means_abnormal():
    assert interpret("66", None, None, out_of_range_column=True).interpretation == "abnormal"


def test_printed_normal_contradicted_by_numbers_is_kept_but_marked():
    result = interpret("100.00", parse_range("135.00 -145.00"), parse_flag("Normal"))
    assert result.interpretation == "normal"
    assert result.is_below_min_range is True
    assert result.conflict


def test_no_range_no_flag_is_unknown():
    assert interpret("42", None).interpretation == "unknown"
    assert interpret("Positive", parse_range("Negative")).interpretation == "unknown"


def test_signs_after_a_value_are_marks_never_flags_alone():
    assert parse_value_mark("++").direction == "high"
    assert parse_value_mark("-").direction == "low"
    assert parse_value_mark("H") is None
    assert not is_flag("+") and not is_flag("-")  # a dipstick result, an empty cell


def test_uk_gp_systems_snomed_abnormality_words_are_flags():
    # EMIS Web / SystmOne print the abnormality as a SNOMED CT qualifier in words.
    above = parse_flag("Above high reference limit")
    assert (above.printed, above.interpretation, above.direction) == ("Above high reference limit", "abnormal", "high")
    flag = parse_flag("Below  low reference limit")
    assert (flag.interpretation, flag.direction) == ("abnormal", "low")
    assert not is_flag("reference limit")
