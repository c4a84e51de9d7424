"""European patient blocks: one name label holding the whole name, identifiers that are not
names, and a label shared by a registration date and a request number."""

from page_builder import document, page

from parser.metadata import extract_metadata


def test_a_lone_last_name_label_holding_the_whole_name_gives_both_parts():
    doc = document(page([
        [(40, 100, "Nom: HARTLEY ROBERT"), (300, 100, "Sexe: Masculin")],
        [(40, 115, "N° patient: 2507694"), (300, 115, "Dossier n°: A88307255")],
    ]))
    meta = extract_metadata(doc, "fr")
    assert (meta.patient_first_name, meta.patient_last_name) == ("ROBERT", "HARTLEY")
    assert meta.specimen_number == "A88307255"


def test_separate_first_and_last_name_labels_keep_their_parts():
    doc = document(page([
        [(40, 100, "Nombre: Pedro Luis"), (300, 100, "Apellidos: GARCIA")],
    ]))
    meta = extract_metadata(doc, "es")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Pedro", "GARCIA")


def test_nom_prenom_label_and_surname_first():
    doc = document(page([[(40, 100, "Nom - Prénom:"), (160, 100, "CASTELLANO Miguel")]]))
    meta = extract_metadata(doc, "fr")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Miguel", "CASTELLANO")


def test_a_date_under_a_specimen_label_is_not_the_specimen_number():
    doc = document(page([
        [(40, 100, "Accettazione : 13/02/2024 10:15"), (300, 100, "N. richiesta : 2482142323")],
    ]))
    assert extract_metadata(doc, "it").specimen_number == "2482142323"


def test_labels_without_colon_before_a_date_and_clock_time():
    doc = document(page([
        [(40, 100, "Lab Ref. No"), (150, 100, "S9218004"), (300, 100, "Received On"),
         (400, 100, "09/13/2025 11:43 am")],
        [(40, 115, "Collected On 09/13/2025 11:48 am"), (300, 115, "Reported On 09/14/2025 02:48 pm")],
    ]))
    meta = extract_metadata(doc, "en")
    assert (meta.specimen_number, meta.date_collected, meta.date_reported) == (
        "S9218004", "2025-09-13", "2025-09-14")


def test_a_value_printed_close_to_the_next_label_without_colons():
    doc = document(page([
        [(40, 100, "Probeneingang"), (150, 100, "24.06.2024 Probenentnahme"), (330, 100, "24.06.2024")],
        [(40, 115, "Befunddatum"), (150, 115, "25.06.2024")],
    ]))
    meta = extract_metadata(doc, "de")
    assert (meta.date_collected, meta.date_reported) == ("2024-06-24", "2024-06-25")


def test_a_surname_label_keeps_both_spanish_surnames_and_a_name_may_start_with_a_label_word():
    doc = document(page([
        [(40, 100, "Nombre: PACIENTE PRUEBA"), (300, 100, "Nº petición: 00000001")],
        [(40, 115, "Apellidos: GARCÍA LÓPEZ"), (300, 115, "Doctor: DR PRUEBA")],
    ]))
    meta = extract_metadata(doc, "es")
    assert (meta.patient_first_name, meta.patient_last_name) == ("PACIENTE", "GARCÍA LÓPEZ")
