import pytest

from parser.ranges import looks_like_range, parse_number, parse_range


@pytest.mark.parametrize(
    "text, low, high",
    [
        ("3.5-5.0", 3.5, 5.0),
        ("3.5 - 5.0", 3.5, 5.0),
        ("(70 - 99)", 70, 99),
        ("135.00 -145.00", 135, 145),
        ("<200", None, 200),
        ("< 200.00", None, 200),
        ("<= 5", None, 5),
        ("> 40", 40, None),
        ("> OR = 60", 60, None),
        ("Upto 130", None, 130),
        ("Up to 5.0", None, 5.0),
        ("3,5 - 5,1", 3.5, 5.1),
        ("150,000 - 450,000", 150000, 450000),
        ("0,41 - 0,53", 0.41, 0.53),
        ("4.0 to 10.0", 4.0, 10.0),
        ("-2 - 2", -2, 2),
    ],
)
def test_printed_ranges_give_their_bounds(text, low, high):
    parsed = parse_range(text)
    assert parsed is not None
    assert (parsed.low, parsed.high) == (low, high)


def test_multi_line_range_is_read_joined():
    parsed = parse_range("3.5 -\n5.0")
    assert (parsed.low, parsed.high) == (3.5, 5.0)


@pytest.mark.parametrize("text", ["Non Reactive", "Negative", "", None, "see note", "10 - 5"])
def test_text_or_inverted_ranges_have_no_bounds(text):
    assert parse_range(text) is None


def test_comparator_bounds_remember_strictness():
    assert parse_range("<200").high_inclusive is False
    assert parse_range("<=200").high_inclusive is True
    assert parse_range(">40").low_inclusive is False


@pytest.mark.parametrize(
    "gender, expected",
    [("male", (13.0, 17.0)), ("female", (12.0, 15.0)), (None, None)],
)
def test_sex_specific_range_is_picked_by_gender(gender, expected):
    parsed = parse_range("M: 13-17 F: 12-15", gender)
    assert (None if parsed is None else (parsed.low, parsed.high)) == expected


def test_sex_specific_range_with_words_on_two_lines():
    parsed = parse_range("Male: 13.5 - 17.5\nFemale: 12.0 - 15.5", "female")
    assert (parsed.low, parsed.high) == (12.0, 15.5)


@pytest.mark.parametrize(
    "text, number",
    [("4,2", 4.2), ("150,000", 150000), ("0,125", 0.125), ("1.234,5", 1234.5), ("1,234.5", 1234.5),
     ("-3", -3), ("abc", None), ("1.2.3", None)],
)
def test_numbers_with_decimal_commas_and_thousands(text, number):
    assert parse_number(text) == number


def test_looks_like_range_rejects_plain_numbers():
    assert looks_like_range("70 - 99")
    assert not looks_like_range("70")


def test_report_with_decimal_commas_reads_three_decimals_as_decimals():
    assert parse_range("1,005 - 1,030", decimal_comma=True).high == 1.03
    assert parse_range("1,005 - 1,030").high == 1030  # without the report's habit: thousands


def test_decimal_comma_habit_is_detected_from_the_report():
    from parser.ranges import uses_decimal_comma

    assert uses_decimal_comma(["4,2", "3,5 - 5,1", "1,015"])
    assert not uses_decimal_comma(["4.2", "150,000 - 450,000", "3.5 - 5.1"])


def test_a_number_too_large_for_a_float_is_not_a_number():
    # Found by fuzzing: 400 nines overflowed to inf and gave a range with no upper end.
    assert parse_number("9" * 400) is None
    assert parse_range("1 - " + "9" * 400) is None


@pytest.mark.parametrize("text, gender, low, high", [
    ("Uomo: 13,5 - 17,5 Donna: 12,0 - 15,5", "male", 13.5, 17.5),
    ("Uomo: 13,5 - 17,5 Donna: 12,0 - 15,5", "female", 12.0, 15.5),
    ("Männer: 0,7 - 1,2 Frauen: 0,5 - 0,9", "female", 0.5, 0.9),
    ("Hommes : 4,28 à 6,00 Femmes : 3,80 à 5,90", "male", 4.28, 6.0),
    ("Hombres: 13 - 17 Mujeres: 12 - 15", "female", 12.0, 15.0),
])
def test_european_sex_tiers_pick_the_patients_range(text, gender, low, high):
    got = parse_range(text, gender, decimal_comma=True)
    assert (got.low, got.high) == (low, high)


@pytest.mark.parametrize("text, low, high", [
    ("150 à 400 260 (12/01/24)", 150.0, 400.0),
    ("4 000 à 10 000", 4000.0, 10000.0),  # spaced thousands without a dated tail stay one number
    ("< 5,0 2,1 vom 03.01.2024", None, 5.0),
    ("70 - 110 96 del 15/01/2024", 70.0, 110.0),
])
def test_a_dated_previous_result_after_the_range_is_not_part_of_it(text, low, high):
    got = parse_range(text, decimal_comma=True)
    assert (got.low, got.high) == (low, high)


def test_a_second_tier_is_no_dated_previous_result():
    got = parse_range("M: 4.50-5.90 F: 3.90-5.10", "female")
    assert (got.low, got.high) == (3.9, 5.1)


@pytest.mark.parametrize("text, low, high", [
    ("( más de 35 )", 35.0, None), ("plus de 40", 40.0, None), ("più di 45", 45.0, None), ("über 60", 60.0, None),
    ("menos de 5,0", None, 5.0), ("moins de 5,0", None, 5.0), ("meno di 5,0", None, 5.0), ("unter 5,0", None, 5.0),
])
def test_one_sided_limits_in_words_of_each_language(text, low, high):
    reference = parse_range(text, None, True)
    assert (reference.low, reference.high) == (low, high)
