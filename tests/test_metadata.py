import pytest
from page_builder import document, page

from parser.metadata import extract_metadata
from parser.metadata_dates import read_date
from parser.metadata_names import split_person_name
from parser.metadata_split import read_gender


@pytest.mark.parametrize(
    "text, iso",
    [("27-Feb-2026, 02:25 PM", "2026-02-27"), ("12 Mar 2024", "2024-03-12"), ("Mar 12, 2024", "2024-03-12"),
     ("2024-03-12 08:20", "2024-03-12"), ("25.02.1965", "1965-02-25"), ("10/23/1946", "1946-10-23"),
     ("22.06.2025 11:20", "2025-06-22"), ("02 Dec, 2X", None), ("31/02/2024", None)],
)
def test_unambiguous_dates_become_iso(text, iso):
    assert read_date(text) == iso


def test_ambiguous_numeric_date_is_kept_as_printed():
    assert read_date("4/6/2021 11:18:00AM") == "4/6/2021"


def test_report_date_order_settles_ambiguous_dates():
    assert read_date("03/04/2024", "dmy") == "2024-04-03"
    assert read_date("03/04/2024", "mdy") == "2024-03-04"


def test_two_digit_years_are_not_guessed():
    assert read_date("12-Mar-24") is None


@pytest.mark.parametrize(
    "text, first, last",
    [("Rahul Sharma", "Rahul", "Sharma"), ("MARLOWE, LINDA", "LINDA", "MARLOWE"), ("DUMMY", "DUMMY", None),
     ("Mr. John A. Smith", "John", "Smith"), ("Yashvi M. Patel", "Yashvi", "Patel")],
)
def test_person_names(text, first, last):
    assert split_person_name(text) == (first, last)


@pytest.mark.parametrize("text, gender", [("Male", "male"), ("F", "female"), ("35 Years / Male", "male"),
                                          ("Years", None)])
def test_gender(text, gender):
    assert read_gender(text) == gender


def test_labelled_fields_on_one_line_and_after_lone_colons():
    doc = document(page([
        [(40, 40, "HealthFirst Diagnostics", 16)],
        [(40, 100, "Name"), (90, 100, ":"), (110, 100, "Priya Nair"), (300, 100, "Collected"),
         (360, 100, ":"), (370, 100, "14/03/2024 10:20")],
        [(40, 120, "Lab No."), (90, 120, ":"), (110, 120, "DUMMYS056"), (180, 120, "Gender: Female"),
         (300, 120, "Reported"), (360, 120, ":"), (370, 120, "15/03/2024")],
        [(40, 140, "DOB: 02/05/1980")],
    ]))
    meta = extract_metadata(doc)
    assert meta.model_dump() == {
        "patient_first_name": "Priya", "patient_last_name": "Nair", "dob": "1980-05-02",
        "gender": "female", "lab_name": "HealthFirst Diagnostics", "date_reported": "2024-03-15",
        "date_collected": "2024-03-14", "specimen_number": "DUMMYS056",
    }


def test_unlabelled_name_above_age_line():
    doc = document(page([
        [(20, 120, "Yashvi M. Patel", 15)],
        [(20, 140, "Age : 21 Years")],
        [(20, 155, "Sex : Female")],
    ]))
    meta = extract_metadata(doc)
    assert (meta.patient_first_name, meta.patient_last_name, meta.gender) == ("Yashvi", "Patel", "female")


def test_lab_name_from_company_mention_when_header_has_none():
    doc = document(page([
        [(40, 40, "PRODUCTION TEST COLLECTION CENTRE")],
        [(40, 600, "NRL - Dr Lal PathLabs Ltd")],
    ]))
    assert extract_metadata(doc).lab_name == "Dr Lal PathLabs"


def test_patient_id_is_not_the_specimen_number():
    doc = document(page([[(40, 100, "Patient ID: HF-2026-04521")]]))
    assert extract_metadata(doc).specimen_number is None


def test_labels_printed_without_colon_when_the_value_has_the_fields_shape():
    from parser.metadata_split import _label_prefix

    assert _label_prefix("Name ASHDOWN, PETER") == ("name", "ASHDOWN, PETER")
    assert _label_prefix("Sample ID LN45369115") == ("sample id", "LN45369115")
    assert _label_prefix("Date of Birth 25 February 1999") == ("date of birth", "25 February 1999")
    assert _label_prefix("Specimen Serum") == (None, "")  # a table row, not an identifier
    assert _label_prefix("PATIENT INFORMATION") == (None, "")  # a block title


def test_boxed_grid_prints_each_label_above_its_value():
    doc = document(page([
        [(50, 75, "Patient Name", 7), (184, 75, "Date of Birth", 7), (374, 75, "Gender", 7),
         (471, 75, "Patient ID", 7)],
        [(50, 86, "SMITH, JOHN A"), (184, 86, "04/22/1961"), (374, 86, "M"), (471, 86, "PID-4432")],
        [(50, 101, "Specimen ID", 7), (184, 101, "Date Collected", 7), (374, 101, "Date Reported", 7),
         (471, 101, "Account", 7)],
        [(50, 112, "123-456-7890-0"), (184, 112, "03/14/2024 0812"), (374, 112, "03/15/2024"),
         (471, 112, "00123456")],
    ]))
    meta = extract_metadata(doc)
    assert meta.model_dump() == {
        "patient_first_name": "JOHN", "patient_last_name": "SMITH", "dob": "1961-04-22",
        "gender": "male", "lab_name": None, "date_reported": "2024-03-15",
        "date_collected": "2024-03-14", "specimen_number": "123-456-7890-0",
    }


def test_a_value_below_a_label_must_have_the_fields_shape():
    doc = document(page([
        [(50, 75, "Specimen", 7), (184, 75, "Date Collected", 7)],
        [(50, 86, "Serum"), (184, 86, "fasting")],  # a table's cells, not an identifier or a date
    ]))
    meta = extract_metadata(doc)
    assert (meta.specimen_number, meta.date_collected) == (None, None)


@pytest.mark.parametrize("rows, language, first, last, gender", [
    ([[(300, 60, "Madame DUPONT Marie")], [(300, 75, "Née le 12/03/1968")]], "fr", "Marie", "DUPONT", "female"),
    ([[(300, 60, "Frau")], [(300, 73, "Erika Mustermann")], [(300, 86, "geb. 12.03.1968")]], "de",
     "Erika", "Mustermann", "female"),
    ([[(40, 60, "Sig.ra ROSSI MARIA"), (300, 60, "Nata il: 05/07/1975")]], "it", "MARIA", "ROSSI", "female"),
    ([[(40, 60, "Patient : M. LEROY Jean-Pierre")]], "fr", "Jean-Pierre", "LEROY", "male"),
    ([[(40, 60, "Patient: Mrs. Jane Doe")]], None, "Jane", "Doe", "female"),
])
def test_a_civility_before_the_name_states_the_sex(rows, language, first, last, gender):
    meta = extract_metadata(document(page(rows)), language)
    assert (meta.patient_first_name, meta.patient_last_name, meta.gender) == (first, last, gender)


def test_a_civility_after_a_label_or_before_a_title_is_not_the_patient():
    doc = document(page([[(40, 60, "Prescripteur :"), (140, 60, "Monsieur le Docteur MARTIN")],
                         [(40, 80, "Madame le Docteur Durand")]]))
    assert extract_metadata(doc, "fr").patient_first_name is None


def test_french_initial_m_is_a_civility_only_on_european_reports():
    assert split_person_name("M. LEROY Jean", surname_first=True) == ("Jean", "LEROY")
    assert split_person_name("M. Johnson") == ("M.", "Johnson")


def test_a_number_sign_between_a_specimen_label_and_its_value():
    doc = document(page([[(40, 60, "Accettazione n. 2024-118833")]]))
    assert extract_metadata(doc, "it").specimen_number == "2024-118833"


def test_a_lab_brand_without_a_lab_word_is_the_largest_text_at_the_top():
    doc = document(page([
        [(40, 30, "BIOLOIRE", 18)],
        [(40, 52, "Laboratoire de Biologie Médicale multisite", 9)],
        [(130, 120, "COMPTE RENDU D'ANALYSES DE BIOLOGIE MÉDICALE", 12)],
        [(40, 160, "Hémoglobine", 9), (200, 160, "13,2", 9), (260, 160, "g/dl", 9)],
    ]))
    assert extract_metadata(doc, "fr").lab_name == "BIOLOIRE"


def test_a_report_title_or_a_column_heading_is_never_the_lab_name():
    title = document(page([[(40, 30, "LABORATORY TEST REPORT", 16)],
                           [(40, 160, "Glucose", 9), (200, 160, "92", 9), (260, 160, "mg/dL", 9)]]))
    heading = document(page([[(40, 30, "MVZ Labor Dr. Kessler", 10)], [(40, 100, "Untersuchung", 11)],
                             [(40, 160, "Kreatinin", 9), (200, 160, "0,8", 9), (260, 160, "mg/dl", 9)]]))
    assert extract_metadata(title).lab_name is None
    assert extract_metadata(heading, "de").lab_name == "MVZ Labor Dr. Kessler"


@pytest.mark.parametrize("text, parts", [
    ("24.06.2024 Probenentnahme", ["24.06.2024", "Probenentnahme"]),
    ("12345 Age / Sex", ["12345", "Age / Sex"]),  # a slashed label, spaced or not
    ("12345 Age/Sex", ["12345", "Age/Sex"]),
    ("Glucose fasting", ["Glucose fasting"]),  # no label ends it
    ("Sex", ["Sex"]),
])
def test_a_label_printed_after_a_value_is_cut_off(text, parts):
    from parser.metadata_split import split_at_labels
    assert split_at_labels(text) == parts
