"""Rows printing a result twice, each with its unit: conventional + SI, share + absolute."""

from parser.layout.measures import measurement, split_measurements, two_measurements
from parser.layout.rows import RawRow


def _row(value, units=None, second=None, range_text=None):
    return RawRow(page=1, name="Test", value=value, units=units, second=second,
                  range_text=range_text)


def test_a_measurement_is_a_number_and_a_unit_after_an_optional_joiner():
    assert measurement("soit 3,37 G/l") == ("3,37", "G/l")
    assert measurement("74 µmol/l") == ("74", "µmol/l")
    assert measurement("3,5 - 5,1") is None
    assert measurement("4,61 (12/01/24)") is None


def test_two_measurements_in_one_cell():
    assert two_measurements("0,95 g/l 5,27 mmol/l") == ("0,95", "g/l", "5,27 mmol/l")
    assert two_measurements("55,2 % soit 3,37 G/l") == ("55,2", "%", "soit 3,37 G/l")
    assert two_measurements("13,6 g/dl") is None
    assert two_measurements("60 mL / min / 1.73m2") is None


def test_two_units_of_one_quantity_are_one_result_with_the_first_unit_and_its_range():
    rows = split_measurements(_row("0,95", "g/l", "5,27 mmol/l", "0,70-1,10 / 3,89-6,11"))
    assert [(r.value, r.units, r.range_text) for r in rows] == [("0,95", "g/l", "0,70-1,10")]


def test_a_range_that_fits_only_the_si_value_is_not_given_to_the_first():
    rows = split_measurements(_row("95", "mg/l", "2,37 mmol/l", "2,15 à 2,55"))
    assert [(r.value, r.units, r.range_text) for r in rows] == [("95", "mg/l", None)]


def test_share_and_absolute_count_are_two_results_the_range_going_by_magnitude():
    rows = split_measurements(_row("55,2", "%", "soit 3,37 G/l", "1,80 à 7,50"))
    assert [(r.name, r.value, r.units, r.range_text) for r in rows] == [
        ("Test", "55,2", "%", None), ("Test", "3,37", "G/l", "1,80 à 7,50")]
    rows = split_measurements(_row("61", "%", "4,5 G/l", "40 - 75"))
    assert [r.range_text for r in rows] == ["40 - 75", None]
    rows = split_measurements(_row("2,1", "%", "0,13 G/l", "< 0,50"))
    assert [r.range_text for r in rows] == [None, "< 0,50"]


def test_a_page_with_two_measurements_per_row_reads_one_or_two_results():
    from page_builder import document, page

    from parser.layout import document_rows
    doc = document(page([
        [(330, 80, "Valeurs de référence")],
        [(40, 100, "Glycémie à jeun"), (200, 100, "0,95 g/l"), (260, 100, "5,27 mmol/l"),
         (330, 100, "0,70 à 1,10")],
        [(40, 115, "Neutrophiles"), (200, 115, "55,2 %"), (260, 115, "soit 3,37 G/l"),
         (330, 115, "1,80 à 7,50")],
        [(40, 130, "Créatinine"), (200, 130, "8,4 mg/l 74 µmol/l"), (330, 130, "5,7 à 11,1")],
    ]))
    rows = [(r.name, r.value, r.units, r.range_text) for r in document_rows(doc)]
    assert rows == [("Glycémie à jeun", "0,95", "g/l", "0,70 à 1,10"),
                    ("Neutrophiles", "55,2", "%", None),
                    ("Neutrophiles", "3,37", "G/l", "1,80 à 7,50"),
                    ("Créatinine", "8,4", "mg/l", "5,7 à 11,1")]


def test_each_measurement_with_its_own_range_keeps_it():
    from page_builder import document, page

    from parser.layout import document_rows
    doc = document(page([
        [(40, 100, "Neutrophiles"), (200, 100, "58,0 %"), (260, 100, "40 - 75"),
         (330, 100, "3,71 G/l"), (400, 100, "1,80 - 7,50")],
        [(40, 115, "Lymphocytes"), (200, 115, "30,5 %"), (260, 115, "20 - 45"),
         (330, 115, "1,95 G/l")],
    ]))
    rows = [(r.name, r.value, r.units, r.range_text) for r in document_rows(doc)]
    assert rows == [("Neutrophiles", "58,0", "%", "40 - 75"), ("Neutrophiles", "3,71", "G/l", "1,80 - 7,50"),
                    ("Lymphocytes", "30,5", "%", "20 - 45"), ("Lymphocytes", "1,95", "G/l", None)]


def test_a_share_printed_apart_after_the_name_is_a_result_beside_the_count():
    from page_builder import document, page

    from parser.layout import document_rows
    doc = document(page([
        [(40, 80, "Test"), (250, 80, "Result"), (320, 80, "Flag"), (360, 80, "Units"),
         (450, 80, "Reference Range")],
        [(40, 100, "Haemoglobin"), (250, 100, "10.9"), (320, 100, "L"), (360, 100, "g/dL"),
         (450, 100, "12.1 - 16.3")],
        [(40, 115, "Neutrophils"), (170, 115, "71.2 %"), (250, 115, "5.85"), (360, 115, "x10^9/L"),
         (450, 115, "1.60 - 6.98")],
    ]))
    rows = [(r.name, r.value, r.units, r.range_text) for r in document_rows(doc)]
    assert ("Neutrophils", "71.2", "%", None) in rows
    assert ("Neutrophils", "5.85", "x10^9/L", "1.60 - 6.98") in rows
    assert all(not name.endswith("%") for name, *_ in rows)


def test_a_block_whose_count_unit_is_printed_under_its_heading_reads_share_and_count():
    # Tunisian-kind formula table: "Valeur absolue" over "/mm³" on a second header line,
    # counts with thousands grouped by spaces ("3 944"); the range is the count's.
    from page_builder import document, page

    from parser.layout import document_rows
    doc = document(page([
        [(40, 80, "Analyses"), (280, 80, "Résultat"), (330, 80, "Unité"), (405, 80, "Valeurs usuelles")],
        [(40, 95, "Globules blancs"), (290, 95, "6 800"), (330, 95, "/mm³"), (405, 95, "4 000 - 10 000")],
        [(40, 115, "Formule leucocytaire"), (285, 115, "%"), (320, 115, "Valeur absolue"),
         (405, 115, "Valeurs usuelles /mm³")],
        [(355, 123, "/mm³")],
        [(40, 135, "Neutrophiles"), (282, 135, "58"), (355, 135, "3 944"), (405, 135, "1 800 - 7 000")],
        [(40, 148, "Éosinophiles"), (287, 148, "3"), (365, 148, "204"), (405, 148, "0 - 500")],
        [(40, 161, "Lymphocytes"), (282, 161, "33"), (355, 161, "2 244"), (405, 161, "1 000 - 4 000")],
    ]))
    rows = [(r.name, r.value, r.units, r.range_text) for r in document_rows(doc)]
    assert rows[1:] == [("Neutrophiles", "58", "%", None),
                        ("Neutrophiles", "3 944", "/mm³", "1 800 - 7 000"),
                        ("Éosinophiles", "3", "%", None), ("Éosinophiles", "204", "/mm³", "0 - 500"),
                        ("Lymphocytes", "33", "%", None),
                        ("Lymphocytes", "2 244", "/mm³", "1 000 - 4 000")]


def test_a_count_with_grouped_thousands_is_one_measurement():
    assert measurement("3 944 /mm³") == ("3 944", "/mm³")
    assert measurement("soit 4 120 000 /mm³") == ("4 120 000", "/mm³")
    assert measurement("5 10 /mm³") is None
