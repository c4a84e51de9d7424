"""Metadata classes of the birth date's value and of how its day and month are told: the sex
after a bracketed age, a birth date in brackets inside another field's value, dotted numeric
dates, abbreviated date labels."""

import pytest
from page_builder import metadata_of as meta_of


@pytest.mark.parametrize("language, label, value", [
    ("es", "F. nacimiento", "02/03/1957 (68 años) · Mujer"),
    ("de", "Geburtsdatum:", "14.09.1958 (66 J.) · weiblich"),
    ("fr", "Née le", "12/04/1958 (66 ans) - F"),
    ("it", "Data di nascita", "12/04/1958 (66 anni) femmina"),
    (None, "Date of birth:", "22/04/1966 (58 Y) Female"),
])
def test_the_sex_after_the_age_in_brackets_after_the_birth_date(language, label, value):
    meta = meta_of([[(40, 120, label), (150, 120, value)]], language)
    assert meta.dob is not None and meta.gender == "female"


@pytest.mark.parametrize("label, field", [
    ("F. validación", "date_reported"), ("F. emisión:", "date_reported"), ("F. entrega", "date_reported"),
    ("F. toma:", "date_collected"), ("Fecha entrega:", "date_reported"),
])
def test_a_spanish_date_label_with_fecha_cut_to_its_initial(label, field):
    meta = meta_of([[(40, 100, "Paciente:"), (150, 100, "GARCÍA LÓPEZ, Ana")],
                    [(40, 112, label), (150, 112, "14/03/2025 14:05")]], "es")
    assert getattr(meta, field) == "2025-03-14"


@pytest.mark.parametrize("language, label, value, dob", [
    (None, "Age/Sex:", "39 Y / F (DOB 14-Feb-1986)", "1986-02-14"),
    ("fr", "Âge :", "45 ans (née le 12/03/1980)", "1980-03-12"),
    ("de", "Alter:", "45 J. (geb. 12.03.1980)", "1980-03-12"),
    ("it", "Età:", "45 anni (nata il 12/03/1980)", "1980-03-12"),
    ("es", "Edad:", "45 años (nacida el 12/03/1980)", "1980-03-12"),
])
def test_a_birth_date_with_its_label_in_brackets_inside_another_fields_value(language, label, value, dob):
    meta = meta_of([[(40, 100, label), (150, 100, value)]], language)
    assert meta.dob == dob


def test_a_bracketed_date_without_a_birth_label_is_no_birth_date():
    meta = meta_of([[(40, 100, "Age/Sex:"), (150, 100, "39 Y / F (14-Feb-1986)")],
                    [(40, 112, "Ward:"), (150, 112, "ART Clinic (since 02-Jan-2020)")]])
    assert meta.dob is None


def test_dotted_numeric_dates_run_day_first_when_nothing_else_settles_them():
    # An English line-printer report, no country printed, every day and month below 13.
    meta = meta_of([[(50, 70, "PATIENT : KILA, MARY")],
                    [(50, 82, "DOB"), (90, 82, ": 09.07.1975"), (170, 82, "AGE/SEX : 49Y/F")],
                    [(50, 94, "COLL"), (90, 94, ": 09.03.25 06:40"), (190, 94, "RECD : 09.03.25 07:25"),
                     (320, 94, "REPORTED"), (380, 94, ": 10.03.25 13:15")]])
    assert (meta.dob, meta.date_collected, meta.date_reported) == ("1975-07-09", "2025-03-09", "2025-03-10")


def test_slashed_dates_stay_unsettled_and_a_settling_date_wins_over_the_dots():
    meta = meta_of([[(50, 82, "DOB:"), (90, 82, "09/07/1975")], [(50, 94, "Collected:"), (90, 94, "09/03/2025")]])
    assert (meta.dob, meta.date_collected) == (None, None)
    # One dotted date a part above 12 settles month first (a US system's dots): it wins.
    meta = meta_of([[(50, 82, "DOB:"), (90, 82, "09.07.1975")], [(50, 94, "Collected:"), (90, 94, "03.14.2025")]])
    assert (meta.dob, meta.date_collected) == ("1975-09-07", "2025-03-14")


def test_a_line_printers_cut_authorisation_label():
    meta = meta_of([[(50, 94, "COLL"), (90, 94, ": 14/03/25 06:40"), (190, 94, "RECD : 14/03/25 07:25"),
                     (320, 94, "AUTH"), (360, 94, ": 15/03/25 13:15")]])
    assert (meta.date_collected, meta.date_reported) == ("2025-03-14", "2025-03-15")


@pytest.mark.parametrize("language, prose", [
    ("fr", "Reçu le 14/03/2025 à 09h40 · Édité le"),
    ("de", "Eingang 14.03.2025 09:40 · Befunddatum"),
    ("it", "Accettazione n. 1187 – Data referto"),
    ("es", "Recepción 14/03/2025 · Fecha de informe"),
    (None, "Received 14/03/2025 09:40 · Reported"),
])
def test_a_prose_lines_last_label_with_its_value_wrapped_to_the_next_line(language, prose):
    meta = meta_of([[(40, 100, "SITES"), (150, 100, prose)],
                    [(40, 106, "12, rue Centrale", 7)],  # a side column's line between them
                    [(150, 112, "15/03/2025"), (400, 112, "Page 1/2")]], language)
    assert meta.date_reported == "2025-03-15"


def test_a_line_below_the_prose_that_does_not_start_under_it_is_no_wrapped_value():
    meta = meta_of([[(150, 100, "Reçu le 14/03/2025 à 09h40 · Édité le")],
                    [(300, 112, "15/03/2025")]], "fr")
    assert meta.date_reported is None


@pytest.mark.parametrize("separator", ["·", "«", "»"])
def test_a_footers_prose_items_between_middle_dots_as_ocr_reads_them(separator):
    footer = f"Lab No. KP25-118273 - NANGOLO, Petrus {separator} Printed 2025/03/11 10:40"
    meta = meta_of([[(40, 100, "Collected"), (150, 100, "2025/03/10 07:55")], [(45, 760, footer)]])
    assert meta.date_reported == "2025-03-11"


def test_a_letterhead_sentence_about_the_lab_is_no_lab_name():
    # The name itself unreadable (OCR cut its words), a small line describes the lab.
    meta = meta_of([[(72, 30, "rmasoyla Med ical La bo rato rie S", 14)],
                    [(52, 59, "Licensed by the Ministry of Health (Reg. No. 0219) · GESY contracted laboratory", 8)]])
    assert meta.lab_name is None


@pytest.mark.parametrize("letterhead, lab", [
    ("Yermasoyia Medical Laboratories", "Yermasoyia Medical Laboratories"),
    ("laboratoire bio cotentin", "laboratoire bio cotentin"),  # a lower-case logo starts with its lab word
    ("Laboratoire de biologie médicale", "Laboratoire de biologie médicale"),
])
def test_lab_names_whose_lab_word_is_capitalised_or_first_stay_names(letterhead, lab):
    meta = meta_of([[(72, 30, letterhead, 14)],
                    [(52, 59, "Licensed by the Ministry of Health · GESY contracted laboratory", 8)]])
    assert meta.lab_name == lab


@pytest.mark.parametrize("label", ["Protocolo N?*:", "Protocolo N°*:", "Protocolo N*:"])
def test_a_number_sign_ocr_read_as_two_marks_after_a_specimen_label(label):
    meta = meta_of([[(118, 100, "Paciente:"), (350, 100, "BENÍTEZ VILLALBA, GRACIELA"),
                     (919, 100, label), (1167, 100, "250314-0326")]], "es")
    assert meta.specimen_number == "250314-0326"


@pytest.mark.parametrize("language, label, value, iso", [
    ("es", "F. extracción:", "14-ENE-2025 08:20", "2025-01-14"),
    ("it", "Data prelievo:", "14-gen-2025", "2025-01-14"),
    ("fr", "Prélevé le", "14/déc./2024", "2024-12-14"),
    ("de", "Entnahme:", "14-Dez-2024 07:30", "2024-12-14"),
    (None, "Collected:", "14-foo-2025", None),  # no month's word: no date
])
def test_a_month_word_joined_to_the_day_and_year_by_dashes_or_slashes(language, label, value, iso):
    meta = meta_of([[(40, 100, label), (150, 100, value)]], language)
    assert meta.date_collected == iso


@pytest.mark.parametrize("language, line", [
    ("de", "‘ geb. 19.04.1946 - weiblich"), ("fr", "| Née le 19/04/1946 - Féminin"),
    ("it", "' Nata il 19/04/1946 - Femmina"), ("es", "| Fecha de nacimiento: 19/04/1946 - Mujer"),
    (None, "‘ DOB: 19/04/1946 - Female"),
])
def test_a_speck_ocr_read_before_a_birth_label(language, line):
    meta = meta_of([[(52, 107, line)]], language)
    assert (meta.dob, meta.gender) == ("1946-04-19", "female")


def test_the_name_above_a_birth_line_on_an_ocr_page_whose_start_a_speck_moved():
    from page_builder import document, page, RESULT_ROWS
    from parser.metadata import extract_metadata
    doc = document(page([[(138, 246, "GRUBER-HOFBAUER Theresia", 20)], [(119, 280, "‘ geb. 19.04.1946 - weiblich", 20)],
                         [(138, 306, "SVNR: 2318 190446", 20)], *RESULT_ROWS], width=1400, height=2000, source="ocr"))
    meta = extract_metadata(doc, "de")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Theresia", "GRUBER-HOFBAUER")
