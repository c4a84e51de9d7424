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


def _sexed_table(top: float, lines: list[tuple]) -> list[list[tuple]]:
    """A table whose range heading stands above its other labels and the sex labels below
    them, each 6 points from the labels' line (8-point type: three lines)."""
    rows = [[(431, top, "Reference Range", 8)],
            [(40, top + 6, "Investigation", 8), (215, top + 6, "Result", 8), (283, top + 6, "Flag", 8),
             (312, top + 6, "Units", 8)],
            [(374, top + 12, "Male", 8), (468, top + 12, "Female", 8)]]
    for k, (name, value, unit, male, female) in enumerate(lines):
        y = top + 28 + 12 * k
        cells = [(40, y, name, 8), (215, y, value, 8)] + ([(312, y, unit, 8)] if unit else [])
        cells += [(375, y, male, 8), (468, y, female, 8)] if female else [(449, y, male, 8)]
        rows.append(cells)
    return rows


def _sexed_page(number: int, lines: list[tuple], more: list[tuple] = ()) -> list[list[tuple]]:
    rows = [[(39, 60, "Age / Sex"), (101, 60, ": 45 Y / F")], *_sexed_table(97, lines)]
    rows += _sexed_table(400, more) if more else []
    rows.append([(37, 780, f"Lab No. HSH-L-0217 Page {number} of 2")])
    return rows


def test_ranges_in_a_column_per_sex_give_the_patients_range():
    first = [("Haemoglobin", "11.4", "g/dL", "13.0 - 17.0", "12.0 - 15.0"), ("MCV", "83", "fL", "83 - 101", ""),
             ("Serum Creatinine", "0.9", "mg/dL", "0.7 - 1.3", "0.6 - 1.1")]
    second = [("SGOT (AST)", "36", "U/L", "Up to 40", "Up to 32"), ("HDL Cholesterol", "43", "mg/dL", "> 40", "> 50"),
              ("Albumin", "4.3", "g/dL", "3.5 - 5.2", "")]
    urine = [("pH", "6.0", "", "4.5 - 8.0", ""), ("Specific Gravity", "1.015", "", "1.005 - 1.030", "")]
    results = _results(page(_sexed_page(1, first)), page(_sexed_page(2, second, urine), number=2))
    got = [(r.test_name, r.units, r.min_reference_range, r.max_reference_range) for r in results]
    assert got == [("Haemoglobin", "g/dL", 12.0, 15.0), ("MCV", "fL", 83.0, 101.0),
                   ("Serum Creatinine", "mg/dL", 0.6, 1.1), ("SGOT (AST)", "U/L", None, 32.0),
                   ("HDL Cholesterol", "mg/dL", 50.0, None), ("Albumin", "g/dL", 3.5, 5.2),
                   ("pH", None, 4.5, 8.0), ("Specific Gravity", None, 1.005, 1.03)]


def test_a_line_of_sex_labels():
    from parser.layout.sex_columns import sex_labels
    from parser.lines import page_lines

    def line(*cells):
        return page_lines(page([[(x, 100, t) for x, t in cells]]))[0]

    assert [label for label, _, _ in sex_labels(line((374, "Male"), (468, "Female")))] == ["Male", "Female"]
    assert sex_labels(line((374, "Male"), (468, "Male"))) is None
    assert sex_labels(line((40, "Male"), (200, "13.0 - 17.0"))) is None


def test_a_header_stacked_on_two_lines_of_labels_is_no_title_of_the_table_above():
    """"Reference Range" over "Investigation  Result  Flag  Units" opens a new table (its range
    column known) even when the table above would read its rows as well."""
    from parser.layout import document_rows

    second = [("SGOT (AST)", "36", "U/L", "Up to 40", "Up to 32"), ("Albumin", "4.3", "g/dL", "3.5 - 5.2", "")]
    urine = [("pH", "6.0", "", "4.5 - 8.0", ""), ("Specific Gravity", "1.015", "", "1.005 - 1.030", "")]
    first = [("Haemoglobin", "11.4", "g/dL", "13.0 - 17.0", "12.0 - 15.0")]
    doc = document(page(_sexed_page(1, first)), page(_sexed_page(2, second, urine), number=2))
    got = [(r.name, r.units, r.range_text) for r in document_rows(doc) if r.page == 2]
    assert got == [("SGOT (AST)", "U/L", "Male: Up to 40 Female: Up to 32"), ("Albumin", "g/dL", "3.5 - 5.2"),
                   ("pH", None, "4.5 - 8.0"), ("Specific Gravity", None, "1.005 - 1.030")]
