import pytest
from page_builder import document, page

from parser.metadata import extract_metadata, read_date, read_gender, split_person_name


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
    from parser.metadata import _label_prefix

    assert _label_prefix("Name ASHDOWN, PETER") == ("name", "ASHDOWN, PETER")
    assert _label_prefix("Sample ID LN45369115") == ("sample id", "LN45369115")
    assert _label_prefix("Date of Birth 25 February 1999") == ("date of birth", "25 February 1999")
    assert _label_prefix("Specimen Serum") == (None, "")  # a table row, not an identifier
    assert _label_prefix("PATIENT INFORMATION") == (None, "")  # a block title
