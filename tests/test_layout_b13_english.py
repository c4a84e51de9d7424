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


_GRID = [(("Hb", "10.9 g/dL", "(12.0 - 16.0)"), ("WBC", "6.4 x10^9/L", "(4.0 - 10.0)")),
         (("PCV", "33 %", "(36 - 47)"), ("RBC", "4.31 x10^12/L (4.0 - 5.2)", "")),
         (("MCV", "77 fL", "(80 - 100)"), ("MCH", "25.3 pg", "(27 - 33)")),
         (("MCHC", "32.9 g/dL", "(31 - 36)"), ("Platelets", "264 x10^9/L", "(150 - 400)"))]


def _grid_rows(y0: float = 100) -> list[list[tuple]]:
    rows = [[(42, y0 - 15, "Full Blood Count")]]
    for k, pair in enumerate(_GRID):
        y = y0 + 13 * k
        line = []
        for (name, value, range_text), x in zip(pair, (44, 305)):
            line += [(x, y, name), (x + 90, y, "......"), (x + 120, y, value)]
            line += [(x + 190, y, range_text)] if range_text else []
        rows.append(line)
    rows.append([(44, y0 + 13 * len(_GRID), "ESR"), (135, y0 + 13 * len(_GRID), "......"),
                 (170, y0 + 13 * len(_GRID), "34 mm/hr"), (234, y0 + 13 * len(_GRID), "(0 - 20)"),
                 (305, y0 + 13 * len(_GRID), "Malaria (thick film) ...... No MPs seen")])
    return rows


_GRID_READ = [("Hb", "10.9", "g/dL", 12.0), ("WBC", "6.4", "x10^9/L", 4.0), ("PCV", "33", "%", 36.0),
              ("RBC", "4.31", "x10^12/L", 4.0), ("MCV", "77", "fL", 80.0), ("MCH", "25.3", "pg", 27.0),
              ("MCHC", "32.9", "g/dL", 31.0), ("Platelets", "264", "x10^9/L", 150.0), ("ESR", "34", "mm/hr", 0.0),
              ("Malaria (thick film)", "No MPs seen", None, None)]


def test_a_grid_of_two_tests_a_line_on_a_page_without_header():
    got = [(r.test_name, r.value, r.units, r.min_reference_range) for r in _results(page(_grid_rows()))]
    assert got == _GRID_READ


def test_a_grid_of_two_tests_a_line_over_a_table_with_a_header():
    rows = _grid_rows() + [[(48, 300, "TEST"), (229, 300, "RESULT"), (314, 300, "UNIT"), (399, 300, "REFERENCE RANGE")],
                           [(48, 315, "Urea"), (229, 315, "4.1"), (314, 315, "mmol/L"), (399, 315, "2.5 - 7.5")]]
    got = [(r.test_name, r.value, r.units, r.min_reference_range) for r in _results(page(rows))]
    assert got == _GRID_READ + [("Urea", "4.1", "mmol/L", 2.5)]


def test_two_results_a_line_without_a_common_column_are_no_grid():
    """Lines holding two results whose second names start at different places (two lines, or
    a second result set anywhere) are not split: a grid's second column is one x."""
    from parser.layout.paired import pairs_apart
    from parser.lines import page_lines

    rows = _grid_rows()[1:3]  # two grid lines only
    lines = page_lines(page(rows))
    assert pairs_apart(lines) is lines
