"""Metadata of layouts by class, not by lab: labels composed of a date word or a number sign
with what they date or number, the sex printed after the birth date, several fields under one
label, two surnames, and dates whose day and month only the rest of the report settles."""

import pytest
from page_builder import metadata_of as meta_of, label_fields as fields_of


@pytest.mark.parametrize("label, field", [
    ("Data refertazione:", "reported"), ("Date du protocole", "reported"),
    ("Fecha de impresión:", "reported"), ("Druckdatum:", "reported"),
    ("Befund-Nr.:", "specimen"), ("Protocole n°", "specimen"), ("N° de protocole", "specimen"),
    ("Geb.-Dat.:", "dob"), ("Data di nascita (età):", "dob"), ("Fecha de toma:", "collected"),
    ("Date de réception", "other"), ("Date/Time Requested:", "other"),
])
def test_labels_composed_of_a_date_word_or_a_number_sign(label, field):
    value = "B24-091604387" if field == "specimen" else "16/04/2024"
    assert fields_of([[(40, 100, label), (200, 100, value)]]) == [field]


@pytest.mark.parametrize("label", ["Patient No.:", "Hospital No.:", "Medicare No:", "Practice No."])
def test_a_patients_or_an_insurers_number_is_no_specimen_number(label):
    assert "specimen" not in fields_of([[(40, 100, label), (200, 100, "HN-00931874")]])


def test_a_note_in_brackets_after_a_known_label():
    meta = meta_of([
        [(38, 64, "PATIENT", 8), (196, 64, "DATE OF BIRTH (AGE)", 8), (340, 64, "SEX", 8)],
        [(38, 72, "TREMBLAY, MARIE-CLAUDE"), (196, 72, "1972-05-12 (52 Y)"), (340, 72, "F")],
    ])
    assert (meta.dob, meta.gender) == ("1972-05-12", "female")
    meta = meta_of([[(40, 120, "Patient(e)"), (150, 120, "DELVAUX Françoise")]], "fr")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Françoise", "DELVAUX")


@pytest.mark.parametrize("value, gender", [("22/04/1966 (F)", "female"), ("14.09.1958 (weiblich)", "female"),
                                           ("1972-05-12 (52 Y)", None), ("30/05/1972 (52 años)", None)])
def test_the_sex_printed_after_the_birth_date(value, gender):
    meta = meta_of([[(40, 120, "Née le"), (150, 120, value)]], "fr")
    assert meta.dob is not None and meta.gender == gender


def test_birth_date_age_and_sex_under_one_label_with_their_own_labels_repeated():
    meta = meta_of([[(40, 100, "DOB / Age / Sex:"), (160, 100, "1972/08/14 · Age: 52Y · Sex: F")]])
    assert (meta.dob, meta.gender) == ("1972-08-14", "female")


def test_a_spanish_name_bears_two_surnames():
    meta = meta_of([[(40, 100, "Paciente:"), (120, 100, "GUADALUPE HERNÁNDEZ RAMÍREZ")]], "es")
    assert (meta.patient_first_name, meta.patient_last_name) == ("GUADALUPE", "HERNÁNDEZ RAMÍREZ")
    meta = meta_of([[(40, 100, "Paciente:"), (120, 100, "GÓMEZ, María Laura")]], "es")
    assert (meta.patient_first_name, meta.patient_last_name) == ("María", "GÓMEZ")
    # Surnames in capitals before the given name, however many.
    meta = meta_of([[(40, 100, "Patient:"), (120, 100, "DE LA CRUZ Maria")]])
    assert (meta.patient_first_name, meta.patient_last_name) == ("Maria", "DE LA CRUZ")


def test_the_printed_age_settles_month_first_dates():
    meta = meta_of([[(40, 100, "Age/Sex:"), (150, 100, "47 / F")],
                    [(40, 112, "Birthdate:"), (150, 112, "09/03/1977")],
                    [(40, 124, "Date/Time Collected:"), (150, 124, "02/06/2025 07:10 AM")]])
    assert (meta.dob, meta.date_collected) == ("1977-09-03", "2025-02-06")


def test_a_date_printed_elsewhere_settles_the_order():
    meta = meta_of([[(40, 100, "Collected:"), (150, 100, "02/06/2025")],
                    [(40, 700, "Printed 02/13/2025 10:00")]])
    assert meta.date_collected == "2025-02-06"


def test_a_date_nothing_settles_is_null_never_the_printed_text():
    meta = meta_of([[(40, 100, "Collected:"), (150, 100, "02/06/2025")]])
    assert meta.date_collected is None


def test_the_longest_label_printed_is_the_label():
    from parser.metadata_split import _label_prefix

    assert _label_prefix("Nom de naissance ROUX") == (None, "")  # no "Nom" valued "de naissance ROUX"
    assert _label_prefix("Date of Birth 25 February 1999") == ("date of birth", "25 February 1999")


@pytest.mark.parametrize("label, value, field", [
    ("Sexe / Âge :", "F / 52 ans", "age_gender"), ("Edad/Sexo:", "52 Años / F", "age_gender"),
    ("DDN / Sexe :", "22/04/1966 / F", "dob_gender"),
])
def test_one_label_for_several_fields_in_any_language(label, value, field):
    assert fields_of([[(40, 100, label), (200, 100, value)]]) == [field]


def test_a_surname_alone_beside_its_label_over_another_name_label():
    # OCR misread the label below ("Nom de naissance"): it is no value of "Nom d'usage".
    meta = meta_of([[(300, 60, "Nom d'usage"), (400, 60, "FABRE")],
                    [(300, 72, "MAC E PAIBEANER ROUS")],
                    [(300, 84, "Prénom"), (400, 84, "Josiane")]], "fr")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Josiane", "FABRE")


def test_a_hospitals_name_in_its_language_is_a_lab_name():
    meta = meta_of([[(40, 20, "SERVIZIO SANITARIO REGIONALE", 12)],
                    [(40, 30, "AZIENDA OSPEDALIERA SANTA MARIA DELLA VALDORA", 12)],
                    [(40, 44, "Dipartimento dei Servizi", 8)]], "it")
    assert meta.lab_name == "AZIENDA OSPEDALIERA SANTA MARIA DELLA VALDORA"


@pytest.mark.parametrize("label, field", [
    ("Nom, prénom :", "name"), ("Last Name, First Name:", "name"), ("Cognome / Nome:", "name"),
    ("Order ID:", "specimen"), ("Request No.:", "specimen"), ("Resulted:", "reported"),
    ("Género:", "gender"), ("Date de naissance (AAAA-MM-JJ) :", "dob"), ("No de dossier :", "specimen"),
])
def test_more_labels_by_their_parts(label, field):
    value = {"name": "TREMBLAY, Marie", "specimen": "Q2502-0417", "gender": "Femenino"}.get(field, "2025-02-06")
    assert fields_of([[(40, 100, label), (200, 100, value)]]) == [field]


def test_a_us_address_or_certificate_says_month_first_even_for_unpadded_dates():
    meta = meta_of([[(34, 20, "2200 Shoreline Drive, Sandusky, OH 44870", 8)],
                    [(40, 100, "Collected:"), (150, 100, "2/6/2025 7:10 AM")]])
    assert meta.date_collected == "2025-02-06"
    meta = meta_of([[(40, 100, "Collected:"), (150, 100, "2/6/2025 7:10 AM")],
                    [(40, 700, "CLIA #: 05D0642827", 7)]])
    assert meta.date_collected == "2025-02-06"
    # An Indian address says day first only of padded dates: "4/6/2021" stays unsettled.
    meta = meta_of([[(36, 20, "SECTOR - 18, ROHINI DELHI 110085", 8)],
                    [(40, 100, "Collected:"), (150, 100, "4/6/2021 11:18:00AM")]])
    assert meta.date_collected is None


def test_an_age_printed_without_its_unit_settles_the_order():
    meta = meta_of([[(40, 100, "Age: 47"), (150, 100, "Sex: F")],
                    [(40, 112, "DOB: 09/03/1977"), (200, 112, "Collected: 02/06/2025")]])
    assert (meta.dob, meta.date_collected) == ("1977-09-03", "2025-02-06")


def test_a_year_and_a_clock_time_read_as_one_word():
    meta = meta_of([[(40, 100, "Collected On:"), (150, 100, "23 May 202511:12 AM")]])
    assert meta.date_collected == "2025-05-23"


def test_the_sex_in_brackets_after_the_name():
    meta = meta_of([[(40, 100, "Patient:"), (150, 100, "DOE, JANE (F)")]])
    assert (meta.patient_first_name, meta.patient_last_name, meta.gender) == ("JANE", "DOE", "female")
    meta = meta_of([[(40, 100, "Patient:"), (150, 100, "Jane Doe (F)")]])
    assert (meta.patient_last_name, meta.gender) == ("Doe", "female")
    meta = meta_of([[(40, 100, "Patient:"), (150, 100, "Jane Doe F")]])
    assert meta.gender is None  # a lone letter may be an initial


def test_an_earlier_reports_date_label_is_none_of_this_reports():
    assert fields_of([[(40, 100, "Previous Result Date"), (200, 100, "12/09/2023")]]) == []


def test_a_surname_alone_after_the_colon_as_ocr_read_it():
    meta = meta_of([[(300, 60, "Nom d'usage _ FABRE")], [(300, 84, "Prénom"), (400, 84, "Josiane")]], "fr")
    assert meta.patient_last_name == "FABRE"


def test_an_accession_printed_as_letters_and_groups_of_digits():
    meta = meta_of([[(40, 100, "Accession [UID]:"), (150, 100, "CH 0206 12 [2502060012]")]])
    assert meta.specimen_number == "CH 0206 12"
