"""Layout classes of the thirteenth batch's English styles, built in memory:

- the unit printed only in brackets after the test name, under a "Test (units)" heading, no
  units column (a flag column left of the result);
- a grid of two tests a line ("Hb ...... 10.9 g/dL (12.0 - 16.0)   WBC ...... 6.4 ..."), no header;
- reference ranges in a column per sex ("Reference Range" over "Male  Female").
"""

from page_builder import document, page

from parser.api import parse_document


def _results(*pages):
    return parse_document(document(*pages)).results


def test_units_in_brackets_after_the_name_under_a_test_units_heading():
    rows = [[(46, 100, "Test (units)"), (261, 100, "Flag"), (313, 100, "Result"), (358, 100, "Reference Interval")]]
    table = [("Sodium (mmol/L)", "", "141", "135 - 145"), ("Haemoglobin (g/dL)", "L", "11.1", "11.5 - 15.5"),
             ("White Blood Cells (x10^9/L)", "", "6.8", "4.0 - 11.0"),
             ("eGFR (CKD-EPI 2021) (mL/min/1.73m2)", "L", "55", "> 90"),
             ("Glucose, Fasting (mmol/L)", "H", "7.8", "3.9 - 6.0"), ("Cholesterol/HDL Ratio", "H", "5.1", "< 5.0")]
    for k, (name, flag, value, range_text) in enumerate(table):
        y = 115 + 13 * k
        rows.append([(46, y, name), (320, y, value), (358, y, range_text)] + ([(266, y, flag)] if flag else []))
    got = [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range)
           for r in _results(page(rows))]
    assert got == [("Sodium", "141", "mmol/L", 135.0, 145.0), ("Haemoglobin", "11.1", "g/dL", 11.5, 15.5),
                   ("White Blood Cells", "6.8", "x10^9/L", 4.0, 11.0),
                   ("eGFR (CKD-EPI 2021)", "55", "mL/min/1.73m2", 90.0, None),
                   ("Glucose, Fasting", "7.8", "mmol/L", 3.9, 6.0), ("Cholesterol/HDL Ratio", "5.1", None, None, 5.0)]


def test_a_units_heading_of_its_own_stays_a_column():
    """"Test  Units" with a column gap, or a units label not in brackets, heads a units column."""
    from parser import columns as cols

    words = [("Test", 46, 66), ("(units)", 68, 98), ("Result", 313, 343)]
    headers = cols.find_headers(words, 100, 110, 1, 600)
    assert cols.names_carry_units(headers[0]) and cols.UNITS not in headers[0].kinds
    words = [("Test", 46, 66), ("Units", 150, 175), ("Result", 313, 343)]
    headers = cols.find_headers(words, 100, 110, 1, 600)
    assert not cols.names_carry_units(headers[0]) and cols.UNITS in headers[0].kinds


def test_a_bracket_that_is_no_unit_stays_in_the_name():
    from parser.layout.name_units import unit_after_name

    assert unit_after_name("eGFR (CKD-EPI 2021) (mL/min/1.73m2)") == ("eGFR (CKD-EPI 2021)", "mL/min/1.73m2")
    assert unit_after_name("Renal Profile (U+E)") == ("Renal Profile (U+E)", None)
    assert unit_after_name("Glucose (Fasting)") == ("Glucose (Fasting)", None)
    assert unit_after_name("Potassium") == ("Potassium", None)
