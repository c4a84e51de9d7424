"""The LOINC codes the scorers accept are real codes: a mistyped code can never be matched."""

from benchmarks.loinc_truth import CODES as GENERATED_CODES
from fixtures.reallike.loinc import CODES as REALLIKE_CODES


def check_digit(number: str) -> int:
    """LOINC's mod-10 check digit: the odd-position digits (from the right) doubled, then all summed."""
    digits = number[::-1]
    odd = "".join(digits[0::2])[::-1]
    even = "".join(digits[1::2])[::-1]
    total = sum(int(d) for d in even + str(int(odd) * 2))
    return (10 - total % 10) % 10


def test_check_digit_of_known_codes():
    assert [check_digit(n) for n in ("2160", "718", "769", "14682")] == [0, 7, 0, 9]


def test_every_acceptable_code_has_its_check_digit():
    codes = {c for by_property in REALLIKE_CODES.values() for group in by_property.values() for c in group}
    codes |= {c for pair in GENERATED_CODES.values() for part in pair if part for c in part.split("|")}
    wrong = sorted(c for c in codes if check_digit(c.split("-")[0]) != int(c.split("-")[1]))
    assert wrong == []
