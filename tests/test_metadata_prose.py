"""Metadata of layout classes first seen in real-like batch 8: a patient block written as prose
between spaced dashes, a grid label wrapped over two lines with its value at mid-height, a
slashed label over a slashed value, all-capital surname-first names, a letter's dateline, an
EMR print banner (a report title run into the lab's name, a view title after a colon)."""

import pytest
from page_builder import metadata_of as meta_of

from parser.metadata_names import split_person_name


def test_a_patient_line_written_as_prose():
    meta = meta_of([
        [(40, 100, "Sig. ROSSI MARIO – nato il 03/05/1961 a Napoli – Sesso: M")],
        [(40, 114, "Accettazione n. 2231 del 21/02/2025 – Prelievo ore 08:10"),
         (400, 114, "Data referto: 22/02/2025")],
        [(40, 740, "Paziente: ROSSI MARIO – Acc. n. 2231 · H = valore superiore")],
    ], "it")
    assert (meta.patient_first_name, meta.patient_last_name) == ("MARIO", "ROSSI")
    assert (meta.dob, meta.gender, meta.specimen_number) == ("1961-05-03", "male", "2231")
    assert (meta.date_collected, meta.date_reported) == ("2025-02-21", "2025-02-22")


def test_a_dash_inside_a_value_without_a_label_after_it_is_kept():
    meta = meta_of([[(40, 100, "Laboratorio: Centro Analisi – Sede Nord")]], "it")
    assert meta.lab_name == "Centro Analisi"  # the lab's first item, never a label's split


@pytest.mark.parametrize("head, tail, field, value, expected", [
    ("Performing", "Lab", "lab_name", "Coastal Medical Laboratories · 12 Main St", "Coastal Medical Laboratories"),
    ("Specimen", "taken", "date_collected", "11-Mar-2025 09:20", "2025-03-11"),
    ("Date", "Collected:", "date_collected", "17/04/2025 08:15", "2025-04-17"),
])
def test_a_grid_label_wrapped_over_two_lines(head, tail, field, value, expected):
    meta = meta_of([[(40, 100, head), (120, 104, value)], [(40, 110, tail)]])
    assert getattr(meta, field) == expected


@pytest.mark.parametrize("value_x", [452, 445])  # the colon apart, or run into the value
def test_a_grid_label_wrapped_under_its_value_line_past_a_colon_column(value_x):
    """"Sample" / "Collection" with its value on the first line, after a colon set apart in a
    column of its own (a Bangladeshi hospital LIS grid): the value, never the colon."""
    meta = meta_of([[(40, 100, "Name"), (115, 100, ":"), (126, 100, "Mrs. Nasrin Akter"),
                     (360, 100, "Sample"), (437, 100, ":"), (value_x, 100, "23/03/2025 09:40 AM")],
                    [(360, 111, "Collection")],
                    [(40, 124, "Age"), (115, 124, ":"), (126, 124, "38 Years")]])
    assert meta.date_collected == "2025-03-23"


def test_two_stacked_labels_are_not_one_wrapped_label():
    meta = meta_of([[(40, 100, "Date"), (120, 100, "Hemoglobin")], [(40, 112, "Collected")],
                    [(40, 124, "Report")]])
    assert meta.date_collected is None


def test_a_label_with_its_colon_over_another_label_is_two_labels():
    # an Indian LIS head: "Registered:" over "Report Date:" must not read "Registered Report Date"
    meta = meta_of([[(40, 100, "Barcode No: S83204772"), (300, 100, "Registered:"), (370, 100, "15-Sep-2023 06:43 am")],
                    [(40, 112, "Collection Date: 15-Sep-2023 06:48 am"),
                     (300, 112, "Report Date:"), (370, 112, "17-Sep-2023 03:48 pm")]])
    assert (meta.date_collected, meta.date_reported) == ("2023-09-15", "2023-09-17")


def test_a_slashed_label_over_a_slashed_value():
    meta = meta_of([[(40, 100, "Received /"), (120, 104, "11-Mar-2025 14:02 / 12-Mar-2025 13:05")],
                    [(40, 110, "Reported")]])
    assert meta.date_reported == "2025-03-12"


@pytest.mark.parametrize("text, first, last", [
    ("GASPERONI MARIA LUISA", "MARIA LUISA", "GASPERONI"),
    ("DE LUCA MARIO", "MARIO", "DE LUCA"),
    ("ROSSI MARIO", "MARIO", "ROSSI"),
])
def test_capital_names_on_european_reports_are_surname_first(text, first, last):
    assert split_person_name(text, surname_first=True) == (first, last)


def test_a_spanish_capital_name_keeps_its_two_surnames():
    assert split_person_name("GUADALUPE HERNÁNDEZ RAMÍREZ", surname_first=True, two_surnames=True) \
        == ("GUADALUPE", "HERNÁNDEZ RAMÍREZ")


@pytest.mark.parametrize("line, iso", [
    ("Tunis, le 14 mars 2025", "2025-03-14"), ("Berlin, den 14.03.2025", "2025-03-14"),
    ("Benevento, lì 15/03/2025", "2025-03-15"),
])
def test_a_letters_dateline_dates_the_report(line, iso):
    assert meta_of([[(380, 60, line)], [(40, 100, "Patient(e) : Mme TRABELSI Amira")]], "fr").date_reported == iso


def test_a_result_shaped_like_a_dateline_does_not_hide_the_dateline():
    meta = meta_of([[(40, 50, "Sodium, 140 mmol/L")], [(380, 60, "Tunis, le 14 mars 2025")],
                    [(40, 100, "Patient(e) : Mme TRABELSI Amira")]], "fr")
    assert meta.date_reported == "2025-03-14"


def test_a_labelled_report_date_wins_over_the_dateline():
    meta = meta_of([[(380, 60, "Tunis, le 14 mars 2025")], [(40, 100, "Édité le : 16/03/2025")]], "fr")
    assert meta.date_reported == "2025-03-16"


@pytest.mark.parametrize("label, field, value, expected", [
    ("Last Reported", "date_reported", "2025-03-06 14:52", "2025-03-06"),
    ("Lab report ID", "specimen_number", "GR25/0311/22914", "GR25/0311/22914"),
    ("N° de requête :", "specimen_number", "S25-073-01846", "S25-073-01846"),
    ("Rapport :", "date_reported", "2025-03-15 11:08", "2025-03-15"),
    ("Validato", "date_reported", "14 marzo 2025 ore 13:12", "2025-03-14"),
])
def test_labels_of_emr_views_and_request_boxes(label, field, value, expected):
    assert getattr(meta_of([[(40, 100, label), (200, 100, value)]]), field) == expected


def test_an_ehr_banner_names_the_lab_before_the_report_title():
    meta = meta_of([
        [(30, 20, "Saint Olaf Medical Center Laboratory Results", 12),
         (320, 20, "Printed by: Nowak RN Print Date/Time: 01/16/2025 06:02")],
        [(30, 90, "Flowsheet: Laboratory — General Lab", 13)],
    ])
    assert meta.lab_name == "Saint Olaf Medical Center"


def test_the_sex_after_the_birth_date_in_two_languages():
    meta = meta_of([[(40, 100, "Jaiotze-data / F. nacimiento"), (170, 100, "27/01/1954 · Emakumea / Mujer")]], "es")
    assert (meta.dob, meta.gender) == ("1954-01-27", "female")


def test_a_german_validation_time_dates_the_report():
    assert meta_of([[(40, 100, "Validiert"), (140, 100, "21.03.2025 09:44")]], "de").date_reported == "2025-03-21"


def test_a_long_name_wrapped_onto_the_next_line():
    meta = meta_of([[(40, 100, "Patient Name"), (120, 100, ": Mrs. H.M. Chandima Dilrukshi"),
                     (300, 100, "Bill No."), (380, 100, ": OPD-B-778210")],
                    [(128, 110, "Herath")], [(40, 124, "Age"), (120, 124, ": 45 Y")]])
    assert (meta.patient_first_name, meta.patient_last_name) == ("Chandima", "Herath")


def test_a_line_below_the_name_with_a_label_beside_it_is_no_run_on():
    meta = meta_of([[(40, 100, "Patient Name"), (120, 100, ": Chandima Dilrukshi")],
                    [(40, 110, "Sex"), (120, 110, ": Female")]])
    assert meta.patient_last_name == "Dilrukshi"


def test_a_prose_line_as_ocr_reads_its_dashes():
    meta = meta_of([[(40, 100, "Sig. ROSSI MARIO - nato il 03/05/1961 a Napoli - Sesso: M")]], "it")
    assert (meta.dob, meta.gender) == ("1961-05-03", "male")


CUMULATIVE = [(40, 120, "Result Name"), (160, 120, "Units"), (300, 120, "01/14/2025 22:47"),
              (390, 120, "01/15/2025 04:15"), (480, 120, "01/16/2025 04:30")]


def test_a_cumulative_view_was_collected_on_its_latest_column_date():
    meta = meta_of([[(480, 108, "Current")], CUMULATIVE, [(40, 140, "WBC"), (300, 140, "15.8 H")]])
    assert meta.date_collected == "2025-01-16"


def test_dated_columns_beside_an_undated_result_column_are_earlier_results():
    rows = [[(40, 120, "Test"), (160, 120, "Result"), (300, 120, "01/14/2025"), (390, 120, "01/15/2025")]]
    assert meta_of(rows).date_collected is None


def test_a_labelled_collection_date_wins_over_the_column_dates():
    rows = [[(40, 90, "Collected:"), (120, 90, "01/15/2025 04:15")], CUMULATIVE]
    assert meta_of(rows).date_collected == "2025-01-15"


def test_the_accession_under_the_latest_column_date():
    rows = [[(172, 135, "2025-Mar-14 09:12"), (290, 135, "2024-Nov-02 08:40"), (410, 135, "2024-Jun-19 10:05")],
            [(31, 145, "Test"), (172, 145, "C25-073-1042"), (290, 145, "C24-307-0119"), (410, 145, "C24-171-0844")],
            [(31, 160, "WBC"), (172, 160, "11.8 H"), (290, 160, "9.6"), (410, 160, "8.1")]]
    meta = meta_of(rows)
    assert (meta.date_collected, meta.specimen_number) == ("2025-03-14", "C25-073-1042")


def test_a_result_under_the_latest_column_date_is_no_accession():
    rows = [[(300, 120, "01/14/2025 22:47"), (390, 120, "01/16/2025 04:30")],
            [(40, 130, "WBC"), (300, 130, "15.8"), (390, 130, "13.2")]]
    assert meta_of(rows).specimen_number is None


@pytest.mark.parametrize("label, value, field, expected, language", [
    ("Folio:", "2503140087", "specimen_number", "2503140087", "es"),
    ("Fecha y hora de toma:", "14/03/2025 07:40", "date_collected", "2025-03-14", "es"),
    ("Befundausgang:", "14.03.2025", "date_reported", "2025-03-14", "de"),
    ("Abnahmezeit:", "14.03.2025 07:40", "date_collected", "2025-03-14", "de"),
    ("Tagesnummer:", "0314-118", "specimen_number", "0314-118", "de"),
    ("Sample Collected At:", "14-Mar-2025 07:40", "date_collected", "2025-03-14", None),
    ("Reported At:", "14-Mar-2025 13:10", "date_reported", "2025-03-14", None),
])
def test_labels_of_each_language(label, value, field, expected, language):
    assert getattr(meta_of([[(40, 100, f"{label} {value}")]], language), field) == expected


def test_a_banner_name_with_its_title_in_brackets_over_the_birth_date_line():
    """"DRUMMOND, Morag (Mrs)" over "CHI 110266 2148  DOB 11-Feb-1966 (59y)  Sex Female": the
    bracketed title is no name word (a Scottish clinical portal's patient banner)."""
    meta = meta_of([[(38, 64, "DRUMMOND, Morag (Mrs)")],
                    [(38, 78, "CHI 110266 2148"), (125, 78, "DOB 11-Feb-1966 (59y)"),
                     (260, 78, "Sex Female")]])
    assert (meta.patient_first_name, meta.patient_last_name, meta.dob) == \
        ("Morag", "DRUMMOND", "1966-02-11")


@pytest.mark.parametrize("label", ["Reported/Verified", "Reported / Verified"])
def test_two_labels_of_one_date_joined_by_a_slash_label_that_date(label):
    """A US reference lab's order grid: "Collected  Received  Reported/Verified" over dates."""
    meta = meta_of([[(40, 100, "Accession"), (150, 100, "Collected"), (260, 100, "Received"),
                     (370, 100, label)],
                    [(40, 112, "25-080-117742"), (150, 112, "03/21/2025 07:45"),
                     (260, 112, "03/22/2025 06:18"), (370, 112, "03/24/2025 11:09")]])
    assert (meta.date_collected, meta.date_reported) == ("2025-03-21", "2025-03-24")
