from page_builder import HEADER_X, document, header_line, page, table_line

from parser.api import parse_document
from parser.layout import document_rows
from parser.page import Word


def rows_of(*pages):
    return document_rows(document(*pages))








def test_rows_take_cells_from_header_columns():
    rows = rows_of(page([
        header_line(),
        table_line(120, "Hemoglobin", "10.2", "L", "g/dL", "12.0 - 17.5"),
        table_line(140, "Platelet Count", "250", "", "10^3/uL", "150 - 400"),
    ]))
    assert [(r.name, r.value, r.flag, r.units, r.range_text) for r in rows] == [
        ("Hemoglobin", "10.2", "L", "g/dL", "12.0 - 17.5"),
        ("Platelet Count", "250", None, "10^3/uL", "150 - 400"),
    ]


def test_method_line_under_name_is_not_a_row_or_part_of_name():
    rows = rows_of(page([
        header_line(),
        table_line(120, "Hemoglobin", "13.0", "", "g/dL", "13.0 - 17.0"),
        [(40, 131, "Method: Photometry", 6)],
        table_line(150, "MCV", "90", "", "fL", "80 - 100"),
        [(40, 161, "Calculated", 6)],
    ]))
    assert [(r.name, r.method) for r in rows] == [
        ("Hemoglobin", "Method: Photometry"), ("MCV", "Calculated")]


def test_wrapped_name_joins_its_row():
    rows = rows_of(page([
        header_line(),
        table_line(120, "Glucose Fasting (Plasma,", "92", "", "mg/dL", "70 - 99"),
        [(40, 131, "hexokinase)")],
        table_line(160, "Urea", "31", "", "mg/dL", "15 - 40"),
    ]))
    assert [r.name for r in rows] == ["Glucose Fasting (Plasma, hexokinase)", "Urea"]


def test_name_on_line_above_its_value():
    rows = rows_of(page([
        header_line(),
        [(40, 120, "Thyroid Stimulating")],
        table_line(131, "Hormone", "2.5", "", "uIU/mL", "0.4 - 4.0"),
    ]))
    assert [(r.name, r.value) for r in rows] == [("Thyroid Stimulating Hormone", "2.5")]


def test_multi_line_range_continues_the_row():
    rows = rows_of(page([
        header_line(),
        table_line(120, "Hemoglobin", "13.2", "", "g/dL", "Male: 13.5 - 17.5"),
        [(HEADER_X["range"], 131, "Female: 12.0 - 15.5")],
        table_line(160, "Urea", "31", "", "mg/dL", "15 - 40"),
    ]))
    assert rows[0].range_text == "Male: 13.5 - 17.5 Female: 12.0 - 15.5"
    assert rows[1].range_text == "15 - 40"


def test_panel_headings_name_the_rows_below_and_are_not_rows():
    rows = rows_of(page([
        header_line(),
        [(40, 120, "LIPID PANEL", 10, True)],
        table_line(140, "Cholesterol", "180", "", "mg/dL", "<200"),
        [(40, 170, "THYROID", 10, True)],
        table_line(190, "TSH", "2.5", "", "uIU/mL", "0.4 - 4.0"),
    ]))
    assert [(r.name, r.panel) for r in rows] == [("Cholesterol", "LIPID PANEL"), ("TSH", "THYROID")]


def test_non_results_are_dropped():
    rows = rows_of(page([
        header_line(),
        table_line(120, "Sample Type", "Blood (2 ml)"),
        table_line(140, "Glucose", "92", "", "mg/dL", "70 - 99"),
        table_line(160, "Interpretation", "see below"),
        [(40, 180, "Page 1 of 1")],
    ]))
    assert [r.name for r in rows] == ["Glucose"]
    assert rows[0].specimen == "Blood (2 ml)"


def test_previous_result_column_is_never_the_value():
    header = [(40, 100, "Test"), (200, 100, "Result"), (260, 100, "Previous Result"),
              (360, 100, "Units"), (430, 100, "Reference Range")]
    rows = rows_of(page([
        header,
        [(40, 120, "Glucose"), (200, 120, "92"), (260, 120, "140"), (360, 120, "mg/dL"),
         (430, 120, "70 - 99")],
        [(40, 140, "Urea"), (260, 140, "35"), (360, 140, "mg/dL"), (430, 140, "15 - 40")],
    ]))
    assert [(r.name, r.value) for r in rows] == [("Glucose", "92")]


def test_in_range_and_out_of_range_columns():
    header = [(40, 100, "Test Name"), (200, 100, "In Range"), (270, 100, "Out Of Range"),
              (360, 100, "Reference Range")]
    rows = rows_of(page([
        header,
        [(40, 120, "Glucose"), (270, 120, "66 L"), (360, 120, "70-99 mg/dL")],
        [(40, 140, "BUN"), (200, 140, "18"), (360, 140, "7-20 mg/dL")],
    ]))
    assert [(r.name, r.value, r.value_kind) for r in rows] == [
        ("Glucose", "66 L", "out_of_range"), ("BUN", "18", "in_range")]


def test_two_panels_side_by_side():
    left = {"name": 20, "result": 150, "units": 200, "range": 240}
    right = {k: v + 300 for k, v in left.items()}
    lines = []
    for y, l_row, r_row in [
        (100, ("Test", "Result", "Units", "Range"), ("Test", "Result", "Units", "Range")),
        (120, ("Sodium", "140", "mmol/L", "136-145"), ("TSH", "2.5", "mIU/L", "0.4-4.0")),
        (140, ("Potassium", "4.2", "mmol/L", "3.5-5.1"), ("Free T4", "15", "pmol/L", "12-22")),
    ]:
        cells = []
        for cols, texts in ((left, l_row), (right, r_row)):
            cells += [(cols[k], y, t, 8) for k, t in zip(("name", "result", "units", "range"), texts)]
        lines.append(cells)
    rows = rows_of(page(lines))
    assert sorted((r.name, r.value, r.units) for r in rows) == sorted([
        ("Sodium", "140", "mmol/L"), ("Potassium", "4.2", "mmol/L"),
        ("TSH", "2.5", "mIU/L"), ("Free T4", "15", "pmol/L")])


def test_panel_and_columns_carry_over_to_a_page_without_header():
    first = page([
        header_line(),
        [(40, 120, "COMPLETE BLOOD COUNT", 10, True)],
        table_line(140, "Hemoglobin", "13.2", "", "g/dL", "13.0 - 17.0"),
        [(40, 770, "Riverside Lab - confidential")],
    ], number=1)
    second = page([
        [(40, 30, "Riverside Lab - confidential")],
        table_line(60, "Platelet Count", "250", "", "10^3/uL", "150 - 400"),
        [(40, 770, "Riverside Lab - confidential")],
    ], number=2)
    rows = rows_of(first, second)
    assert [(r.name, r.page, r.panel) for r in rows] == [
        ("Hemoglobin", 1, "COMPLETE BLOOD COUNT"), ("Platelet Count", 2, "COMPLETE BLOOD COUNT")]


def test_repeated_page_headers_are_not_rows():
    pages = []
    for n in (1, 2):
        pages.append(page([
            [(40, 20, "Patient Ref"), (250, 20, "12345"), (360, 20, "mg/dL"), (450, 20, "1 - 2")],
            header_line(100),
            table_line(120 + n, f"Analyte {'AB'[n - 1]}", "5", "", "mg/dL", "1 - 9"),
        ], number=n))
    rows = rows_of(*pages)
    assert [r.name for r in rows] == ["Analyte A", "Analyte B"]


def test_rows_without_header_found_by_content():
    rows = rows_of(page([
        [(40, 100, "Glucose"), (250, 100, "92"), (360, 100, "mg/dL"), (450, 100, "70 - 99")],
        [(40, 120, "Collected"), (250, 120, "2024")],
    ]))
    assert [(r.name, r.value, r.units, r.range_text, r.from_header) for r in rows] == [
        ("Glucose", "92", "mg/dL", "70 - 99", False)]


def test_watermark_words_are_ignored():
    p = page([
        header_line(),
        table_line(120, "Glucose", "92", "", "mg/dL", "70 - 99"),
        [(150, 121, "Lab", 40)],
    ])
    rows = rows_of(p)
    assert [(r.name, r.value) for r in rows] == [("Glucose", "92")]


def test_bbox_covers_the_row_as_page_fractions():
    report = parse_document(document(page([
        header_line(),
        table_line(120, "Glucose", "92", "", "mg/dL", "70 - 99"),
    ], width=600, height=800)))
    x0, y0, x1, y1 = report.results[0].bbox
    assert x0 == round(40 / 600, 4) and y0 == round(120 / 800, 4)
    assert 0 < x1 <= 1 and y1 == round(130 / 800, 4)


def test_sloping_photo_lines_are_levelled():
    # A photo taken at an angle: every line climbs 3 units per 100 across the page, so the
    # range at the right edge sits level with the name of the row below.
    import math

    from parser.page import Page
    from parser.skew import estimate_slope

    slope = math.tan(math.radians(-1.7))
    words = []
    cells = [(40, "Test Name"), (250, "Result"), (360, "Units"), (450, "Reference Range")]
    rows = [("Glucose", "92", "mg/dL", "70 - 99"), ("Urea", "31", "mg/dL", "15 - 40"),
            ("Sodium", "140", "mmol/L", "136 - 145"), ("Potassium", "4.2", "mmol/L", "3.5 - 5.1"),
            ("Calcium", "9.4", "mg/dL", "8.6 - 10.3"), ("Albumin", "4.1", "g/dL", "3.5 - 5.0")]
    lines = [[text for _, text in cells]] + [list(r) for r in rows]
    for i, texts in enumerate(lines):
        y = 100 + 14 * i
        for (x, _), text in zip(cells, texts):
            for word in page([[(x, 0, text)]]).words:
                dy = y + slope * (word.x0 + word.x1) / 2
                words.append(Word(word.text, word.x0, dy, word.x1, dy + 10, 0.9, 10))
    photo = Page(1, 600, 800, words, "ocr")
    assert abs(estimate_slope(words) - slope) < 0.005
    found = rows_of(photo)
    assert [(r.name, r.value, r.range_text) for r in found] == [(n, v, rg) for n, v, _, rg in rows]


def test_value_a_line_below_its_name():
    rows = rows_of(page([
        header_line(),
        table_line(120, "Glucose"),
        table_line(136, "", "92", "", "mg/dL", "70 - 99"),
    ]))
    assert [(r.name, r.value, r.units) for r in rows] == [("Glucose", "92", "mg/dL")]


def test_side_by_side_rows_keep_their_own_words():
    left = [(20, 100, "Test", 8), (150, 100, "Result", 8), (200, 100, "Units", 8)]
    right = [(c[0] + 300, *c[1:]) for c in left]
    rows = rows_of(page([
        left + right,
        [(20, 120, "Sodium", 8), (150, 120, "140", 8), (200, 120, "mmol/L", 8),
         (320, 120, "TSH", 8), (450, 120, "2.5", 8), (500, 120, "mIU/L", 8)],
    ]))
    sodium = next(r for r in rows if r.name == "Sodium")
    assert max(w.x1 for w in sodium.words) < 300


def test_labels_stacked_on_two_lines_make_one_header():
    rows = rows_of(page([
        [(40, 100, "Tests"), (200, 100, "Result"), (280, 100, "Units"), (360, 95, "Reference"),
         (460, 95, "Previous Result")],
        [(360, 106, "Interval"), (460, 106, "and Date")],
        [(40, 125, "Glucose"), (200, 125, "92"), (280, 125, "mg/dL"), (360, 125, "70-99"),
         (460, 125, "140 01/02/2023")],
    ]))
    assert [(r.name, r.value, r.range_text) for r in rows] == [("Glucose", "92", "70-99")]


def test_garbled_ocr_line_under_a_name_does_not_replace_the_name():
    # A photo: tesseract merged the small method line under "Urea" into the value line and
    # read it as "wy" (conf 0.41); the confident, smaller name line just above is the name.
    from dataclasses import replace

    from parser.page import Page

    def ocr_words(rows, conf=0.95):
        return [replace(w, conf=conf) for w in page(rows).words]

    words = ocr_words([header_line(), table_line(120, "Glucose", "92", "", "mg/dL", "70 - 99", 14)])
    words += ocr_words([[(40, 138, "Urea", 8)]])
    words += ocr_words([[(40, 141, "wy", 14)]], conf=0.41)
    words += ocr_words([table_line(141, "", "31", "", "mg/dL", "15 - 40", 14)])
    found = rows_of(Page(1, 600, 800, words, "ocr"))
    assert [(r.name, r.value) for r in found] == [("Glucose", "92"), ("Urea", "31")]
    assert min(w.conf for w in found[1].words) < 0.5  # the smudge keeps the row for review
