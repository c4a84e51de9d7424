"""Layout classes the parser was not tuned on, built as pages (issue 9's failure classes):
each test is a kind of layout, not a file."""

import copy

from page_builder import document, page
from typer.testing import CliRunner

from parser.api import parse_document
from parser.explain import explain_document, format_explanation
from parser.page import Word


def _results(doc):
    return [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range,
             r.interpretation) for r in parse_document(doc).results]


def _plain_lis_page():
    """Capitals header, a label row inside the table, spaced units, `Up to` ranges, a dotted
    abbreviation as a name and a row without unit."""
    return page([
        [(40, 60, "Patient Name : RAHUL KUMAR"), (350, 60, "LAB NO. : 2")],
        [(40, 75, "Age/Sex : 45 / Male"), (350, 75, "Date : 12/03/2024 10:47 am")],
        [(40, 100, "TEST"), (250, 100, "RESULT"), (330, 100, "UNITS"), (420, 100, "NORMAL VALUES")],
        [(40, 120, "LIVER FUNCTION TEST")],
        [(40, 140, "S.G.O.T."), (250, 140, "34"), (330, 140, "U / L"), (420, 140, "Up to 46 U / L")],
        [(40, 155, "Total Bilirubin"), (250, 155, "0.8"), (330, 155, "mg / dl"), (420, 155, "0.2 - 1.2")],
        [(40, 170, "Hemoglobin"), (250, 170, "13.2"), (330, 170, "gm / dl"), (420, 170, "13.5 - 18.0")],
        [(40, 185, "A/G Ratio"), (250, 185, "1.4"), (420, 185, "1.0 - 2.1")],
    ])


EXPECTED_LIS = [
    ("S.G.O.T", "34", "U/L", None, 46.0, "normal"),
    ("Total Bilirubin", "0.8", "mg/dl", 0.2, 1.2, "normal"),
    ("Hemoglobin", "13.2", "gm/dl", 13.5, 18.0, "abnormal"),
    ("A/G Ratio", "1.4", None, 1.0, 2.1, "normal"),
]


def test_plain_lis_table_with_spaced_units_and_label_rows():
    assert _results(document(_plain_lis_page())) == EXPECTED_LIS


def test_reported_font_size_far_from_glyph_boxes_is_ignored():
    """Real LIS PDFs report ~180 pt for 10 pt text: the reading must not change."""
    scaled = copy.deepcopy(_plain_lis_page())
    scaled.words = [Word(w.text, w.x0, w.top, w.x1, w.bottom, w.conf, 180.0, w.bold)
                    for w in scaled.words]
    assert _results(document(scaled)) == EXPECTED_LIS


def test_value_unit_and_flag_in_one_cell_with_bracketed_ranges():
    doc = document(page([
        [(40, 100, "Test"), (250, 100, "Result"), (420, 100, "Reference")],
        [(40, 120, "Glucose, Fasting"), (250, 120, "105 mg/dL"), (420, 120, "(70 - 99)")],
        [(40, 135, "Sodium"), (250, 135, "140 mmol / L"), (420, 135, "[135 - 145]")],
        [(40, 150, "Potassium"), (250, 150, "3.2 mmol/L L"), (420, 150, "[3.5 - 5.3]")],
        [(40, 165, "Creatinine .............."), (250, 165, "0.9 mg/dL"), (420, 165, "0.6-1.2")],
    ]))
    assert _results(doc) == [
        ("Glucose, Fasting", "105", "mg/dL", 70.0, 99.0, "abnormal"),
        ("Sodium", "140", "mmol/L", 135.0, 145.0, "normal"),
        ("Potassium", "3.2", "mmol/L", 3.5, 5.3, "abnormal"),
        ("Creatinine", "0.9", "mg/dL", 0.6, 1.2, "normal"),
    ]


def test_units_printed_inside_the_range_cell():
    doc = document(page([
        [(40, 100, "Test Name"), (250, 100, "Result"), (420, 100, "Reference Range")],
        [(40, 120, "GLUCOSE"), (250, 120, "88"), (420, 120, "65-99 mg/dL")],
        [(40, 135, "HEMOGLOBIN A1c"), (250, 135, "5.4"), (420, 135, "<5.7 % of total Hgb")],
        [(40, 150, "AST"), (250, 150, "30"), (420, 150, "Up to 46 U / L")],
    ]))
    assert _results(doc) == [
        ("GLUCOSE", "88", "mg/dL", 65.0, 99.0, "normal"),
        ("HEMOGLOBIN A1c", "5.4", "%", None, 5.7, "normal"),
        ("AST", "30", "U/L", None, 46.0, "normal"),
    ]


def test_metadata_labels_and_clock_times_are_not_names():
    doc = document(page([
        [(40, 60, "Patient Name : Jane Doe 10:47 am")],
        [(40, 75, "First Name:"), (150, 75, "MRN"), (300, 75, "12345")],
        [(40, 100, "Test"), (250, 100, "Result"), (330, 100, "Units"), (420, 100, "Range")],
        [(40, 120, "Sodium"), (250, 120, "140"), (330, 120, "mmol/L"), (420, 120, "135 - 145")],
    ]))
    meta = parse_document(doc).metadata
    assert (meta.patient_first_name, meta.patient_last_name) == ("Jane", "Doe")


def test_explain_lists_rows_read_and_lines_dropped_with_reasons():
    text = format_explanation(explain_document(document(_plain_lis_page())))
    assert "=== page 1 (text): 4 rows read" in text
    assert "read: 'Hemoglobin' = '13.2'" in text
    assert "drop: 'TEST RESULT UNITS NORMAL VALUES': table header" in text
    assert "drop: 'Age/Sex : 45 / Male" in text
