"""Metadata of header classes seen across labs: a date of another calendar printed before the
Gregorian one, the patient block's title in the European languages, a page title that begins
with "Patient", the Italian report's number, and a letterhead set in small capitals."""

import pytest
from page_builder import document, page, RESULT_ROWS as BODY, metadata_of as meta_of

from parser.metadata import extract_metadata
from parser.metadata_dates import read_date
from parser.page import Page, Word


@pytest.mark.parametrize("text, iso", [
    ("2081/12/01 B.S. (14/03/2025 A.D.) 08:15 AM", "2025-03-14"),  # Nepal: Bikram Sambat first
    ("1446/09/14 H - 14/03/2025", "2025-03-14"),                    # Hijri first
    ("2025/03/14 (2081/12/01 B.S.)", "2025-03-14"),                 # Gregorian first: as before
])
def test_a_date_of_another_calendar_gives_way_to_the_gregorian_one(text, iso):
    assert read_date(text, "dmy", recent=True) == iso


def test_dual_calendar_dates_in_a_header_grid():
    meta = meta_of([
        [(45, 100, "Patient's Name"), (150, 100, ": Mr. Bishnu Prasad Adhikari")],
        [(45, 144, "Sample Collected"), (150, 144, ": 2081/12/01 B.S. (14/03/2025 A.D.) 08:15 AM")],
        [(45, 156, "Reported On"), (150, 156, ": 2081/12/02 B.S. (15/03/2025 A.D.) 02:40 PM")],
    ])
    assert (meta.date_collected, meta.date_reported) == ("2025-03-14", "2025-03-15")


@pytest.mark.parametrize("title, language", [
    ("Datos del paciente", "es"), ("Données patient", "fr"), ("Dati del paziente", "it"),
    ("Patientendaten", "de"), ("Patient Details", None),
])
def test_a_name_under_the_patient_blocks_title_in_five_languages(title, language):
    meta = meta_of([
        [(45, 67, title), (300, 67, "Request")],
        [(45, 78, "MUÑOZ VILLALOBOS, ÁNGELA"), (300, 78, "Nº de petición"), (400, 78, "25031907614")],
        [(45, 88, "Fecha de nacimiento"), (150, 88, "11/08/1957")],
    ], language)
    assert (meta.patient_first_name, meta.patient_last_name) == ("ÁNGELA", "MUÑOZ VILLALOBOS")


def test_a_page_title_beginning_with_patient_names_nobody():
    meta = meta_of([
        [(34, 30, "Patient Results Report · Laboratory · Date range: 03/14/2025 - 03/14/2025")],
        [(34, 55, "HOLLOWAY, DESMOND K")],
        [(34, 69, "MRN: 00845127"), (140, 69, "DOB: 05/02/1949"), (260, 69, "Sex: Male")],
    ])
    assert (meta.patient_first_name, meta.patient_last_name) == ("DESMOND", "HOLLOWAY")


@pytest.mark.parametrize("value", ["Results Report", "Summary Report", "Laboratory Information"])
def test_a_name_labels_title_words_are_no_name(value):
    meta = meta_of([[(40, 100, f"Patient {value}")]])
    assert meta.patient_first_name is None


def test_the_italian_reports_number_is_the_specimen_number():
    meta = meta_of([[(300, 54, "Referto n. 250318-0277")],
                    [(40, 116, "Paziente"), (150, 116, "Sig.ra BOSIO CATERINA")]], "it")
    assert meta.specimen_number == "250318-0277"


def _small_caps(x: float, y: float, words: list[str]) -> list[Word]:
    """Words set in small capitals: a capital at 18 pt, the rest at 13 pt, letters 2 pt apart
    and each glyph run a text-layer word; 7 pt between the printed words."""
    out = []
    for word in words:
        for k, run in enumerate(word.split("|")):
            size = 18.0 if k == 0 else 13.0
            width = len(run) * 0.6 * size
            out.append(Word(run, x, y, x + width, y + size, 1.0, size))
            x += width + 2.0
        x += 5.0
    return out


def test_a_letterhead_in_small_capitals_reads_as_its_words():
    body = page(BODY)
    words = _small_caps(40, 30, ["Lab|o|rato|ri|o", "Anal|i|s|i", "Lan|g|h|e"]) + body.words
    meta = extract_metadata(document(Page(1, 600, 800, words, "text")), "it")
    assert meta.lab_name == "Laboratorio Analisi Langhe"


def test_a_label_wrapped_with_its_number_sign_under_it():
    """"Lab Accession" over "No", the number beside "No" (an OCR'd grid: the two lines overlap)."""
    meta = meta_of([
        [(294, 88, "Lab Accession", 6.5)],
        [(43, 93, "Patient Name"), (123, 93, ": Mr. Raghavendra Gaddam"), (294, 93, "No"),
         (384, 93, "25DCH0417731")],
        [(43, 110, "Age / Gender"), (123, 110, ": 54Y/Male")],
    ])
    assert meta.specimen_number == "25DCH0417731"


@pytest.mark.parametrize("label", ["N2 de petición", "N° de petición"])
def test_the_number_sign_as_ocr_reads_it(label):
    meta = meta_of([[(45, 78, "SANZ VILLALOBOS, ROSARIO"), (312, 78, label), (400, 78, "25031907614")]], "es")
    assert meta.specimen_number == "25031907614"


def test_a_particular_labelled_without_colon_above_the_birth_line_is_no_name():
    meta = meta_of([
        [(41, 104, "Nationality Saudi"), (150, 104, "Iqama"), (220, 104, "1034 5578 21")],
        [(41, 123, "DOB / Age"), (150, 123, "09/10/1972 (52Y)")],
    ])
    assert meta.patient_first_name is None


@pytest.mark.parametrize("dot", ["·", "+", "»", ":"])
def test_prose_items_whose_dot_ocr_misread(dot):
    meta = meta_of([[(48, 171, f"Prélevé le 14/03/2025 à 07:52 (site Arles) · Reçu le 14/03/2025 à 09:05 "
                               f"{dot} Édité le 15/03/2025 à 17:05")]], "fr")
    assert (meta.date_collected, meta.date_reported) == ("2025-03-14", "2025-03-15")


def test_a_labels_own_spaced_colon_is_no_item_separator():
    meta = meta_of([[(48, 114, "N° de dossier : 2503140412")]], "fr")
    assert meta.specimen_number == "2503140412"


def test_an_episode_number_is_the_specimen_number():
    meta = meta_of([[(40, 77, "Patient Name"), (120, 77, "BRENNAN, Aoife"), (300, 77, "Episode No."),
                     (380, 77, "LV25-0408-1173")]])
    assert meta.specimen_number == "LV25-0408-1173"


@pytest.mark.parametrize("heading", [
    [(31, 115, "Collected Date/Time"), (150, 115, "Result Name"), (260, 115, "Result"), (320, 115, "Units")],
    [(31, 115, "Collected Date/Time Result Name"), (260, 115, "Result"), (320, 115, "Units")],  # OCR joined
])
def test_an_emr_results_list_dated_by_its_collection_column(heading):
    meta = extract_metadata(document(page([
        [(34, 69, "MRN: 00845127"), (140, 69, "DOB: 05/02/1949"), (260, 69, "Sex: Male")],
        heading,
        [(31, 141, "Hematology")],
        [(31, 160, "03/14/2025 05:42 EDT"), (150, 160, "WBC"), (260, 160, "14.2"), (320, 160, "K/uL")],
        [(31, 172, "03/14/2025 05:42 EDT"), (150, 172, "RBC"), (260, 172, "3.71"), (320, 172, "M/uL")],
    ])))
    assert meta.date_collected == "2025-03-14"


def test_a_collection_heading_over_rows_without_dates_dates_nothing():
    meta = extract_metadata(document(page([
        [(31, 115, "Collection"), (150, 115, "Test"), (260, 115, "Result")],
        [(31, 141, "Venous blood"), (150, 141, "WBC"), (260, 141, "14.2")],
    ])))
    assert meta.date_collected is None


@pytest.mark.parametrize("printed", ["—BERNASCONI Chiara", "| BERNASCONI Chiara", "- BERNASCONI Chiara"])
def test_a_rule_ocr_read_before_the_name(printed):
    meta = meta_of([[(40, 100, "Cognome e nome"), (160, 100, printed)]], "it")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Chiara", "BERNASCONI")


def test_the_name_above_the_labs_description_when_ocr_sizes_say_nothing():
    """OCR boxes of "BIOLOGIE VERCORS" (capitals) are lower than those of the accented,
    descending description under it: the place says which is the name."""
    meta = meta_of([[(50, 38, "BIOLOGIE VERCORS", 9.8)],
                    [(50, 49, "Laboratoire de biologie médicale multisite", 13.2), (330, 49, "Monsieur ROCHE Julien")],
                    [(50, 100, "Patient : ROCHE Julien")]], "fr")
    assert meta.lab_name == "BIOLOGIE VERCORS"


def test_a_description_with_no_name_above_it_stays():
    meta = meta_of([[(50, 49, "Laboratoire de biologie médicale multisite", 13.2)],
                    [(50, 100, "Patient : ROCHE Julien")]], "fr")
    assert meta.lab_name == "Laboratoire de biologie médicale multisite"


def test_a_capitalised_description_under_the_labs_brand():
    meta = meta_of([[(46, 38, "BIOLOIRE", 9.5)],  # OCR boxes: the capitals no larger
                    [(45, 52, "Laboratoire de Biologie Médicale multisite", 10)],
                    [(50, 100, "Patient : ROCHE Julien")]], "fr")
    assert meta.lab_name == "BIOLOIRE"


def test_a_letter_spaced_report_title_is_no_laboratory_label():
    meta = meta_of([[(98, 24, "VOLTA DIAGNOSTIC LABORATORIES LTD.", 11)],
                    [(230, 83, "LABORATORY"), (330, 83, "REPORT")],
                    [(37, 100, "Name:"), (100, 100, "Mr. Kwame Mensah ASANTE")]])
    assert meta.lab_name == "VOLTA DIAGNOSTIC LABORATORIES"


def test_a_bilingual_name_label_before_a_number_sign_ocr_misread():
    meta = meta_of([[(43, 71, "Abizenak, izena / Apellidos, nombre ETXEBARRIA OLABARRIETA, MIREN — "
                               "Eskaera zk. / N? petición 2502180673")]], "es")
    assert (meta.patient_last_name, meta.specimen_number) == ("ETXEBARRIA OLABARRIETA", "2502180673")


def test_the_sex_after_the_birth_date_past_an_ocr_dash():
    meta = meta_of([[(43, 92, "Jaiotze-data / F. nacimiento"), (200, 92, "27/01/1954 - Emakumea / Mujer")]], "es")
    assert (meta.dob, meta.gender) == ("1954-01-27", "female")


def test_a_middle_dot_ocr_read_as_a_colon_between_two_labelled_items():
    meta = meta_of([[(40, 100, "Specimen: Blood (EDTA) : Sample No. GB25.0224.41872")]])
    assert meta.specimen_number == "GB25.0224.41872"


def test_ocr_marks_inside_a_name_and_a_labs_name():
    meta = meta_of([[(40, 20, "CARON! MEDICAL LABORATORIES LTD.", 14)],
                    [(40, 100, "Patient Name:"), (150, 100, "MAHARA)J-BAPTISTE, Anjali")]])
    assert (meta.patient_last_name, meta.lab_name) == ("MAHARAJ-BAPTISTE", "CARONI MEDICAL LABORATORIES")


@pytest.mark.parametrize("name", ["Landeskrankenhaus Salzachau", "Universitätsklinikum Isartal"])
def test_a_german_compound_names_the_hospital(name):
    meta = meta_of([[(45, 26, "Salzachtaler Verbund", 9.4), (350, 26, "LABORBEFUND", 9.4)],
                    [(45, 41, name, 10.3)],
                    [(45, 100, "Patient: Gruber, Theresia")]], "de")
    assert meta.lab_name == name
