"""Round-2 layout classes: headings and cells of Indian lab-chain tables."""
import parser.columns as cols


def test_a_status_word_inside_the_names_heading_cuts_no_flag_column():
    # Agilus/SRL: "Test Report Status  Final" is one cell over the names.
    words = [("Test", 42.0, 70.0), ("Report", 74.0, 120.0), ("Status", 124.0, 168.0),
             ("Final", 172.0, 205.0), ("Results", 223.0, 273.0), ("Units", 289.0, 324.0),
             ("Biological", 342.0, 408.0), ("Reference", 412.0, 481.0), ("Interval", 485.0, 537.0)]
    (header,) = cols.find_headers(words, 100.0, 114.0, 1, 595.0)
    assert [c.kind for c in header.columns] == ["name", "result", "units", "range"]
    assert header.columns[0].x1 == 205.0


def test_a_status_heading_set_apart_is_still_a_flag_column():
    words = [("Test", 42.0, 70.0), ("Result", 200.0, 240.0), ("Status", 280.0, 320.0),
             ("Units", 360.0, 395.0), ("Reference", 430.0, 500.0), ("Range", 504.0, 540.0)]
    (header,) = cols.find_headers(words, 100.0, 114.0, 1, 595.0)
    assert [c.kind for c in header.columns] == ["name", "result", "flag", "units", "range"]


from page_builder import document, page  # noqa: E402

from parser.api import parse_document  # noqa: E402


def _rows(doc):
    return [(r.test_name, r.value, r.measurement_kind) for r in parse_document(doc).results]


def test_a_name_wrapped_in_a_narrow_column_keeps_its_second_line():
    # The value sits on the name's first line; the rest of the name is alone on the next
    # line, nearer to it than to the next row. A note under a short name is not a wrap.
    doc = document(page([
        [(40, 100, "TEST NAME"), (160, 100, "RESULT"), (240, 100, "UNITS"), (320, 100, "REFERENCE RANGE")],
        [(40, 120, "THYROID STIMULATING"), (160, 120, "2.41"), (240, 120, "µIU/mL"), (320, 120, "0.35 - 5.50")],
        [(40, 131, "HORMONE (TSH)")],
        [(40, 146, "TOTAL THYROXINE (T4)"), (160, 146, "8.4"), (240, 146, "µg/dL"), (320, 146, "4.5 - 12.0")],
        [(40, 166, "CRP"), (160, 166, "3"), (240, 166, "mg/L"), (320, 166, "0 - 5")],
        [(40, 177, "Fasting sample")],
        [(40, 192, "SODIUM"), (160, 192, "139"), (240, 192, "mmol/L"), (320, 192, "135 - 145")],
    ]))
    names = [name for name, _, _ in _rows(doc)]
    assert names == ["THYROID STIMULATING HORMONE (TSH)", "TOTAL THYROXINE (T4)", "CRP", "SODIUM"]


def test_a_method_column_between_name_and_value_is_the_rows_method():
    # Thyrocare: TEST NAME | TECHNOLOGY | VALUE | UNITS | Bio. Ref. Interval, the method cell
    # set close after a long name.
    doc = document(page([
        [(40, 100, "TEST NAME"), (171, 100, "TECHNOLOGY"), (260, 100, "VALUE"), (320, 100, "UNITS"),
         (390, 100, "Bio. Ref. Interval")],
        [(40, 120, "AVERAGE BLOOD GLUCOSE (ABG)"), (171, 120, "CALCULATED"), (260, 120, "123"),
         (320, 120, "mg/dL"), (390, 120, "90 - 120")],
        [(40, 135, "TOTAL THYROXINE (T4)"), (171, 135, "C.L.I.A"), (260, 135, "8.4"), (320, 135, "µg/dL"),
         (390, 135, "4.5 - 12")],
    ]))
    assert _rows(doc) == [("AVERAGE BLOOD GLUCOSE (ABG)", "123", "calculated"),
                          ("TOTAL THYROXINE (T4)", "8.4", "direct")]


def test_a_unit_cell_wrapped_onto_the_next_line_is_read_whole():
    doc = document(page([
        [(40, 100, "Analyse"), (200, 100, "Résultat"), (260, 100, "Unités"), (360, 100, "Valeurs de référence")],
        [(40, 120, "Créatinine"), (200, 120, "74"), (260, 120, "µmol/l"), (360, 120, "45 - 90")],
        [(40, 140, "DFG (CKD-EPI)"), (200, 140, "87"), (260, 140, "ml/min/1,73"), (360, 140, "> 90")],
        [(260, 151, "m²")],
        [(40, 166, "Sodium"), (200, 166, "139"), (260, 166, "mmol/l"), (360, 166, "136 - 145")],
    ]))
    units = {r.test_name: r.units for r in parse_document(doc).results}
    assert units == {"Créatinine": "µmol/l", "DFG (CKD-EPI)": "ml/min/1,73 m²", "Sodium": "mmol/l"}
