"""Layout classes of the twelfth session (real-like batch 6's dev reports): a sidebar set off
by a long vertical rule, values right-aligned under a label set left of their edge, and a
share's absolute count printed in the range column before its own range. Pages built here."""

from page_builder import page

from parser.api import parse_document
from parser.layout.document import document_rows
from parser.page import Document, Page, Word


def _read(doc: Document) -> list[tuple]:
    return [(r.name, r.value, r.units, r.range_text, r.from_header, r.ambiguous)
            for r in document_rows(doc)]


def _sidebar_page(rule: bool = True) -> Page:
    """A lab's sites and hours down the left margin (smaller type, its own line rhythm), a
    rule beside it, and the report's table on the right; two sidebar lines fall on the
    header's and a row's height."""
    sidebar = [(20, 40 + 12 * i, text, 8) for i, text in enumerate([
        "Central Laboratory", "Sites of collection", "North Road surgery", "Harbour clinic",
        "Opening hours", "Monday to Friday"])]
    sidebar += [(20, 101, "Hill Street clinic", 8), (20, 121, "7h00 to 17h00, Saturday", 8)]
    body = [
        [(150, 100, "Test"), (300, 100, "Result"), (370, 100, "Units"), (450, 100, "Reference Range")],
        [(150, 120, "Haemoglobin"), (300, 120, "13.2"), (370, 120, "g/dL"), (450, 120, "12.0 - 16.0")],
        [(150, 135, "Platelets"), (300, 135, "250"), (370, 135, "x10^9/L"), (450, 135, "150 - 400")],
        [(150, 150, "Sodium"), (300, 150, "140"), (370, 150, "mmol/L"), (450, 150, "135 - 145")],
    ]
    built = page([[cell] for cell in sidebar] + body)
    if rule:
        built.rules = [(129.8, 20.0, 130.4, 780.0)]
    return built


def test_a_sidebar_beside_a_rule_is_read_apart_from_the_table_beside_it():
    rows = [(r.test_name, r.value, r.units) for r in
            parse_document(Document("pdf", [_sidebar_page()])).results]
    assert rows == [("Haemoglobin", "13.2", "g/dL"), ("Platelets", "250", "x10^9/L"),
                    ("Sodium", "140", "mmol/L")]


def test_a_table_ruled_between_names_and_values_is_not_a_sidebar():
    """Names and values share their baselines across the rule: a ruled table, read as rows."""
    body = [[(40, 100, "Test"), (150, 100, "Result"), (220, 100, "Units"), (300, 100, "Range")]]
    names = ["Haemoglobin", "Platelets", "Sodium", "Potassium", "Chloride", "Urea", "Creatinine",
             "Albumin"]
    for i, name in enumerate(names):
        body.append([(40, 120 + 15 * i, name), (150, 120 + 15 * i, f"{i + 3}.5"),
                     (220, 120 + 15 * i, "mmol/L"), (300, 120 + 15 * i, "1.0 - 20.0")])
    ruled = page(body)
    ruled.rules = [(129.8, 90.0, 130.4, 780.0)]
    assert [r[0] for r in _read(Document("pdf", [ruled]))] == names


def _right_aligned_page(values: list[str]) -> Page:
    """'Result' at 190-220, values right-aligned at 242: only the longest reach under it."""
    rows = [[(40, 100, "Test"), (190, 100, "Result"), (250, 100, "Flag"), (280, 100, "Units"),
             (360, 100, "Reference Range")]]
    names = ["Haemoglobin", "White Cell Count", "Red Cell Count", "MCV", "Platelets"]
    units = ["g/dL", "x10^9/L", "x10^12/L", "fL", "x10^9/L"]
    for i, (name, value, unit) in enumerate(zip(names, values, units)):
        y = 120 + 12 * i
        rows.append([(40, y, name), (242 - 5 * len(value), y, value), (280, y, unit),
                     (360, y, "1 - 500")])
    return page(rows)


def test_values_right_aligned_past_their_label_stay_in_the_result_column():
    values = ["110.9", "6.8", "4.11", "78", "412"]
    read = _read(Document("pdf", [_right_aligned_page(values)]))
    assert [(name, value, placed, doubtful) for name, value, _, _, placed, doubtful in read] == [
        ("Haemoglobin", "110.9", True, False), ("White Cell Count", "6.8", True, False),
        ("Red Cell Count", "4.11", True, False), ("MCV", "78", True, False),
        ("Platelets", "412", True, False)]


def test_right_aligned_values_none_reaching_under_their_label_stay_in_the_result_column():
    values = ["8", "88", "24", "19", "42"]
    read = _read(Document("pdf", [_right_aligned_page(values)]))
    assert [(value, placed, doubtful) for _, value, _, _, placed, doubtful in read] == \
        [(v, True, False) for v in values]


def test_a_remark_run_across_the_columns_does_not_unsettle_right_aligned_values():
    """A remark line under a row runs under the 'Result' label; the values, right-aligned past
    the label's edge (none reaching under it), stay this report's results."""
    rows = [[(40, 100, "Test"), (160, 100, "Reference Range"), (290, 100, "Result"), (370, 100, "Units")]]
    cells = [("LDL Cholesterol", "< 3.4", "2.7", "mmol/L"), ("TSH", "0.27 - 4.20", "2.14", "mIU/L"),
             ("Free T4", "12 - 22", "15.8", "pmol/L"), ("Ferritin", "30 - 400", "212", "ug/L")]
    y = 120
    for n, (name, ref, value, unit) in enumerate(cells):
        rows.append([(40, y, name), (160, y, ref), (360 - 5 * len(value), y, value), (370, y, unit)])
        y += 12
        if n == 0:
            rows.append([(40, y, "Remarks: LDL target < 1.8 mmol/L for patients with diabetes and high risk.", 9)])
            y += 12
    read = _read(Document("pdf", [page(rows)]))
    assert [(name, value, unit, placed) for name, value, unit, _, placed, _ in read] == [
        (name, value, unit, True) for name, _, value, unit in cells]


def test_a_header_line_in_a_second_script_does_not_unsettle_right_aligned_values():
    """Under a bilingual header, its line in another script as OCR garbles it ("paral",
    "azul" under 'Result'): words without a digit are no values under the label."""
    rows = [[(40, 100, "Test"), (160, 100, "Normal Range"), (290, 100, "Result"), (370, 100, "Unit")],
            [(40, 109, "paral"), (160, 109, "cstute Jaxoll"), (290, 109, "azul"), (370, 109, "dbl")]]
    cells = [("White Blood Cells", "4.0 - 11.0", "7.9", "x10^9/L"), ("Haemoglobin", "130 - 170", "126", "g/L"),
             ("MCV", "80 - 100", "88.4", "fL"), ("Platelets", "150 - 410", "244", "x10^9/L")]
    for k, (name, ref, value, unit) in enumerate(cells):
        y = 125 + 12 * k
        rows.append([(40, y, name), (160, y, ref), (360 - 5 * len(value), y, value), (370, y, unit)])
    results = parse_document(Document("pdf", [page(rows)])).results
    assert [(r.test_name, r.value, r.units) for r in results] == [(name, value, unit) for name, _, value, unit in cells]


def test_a_count_printed_in_the_range_column_before_its_range_is_a_second_result():
    rows = [
        [(40, 100, "Analyse"), (200, 100, "Résultats"), (300, 100, "Valeurs de référence")],
        [(40, 120, "Hématies"), (200, 120, "4,02 T/L"), (300, 120, "(3,80 - 5,20)")],
        [(40, 135, "Lymphocytes"), (200, 135, "48,9 %"), (300, 135, "1,57 G/L (1,00 - 4,00)")],
    ]
    results = parse_document(Document("pdf", [page(rows)])).results
    assert [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range)
            for r in results] == [
        ("Hématies", "4,02", "T/L", 3.8, 5.2), ("Lymphocytes", "48,9", "%", None, None),
        ("Lymphocytes", "1,57", "G/L", 1.0, 4.0)]


def test_a_footnote_mark_raised_after_a_value_and_flag_is_not_part_of_the_value():
    """'146 H ⁱ²': a note's mark, small and off the baseline, set close after the flag."""
    from page_builder import header_line, table_line

    built = page([header_line(), table_line(120, "LDL Cholesterol", "146 H", "", "mg/dL", "<100"),
                  table_line(135, "HDL Cholesterol", "52", "", "mg/dL", ">39")])
    flag = max((w for w in built.words if w.text == "H"), key=lambda w: w.x1)
    built.words.append(Word("i2", flag.x1 + 2, 119.0, flag.x1 + 7, 125.5, 1.0, 6.5))
    results = parse_document(Document("pdf", [built])).results
    assert [(r.test_name, r.value, r.interpretation) for r in results] == [
        ("LDL Cholesterol", "146", "abnormal"), ("HDL Cholesterol", "52", "normal")]


def test_a_labelled_note_in_one_run_across_the_columns_is_not_a_row():
    """'Diagnosi di diabete: HbA1c ≥ 48 mmol/mol.' under a row: a label, a threshold and
    a full stop, set without column gaps; a single-spaced row beside it stays a row."""
    rows = [
        [(40, 100, "Esame"), (250, 100, "Risultato"), (330, 100, "U.M."), (420, 100, "Valori di riferimento")],
        [(40, 120, "Emoglobina glicata"), (250, 120, "41"), (330, 120, "mmol/mol"), (420, 120, "20 - 42")],
        [(50, 135, "Diagnosi di diabete: HbA1c ≥ 48 mmol/mol.")],
        [(40, 150, "Glucosio 96 mg/dL")],
    ]
    results = parse_document(Document("pdf", [page(rows)])).results
    assert [(r.test_name, r.value) for r in results] == [("Emoglobina glicata", "41"),
                                                         ("Glucosio", "96")]


def test_a_block_headed_by_abbreviated_headings_alone_reads_both_measurements_and_ranges():
    """Under the table's header, a block titled on one line and headed on the next by
    abbreviations alone ("%  v.r. %  v.a.  v.r. v.a.": share, its range, absolute count, its
    range), each cell's unit printed after its number: two results per row, each its range."""
    rows = [
        [(45, 100, "ESAME"), (208, 100, "RISULTATO"), (272, 100, "U.M."),
         (329, 100, "VALORI DI RIFERIMENTO"), (454, 100, "PRECEDENTI")],
        [(45, 120, "Emoglobina"), (218, 120, "11,6"), (272, 120, "g/dL"), (329, 120, "12,0 - 16,0"),
         (524, 120, "12,1")],
        [(45, 135, "FORMULA LEUCOCITARIA")],
        [(231, 147, "%"), (281, 147, "v.r. %"), (389, 147, "v.a."), (476, 147, "v.r. v.a.")],
        [(45, 158, "Neutrofili"), (218, 158, "56,2"), (258, 158, "%"), (281, 158, "40,0 - 75,0"),
         (383, 158, "3,28"), (422, 158, "10^3/µL"), (476, 158, "2,00 - 7,50")],
        [(45, 170, "Linfociti"), (218, 170, "33,5"), (258, 170, "%"), (281, 170, "20,0 - 45,0"),
         (383, 170, "1,96"), (422, 170, "10^3/µL"), (476, 170, "1,00 - 4,00")],
    ]
    results = parse_document(Document("pdf", [page(rows)])).results
    assert [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range)
            for r in results] == [
        ("Emoglobina", "11,6", "g/dL", 12.0, 16.0),
        ("Neutrofili", "56,2", "%", 40.0, 75.0), ("Neutrofili", "3,28", "10^3/µL", 2.0, 7.5),
        ("Linfociti", "33,5", "%", 20.0, 45.0), ("Linfociti", "1,96", "10^3/µL", 1.0, 4.0)]


def test_a_row_whose_range_cell_reads_like_a_labelled_note_stays_a_row():
    rows = [
        [(40, 100, "Test"), (250, 100, "Result"), (330, 100, "Units"), (420, 100, "Reference Range")],
        [(40, 120, "Cholesterol"), (250, 120, "182"), (330, 120, "mg/dL"), (420, 120, "Desirable: < 200 mg/dL.")],
        [(40, 135, "Glucose"), (250, 135, "92"), (330, 135, "mg/dL"), (420, 135, "70 - 99")],
    ]
    results = parse_document(Document("pdf", [page(rows)])).results
    assert [(r.test_name, r.value, r.max_reference_range) for r in results] == [
        ("Cholesterol", "182", 200.0), ("Glucose", "92", 99.0)]


def test_a_power_of_tens_raised_exponent_after_a_value_is_no_footnote_mark():
    """"6.8 x10 ⁹" in one value cell: the small raised "9" is the unit's exponent."""
    from page_builder import header_line, table_line

    built = page([header_line(), table_line(120, "White Cell Count", "6.8 x10", "", "", "4.0 - 11.0")])
    base = max((w for w in built.words if w.text == "x10"), key=lambda w: w.x1)
    built.words.append(Word("9", base.x1 + 0.5, 119.0, base.x1 + 3.5, 125.5, 1.0, 6.5))
    assert [(name, value) for name, value, *_ in _read(Document("pdf", [built]))] == [
        ("White Cell Count", "6.8 x10 9")]
