"""Metadata label word families in the five languages: the sample's bar code, the lab's own
reference and the report's number name the specimen; compound sampling, release and signing
labels date the report; a request's registration number stands in for a specimen label."""

import pytest
from page_builder import metadata_of as meta_of, label_fields as fields_of


@pytest.mark.parametrize("label", [
    "Code-barres", "Réf. labo", "Identifiant demande", "N° de rapport",  # French
    "Laborauftrag", "Laborauftrags-Nr.",  # German
    "Codice a barre", "Identificativo richiesta",  # Italian
    "Código de barras", "Nº de informe",  # Spanish
    "Report No.",  # English
])
def test_a_bar_code_a_lab_reference_or_a_report_number_names_the_specimen(label):
    assert fields_of([[(40, 100, label + ":"), (200, 100, "B24-091604387")]]) == ["specimen"]


@pytest.mark.parametrize("label, field", [
    ("Naissance", "dob"),
    ("Materialentnahme", "collected"), ("Probennahme", "collected"), ("Probenentnahme am", "collected"),
    ("Freigabedatum", "reported"), ("Endbefund vom", "reported"),
    ("Data di raccolta", "collected"), ("Data firma", "reported"), ("Firmato il", "reported"),
    ("Extraído el", "collected"), ("Validado el", "reported"), ("Informado el", "reported"),
])
def test_date_label_families(label, field):
    value = "16/04/1960" if field == "dob" else "16/04/2024 08:30"
    assert fields_of([[(40, 100, label + ":"), (200, 100, value)]]) == [field]


@pytest.mark.parametrize("label, language", [("N° d'enregistrement", "fr"), ("N. registrazione", "it")])
def test_a_registration_number_is_the_specimens_when_no_specimen_label_is_printed(label, language):
    meta = meta_of([[(40, 60, f"{label} : 250314-0412")]], language)
    assert meta.specimen_number == "250314-0412"
    meta = meta_of([[(40, 60, f"{label} : 250314-0412")], [(40, 72, "Code-barres : C88231")]], language)
    assert meta.specimen_number == "C88231"


@pytest.mark.parametrize("language, label, value, sex", [
    ("de", "Geschlecht:", "weibl.", "female"), ("de", "Geschl.:", "männl.", "male"), ("de", "Geschlecht:", "divers", "other"),
    ("fr", "Sexe :", "Fém.", "female"), ("fr", "Sexe :", "Masc.", "male"),
    ("it", "Sesso:", "Femm.", "female"), ("es", "Sexo:", "Masc.", "male"), ("es", "Sexo:", "Fem.", "female"),
    (None, "Sex:", "F.", "female"),
])
def test_a_sex_printed_abbreviated(language, label, value, sex):
    meta = meta_of([[(40, 100, label), (150, 100, value)]], language)
    assert meta.gender == sex


@pytest.mark.parametrize("language, label, field", [
    ("fr", "Date de prélèvement", "date_collected"), ("de", "Entnahmedatum", "date_collected"),
    ("it", "Data referto", "date_reported"), ("es", "Fecha de informe", "date_reported"),
    (None, "Collection date", "date_collected"),
])
@pytest.mark.parametrize("leader", ["..........", ". . . . . .", "________"])
def test_a_dotted_leader_between_a_label_and_its_value(language, label, field, leader):
    meta = meta_of([[(40, 100, label), (150, 100, leader), (230, 100, "14/03/2025")]], language)
    assert getattr(meta, field) == "2025-03-14"


@pytest.mark.parametrize("language, first, label, second", [
    ("es", "14/03/2025", "Fecha de informe:", "15/03/2025"), ("fr", "14/03/2025", "Édité le :", "15/03/2025"),
    ("de", "14.03.2025", "Befunddatum:", "15.03.2025"), ("it", "14/03/2025", "Data referto:", "15/03/2025"),
    (None, "03/14/2025", "Reported:", "03/15/2025"),
])
def test_dates_on_a_label_value_line_are_no_flowsheets_column_headings(language, first, label, second):
    # The sampling date's label unread (OCR broke it): its date stays unlabelled, no sampling
    # date is made of the line's latest date.
    meta = meta_of([[(72, 163, "Fecha de", 8)], [(174, 168, first), (353, 168, label), (473, 168, second)]], language)
    assert meta.date_collected is None and meta.date_reported is not None


@pytest.mark.parametrize("language, head, tail", [
    ("es", "Fecha", "validación:"), ("fr", "Date de", "validation :"), ("de", "Datum der", "Freigabe:"),
    ("it", "Data", "referto:"), (None, "Date", "reported:"),
])
def test_a_wrapped_label_with_a_left_columns_line_set_between_its_halves(language, head, tail):
    # OCR set the value's line (with the left column's label and value) between the label's halves.
    meta = meta_of([[(324, 120, head)],
                    [(37, 131, "Fecha de toma:"), (114, 131, "14/03/2025 07:48"), (401, 131, "15/03/2025 15:22")],
                    [(324, 142, tail)]], language)
    assert meta.date_reported == "2025-03-15"


@pytest.mark.parametrize("language, name_heading, result_heading, row", [
    ("es", "Prueba", "Resultado", "Glóbulos blancos (WBC)"), ("fr", "Analyse", "Résultat", "Leucocytes"),
    ("de", "Untersuchung", "Ergebnis", "Leukozyten"), ("it", "Esame", "Risultato", "Leucociti"),
    (None, "Test", "Result", "White blood cells"),
])
def test_a_results_row_under_the_column_headings_is_never_the_lab_brand(language, name_heading, result_heading, row):
    # A photo that cut off the letterhead: the patient block, then the table, a row's name printed large.
    meta = meta_of([[(40, 40, "Paciente: MARÍA ROSARIO PERALTA")],
                    [(40, 60, name_heading), (250, 60, result_heading), (350, 60, "Unidades")],
                    [(40, 90, row, 16), (250, 90, "7.32", 16)]], language)
    assert meta.lab_name is None


@pytest.mark.parametrize("language, institution, service", [
    (None, "FUNDY SHORE REGIONAL HOSPITAL", "Laboratory Services"),
    ("es", "HOSPITAL SAN JUAN DE DIOS", "Laboratorio Clínico"),
    ("it", "OSPEDALE SANTA MARIA", "Laboratorio Analisi"),
    ("de", "KLINIKUM NORDHEIDE", "Klinisches Labor"),
    ("fr", "CLINIQUE DU PARC", "Laboratoire"),
])
def test_a_services_generic_name_yields_to_the_institution_printed_above_it(language, institution, service):
    meta = meta_of([[(180, 30, institution, 10)], [(180, 42, service, 12)]], language)
    assert meta.lab_name == institution


@pytest.mark.parametrize("first, second", [
    ("Laborärztliche", "Gemeinschaftspraxis Harz"), ("BIO", "COTENTIN"), ("Laboratorio Analisi", "San Marco"),
    ("Laboratorios Clínicos", "del Norte"),  # a lower-case particle starts no name's end: not joined
])
def test_a_letterhead_name_wrapped_over_two_lines_at_one_indent_and_size(first, second):
    meta = meta_of([[(354, 27, first, 14)], [(354, 41, second, 14)], [(354, 60, "Marktstraße 21 · 38855 Wernigerode", 8)]])
    joined = second[0].isupper()
    assert meta.lab_name == (f"{first} {second}" if joined else first)


@pytest.mark.parametrize("below", ["Calidad que cuida tu salud", "Tel. 03943 6260-0", "Laboratory Report"])
def test_a_tagline_an_address_or_a_title_under_the_name_is_no_part_of_it(below):
    meta = meta_of([[(354, 27, "Laboratorio San Marco", 14)], [(354, 41, below, 14)]])
    assert meta.lab_name == "Laboratorio San Marco"
