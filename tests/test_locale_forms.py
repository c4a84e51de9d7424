"""Numbers, count units and dates as European reports print them."""

import pytest

from parser.locale_forms import (count_unit_power, find_word_date, merge_spaced_groups, parse_date,
                                 parse_number, same_count_unit)


@pytest.mark.parametrize("text, decimal_comma, expected", [
    ("4,2", True, 4.2),
    ("4,2", None, 4.2),  # one or two decimals after a comma: a decimal comma whatever the report
    ("4 700 000", None, 4700000.0),
    ("4\u202f700\u202f000", None, 4700000.0),  # narrow no-break (thin) spaces
    ("4\u2009700", None, 4700.0),
    ("4'700'000", None, 4700000.0),
    ("4.700.000", None, 4700000.0),
    ("250.000", True, 250000.0),  # a report with decimal commas groups thousands with dots
    ("1.005", False, 1.005),
    ("1,005", True, 1.005),
    ("150,000", False, 150000.0),
    ("1.234,5", None, 1234.5),
    ("1,234.5", None, 1234.5),
    ("12 345,6", None, 12345.6),
    ("-0,5", True, -0.5),
    ("0,125", None, 0.125),  # a leading zero is never a thousands group
    ("13.5", None, 13.5),
])
def test_numbers(text, decimal_comma, expected):
    assert parse_number(text, decimal_comma=decimal_comma) == pytest.approx(expected)


@pytest.mark.parametrize("text", ["1,005", "4.700"])
def test_one_three_digit_group_without_knowing_the_report_is_not_guessed(text):
    assert parse_number(text) is None


@pytest.mark.parametrize("text", ["4.70.000", "1.2345,6", "4,2,1", "abc", "4 70", "1.234,5,6", ""])
def test_malformed_numbers_are_not_numbers(text):
    assert parse_number(text, decimal_comma=True) is None


def test_thousands_split_into_words_are_joined_again():
    assert merge_spaced_groups(["4", "700", "000", "/mm³"]) == ["4 700 000", "/mm³"]
    assert merge_spaced_groups(["250", "000", "G/l"]) == ["250 000", "G/l"]
    assert merge_spaced_groups(["5", "10"]) == ["5", "10"]
    assert merge_spaced_groups(["13,5", "120"]) == ["13,5", "120"]  # a value then a range bound


@pytest.mark.parametrize("unit, power", [
    ("10^9/l", 9), ("10^9/L", 9), ("10⁹/L", 9), ("x10^3/µL", 9), ("x 10*3/μl", 9), ("G/l", 9),
    ("G/L", 9), ("T/l", 12), ("10^12/L", 12), ("x10^6/µL", 12), ("/mm³", 6), ("/mm3", 6),
    ("/µL", 6), ("cells/µL", 6), ("/cmm", 6), ("10^3/mm3", 9),
    ("x E9/L", 9), ("x E12/L", 12), ("E9/L", 9), ("x10E3/uL", 9), ("10³/µL", 9), ("/cumm", 6),
])
def test_count_units_as_powers_of_ten_per_litre(unit, power):
    assert count_unit_power(unit) == power


@pytest.mark.parametrize("unit", ["g/l", "mg/dL", "mmol/L", "m/l", "%", "", None, "U/L"])
def test_other_units_are_not_counts(unit):
    assert count_unit_power(unit) is None


def test_same_count_unit():
    assert same_count_unit("G/l", "10^9/L") and same_count_unit("T/l", "x10^6/µL")
    assert same_count_unit("/mm³", "/µL")
    assert not same_count_unit("G/l", "T/l") and not same_count_unit("g/l", "G/l")


@pytest.mark.parametrize("text, language, expected", [
    ("12/03/2024", "fr", "2024-03-12"),
    ("04/06/2021", "es", "2021-06-04"),
    ("04.06.2021", None, "2021-06-04"),  # dots: always day first
    ("04.06.21", "de", "2021-06-04"),
    ("24/06/25", "es", "2025-06-24"),
    ("01/01/80", "es", "1980-01-01"),
    ("13/11/2025", "en", "2025-11-13"),  # a day above 12 settles the order
    ("2024-06-12", None, "2024-06-12"),
    ("12 mars 2024", "fr", "2024-03-12"),
    ("1er février 1961", "fr", "1961-02-01"),
    ("3. März 2024", "de", "2024-03-03"),
    ("12 marzo 2024", "it", "2024-03-12"),
    ("12 de marzo de 2024", "es", "2024-03-12"),
    ("5 dic 2023", "es", "2023-12-05"),
    ("12 Sept. 2024", "en", "2024-09-12"),
    ("March 12, 2024", "en", "2024-03-12"),
    ("17 agosto 2022", None, "2022-08-17"),
])
def test_dates(text, language, expected):
    assert parse_date(text, language) == expected


@pytest.mark.parametrize("text, language", [
    ("04/06/2021", "en"),  # US or UK order: not stated, not guessed
    ("04/06/2021", None),
    ("31/02/2024", "fr"),  # no such day
    ("12 Brumaire 2024", "fr"),
    ("Résultat", "fr"),
])
def test_dates_that_cannot_be_told_give_none(text, language):
    assert parse_date(text, language) is None


@pytest.mark.parametrize("text, expected", [
    ("Prélevé le 3 mars 2024 à 08h30", "2024-03-03"),
    ("am 3. März 2024 um 8 Uhr", "2024-03-03"),
    ("del 12 de marzo de 2024", "2024-03-12"),
    ("stampato il 1 ottobre 2023", "2023-10-01"),
    ("12 Sept 2024", "2024-09-12"),
])
def test_dates_with_month_names_are_found_inside_text(text, expected):
    assert find_word_date(text) == expected


def test_no_month_name_no_date():
    assert find_word_date("Résultat 12 unités 2024") is None
    assert find_word_date("24/06/2025") is None
