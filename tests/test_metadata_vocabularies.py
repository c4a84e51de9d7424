"""Metadata label vocabularies by class: a print date is the report's only where no other is
printed; a hospital system's abbreviated labels (MEDITECH's "COLL", "SPEC #", "AGE/SX"); an
identity document's number label; a request's registration number; a lab sending HPRIM results."""

import pytest
from page_builder import document, metadata_of as meta_of, label_fields as fields_of


@pytest.mark.parametrize("printed, report, language", [
    ("Imprimé le 15/03/2025 à 09:04", "Compte rendu du 14/03/2025 16:55", "fr"),
    ("Printed: 03/15/2025 11:52", "Reported: 03/14/2025 16:55", None),
    ("Data stampa: 15/03/2025", "Data referto: 14/03/2025", "it"),
    ("Fecha de impresión: 15/03/2025", "Fecha de informe: 14/03/2025", "es"),
    ("Druckdatum: 15.03.2025", "Befunddatum: 14.03.2025", "de"),
])
def test_a_print_date_yields_to_the_reports_own_date_printed_after_it(printed, report, language):
    meta = meta_of([[(40, 40, printed)], [(40, 100, report)]], language)
    assert meta.date_reported == "2025-03-14"


@pytest.mark.parametrize("printed, language", [
    ("Printed: 03/14/2025 11:52 EDT", None), ("RUN DATE: 03/14/25", None),
    ("Stampato il 14/03/2025 10:12", "it"), ("Imprimé le 14/03/2025", "fr"),
])
def test_a_print_date_is_the_reports_date_when_no_other_is_printed(printed, language):
    meta = meta_of([[(40, 40, printed)], [(40, 100, "Collected: 03/14/2025" if language is None
                                            else "Prelievo: 14/03/2025")]], language)
    assert meta.date_reported == "2025-03-14"


def test_a_hospital_systems_abbreviated_labels():
    # A MEDITECH print: "SPEC #" numbers the specimen (its colon inside the number too), "COLL"
    # dates the collection (its time glued after a dash), "AGE/SX" gives the sex; the month-first
    # collection date settles the ambiguous birth date.
    meta = meta_of([
        [(36, 28, "RUN DATE: 03/14/25"), (200, 28, "FUNDY SHORE REGIONAL HOSPITAL")],
        [(36, 70, "PATIENT: LEBLANC,MONIQUE"), (260, 70, "ACCT #: F00348215")],
        [(36, 81, "REG DR: Gallant,Paul R MD"), (260, 81, "AGE/SX: 59/F")],
        [(266, 92, "DOB: 02/09/1966"), (400, 92, "ROOM: 412")],
        [(36, 123, "SPEC #: 0314:C00045R"), (200, 123, "COLL: 03/14/25-0545"), (360, 123, "STATUS: COMP")],
        [(176, 134, "RECD: 03/14/25-0612")],
    ])
    assert (meta.specimen_number, meta.date_collected, meta.gender, meta.dob, meta.date_reported) == \
        ("0314:C00045R", "2025-03-14", "female", "1966-02-09", "2025-03-14")


@pytest.mark.parametrize("label, value, field", [
    ("Sample taken", "11/03/2025 09:25", "collected"), ("ID Card No.", "0412361M", "other"),
    ("Émetteur :", "SELAS LABORATOIRE DES CAUSSES", "lab"), ("Validazione:", "14/03/2025", "reported"),
])
def test_more_labels_of_the_vocabulary(label, value, field):
    assert fields_of([[(40, 100, label), (200, 100, value)]]) == [field]


def test_an_identity_cards_number_label_is_no_patients_name():
    # The label row of a grid over its values: "ID Card No." beside "Patient" names nobody.
    meta = meta_of([
        [(44, 90, "Patient"), (160, 90, "ID Card No."), (260, 90, "Date of Birth"), (360, 90, "Sex")],
        [(44, 98, "CAMILLERI Marija"), (160, 98, "0412361M"), (260, 98, "15.08.1961"), (360, 98, "Female")],
    ])
    assert (meta.patient_first_name, meta.patient_last_name) == ("Marija", "CAMILLERI")


def test_a_hprim_senders_name_is_the_labs():
    meta = meta_of([[(43, 65, "Émetteur : SELAS LABORATOIRE DES CAUSSES – Site de Millau – "
                              "Biologiste : Dr Paul ROUQUETTE")]], "fr")
    assert meta.lab_name == "SELAS LABORATOIRE DES CAUSSES"


def test_a_spanish_registration_number_numbers_the_specimen_when_no_specimen_label():
    meta = meta_of([[(63, 125, "Edad:"), (120, 125, "71 años"), (250, 125, "Nº de registro:"),
                     (340, 125, "0314/12")]], "es")
    assert meta.specimen_number == "0314/12"
    meta = meta_of([[(63, 125, "Nº de registro:"), (150, 125, "0314/12")],
                    [(63, 140, "Nº de petición:"), (150, 140, "P-25-0117")]], "es")
    assert meta.specimen_number == "P-25-0117"


@pytest.mark.parametrize("label, field", [
    ("Given Names:", "first_name"), ("Req. No.:", "specimen"),
    ("Compte-rendu du", "reported"), ("Anforderungs-Nr.:", "specimen"),
    ("Anforderungsnummer:", "specimen"), ("Freigegeben:", "reported"), ("Entnahmezeitpunkt:", "collected"),
    ("Data emissione:", "reported"), ("Codice richiesta:", "specimen"), ("Código de muestra:", "specimen"),
    ("Muestra tomada:", "collected"),
])
def test_labels_in_each_language_by_word_and_by_their_parts(label, field):
    value = {"first_name": "Olivia Grace", "specimen": "Q2502-0417"}.get(field, "14/03/2025")
    assert fields_of([[(40, 100, label), (200, 100, value)]]) == [field]


def test_a_print_stamp_naming_who_printed_then_when():
    meta = meta_of([[(34, 23, "Netcare Portal Laboratory Test Results"),
                     (369, 23, "Printed by: RN Sutherland, Tamsin · 2025-Mar-14 15:37")],
                    [(35, 61, "DOB: 1961-Jul-04 (63 yrs)")]])
    assert meta.date_reported == "2025-03-14"
    meta = meta_of([[(369, 23, "Printed by: RN Sutherland, Tamsin")], [(40, 80, "Reported: 2025-Mar-13")]])
    assert meta.date_reported == "2025-03-13"
