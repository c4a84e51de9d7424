"""Row layouts read by the layout stage (issue 9, session 7): a value cell that also holds its
unit, a bracketed range and a flag; names wrapped in a narrow column beside a method column."""

from page_builder import document, page

from parser.api import parse_document
from parser.layout.fields import read_fields, read_value_fields


def _results(doc):
    return [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range,
             r.source_flag) for r in parse_document(doc).results]


def test_a_value_cell_holding_its_unit_and_bracketed_range_reads_as_its_parts():
    fields = read_value_fields("5.6 mmol/L [3.5 - 5.3] H".split())
    assert fields is not None
    assert (fields.value, fields.units, fields.range, fields.flag) == ((0, 1), (1, 2), (2, 5), (5, 6))
    assert read_value_fields("12 patients seen 2020".split()) is None  # no unit, no range
    assert read_value_fields("Sodium 140 mmol/L".split()) is None  # a name first: read_fields'


def test_a_flag_after_the_range_is_the_rows_flag_but_a_units_last_letter_is_not():
    fields = read_fields("Uric Acid 7.7 mg/dL (3.4 - 7.0) H".split())
    assert fields.flag == (7, 8) and fields.range == (4, 7)
    fields = read_fields("AST 34 U / L Up to 46 U / L".split())
    assert fields.flag == (2, 2) and fields.range == (5, 11)  # "L" of "U / L" stays the range's


def test_dotted_leaders_then_value_unit_and_range_in_one_cell_over_two_headed_columns():
    """"Result (Normal Range)" heads one cell holding all three, spanning both labels; the
    row's flag printed apart after it."""
    rows = [[(40, 100, "Test"), (280, 100, "Result"), (310, 100, "(Normal Range)")]]
    cells = [("Haemoglobin", "14.8 g/dL (13 - 17)", ""), ("Total WBC Count", "7.6 x10^9/L (4.0 - 11.0)", ""),
             ("Blood Glucose (Fasting)", "105 mg/dL (70 - 99)", "H"),
             ("Potassium", "5.6 mmol/L [3.5 - 5.3]", "H"), ("Cholesterol", "231 mg/dL (< 200)", "H")]
    for i, (name, cell, flag) in enumerate(cells):
        y = 120 + 15 * i
        line = [(40, y, f"{name} {'.' * (40 - len(name))}"), (280, y, cell)]
        rows.append(line + ([(520, y, flag)] if flag else []))
    assert _results(document(page(rows))) == [
        ("Haemoglobin", "14.8", "g/dL", 13.0, 17.0, None),
        ("Total WBC Count", "7.6", "x10^9/L", 4.0, 11.0, None),
        ("Blood Glucose (Fasting)", "105", "mg/dL", 70.0, 99.0, "H"),
        ("Potassium", "5.6", "mmol/L", 3.5, 5.3, "H"),
        ("Cholesterol", "231", "mg/dL", None, 200.0, "H"),
    ]


def _narrow_names_page(wrapped_first: str, wrapped_rest: str) -> list[list[tuple]]:
    """A narrow names column (up to x=150) before a method column; names wrap onto a
    second line under their row, as several rows of the table show."""
    rows = [[(40, 100, "TEST NAME"), (160, 100, "TECHNOLOGY"), (250, 100, "VALUE"),
             (300, 100, "UNITS"), (360, 100, "BIO REF INTERVAL")]]
    y = 118.0

    def row(name, method, value, unit, rng, *more):
        nonlocal y
        rows.append([(40, y, name), (160, y, method), (250, y, value), (300, y, unit), (360, y, rng)])
        for text in more:
            y += 10.5
            rows.append([(40, y, text)])
        y += 14.0

    row("BLOOD UREA NITROGEN", "PHOTOMETRY", "14.2", "mg/dL", "7.9 - 20", "(BUN)")
    row(wrapped_first, "C.L.I.A", "118", "ng/dL", "60 - 200", wrapped_rest)
    row("URIC ACID", "PHOTOMETRY", "7.8", "mg/dL", "4.2 - 7.3")
    row("HDL CHOLESTEROL -", "PHOTOMETRY", "38", "mg/dL", "40 - 60", "DIRECT")
    row("CALCIUM", "PHOTOMETRY", "9.4", "mg/dL", "8.8 - 10.6")
    return rows


def test_a_name_wrapped_in_a_narrow_column_joins_its_row_when_the_table_wraps_names():
    """"TOTAL" / "TRIIODOTHYRONINE (T3)": the second line's first word would have passed the
    right edge the column's names reach, so it wrapped; the table shows wrapped names."""
    names = [r[0] for r in _results(document(page(_narrow_names_page("TOTAL", "TRIIODOTHYRONINE (T3)"))))]
    assert names == ["BLOOD UREA NITROGEN (BUN)", "TOTAL TRIIODOTHYRONINE (T3)", "URIC ACID",
                     "HDL CHOLESTEROL - DIRECT", "CALCIUM"]


def test_a_short_line_that_would_have_fitted_after_the_name_is_not_its_wrapped_part():
    """"CRP" / "NOTE": the word fits after the name within the column, so it did not wrap."""
    names = [r[0] for r in _results(document(page(_narrow_names_page("CRP", "FASTING")))) ]
    assert "CRP" in names and "CRP FASTING" not in names


def _unit_headed_block(block_x: tuple[float, float, float]) -> list[list[tuple]]:
    """A table whose white-cell block prints its units as headings ("%", "Absolute x10^9/L")
    over columns at `block_x`, then rows of the table's own columns again."""
    pct_x, abs_x, range_x = block_x
    return [
        [(40, 100, "Test"), (250, 100, "Result"), (330, 100, "Units"), (420, 100, "Reference Range")],
        [(40, 118, "Hemoglobin"), (250, 118, "13.9"), (330, 118, "g/dL"), (420, 118, "13.0 - 17.0")],
        [(40, 133, "Differential count"), (pct_x, 133, "%"), (abs_x, 133, "Absolute x10^9/L"),
         (range_x, 133, "Reference (x10^9/L)")],
        [(40, 148, "Neutrophils"), (pct_x, 148, "61.0"), (abs_x, 148, "4.12"), (range_x, 148, "2.00 - 7.50")],
        [(40, 163, "Lymphocytes"), (pct_x, 163, "30.5"), (abs_x, 163, "2.06"), (range_x, 163, "1.00 - 4.00")],
        [(40, 178, "Platelets"), (250, 178, "245"), (330, 178, "x10^9/L"), (420, 178, "150 - 400")],
    ]


def test_units_printed_as_a_blocks_headings_give_each_value_its_unit_and_range():
    """The share and the absolute count are two results; the range headed in the count's
    unit is the count's. The row after the block prints a unit where the block has numbers,
    and is read in the table's own columns. Same whether the block has a grid of its own or
    shares the table's."""
    expected = [
        ("Hemoglobin", "13.9", "g/dL", 13.0, 17.0, None),
        ("Neutrophils", "61.0", "%", None, None, None),
        ("Neutrophils", "4.12", "x10^9/L", 2.0, 7.5, None),
        ("Lymphocytes", "30.5", "%", None, None, None),
        ("Lymphocytes", "2.06", "x10^9/L", 1.0, 4.0, None),
        ("Platelets", "245", "x10^9/L", 150.0, 400.0, None),
    ]
    assert _results(document(page(_unit_headed_block((250, 330, 420))))) == expected
    assert _results(document(page(_unit_headed_block((200, 290, 470))))) == expected


def test_a_line_of_headings_without_a_unit_heads_no_block():
    from parser.columns import Column, Header, unit_subheader

    table = Header([Column("name", 40, 60, "test"), Column("result", 250, 280, "result")], 0, 600)
    assert unit_subheader([(40, 60, "Differential count"), (250, 260, "Percent"),
                           (330, 360, "Absolute")], table) is None
    assert unit_subheader([(40, 60, "Neutrophils"), (250, 260, "61.0"), (330, 340, "%")], table) is None
    block = unit_subheader([(40, 60, "Differential count"), (250, 256, "%"), (330, 360, "Absolute G/l")], table)
    assert [(c.kind, c.unit) for c in block.columns] == [("name", None), ("result", "%"), ("other", "G/l")]


def test_an_ocr_read_unit_heading_is_put_right():
    from parser.columns import heading_unit

    assert heading_unit("Valeur absolue G/i", ocr=True) == "G/l"
    assert heading_unit("Valeurs de référence (G/1)", ocr=True) == "G/l"
    assert heading_unit("Valeur absolue G/i") is None  # a text layer's heading is as printed
    assert heading_unit("Absolute (x10^9/L)") == "x10^9/L"


def _section_over_rows_page(first: str, second: str) -> list[list[tuple]]:
    return [
        [(40, 100, "Test Name"), (250, 100, "Result"), (330, 100, "Units"), (420, 100, "Reference Range")],
        [(40, 118, "HAEMOGLOBIN"), (250, 118, "13.2"), (330, 118, "g/dL"), (420, 118, "12.0 - 15.5")],
        [(40, 133, "PLATELET COUNT"), (250, 133, "2.1"), (330, 133, "lakhs/cumm"), (420, 133, "1.5 - 4.5")],
        [(40, 155, first)],
        [(40, 166, second), (250, 166, "79"), (330, 166, "%"), (420, 166, "40 - 75")],
        [(40, 181, "LYMPHOCYTES"), (250, 181, "15"), (330, 181, "%"), (420, 181, "20 - 45")],
    ]


def test_a_line_of_section_words_over_a_named_row_heads_a_section_in_a_table_that_never_wraps():
    rows = parse_document(document(page(_section_over_rows_page("DIFFERENTIAL LEUCOCYTE COUNT",
                                                                "POLYMORPHS")))).results
    assert [(r.test_name, r.source_panel_name) for r in rows][2:] == [
        ("POLYMORPHS", "DIFFERENTIAL LEUCOCYTE COUNT"), ("LYMPHOCYTES", "DIFFERENTIAL LEUCOCYTE COUNT")]


def test_a_first_name_line_with_one_section_word_still_starts_the_name():
    """"TOTAL IRON" (one section word, "iron") over "BINDING CAPACITY": the name's first line."""
    names = [r[0] for r in _results(document(page(_section_over_rows_page("TOTAL IRON", "BINDING CAPACITY"))))]
    assert "TOTAL IRON BINDING CAPACITY" in names


def _full_names_column(source: str = "text") -> list[list[tuple]]:
    """Names filling a column that ends short of the next label (cell padding), one of them
    wrapped with nothing in its words to tell it."""
    return [
        [(40, 100, "TEST NAME"), (150, 100, "TECHNOLOGY"), (250, 100, "VALUE"), (300, 100, "UNITS"),
         (360, 100, "BIO REF INTERVAL")],
        [(40, 118, "ALKALINE PHOSPHATASE"), (150, 118, "PHOTOMETRY"), (250, 118, "88"), (300, 118, "U/L"),
         (360, 118, "45 - 129")],
        [(40, 132, "GAMMA GLUTAMYL"), (150, 132, "PHOTOMETRY"), (250, 132, "61"), (300, 132, "U/L"),
         (360, 132, "< 55")],
        [(40, 142.5, "PEPTIDE (GGT)")],  # would have fitted before the next label, not the names' edge
        [(40, 160, "URIC ACID"), (150, 160, "PHOTOMETRY"), (250, 160, "7.8"), (300, 160, "mg/dL"),
         (360, 160, "4.2 - 7.3")],
    ]


def test_a_name_wraps_in_a_column_its_names_fill():
    names = [r[0] for r in _results(document(page(_full_names_column())))]
    assert names == ["ALKALINE PHOSPHATASE", "GAMMA GLUTAMYL PEPTIDE (GGT)", "URIC ACID"]


def test_on_an_ocr_page_section_words_do_not_stop_a_wrapped_name_in_a_table_that_wraps():
    rows = _narrow_names_page("THYROID STIMULATING", "HORMONE (TSH)")
    names = [r[0] for r in _results(document(page(rows, source="ocr")))]
    assert "THYROID STIMULATING HORMONE (TSH)" in names


def test_a_garbled_unit_between_a_value_and_its_range_stays_the_cells_unit():
    """OCR reads "x10^9/L" as 'x10"9/L': a slashed word between the value and a whole range
    stands where the unit does; a word without a slash does not."""
    fields = read_value_fields('7.6 x10"9/L (4.0 - 11.0) H'.split())
    assert fields is not None and (fields.units, fields.range, fields.flag) == ((1, 2), (2, 5), (5, 6))
    assert read_value_fields("7.6 of (4.0 - 11.0)".split()) is None


def test_dotted_leaders_run_on_to_the_name_or_the_value_are_cut_apart():
    rows = [[(40, 100, "Test"), (280, 100, "Result"), (330, 100, "(Normal Range)")]]
    for i, text in enumerate(["Haemoglobin ..........14.8 g/dL (13 - 17)",
                              "Sodium..............141 mmol/L [135 - 145]",
                              "Urea ........: 31 mg/dL (10 - 50)",
                              "Uric Acid ....... 7.7 mg/dL (3.4 - 7.0) H"]):
        rows.append([(40, 120 + 15 * i, text)])
    assert _results(document(page(rows))) == [
        ("Haemoglobin", "14.8", "g/dL", 13.0, 17.0, None),
        ("Sodium", "141", "mmol/L", 135.0, 145.0, None),
        ("Urea", "31", "mg/dL", 10.0, 50.0, None),
        ("Uric Acid", "7.7", "mg/dL", 3.4, 7.0, "H"),
    ]
    assert read_fields("Report Date: 12 03 2024".split()) is None  # a label, not a row


def test_a_heading_on_two_lines_is_no_wrapped_part_of_the_row_above_it():
    """"Differential Leucocyte" / "Count" sits nearer its own second line than the row above:
    a block of its own, though its first word would not have fitted after "Hemoglobin"."""
    rows = [
        [(40, 100, "Test Name"), (150, 100, "Result"), (200, 100, "Units"), (260, 100, "Reference Range")],
        [(40, 118, "Hemoglobin"), (150, 118, "13.2"), (200, 118, "g/dL"), (260, 118, "12.0 - 15.5")],
        [(40, 131.5, "Differential Leucocyte")],
        [(40, 141.8, "Count")],
        [(40, 155, "Neutrophils"), (150, 155, "62"), (200, 155, "%"), (260, 155, "40 - 80")],
        [(40, 168.5, "Total Iron Binding"), (150, 168.5, "310"), (200, 168.5, "ug/dL"), (260, 168.5, "250 - 450")],
        [(40, 178.8, "Capacity")],
        [(40, 192, "Lymphocytes"), (150, 192, "30"), (200, 192, "%"), (260, 192, "20 - 40")],
    ]
    names = [r[0] for r in _results(document(page(rows)))]
    assert names[0] == "Hemoglobin" and "Total Iron Binding Capacity" in names


def test_a_section_heading_set_on_two_tight_lines_over_a_row_is_one_heading():
    """"DIFFERENTIAL" / "LEUCOCYTE COUNT": tighter to each other than to the row under them,
    they read as one heading of two section words; the row keeps its own name."""
    rows = _section_over_rows_page("DIFFERENTIAL", "POLYMORPHS")
    rows.insert(4, [(40, 155 + 10.3, "LEUCOCYTE COUNT")])
    for row in rows[5:]:
        row[:] = [(x, y + 14, text) for x, y, text in row]
    results = parse_document(document(page(rows))).results
    assert [(r.test_name, r.source_panel_name) for r in results][2:4] == [
        ("POLYMORPHS", "DIFFERENTIAL LEUCOCYTE COUNT"), ("LYMPHOCYTES", "DIFFERENTIAL LEUCOCYTE COUNT")]


def test_on_an_ocr_page_a_wrapped_names_lower_box_is_no_sign_of_a_method_line():
    """OCR box heights follow the letters: "RATIO" reads shorter than "TC / HDL CHOLESTEROL"
    with its slashes; in a table that wraps names it is still the name's last line."""
    rows = _narrow_names_page("TOTAL", "TRIIODOTHYRONINE (T3)")
    rows.append([(40, 225, "TC / HDL CHOLESTEROL"), (160, 225, "CALCULATED"), (250, 225, "5.9"),
                 (300, 225, "Ratio"), (360, 225, "3 - 5")])
    rows.append([(40, 235.7, "RATIO", 6.5)])
    names = [r[0] for r in _results(document(page(rows, source="ocr")))]
    assert names[-1] == "TC / HDL CHOLESTEROL RATIO"


def test_the_misspelt_impedance_of_indian_blood_counts_is_a_method_word():
    """'(Electrical Impedence)' under a count is its method, or the lines join the names round it."""
    from parser.layout.rows import METHOD_WORDS

    assert METHOD_WORDS.search("(Electrical Impedence)")
    assert not METHOD_WORDS.search("Haemoglobin")
