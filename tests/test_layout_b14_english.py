"""Layout classes of the fourteenth batch's English styles, built in memory:

- no unit or range column: the range and unit on a smaller line under the name ("Ref 3.92 -
  10.40 x10^9/L"), the value and flag alone on the name's line;
- a cumulative grid printed transposed: tests across, a line per collection date, the latest
  date's line the result (units and ranges on lines of their own);
- a signed "Change %" column (the change from the previous result), never a value or a range;
- a dot-matrix print: a finding in words set from the result column on across the flag and unit
  columns ("P. FALCIPARUM SEEN (++)"), sections in rules ("=== ELECTROLYTES AND RENAL ====").
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


_TESTS = ["Sodium", "Potassium", "Chloride", "Creatinine"]


def _transposed_page(episodes, fields=(("Units", ["mmol/L", "mmol/L", "mmol/L", "mg/dL"]),
                                       ("Ref. range", ["135-145", "3.5-5.1", "98-107", "0.5-1.1"])),
                     corner="Collected", y=200, footer=False):
    """A transposed cumulative grid: tests across, a line per episode (each a list of lines,
    its date cell's text and the cells on that line)."""
    xs = [150, 220, 290, 360]
    rows = [[(40, y - 14, "Renal Profile / Electrolytes", 10.0, True)],
            [(40, y, corner)] + [(x, y, name) for x, name in zip(xs, _TESTS)]]
    lines = [] if footer else list(fields)
    for episode in episodes:
        lines += episode
    lines += list(fields) if footer else []
    for k, (lead, cells) in enumerate(lines):
        top = y + 11 * (k + 1)
        rows.append(([(40, top, lead)] if lead else []) + [(x, top, c) for x, c in zip(xs, cells) if c])
    rows.append([(40, y + 11 * (len(lines) + 2), "Comment: rising creatinine since the last visit, no haemolysis.")])
    return rows


_EARLIER = [[("02/12/2024 09:10", ["139", "4.4", "103", "1.4 H"])], [("20/01/2025 08:55", ["137", "5.3 H", "101", "1.6 H"])]]


def test_a_transposed_cumulative_grid_reads_the_latest_episode_only():
    this = [("11/03/2025", []), ("08:20", ["136", "5.6 H", "102", "1.8 H"]), ("THIS EPISODE", [])]
    got = [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range, r.source_flag, r.source_panel_name)
           for r in _results(page(_transposed_page([*_EARLIER, this])))]
    assert got == [("Sodium", "136", "mmol/L", 135.0, 145.0, None, "Renal Profile / Electrolytes"),
                   ("Potassium", "5.6", "mmol/L", 3.5, 5.1, "H", "Renal Profile / Electrolytes"),
                   ("Chloride", "102", "mmol/L", 98.0, 107.0, None, "Renal Profile / Electrolytes"),
                   ("Creatinine", "1.8", "mg/dL", 0.5, 1.1, "H", "Renal Profile / Electrolytes")]


def test_the_latest_date_decides_wherever_its_line_stands_and_the_fields_may_follow_the_dates():
    this = [("11/03/2025 08:20", ["136", "", "102", "1.8 H"])]
    got = [(r.test_name, r.value, r.units, r.max_reference_range)
           for r in _results(page(_transposed_page([this, *_EARLIER], corner="Date", footer=True)))]
    assert got == [("Sodium", "136", "mmol/L", 145.0), ("Chloride", "102", "mmol/L", 107.0),
                   ("Creatinine", "1.8", "mg/dL", 1.1)]


def test_episodes_the_dates_do_not_order_leave_the_grid_unread():
    """Two episodes of one day without times: which is this report's is not printed."""
    same_day = [[("11/03/2025", ["139", "4.4", "103", "1.4 H"])], [("11/03/2025", ["136", "5.6 H", "102", "1.8 H"])]]
    values = {r.value for r in _results(page(_transposed_page(same_day)))}
    assert not values & {"139", "4.4", "103", "1.4", "136", "5.6", "102", "1.8"}


def _table(header, rows_data):
    rows = [[(x, 100, text) for x, text in header]]
    for k, cells in enumerate(rows_data):
        rows.append([(x, 115 + 13 * k, text) for x, text in cells if text])
    return [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range)
            for r in _results(page(rows))]


def test_a_change_percent_column_after_the_range_is_never_a_second_measurement():
    header = [(40, "Examination"), (200, "Result"), (260, "Units"), (320, "Reference values"), (440, "Change %")]
    rows = [[(40, "Glucose"), (200, "118 *"), (260, "mg/dL"), (320, "70 - 100"), (450, "+13%")],
            [(40, "Urea"), (200, "38"), (260, "mg/dL"), (320, "15 - 45"), (450, "+9%")],
            [(40, "Uric acid"), (200, "7.6 *"), (260, "mg/dL"), (320, "3.4 - 7.0"), (450, "0%")]]
    assert _table(header, rows) == [("Glucose", "118", "mg/dL", 70.0, 100.0), ("Urea", "38", "mg/dL", 15.0, 45.0),
                                    ("Uric acid", "7.6", "mg/dL", 3.4, 7.0)]


def test_a_delta_column_between_the_result_and_the_range_is_never_read():
    header = [(40, "Test"), (200, "Result"), (260, "Delta"), (320, "Reference range")]
    rows = [[(40, "Glucose"), (200, "118"), (260, "+13 %"), (320, "70 - 100 mg/dL")],
            [(40, "Urea"), (200, "38"), (260, "-9 %"), (320, "15 - 45 mg/dL")],
            [(40, "Sodium"), (200, "139"), (260, "+1 %"), (320, "135 - 145 mmol/L")]]
    assert _table(header, rows) == [("Glucose", "118", "mg/dL", 70.0, 100.0), ("Urea", "38", "mg/dL", 15.0, 45.0),
                                    ("Sodium", "139", "mmol/L", 135.0, 145.0)]


def _fixed_pitch_page():
    rule = "=" * 60
    return [[(51, 100, "TEST"), (260, 100, "RESULT"), (308, 100, "FLAG"), (337, 100, "UNITS"), (411, 100, "REF RANGE")],
            [(51, 124, f"=== HAEMATOLOGY {rule}")],
            [(51, 136, "HAEMOGLOBIN"), (280, 136, "66"), (313, 136, "LL"), (337, 136, "g/L"), (411, 136, "115-160")],
            [(51, 148, "WHITE CELL COUNT"), (270, 148, "13.6"), (315, 148, "H"), (337, 148, "x10^9/L"), (411, 148, "4.0-11.0")],
            [(51, 160, "PLATELETS"), (275, 160, "122"), (315, 160, "L"), (337, 160, "x10^9/L"), (411, 160, "150-400")],
            [(51, 172, f"=== PARASITOLOGY {rule}")],
            [(51, 184, "MALARIA SLIDE"), (238, 184, "P. FALCIPARUM SEEN (++)")],
            [(51, 196, f"=== ELECTROLYTES AND RENAL {rule}")],
            [(51, 208, "SODIUM"), (275, 208, "133"), (315, 208, "L"), (337, 208, "mmol/L"), (411, 208, "135-145")],
            [(51, 220, "POTASSIUM"), (275, 220, "3.3"), (315, 220, "L"), (337, 220, "mmol/L"), (411, 220, "3.5-5.2")]]


def test_a_finding_in_words_across_the_flag_and_unit_columns_is_the_value():
    got = [(r.test_name, r.value, r.units, r.source_flag) for r in _results(page(_fixed_pitch_page()))]
    assert got == [("HAEMOGLOBIN", "66", "g/L", "LL"), ("WHITE CELL COUNT", "13.6", "x10^9/L", "H"),
                   ("PLATELETS", "122", "x10^9/L", "L"), ("MALARIA SLIDE", "P. FALCIPARUM SEEN (++)", None, None),
                   ("SODIUM", "133", "mmol/L", "L"), ("POTASSIUM", "3.3", "mmol/L", "L")]


def test_a_finding_named_when_seen_is_a_qualitative_word_result():
    from parser.vocabulary import qualitative_result

    assert qualitative_result().fullmatch("P. falciparum seen") and qualitative_result().fullmatch("Trophozoites seen")
    assert not qualitative_result().fullmatch("FALCIPARUM")


def test_the_unit_may_stand_on_the_name_line_and_the_range_alone_under_it():
    rows = [[(40, 104, "Lipogram", 9.0, True)]]
    for k, (name, value, unit, range_text) in enumerate([("Total cholesterol", "5.9 H", "mmol/L", "< 5.0"),
                                                          ("HDL cholesterol", "0.9 L", "mmol/L", "> 1.0"),
                                                          ("Triglycerides", "1.2", "mmol/L", "< 1.7")]):
        top = 120 + 20 * k
        rows += [[(40, top, name, 11.0), (400, top, value, 11.0), (460, top, unit, 11.0)],
                 [(50, top + 10, f"Reference range: {range_text}", 8.0)]]
    got = [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range, r.source_flag)
           for r in _results(page(rows))]
    assert got == [("Total cholesterol", "5.9", "mmol/L", None, 5.0, "H"), ("HDL cholesterol", "0.9", "mmol/L", 1.0, None, "L"),
                   ("Triglycerides", "1.2", "mmol/L", None, 1.7, None)]


def _grid(head, wrapped, lines, y=200):
    """A transposed grid: the names' line, a wrapped second line of names, then (lead, cells) lines."""
    xs = [150, 220, 290, 360]
    rows = [[(40, y, head[0])] + [(x, y, t) for x, t in zip(xs, head[1:]) if t],
            [(x, y + 9, t) for x, t in zip(xs, wrapped) if t]]
    for k, (lead, cells) in enumerate(lines):
        top = y + 22 + 11 * k
        rows.append([(40, top, lead)] + [(x, top, c) for x, c in zip(xs, cells) if c])
    return rows


def test_a_transposed_grid_with_wrapped_test_headings_and_an_episode_labelled_current():
    rows = _grid(["Date", "Total", "Alk", "AST", "ALT"], ["Bilirubin", "Phos", "", ""],
                 [("Units", ["mg/dL", "U/L", "U/L", "U/L"]), ("Ref. range", ["0.2-1.2", "40-129", "<40", "<41"]),
                  ("02/12/2024", ["0.6", "98", "22", "19"]), ("Current", ["0.7", "112", "24", "21"])])
    got = [(r.test_name, r.value, r.units, r.max_reference_range) for r in _results(page(rows))]
    assert got == [("Total Bilirubin", "0.7", "mg/dL", 1.2), ("Alk Phos", "112", "U/L", 129.0),
                   ("AST", "24", "U/L", 40.0), ("ALT", "21", "U/L", 41.0)]


def test_an_episode_labelled_current_but_older_than_another_leaves_the_grid_unread():
    rows = _grid(["Date", "Total", "Alk", "AST", "ALT"], ["Bilirubin", "Phos", "", ""],
                 [("Units", ["mg/dL", "U/L", "U/L", "U/L"]), ("02/12/2024 Current", ["0.6", "98", "22", "19"]),
                  ("11/03/2025", ["0.7", "112", "24", "21"])])
    values = {r.value for r in _results(page(rows))}
    assert not values & {"0.6", "98", "22", "19", "0.7", "112", "24", "21"}


def test_an_episode_noted_this_episode_must_be_the_latest():
    """"THIS EPISODE" under an older date than another line's: which is the result is not settled."""
    older = [("02/12/2024", []), ("09:10", ["139", "4.4", "103", "1.4 H"]), ("THIS EPISODE", [])]
    later = [[("20/01/2025 08:55", ["137", "5.3 H", "101", "1.6 H"])]]
    values = {r.value for r in _results(page(_transposed_page([older, *later])))}
    assert not values & {"139", "4.4", "103", "1.4", "137", "5.3", "101", "1.6"}


def test_a_word_range_under_the_name_and_a_value_in_the_value_column_without_a_range_line():
    tests = [("Sodium", "139", "", "136 - 145", "mmol/L"), ("Potassium", "4.7", "", "3.5 - 5.1", "mmol/L")]
    rows = _range_under_page(tests)
    rows += [[(40, 170, "HIV 1/2 antibodies", 11.0), (500, 170, "Non-reactive", 11.0)],
             [(50, 180, "Ref Non-reactive", 8.0)],
             [(40, 190, "Malaria smear", 11.0), (500, 190, "No MPs seen", 11.0)],
             [(40, 215, "Comment: repeat potassium in 2 weeks.", 9.0)]]
    got = [(r.test_name, r.value, r.units, r.reference_range_text) for r in _results(page(rows))]
    assert got == [("Sodium", "139", "mmol/L", "136 - 145"), ("Potassium", "4.7", "mmol/L", "3.5 - 5.1"),
                   ("HIV 1/2 antibodies", "Non-reactive", None, "Non-reactive"), ("Malaria smear", "No MPs seen", None, None)]


def test_a_genus_initial_set_apart_from_the_rest_of_the_finding_stays_in_the_value():
    """OCR sets the gap after "P." as a column gap: the initial is the finding's first word."""
    rows = [line for line in _fixed_pitch_page() if not any("FALCIPARUM" in cell[2] for cell in line)]
    rows.append([(51, 184, "MALARIA SLIDE"), (238, 184, "P."), (257, 184, "FALCIPARUM SEEN (++)")])
    got = {r.test_name: r.value for r in _results(page(rows))}
    assert got["MALARIA SLIDE"] == "P. FALCIPARUM SEEN (++)"


def test_a_range_line_holding_the_value_is_no_row_of_its_own():
    """OCR may set the value on the range's line ("Ref 12.4-17.3 %  14.9"): never a test named "Ref"."""
    tests = [("Sodium", "139", "", "136 - 145", "mmol/L"), ("Potassium", "4.7", "", "3.5 - 5.1", "mmol/L")]
    rows = _range_under_page(tests) + [[(40, 170, "RDW", 11.0)], [(50, 180, "Ref 12.4-17.3 %", 8.0), (500, 180, "14.9", 11.0)]]
    names = [r.test_name for r in _results(page(rows))]
    assert names[:2] == ["Sodium", "Potassium"] and not any(n.startswith("Ref") for n in names)
