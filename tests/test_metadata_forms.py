"""Metadata of form-like patient blocks: captions printed under their values, the receipt or
visit date standing for an unprinted sampling date, the name's order its label declares, prose
items with labels the vocabulary does not list."""

from page_builder import metadata_of as meta_of


def test_captions_printed_under_the_values_on_a_form():
    meta = meta_of([
        [(40, 60, "Central Medical Laboratory", 14)],
        [(37, 82, "ROLLE, DWAYNE"), (211, 82, "42-1968-0719-3"), (298, 82, "07/19/1968"), (471, 82, "Male")],
        [(37, 93, "PATIENT NAME (LAST, FIRST)", 7), (211, 93, "NIB NO.", 7), (298, 93, "DATE OF BIRTH", 7),
         (471, 93, "SEX", 7)],
        [(37, 103, "NCL-2503-14-0283"), (124, 103, "Dr. Kendra Bethel, MD"), (298, 103, "Coral Health")],
        [(37, 114, "ACCESSION NO.", 7), (124, 114, "ORDERING PHYSICIAN", 7), (298, 114, "CLIENT", 7)],
        [(37, 123, "3/14/2025 7:50 AM"), (211, 123, "3/14/2025 8:35 AM"), (385, 123, "3/15/2025 4:05 PM")],
        [(37, 134, "COLLECTED", 7), (211, 134, "RECEIVED", 7), (385, 134, "REPORTED", 7)],
    ])
    assert (meta.patient_first_name, meta.patient_last_name) == ("DWAYNE", "ROLLE")
    assert (meta.dob, meta.gender, meta.specimen_number) == ("1968-07-19", "male", "NCL-2503-14-0283")
    assert (meta.date_collected, meta.date_reported) == ("2025-03-14", "2025-03-15")


def test_a_caption_row_between_two_value_rows_alone_keeps_labels_over_values():
    # The first label row has nothing close above it: labels over their values, as before.
    meta = meta_of([
        [(38, 64, "Patient", 8), (196, 64, "Accession", 8)],
        [(38, 72, "KACZMAREK, DOLORES"), (196, 72, "LK24-256-01187")],
        [(38, 84, "Collected", 8), (196, 84, "Verified", 8)],
        [(38, 92, "09/12/2024 05:40"), (196, 92, "09/13/2024 07:18")],
    ])
    assert (meta.patient_last_name, meta.specimen_number) == ("KACZMAREK", "LK24-256-01187")
    assert (meta.date_collected, meta.date_reported) == ("2024-09-12", "2024-09-13")


def test_the_samples_receipt_or_the_visit_date_when_no_sampling_date_is_printed():
    cases = [
        ([[(40, 100, "Sample Received: 17/03/2025 08:20")], [(40, 114, "Reported: 18/03/2025 15:10")]], None),
        ([[(40, 100, "Visit Date 03/17/2025 10:18 AM")], [(40, 114, "Resulted 03/18/2025 10:52 AM")]], None),
        ([[(40, 100, "Échantillon reçu le : 17/03/2025 09:05")], [(40, 114, "Validé le : 18/03/2025")]], "fr"),
        ([[(40, 100, "Probeneingang: 17.03.2025 09:05")], [(40, 114, "Bericht vom: 18.03.2025")]], "de"),
        ([[(40, 100, "Campione ricevuto il: 17/03/2025")], [(40, 114, "Data referto: 18/03/2025")]], "it"),
        ([[(40, 100, "Recepción de muestra: 17/03/2025")], [(40, 114, "Fecha de informe: 18/03/2025")]], "es"),
    ]
    for rows, language in cases:
        assert meta_of(rows, language).date_collected == "2025-03-17", rows
    # A printed sampling date wins over the receipt.
    meta = meta_of([[(40, 100, "Collected: 13/03/2025 07:50")], [(40, 114, "Sample Received: 14/03/2025 08:35")]])
    assert meta.date_collected == "2025-03-13"


def test_a_receipt_naming_no_sample_dates_no_sample():
    # The stored real reports print "Recepción" without a sampling date and expect none.
    for rows, language in [([[(40, 100, "Recepción: 24/06/25 Finalización: 24/06/25")]], "es"),
                           ([[(40, 100, "Received: 17/03/2025 08:20")]], None),
                           ([[(40, 100, "Eingang: 17.03.2025 09:05")]], "de")]:
        assert meta_of(rows, language).date_collected is None, rows


def test_german_and_belgian_labels_of_request_number_report_date_and_employee():
    meta = meta_of([[(40, 100, "Antrag Nr.: 25-0314-0087")], [(40, 114, "Bericht vom: 14.03.2025 15:10")]], "de")
    assert (meta.specimen_number, meta.date_reported) == ("25-0314-0087", "2025-03-14")
    meta = meta_of([
        [(40, 100, "Beschäftigte/r", 8), (240, 100, "Geburtsdatum", 8)],
        [(40, 110, "Armbruster, Sabine"), (240, 110, "27.09.1971")],
        [(40, 130, "Blutentnahme: Dienstag, 11. März 2025, 06:50 Uhr · Befund erstellt: Mittwoch, 12. März 2025")],
    ], "de")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Sabine", "Armbruster")
    assert (meta.date_collected, meta.date_reported) == ("2025-03-11", "2025-03-12")


def test_a_lab_label_over_a_sentence_names_no_lab():
    meta = meta_of([[(300, 40, "Labor: Teilnahme an Ringversuchen nach RiliBÄK", 8)],
                    [(40, 100, "Patient: Huber, Franziska")]], "de")
    assert meta.lab_name != "Teilnahme an Ringversuchen nach RiliBÄK"


def test_the_order_a_name_label_declares():
    meta = meta_of([[(40, 100, "Apellidos y nombre: SOLANO JIMÉNEZ MARÍA FERNANDA")]], "es")
    assert (meta.patient_first_name, meta.patient_last_name) == ("MARÍA FERNANDA", "SOLANO JIMÉNEZ")
    meta = meta_of([[(40, 100, "Nombre y apellidos: MARÍA FERNANDA SOLANO JIMÉNEZ")]], "es")
    assert (meta.patient_first_name, meta.patient_last_name) == ("MARÍA FERNANDA", "SOLANO JIMÉNEZ")
    meta = meta_of([[(40, 100, "PATIENT NAME (LAST, FIRST): ROLLE DWAYNE")]])
    assert (meta.patient_first_name, meta.patient_last_name) == ("DWAYNE", "ROLLE")
    # A mixed-case name keeps its printed order whatever the label says.
    meta = meta_of([[(40, 100, "Name, Vorname : Arjun Hartley")]], "de")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Arjun", "Hartley")


def test_an_item_with_an_unlisted_label_does_not_hide_the_item_before_it():
    meta = meta_of([[(40, 100, "Prélevé le vendredi 14 mars 2025 à 7 h 40 · Enregistré le vendredi 14 mars 2025")],
                    [(40, 114, "Compte rendu validé le vendredi 14 mars 2025 à 16 h 05 · Statut : complet")]], "fr")
    assert (meta.date_collected, meta.date_reported) == ("2025-03-14", "2025-03-14")


def test_opening_hours_after_a_specimen_word_are_no_specimen_number():
    meta = meta_of([[(300, 40, "Tel. 0789 552 310 · Accettazione 7:30-10:30", 8)],
                    [(40, 100, "Paziente: PIRAS MARIA – Sesso F")],
                    [(40, 114, "N. campione 2503140227 – Prelievo del 14/03/2025 ore 08:12")]], "it")
    assert meta.specimen_number == "2503140227"


def test_an_unlisted_labels_item_after_a_dot_ocr_read_as_a_colon():
    meta = meta_of([[(40, 114, "Compte rendu validé le vendredi 14 mars 2025 à 16 h 05 : Statut : compte rendu complet")]],
                   "fr")
    assert meta.date_reported == "2025-03-14"
