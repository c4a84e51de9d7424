"""Metadata conventions of real report layouts: several fields under one label, fields printed
after the name, unlabelled patient blocks, dates settled by the lab's address, letterheads."""

from page_builder import cell_words, metadata_of as meta_of

from parser.lines import Line
from parser.metadata import labelled_pairs, read_identifier
from parser.metadata_dates import read_date


def test_one_label_for_birth_date_and_sex():
    meta = meta_of([[(40, 100, "DOB / Sex"), (120, 100, "22-Jul-1964 / Female")]])
    assert (meta.dob, meta.gender) == ("1964-07-22", "female")


def test_grid_of_labels_over_values_with_birth_date_age_and_sex():
    meta = meta_of([
        [(38, 64, "Patient", 8), (196, 64, "DOB / Age / Sex", 8), (440, 64, "Accession", 8)],
        [(38, 72, "KACZMAREK, DOLORES"), (196, 72, "04/19/1958 / 66Y / F"), (440, 72, "LK24-256-01187")],
        [(38, 84, "Collected", 8), (196, 84, "Verified", 8)],
        [(38, 92, "09/12/2024 05:40"), (196, 92, "09/13/2024 07:18")],
    ])
    assert (meta.patient_first_name, meta.patient_last_name) == ("DOLORES", "KACZMAREK")
    assert (meta.dob, meta.gender, meta.specimen_number) == ("1958-04-19", "female", "LK24-256-01187")
    # The birth date settles the month-first order of the other dates.
    assert (meta.date_collected, meta.date_reported) == ("2024-09-12", "2024-09-13")


def test_birth_date_and_sex_printed_after_the_name():
    meta = meta_of([[(50, 130, "Patient : Favre-Bulle Nathalie, 11.04.1968, F")]], "fr")
    assert (meta.dob, meta.gender) == ("1968-04-11", "female")
    meta = meta_of([[(37, 70, "NAME :"), (150, 70, "MR. SANJAY RAO (42Y/M)")]])
    assert (meta.patient_first_name, meta.patient_last_name, meta.gender) == ("SANJAY", "RAO", "male")


def test_a_letter_after_a_name_without_age_or_date_states_no_sex():
    meta = meta_of([[(40, 100, "Name: Maria Lopez F")]])
    assert meta.gender is None


def test_unlabelled_german_block_with_starred_birth_date():
    meta = meta_of([
        [(40, 70, "Kowalski, Dariusz"), (300, 70, "KUMULATIVBEFUND")],
        [(40, 82, "* 14.08.1951"), (111, 82, "m"), (300, 82, "Auftrags-Nr.: 2502141183")],
        [(300, 94, "Abnahme: 14.02.2025 06:30"), (432, 94, "Eingang: 14.02.2025 07:02")],
        [(300, 104, "Befund: 14.02.2025 09:47 (Endbefund)")],
    ], "de")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Dariusz", "Kowalski")
    assert (meta.dob, meta.gender, meta.specimen_number) == ("1951-08-14", "male", "2502141183")
    assert (meta.date_collected, meta.date_reported) == ("2025-02-14", "2025-02-14")


def test_name_beside_the_birth_date_and_never_a_block_title():
    meta = meta_of([
        [(34, 48, "Patient Report"), (119, 48, "Osterhout, Kimberly"), (231, 48, "DOB: 01/09/1983")],
        [(35, 67, "Patient Details"), (210, 67, "Specimen Details")],
        [(35, 81, "DOB: 01/09/1983"), (210, 81, "Specimen ID: 168-417-2290-0")],
    ])
    assert (meta.patient_first_name, meta.patient_last_name) == ("Kimberly", "Osterhout")
    meta = meta_of([[(35, 67, "Patient Details")], [(35, 81, "DOB: 01/09/1983")]])
    assert meta.patient_first_name is None


def test_lab_address_settles_the_order_of_numeric_dates():
    def collected(address):
        return meta_of([[(34, 20, address, 8)], [(280, 85, "DRAWN"), (372, 85, ": 04/02/2025 08:12")]]).date_collected
    assert collected("250 Udyog Vihar Phase I, Gurugram 122016") == "2025-02-04"
    assert collected("2200 Shoreline Drive, Sandusky, OH 44870") == "2025-04-02"
    assert collected("Royal Kennet Hospital, Salisbury SP2 8XX") == "2025-02-04"
    assert collected("2200 Shoreline Drive") is None  # no hint: null, never the printed text


def test_a_lab_label_before_an_address_is_not_the_lab_name():
    meta = meta_of([
        [(34, 20, "AGILE HEALTHCARE", 20)],
        [(34, 37, "Agile Healthcare Laboratories Ltd · National Reference Lab: 250 Udyog Vihar, "
                  "Gurugram 122016", 8)],
    ])
    assert meta.lab_name == "Agile Healthcare Laboratories"


def test_lab_name_without_company_form_and_split_word():
    meta = meta_of([[(126, 26, "Lab oratorio Analisi Cliniche San Lorenzo s.r.l.", 18)]], "it")
    assert meta.lab_name == "Laboratorio Analisi Cliniche San Lorenzo"


def test_lab_brand_before_a_laboratory_mentioned_in_its_address_line():
    meta = meta_of([
        [(34, 22, "SANJEEVANI PATHCARE", 15)],
        [(34, 39, "National Reference Laboratory, Plot 14, Sector 18, Gurugram 122015", 9)],
    ])
    assert meta.lab_name == "SANJEEVANI PATHCARE"


def test_registration_number_is_the_specimen_only_without_a_specimen_label():
    meta = meta_of([[(37, 93, "Mr. Ganesh Pawar"), (388, 93, "Reg. No. : SSP/2502/0417")],
                    [(37, 104, "Age : 45 Years")]])
    assert meta.specimen_number == "SSP/2502/0417"
    meta = meta_of([[(40, 73, "LAB NO."), (100, 73, ": 2")], [(40, 85, "REG. NO."), (100, 85, ": H/25/018734")]])
    assert meta.specimen_number == "2"
    meta = meta_of([[(40, 73, "LAB NO."), (100, 73, "hy.")], [(40, 85, "REG. NO."), (100, 85, ": H/25/018734")]])
    assert meta.specimen_number is None  # the specimen's number unread: no other number for it
    # A pathologist's council registration, even at the top, numbers no specimen.
    meta = meta_of([[(40, 60, "Name: Rahul Sharma")], [(40, 150, "Chief Pathologist | Reg. No: MCI-78542")]])
    assert meta.specimen_number is None


def test_address_settles_only_two_digit_days_and_months():
    meta = meta_of([[(36, 100, "SECTOR - 18, BLOCK-E ROHINI DELHI 110085", 8)],
                    [(372, 137, "Collected"), (442, 137, ": 4/6/2021 11:18:00AM")]])
    assert meta.date_collected is None  # nothing settles it: null, never the printed text


def test_two_digit_year_of_a_month_name_date_only_for_recent_dates():
    meta = meta_of([[(388, 126, "Reported on: 05:05 PM 11 Feb, 25")]])
    assert meta.date_reported == "2025-02-11"
    assert read_date("11 Feb, 55") is None  # a birth date's century is never guessed


def test_name_split_by_ocr_at_its_comma_or_after_its_civility():
    meta = meta_of([[(45, 76, "Kowalski,"), (92, 76, "Dariusz"), (305, 76, "KUMULATIVBEFUND")],
                    [(45, 87, "* 14.08.1951"), (115, 87, "m")]], "de")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Dariusz", "Kowalski")
    meta = meta_of([[(52, 83, "PATIENT NAME"), (120, 83, ":"), (129, 83, "MR."),
                     (150, 83, "HARISH CHANDRA GUPTA"), (305, 83, "LAB NO.")]])
    assert (meta.patient_first_name, meta.patient_last_name, meta.gender) == ("HARISH", "GUPTA", "male")


def test_company_name_under_a_brand_with_items_split_by_hyphens():
    meta = meta_of([
        [(31, 20, "NAVYA DIAGNOSTICS", 9)],
        [(31, 38, "Navya Diagnostic Laboratories Pvt. Ltd. - Central Processing Lab: Plot 12, "
                  "Hyderabad 500051", 8.8)],
    ])
    assert meta.lab_name == "Navya Diagnostic Laboratories"


def test_labels_as_ocr_reads_them_number_sign_and_a_gap():
    meta = meta_of([[(51, 82, "Paciente:"), (164, 82, "GÓMEZ, María Laura"), (334, 82, "Protocolo N?:"),
                     (456, 82, "250310-0147")]], "es")
    assert meta.specimen_number == "250310-0147"
    meta = meta_of([[(42, 74, "Patient(e)", 8), (302, 74, "N°", 8), (340, 74, "de demande", 8)],
                    [(42, 81, "Mme PEYRE Camille"), (302, 81, "B2411-88213")]], "fr")
    assert meta.specimen_number == "B2411-88213"


def test_a_larger_phrase_below_the_letterhead_is_not_the_lab():
    meta = meta_of([
        [(400, 77, "CITY GENERAL HOSPITAL & RESEARCH CENTRE", 18)],
        [(100, 192, "PATIENT NAME : MR. HARISH CHANDRA GUPTA", 18)],
        [(100, 190, "HAEMOGLOBIN", 22), (600, 190, "11.9", 18)],
    ])
    assert meta.lab_name == "CITY GENERAL HOSPITAL & RESEARCH CENTRE"
    meta = meta_of([[(40, 28, "BIOLOIRE", 20)], [(40, 47, "Laboratoire de Biologie Médicale multisite", 10)]])
    assert meta.lab_name == "BIOLOIRE"


def test_value_on_a_line_ocr_split_from_its_label():
    # Two lines at one height, as OCR may build them: the label ends the first; their boxes
    # overlap a little ("Prélèvement" ends at x 110).
    label = Line(cell_words(55, 147.8, "Prélèvement"), 1, ocr=True)
    value = Line(cell_words(105, 147.8, ": 23.09.2024 08:05 Réception : 23.09.2024 12:15"), 1, ocr=True)
    pairs = labelled_pairs([label, value])
    assert ("collected", "23.09.2024 08:05") in pairs
    assert ("other", "23.09.2024 12:15") in pairs  # the other line keeps its own labels
    wordy = Line(cell_words(111, 147.8, ": Dr Martin"), 1, ocr=True)
    assert [f for f, _ in labelled_pairs([label, wordy])] == []  # no date: not the label's value


def test_identifier_without_the_speck_ocr_reads_as_a_quote_mark():
    assert read_identifier("‘581318617") == "581318617"
    assert read_identifier("'LS-25-02184'") == "LS-25-02184"
