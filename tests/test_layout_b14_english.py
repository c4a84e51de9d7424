"""Layout classes of the fourteenth batch's English styles, built in memory:

- no unit or range column: the range and unit on a smaller line under the name ("Ref 3.92 -
  10.40 x10^9/L"), the value and flag alone on the name's line;
"""

from page_builder import document, page

from parser.api import parse_document


def _results(*pages):
    return parse_document(document(*pages)).results


def _range_under_page(tests, y=120, label="Ref", value_x=500):
    """Each test a line of name, value [flag], then `label range unit` under the name, indented."""
    rows = [[(40, y - 16, "Full blood count", 9.0, True)]]
    for k, (name, value, flag, range_text, unit) in enumerate(tests):
        top = y + 20 * k
        rows.append([(40, top, name, 11.0), (value_x, top, value, 11.0)] + ([(value_x + 30, top, flag, 11.0)] if flag else []))
        rows.append([(50, top + 10, f"{label} {range_text} {unit}", 8.0)])
    return rows


def test_the_range_and_unit_on_a_line_under_the_name_belong_to_that_row():
    tests = [("Haemoglobin", "12.8", "L", "13.4 - 17.5", "g/dL"), ("White cell count", "11.85", "H", "3.92 - 10.40", "x10^9/L"),
             ("Platelet count", "312", "", "150 - 450", "x10^9/L"), ("eGFR (CKD-EPI)", "46", "L", "> 60", "mL/min/1.73m2"),
             ("HbA1c", "7.1", "H", "< 6.5", "%")]
    got = [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range, r.source_flag, r.source_panel_name)
           for r in _results(page(_range_under_page(tests)))]
    assert got == [("Haemoglobin", "12.8", "g/dL", 13.4, 17.5, "L", "Full blood count"),
                   ("White cell count", "11.85", "x10^9/L", 3.92, 10.4, "H", "Full blood count"),
                   ("Platelet count", "312", "x10^9/L", 150.0, 450.0, None, "Full blood count"),
                   ("eGFR (CKD-EPI)", "46", "mL/min/1.73m2", 60.0, None, "L", "Full blood count"),
                   ("HbA1c", "7.1", "%", None, 6.5, "H", "Full blood count")]


def test_a_range_label_of_two_words_and_a_flag_in_the_value_cell():
    tests = [("Sodium", "133 L", "", "135 - 145", "mmol/L"), ("Potassium", "4.7", "", "3.5 - 5.1", "mmol/L")]
    got = [(r.test_name, r.value, r.units, r.min_reference_range, r.source_flag)
           for r in _results(page(_range_under_page(tests, label="Normal range:", value_x=420)))]
    assert got == [("Sodium", "133", "mmol/L", 135.0, "L"), ("Potassium", "4.7", "mmol/L", 3.5, None)]


def test_a_lone_reference_line_under_a_row_is_left_to_the_other_readings():
    """One pair is not a page printed so: nothing is read as a range under the name."""
    from parser.layout.range_under import range_under_rows
    from parser.lines import page_lines

    rows = _range_under_page([("Sodium", "139", "", "136 - 145", "mmol/L")])
    lines = page_lines(page(rows))
    assert range_under_rows(lines) == (lines, [])

