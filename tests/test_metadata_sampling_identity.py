"""Metadata labels by class, in the five languages: the sampling named alone ("Sampling") or as a
blood donation; the report's issue or delivery date; a patient named as the insured person or
by a plural given names' label; identity and patient numbers that are no name and no specimen;
"Nº" as OCR reads it; a department's name under its institution's in a letterhead."""

import pytest
from page_builder import metadata_of as meta_of, label_fields as fields_of


@pytest.mark.parametrize("label, value, field", [
    ("Sampling", "14/03/2025 08:05", "collected"), ("Sampled on:", "14/03/2025", "collected"),
    ("Time of collection:", "14/03/2025 08:05", "collected"),
    ("Date issued:", "14/03/2025", "reported"), ("Date of issue:", "14/03/2025", "reported"),
    ("Fecha de entrega:", "14/03/2025 15:30", "reported"),
    ("Data donazione:", "14/03/2025", "collected"), ("Fecha de donación:", "14/03/2025", "collected"),
    ("Date of donation:", "14/03/2025", "collected"), ("Spendedatum:", "14.03.2025", "collected"),
    ("Nom & Prénoms :", "KOUAMÉ Adjoua Brigitte", "name"), ("Nombres:", "Rosa Elena", "first_name"),
    ("Patient No.:", "PT-88213", "other"), ("C.I.:", "4852317 LP", "other"), ("DNI:", "22.814.377", "other"),
    ("Identificación:", "1-0834-0562", "other"), ("Versicherten-Nr.", "744.118.203", "other"),
    ("N” DE ORDEN", "LC-2025-031452", "specimen"),
    ("Birth:", "12/05/1966", "dob"), ("Geboren:", "03.11.1968", "dob"), ("Nacimiento:", "12/05/1966", "dob"),
    ("Nata a", "Adria il 21/06/1979", "dob"), ("Prelevato:", "14/03/2025", "collected"),
    ("Rpt Date:", "03/14/2025", "reported"), ("Genre :", "Féminin", "gender"),
    ("Bénéficiaire :", "KOUAMÉ Adjoua", "name"),
    ("Solicitud:", "250314-0412", "specimen"), ("Nº de pedido:", "P-25-0117", "specimen"),
])
def test_labels_of_each_class(label, value, field):
    assert fields_of([[(40, 100, label), (200, 100, value)]]) == [field]


def test_a_sampling_date_labelled_sampling_in_a_grid_row():
    meta = meta_of([
        [(20, 96, "Patient"), (110, 96, "UWIMANA Claudine"), (240, 96, "Patient ID"), (340, 96, "GRH-0047821")],
        [(20, 130, "Prescriber"), (110, 130, "Dr Eric MUGISHA"), (240, 130, "Sampling"),
         (340, 130, "14/03/2025 08:05"), (450, 130, "Validation"), (530, 130, "14/03/2025 14:48")],
    ])
    assert (meta.date_collected, meta.date_reported) == ("2025-03-14", "2025-03-14")


def test_a_blood_donation_dates_the_sampling():
    # A transfusion service's letter: the donation's number and date under their label.
    meta = meta_of([
        [(20, 166, "COGNOME E NOME"), (200, 166, "DATA DI NASCITA")],
        [(20, 174, "BELLINI MARCO"), (200, 174, "21/06/1979")],
        [(20, 187, "DONAZIONE N."), (200, 187, "CODICE CAMPIONE")],
        [(20, 195, "38 del 14/03/2025"), (200, 195, "SIMT25-0031874")],
    ], "it")
    assert (meta.date_collected, meta.specimen_number) == ("2025-03-14", "SIMT25-0031874")


def test_the_insured_person_is_the_patient():
    # A social-security lab's grid: the insured person (or a dependant) over the name.
    meta = meta_of([
        [(20, 200, "ASEGURADO / BENEFICIARIO"), (250, 200, "MATRÍCULA"), (400, 200, "C.I.")],
        [(20, 210, "CONDORI QUISPE, ROSA ELENA"), (250, 210, "70-0409-CQR"), (400, 210, "4852317 LP")],
    ], "es")
    assert (meta.patient_first_name, meta.patient_last_name) == ("ROSA", "CONDORI QUISPE")


def test_a_name_under_a_label_of_plural_given_names():
    meta = meta_of([[(20, 120, "Nom & Prénoms : KOUAMÉ Adjoua Brigitte")]], "fr")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Adjoua", "KOUAMÉ")


def test_a_department_under_its_institution_is_no_labs_name():
    # OCR may measure the department's line larger than the institution's above it.
    letterhead = [[(300, 30, "GASABO REFERRAL HOSPITAL", 9)],
                  [(300, 41, "Department of Clinical Laboratory", 14)]]
    assert meta_of(letterhead).lab_name == "GASABO REFERRAL HOSPITAL"
    # Of two institutions above it, the larger: a ministry's line printed smaller on top.
    ministry = [[(40, 20, "MINISTRY OF HEALTH", 7)], [(40, 30, "GASABO REFERRAL HOSPITAL", 9)],
                [(40, 41, "Department of Clinical Laboratory", 14)]]
    assert meta_of(ministry).lab_name == "GASABO REFERRAL HOSPITAL"
    # Alone, the department is what the letterhead names.
    assert meta_of(letterhead[1:]).lab_name == "Department of Clinical Laboratory"
