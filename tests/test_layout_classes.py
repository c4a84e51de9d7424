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
    ("S.G.O.T.", "34", "U/L", None, 46.0, "normal"),  # names stay as printed
    ("Total Bilirubin", "0.8", "mg/dl", 0.2, 1.2, "normal"),
    ("Hemoglobin", "13.2", "gm/dl", 13.5, 18.0, "abnormal"),
    ("A/G Ratio", "1.4", None, 1.0, 2.1, "normal"),
]


def test_plain_lis_table_with_spaced_units_and_label_rows():
    assert _results(document(_plain_lis_page())) == EXPECTED_LIS


def test_reported_font_size_far_from_glyph_boxes_is_ignored():
    """Real LIS PDFs report ~180 pt for 10 pt text: the text layer keeps the glyph box size,
    and the reading does not change."""
    from parser.pdf import printed_size

    assert printed_size(180.0, 10.0) == 10.0
    assert printed_size(10.0, 11.5) == 10.0  # loose boxes are a little taller than the em
    scaled = copy.deepcopy(_plain_lis_page())
    scaled.words = [Word(w.text, w.x0, w.top, w.x1, w.bottom, w.conf,
                         printed_size(180.0, w.bottom - w.top), w.bold) for w in scaled.words]
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


def _rows(*pages):
    from parser.layout import document_rows

    return [(r.name, r.value, r.units, r.range_text, r.flag, r.method, r.panel)
            for r in document_rows(document(*pages))]


def test_value_heading_unknown_to_the_vocabulary_is_read_from_the_numbers_under_it():
    rows = _rows(page([
        [(40, 100, "Tests"), (250, 100, "Reading"), (420, 100, "Biological Ref. Interval")],
        [(40, 120, "Sodium"), (250, 120, "140 mmol/L"), (420, 120, "135 to 145")],
        [(40, 135, "Potassium"), (250, 135, "4.1 mmol/L"), (420, 135, "3.5 to 5.1")],
    ]))
    assert [(r[0], r[1], r[3]) for r in rows] == [
        ("Sodium", "140 mmol/L", "135 to 145"), ("Potassium", "4.1 mmol/L", "3.5 to 5.1")]


def test_unknown_heading_without_numbers_under_it_is_not_a_table():
    """'TEST  OBSERVATION' over prose stays prose: the content must confirm the header."""
    rows = _rows(page([
        [(40, 100, "TEST"), (300, 100, "OBSERVATION")],
        [(40, 120, "Kindly correlate clinically."), (300, 120, "See notes")],
        [(40, 135, "Report verified by"), (300, 135, "the lab")],
    ]))
    assert rows == []


def test_name_column_led_by_unknown_word_in_side_by_side_tables():
    rows = _rows(page([
        [(40, 100, "PARTICULARS"), (150, 100, "REFERENCE INTERVAL"), (250, 100, "VALUE"),
         (320, 100, "PARTICULARS"), (430, 100, "REFERENCE INTERVAL"), (530, 100, "VALUE")],
        [(40, 120, "TSH"), (150, 120, "(0.45-4.50)"), (250, 120, "4.04"),
         (320, 120, "HDL"), (430, 120, "(More than 40)"), (530, 120, "56")],
        [(40, 135, "Free T4"), (150, 135, "(0.82-1.77)"), (250, 135, "1.2"),
         (320, 135, "LDL"), (430, 135, "(Up to 100)"), (530, 135, "45")],
    ], width=620))
    assert sorted((r[0], r[1], r[3]) for r in rows) == [
        ("Free T4", "1.2", "(0.82-1.77)"), ("HDL", "56", "(More than 40)"),
        ("LDL", "45", "(Up to 100)"), ("TSH", "4.04", "(0.45-4.50)")]


def test_a_data_row_ending_in_a_value_label_is_not_a_header():
    """'Nitrite  Negative  Positive  Abnormal' holds the label 'Abnormal' and unknown words:
    it reads as a header only if results sit under it, and none do."""
    rows = _rows(page([
        [(40, 100, "Test"), (250, 100, "Result"), (330, 100, "Range")],
        [(40, 120, "Nitrite"), (250, 120, "Positive"), (330, 120, "Negative"), (420, 120, "Abnormal")],
        [(40, 135, "Protein"), (250, 135, "Negative"), (330, 135, "Negative")],
    ], width=620))
    assert [(r[0], r[1]) for r in rows] == [("Nitrite", "Positive"), ("Protein", "Negative")]


def test_lines_printed_under_every_row_are_its_methods_not_headings_or_names():
    """Two readings of a name-only line under a row (method of the row above, or first line
    of the next name / a heading): the table decides, since most such lines are methods."""
    rows = _rows(page([
        [(40, 100, "Test"), (250, 100, "Result"), (330, 100, "Units"), (420, 100, "Range")],
        [(40, 120, "Glucose"), (250, 120, "110"), (330, 120, "mg/dL"), (420, 120, "70 - 99")],
        [(40, 131, "HEXOKINASE")],
        [(40, 142, "Urea"), (250, 142, "31"), (330, 142, "mg/dL"), (420, 142, "15 - 40")],
        [(40, 153, "UREASE")],
        [(40, 164, "Creatinine"), (250, 164, "0.9"), (330, 164, "mg/dL"), (420, 164, "0.6 - 1.2")],
        [(40, 175, "JAFFE")],
        [(40, 186, "MCV"), (250, 186, "90"), (330, 186, "fL"), (420, 186, "80 - 100")],
        [(40, 197, "CALCULATED")],
    ]))
    assert [(r[0], r[5]) for r in rows] == [
        ("Glucose", "HEXOKINASE"), ("Urea", "UREASE"), ("Creatinine", "JAFFE"), ("MCV", "CALCULATED")]


def test_tiered_range_continues_beside_a_method_line():
    rows = _rows(page([
        [(40, 100, "Test"), (250, 100, "Result"), (330, 100, "Units"), (420, 100, "Range")],
        [(40, 120, "Hemoglobin"), (250, 120, "14.7"), (330, 120, "g/dL"), (420, 120, "Male: (13.5 to 17.5)")],
        [(40, 131, "Calculated"), (420, 131, "Female: (12.0 to 15.5)")],
        [(40, 142, "RBC"), (250, 142, "4.37"), (330, 142, "x10^6/uL"), (420, 142, "4.5 - 5.9")],
    ]))
    assert rows[0][3] == "Male: (13.5 to 17.5) Female: (12.0 to 15.5)"
    assert [r[0] for r in rows] == ["Hemoglobin", "RBC"]


def test_short_capitals_line_in_a_capitals_table_is_a_section_not_a_name_part():
    rows = _rows(page([
        [(40, 100, "TEST"), (250, 100, "RESULT"), (330, 100, "UNITS"), (420, 100, "RANGE")],
        [(40, 120, "IRON STUDIES")],
        [(40, 131, "SERUM IRON"), (250, 131, "87"), (330, 131, "ug/dL"), (420, 131, "60 - 170")],
        [(40, 142, "TOTAL IRON BINDING CAPACITY"), (250, 142, "300"), (330, 142, "ug/dL"), (420, 142, "250 - 450")],
    ]))
    assert [(r[0], r[6]) for r in rows] == [
        ("SERUM IRON", "IRON STUDIES"), ("TOTAL IRON BINDING CAPACITY", "IRON STUDIES")]


def test_range_printed_in_the_value_cell_with_a_leading_flag():
    assert _results(document(page([
        [(40, 100, "Particulars"), (300, 100, "Your Value")],
        [(40, 120, "Triglycerides"), (300, 120, "H 171 mg/dL (Upto 150)")],
        [(40, 135, "Haemoglobin"), (300, 135, "153 g/L (135-175)")],
    ]))) == [("Triglycerides", "171", "mg/dL", None, 150.0, "abnormal"),
             ("Haemoglobin", "153", "g/L", 135.0, 175.0, "normal")]


def test_value_cell_holding_unit_and_a_tiered_range_or_the_expected_text():
    doc = document(page([
        [(40, 100, "Patient Name : Jane Roe"), (300, 100, "Gender : Female")],
        [(40, 120, "Analyte"), (250, 120, "Flag"), (300, 120, "Observation")],
        [(40, 140, "Haemoglobin"), (250, 140, "L"),
         (300, 140, "11.9 gm / dl Male: (13.5 to 17.5) Female: (12.0 to 15.5)")],
        [(40, 155, "Serum Iron"), (300, 155, "33 H µmol/L (10 to 30)")],
        [(40, 170, "Color"), (300, 170, "Abnormal Amber Yellow")],
        [(40, 185, "Appearance"), (300, 185, "Clear Clear")],
    ], width=700))
    got = {r.test_name: (r.value, r.units, r.min_reference_range, r.max_reference_range,
                         r.interpretation) for r in parse_document(doc).results}
    assert got == {
        "Haemoglobin": ("11.9", "gm/dl", 12.0, 15.5, "abnormal"),
        "Serum Iron": ("33", "µmol/L", 10.0, 30.0, "abnormal"),
        "Color": ("Amber", None, None, None, "abnormal"),
        "Appearance": ("Clear", None, None, None, "normal"),
    }


def test_long_name_then_one_value_cell_is_a_row_not_running_text():
    rows = _rows(page([
        [(40, 100, "Test"), (300, 100, "Result")],
        [(40, 120, "TOTAL IRON BINDING CAPACITY SERUM"), (300, 120, "70 µmol/L (45 to 81)")],
    ]))
    assert [(r[0], r[1]) for r in rows] == [("TOTAL IRON BINDING CAPACITY SERUM", "70 µmol/L (45 to 81)")]


def test_fields_separated_by_single_spaces_without_a_header_are_read_by_content():
    rows = _rows(page([
        [(40, 100, "Leucocitos 0.4 x10^3/µL 4.0 - 10.5")],
        [(40, 115, "Neutrófilos % 1.0 % 40.0 - 74.0")],
        [(40, 130, "Glucosa 106 mg/dL")],
        [(40, 145, "Fecha nacimiento: 01/01/1980")],
        [(40, 160, "Printed on 12 March by the lab")],
    ]))
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("Leucocitos", "0.4", "x10^3/µL", "4.0 - 10.5"),
        ("Neutrófilos %", "1.0", "%", "40.0 - 74.0"),
        ("Glucosa", "106", "mg/dL", None),
    ]


def test_single_spaced_fields_under_a_header_are_placed_by_what_they_are():
    rows = _rows(page([
        [(40, 100, "Test"), (120, 100, "Result"), (170, 100, "Units"), (230, 100, "Reference")],
        [(40, 120, "Leucocitos 0.4 x10^3/µL 4.0 - 10.5")],
        [(40, 135, "Hemoglobina 13.5 g/dL 13.0 - 17.0")],
        [(40, 150, "Glucosa 106 mg/dL")],
    ]))
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("Leucocitos", "0.4", "x10^3/µL", "4.0 - 10.5"),
        ("Hemoglobina", "13.5", "g/dL", "13.0 - 17.0"),
        ("Glucosa", "106", "mg/dL", None),
    ]


def test_cli_explain_prints_reading_on_stdout(tmp_path):
    import typer

    from cli import parse_cmd
    from fixtures.catalog import discover

    fixture = next(f for f in discover() if f.path.suffix == ".pdf" and "scan" not in f.path.name
                   and f.expected.get("results"))
    app = typer.Typer()
    parse_cmd.register(app)
    result = CliRunner().invoke(app, ["parse", "--explain", str(fixture.path)])
    assert result.exit_code == 0, result.output
    assert "=== page 1" in result.stdout and "read: " in result.stdout
    assert '"results"' not in result.stdout  # the reading, not the JSON


def test_ocr_value_glued_to_flag_and_unit_is_split_only_before_a_unit():
    from parser.normalize import split_value

    assert split_value("116Lpg/mL")[:3] == ("116", "L", "pg/mL")
    assert split_value("16L%")[:3] == ("16", "L", "%")
    assert split_value("299,738/cumm")[:3] == ("299,738", None, "/cumm")
    assert split_value("6.1H %")[:3] == ("6.1", "H", "%")
    assert split_value("12abc")[:3] == ("12abc", None, None)  # not a unit: left alone


def test_label_value_pairs_are_never_a_table_header():
    from parser.columns import find_headers

    words = [("Referring", 0, 40), ("Physician", 45, 90), (":", 92, 94), ("Dr.", 100, 110),
             ("Sample", 200, 230), ("No.", 232, 245), (":", 247, 249), ("41251841", 255, 300),
             ("Registration", 320, 370), ("Date", 375, 395), (":", 397, 399), ("21", 405, 415)]
    assert find_headers(words, 0, 10, 1, 600) == []


def test_numbers_under_an_unknown_heading_beat_a_labelled_column_holding_flags():
    rows = _rows(page([
        [(40, 100, "Particulars"), (180, 100, "Out of Range"), (270, 100, "Reading"),
         (330, 100, "Measurement Unit"), (450, 100, "Reference Range")],
        [(40, 120, "UREA"), (270, 120, "5.3"), (330, 120, "mmol/L"), (450, 120, "(2.5-7.8)")],
        [(40, 135, "CREATININE"), (180, 135, "Low"), (270, 135, "45"), (330, 135, "µmol/L"), (450, 135, "(62-115)")],
        [(40, 150, "SODIUM"), (270, 150, "141"), (330, 150, "mmol/L"), (450, 150, "(136-145)")],
    ], width=620))
    assert [(r[0], r[1], r[4]) for r in rows] == [
        ("UREA", "5.3", None), ("CREATININE", "45", "Low"), ("SODIUM", "141", None)]


def test_qualitative_results_confirm_an_unknown_value_heading():
    rows = _rows(page([
        [(40, 100, "TEST DESCRIPTION"), (260, 100, "STANDARD RANGE"), (470, 100, "READING")],
        [(40, 120, "Color"), (260, 120, "Yellow"), (470, 120, "Yellow")],
        [(40, 135, "Appearance"), (260, 135, "Clear"), (470, 135, "Cloudy *")],
        [(40, 150, "Protein"), (260, 150, "Negative"), (470, 150, "Trace")],
    ], width=620))
    assert [(r[0], r[1], r[3]) for r in rows] == [
        ("Color", "Yellow", "Yellow"), ("Appearance", "Cloudy *", "Clear"), ("Protein", "Trace", "Negative")]


def test_ocr_dotted_leader_read_as_letters_is_trimmed_from_the_name():
    from parser.layout.rows import trim_ocr_leader

    words = [Word("Iron", 0, 0, 10, 10, 0.82), Word("Binding", 12, 0, 40, 10, 0.95),
             Word("Capacity", 42, 0, 80, 10, 0.93), Word("-rmlmmme", 82, 0, 120, 10, 0.0)]
    assert [w.text for w in trim_ocr_leader(words)] == ["Iron", "Binding", "Capacity"]
    sure = [Word("Free", 0, 0, 10, 10, 0.9), Word("T4", 12, 0, 20, 10, 0.9)]
    assert trim_ocr_leader(sure) == sure


def test_side_by_side_tables_whose_name_and_value_headings_are_both_unknown():
    rows = _rows(page([
        [(20, 100, "PARTICULARS"), (90, 100, "OBSERVATION"), (160, 100, "REFERENCE VALUE"),
         (330, 100, "PARTICULARS"), (400, 100, "OBSERVATION"), (470, 100, "REFERENCE VALUE")],
        [(20, 120, "BUN"), (90, 120, "14"), (160, 120, "7 - 20"),
         (330, 120, "HDL"), (400, 120, "67"), (470, 120, ">40")],
        [(20, 135, "SODIUM"), (90, 135, "142"), (160, 135, "136 - 145"),
         (330, 135, "LDL"), (400, 135, "129"), (470, 135, "< 100")],
    ], width=640))
    assert sorted((r[0], r[1], r[3]) for r in rows) == [
        ("BUN", "14", "7 - 20"), ("HDL", "67", ">40"), ("LDL", "129", "< 100"),
        ("SODIUM", "142", "136 - 145")]


def test_fields_read_from_ocr_words_with_a_glued_value_and_a_sex_specific_range():
    from parser.layout.fields import read_fields

    tokens = "Vitamin B12 116Lpg/mL = 232to 1,245".split()
    fields = read_fields(tokens, ocr=True)
    assert fields is not None
    assert (tokens[slice(*fields.name)], tokens[slice(*fields.value)], tokens[slice(*fields.range)]) == (
        ["Vitamin", "B12"], ["116Lpg/mL"], ["232to", "1,245"])
    tokens = "Total RBC Count 5.67 x10*6/pl Male: 4.50 to 5.90".split()
    fields = read_fields(tokens, ocr=True)
    assert fields is not None and tokens[slice(*fields.units)] == ["x10*6/pl"]
    assert read_fields("Registered on 12 March by the lab".split()) is None


def _lis_units_before_values(source: str):
    """A monospace LIS table: units printed in a column left of the values, under a two-word
    label whose first word the vocabulary lacks ("Reporting Unit"); the label sits right of
    the units, so OCR's split label words leave the units outside the labelled column."""
    return page([
        [(40, 100, "Analyte"), (237, 100, "Flag"), (268, 100, "Reporting"), (323, 100, "Unit"),
         (345, 100, "Your Value"), (403, 100, "Ref. Range")],
        [(40, 120, "Vitamin B12"), (237, 120, "L"), (268, 120, "pg/mL"), (345, 120, "116"),
         (403, 120, "(232 to 1,245)")],
        [(40, 135, "Glucose"), (237, 135, "H"), (268, 135, "mg/dL"), (345, 135, "110"),
         (403, 135, "(70 to 99)")],
        [(40, 150, "Neutrophils"), (268, 150, "%"), (345, 150, "57"), (403, 150, "(40 to 75)")],
    ], source=source)


def test_units_column_left_of_its_label_keeps_its_units():
    for source in ("text", "ocr"):
        rows = _results(document(_lis_units_before_values(source)))
        assert [(name, value, units) for name, value, units, *_ in rows] == [
            ("Vitamin B12", "116", "pg/mL"), ("Glucose", "110", "mg/dL"), ("Neutrophils", "57", "%")]


def test_header_with_unknown_headings_between_labels_is_read():
    """"TESTS  INDICATOR  OBSERVATION  NORMAL RANGE  U.O.M.": two headings the vocabulary
    lacks between known labels; the content under them decides (flags, then results)."""
    doc = document(page([
        [(40, 100, "TESTS"), (250, 100, "INDICATOR"), (320, 100, "OBSERVATION"),
         (400, 100, "NORMAL RANGE"), (480, 100, "U.O.M.")],
        [(40, 120, "Color"), (320, 120, "Yellow"), (400, 120, "Yellow")],
        [(40, 135, "pH"), (250, 135, "H"), (320, 135, "8.5"), (400, 135, "5.0-8.0")],
        [(40, 150, "Glucose"), (320, 150, "Negative"), (400, 150, "Negative")],
        [(40, 165, "Pus Cells"), (250, 165, "H"), (320, 165, "6"), (400, 165, "0-5"), (480, 165, "/HPF")],
    ]))
    rows = _results(doc)
    assert [(name, value, units) for name, value, units, *_ in rows] == [
        ("Color", "Yellow", None), ("pH", "8.5", None), ("Glucose", "Negative", None),
        ("Pus Cells", "6", "/HPF")]
    assert rows[1][5] == "abnormal"


def test_unknown_words_between_labels_make_a_header_only_when_they_read_as_headings():
    """Unknown words between labels make a header only on a digit-free line of capitalised
    words that are not result words (a data row, a metadata line or a comment is none)."""
    from page_builder import cell_words

    from parser.columns import find_headers

    def words(*cells):
        return [(w.text, w.x0, w.x1) for x, text in cells for w in cell_words(x, 100, text)]

    spaced = words((40, "TESTS"), (250, "INDICATOR"), (320, "OBSERVATION"), (400, "NORMAL RANGE"),
                   (480, "U.O.M."))
    with_digits = spaced + words((540, "2024"))
    assert find_headers(spaced, 100, 110, 1, 600)
    assert find_headers(with_digits, 100, 110, 1, 600) == []
    # A comment under the left table's row beside the right table's data row (two tables
    # side by side): a sentence and result words, not headings.
    beside = words((49, "Result verified by repeat analysis."), (319, "Occult Blood"),
                   (393, "Negative"), (458, "Negative"))
    assert find_headers(beside, 100, 110, 1, 600) == []
    shouting = words((40, "TEST"), (250, "NEGATIVE"), (320, "NEGATIVE"), (400, "NORMAL RANGE"),
                     (480, "UNITS"))
    assert find_headers(shouting, 100, 110, 1, 600) == []


def test_ruled_side_by_side_tables_with_a_value_label_dropped_to_the_next_ocr_line():
    """Two ruled tables side by side, their names' heading a word the vocabulary lacks; OCR
    reads the cell rules as "|" words and puts the right table's "VALUE" on a line of its own
    (a stacked two-line header): the "|" is no part of a label, each table keeps its names."""
    header = [(40, 100, "PARTICULARS"), (99, 100, "|"), (125, 100, "REFERENCE INTERVAL"), (222, 100, "|"),
              (230, 100, "VALUE"), (300, 100, "PARTICULARS"), (359, 100, "|"),
              (385, 100, "REFERENCE INTERVAL"), (482, 100, "|")]
    doc = document(page([
        header,
        [(484, 108, "VALUE")],
        [(40, 125, "TSH"), (125, 125, "(0.45-4.50)"), (230, 125, "4.04 uIU/mL"),
         (300, 125, "Triglycerides"), (385, 125, "(Up to 150)"), (490, 125, "91 mg/dL")],
        [(40, 140, "Glucose"), (125, 140, "(70-99)"), (230, 140, "84 mg/dL"),
         (300, 140, "HDL Cholesterol"), (385, 140, "(More than 40)"), (490, 140, "56 mg/dL")],
    ], source="ocr"))
    rows = _results(doc)
    assert sorted((name, value, units) for name, value, units, *_ in rows) == [
        ("Glucose", "84", "mg/dL"), ("HDL Cholesterol", "56", "mg/dL"), ("TSH", "4.04", "uIU/mL"),
        ("Triglycerides", "91", "mg/dL")]


def test_a_number_ending_the_name_cell_is_the_names_not_the_value():
    """No header, the range and unit before the values (a flowsheet read by content): "2021"
    ends the name's cell ("eGFR CKD-EPI 2021"); it is no value, and the cells after it no range."""
    from parser.layout import document_rows

    line = [(31, 100, "eGFR CKD-EPI 2021", 8), (162, 100, ">=60", 8), (230, 100, "mL/min/1.73m2", 8),
            (300, 100, "39 L", 8), (390, 100, "46 L", 8), (480, 100, "52 L", 8)]
    assert [r.value for r in document_rows(document(page([line])))] != ["2021"]
    # A value single-spaced after its name, its unit and range in cells of their own, still reads.
    glucose = [(31, 100, "Glucose 95"), (200, 100, "mg/dL"), (300, 100, "70-99")]
    assert [(r.name, r.value, r.units, r.range_text) for r in document_rows(document(page([glucose])))] == [
        ("Glucose", "95", "mg/dL", "70-99")]
