"""Tables printed sideways: one column per test, a line per field (name, unit, result, range)."""

from page_builder import document, page

from parser.layout import document_rows


def _sideways(lines, x0=130, step=75, y=160, gap=11, size=10.0):
    """A sideways block: each line a heading, then one cell per test at x0 + k * step."""
    rows = []
    for n, (heading, cells) in enumerate(lines):
        rows.append([(40, y + n * gap, heading, size),
                     *[(x0 + k * step, y + n * gap, c, size) for k, c in enumerate(cells) if c]])
    return rows


def _read(rows):
    return [(r.name, r.value, r.units, r.range_text) for r in document_rows(document(page(rows)))]


def test_a_blood_count_printed_one_column_per_test_reads_a_row_per_test():
    rows = [[(37, 140, "HAEMATOLOGY - Full Blood Count", 11.5)],
            *_sideways([("Test", ["WBC", "RBC", "Haemoglobin", "Hct"]),
                        ("Units", ["x10^9/L", "x10^12/L", "g/L", "L/L"]),
                        ("Result", ["11.9 H", "3.61 L", "104 L", "0.33 L"]),
                        ("Ref.", ["4.0-11.0", "3.8-5.8", "115-165", "0.37-0.47"])])]
    assert _read(rows) == [("WBC", "11.9 H", "x10^9/L", "4.0-11.0"), ("RBC", "3.61 L", "x10^12/L", "3.8-5.8"),
                           ("Haemoglobin", "104 L", "g/L", "115-165"), ("Hct", "0.33 L", "L/L", "0.37-0.47")]


def test_the_field_lines_may_come_in_any_order_in_another_language_and_a_test_may_lack_a_result():
    rows = _sideways([("Analyse", ["Sodium", "Potassium", "Chlore", "Urée"]),
                      ("Résultat", ["133", "5,6", "", "11,4"]),
                      ("Valeurs de référence", ["135-145", "3,5-5,2", "95-110", "2,5-7,8"]),
                      ("Unité", ["mmol/L", "mmol/L", "mmol/L", "mmol/L"])], x0=170, step=90, y=300)
    assert _read(rows) == [("Sodium", "133", "mmol/L", "135-145"), ("Potassium", "5,6", "mmol/L", "3,5-5,2"),
                           ("Urée", "11,4", "mmol/L", "2,5-7,8")]


def test_two_sideways_blocks_one_under_the_other_and_a_table_after_them():
    rows = [*_sideways([("Test", ["MCHC", "Platelets", "Neutrophils"]),
                        ("Result", ["315 L", "412 H", "8.9 H"]),
                        ("Units", ["g/L", "x10^9/L", "x10^9/L"])], y=100),
            *_sideways([("Test", ["Cholesterol", "Triglyceride", "HDL"]),
                        ("Result", ["6.2 H", "2.6 H", "0.9 L"]),
                        ("Ref.", ["<5.5", "<2.0", ">1.0"])], y=160),
            [(40, 220, "Test"), (240, 220, "Result"), (310, 220, "Units"), (390, 220, "Reference")],
            [(40, 232, "Albumin"), (240, 232, "33 L"), (310, 232, "g/L"), (390, 232, "35-50")]]
    assert _read(rows) == [
        ("MCHC", "315 L", "g/L", None), ("Platelets", "412 H", "x10^9/L", None),
        ("Neutrophils", "8.9 H", "x10^9/L", None), ("Cholesterol", "6.2 H", None, "<5.5"),
        ("Triglyceride", "2.6 H", None, "<2.0"), ("HDL", "0.9 L", None, ">1.0"), ("Albumin", "33 L", "g/L", "35-50")]


def test_a_header_line_of_labels_is_no_sideways_names_line():
    rows = [[(40, 100, "Test"), (240, 100, "Result"), (310, 100, "Units"), (390, 100, "Reference")],
            [(40, 112, "Glucose"), (240, 112, "9.4 H"), (310, 112, "mmol/L"), (390, 112, "3.5-6.0")],
            [(40, 124, "HbA1c"), (240, 124, "8.6 H"), (310, 124, "%"), (390, 124, "4.0-6.0")]]
    assert _read(rows) == [("Glucose", "9.4 H", "mmol/L", "3.5-6.0"), ("HbA1c", "8.6 H", "%", "4.0-6.0")]
