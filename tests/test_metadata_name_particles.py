"""Patient names in capitals whose surname begins with particles, and a French married name
printed after the birth name ("MARTIN épouse DURAND Marie")."""

import pytest
from page_builder import metadata_of as meta_of


@pytest.mark.parametrize("language, line, first, last", [
    ("it", "Cognome e nome: DE LUCA ANNA MARIA", "ANNA MARIA", "DE LUCA"),
    ("it", "Cognome e nome: DI MAIO ANNA", "ANNA", "DI MAIO"),
    ("fr", "Patient : DE LA FONTAINE MARIE CLAIRE", "MARIE CLAIRE", "DE LA FONTAINE"),
    ("fr", "Prénom Nom : MARIE DE LA FONTAINE", "MARIE", "DE LA FONTAINE"),
    ("de", "Patient: VON DER LEYEN ANNA", "ANNA", "VON DER LEYEN"),
    ("it", "Nome e cognome: ANNA MARIA DE LUCA", "ANNA MARIA", "DE LUCA"),
    ("it", "Paziente: GASPERONI MARIA LUISA", "MARIA LUISA", "GASPERONI"),
])
def test_particles_lead_a_surname_printed_in_capitals(language, line, first, last):
    meta = meta_of([[(40, 100, line)]], language)
    assert (meta.patient_first_name, meta.patient_last_name) == (first, last)


@pytest.mark.parametrize("line", ["Patient(e) : MARTIN épouse DURAND Marie", "Patiente : Mme MARTIN ép. DURAND Marie",
                                  "Patiente : MARTIN veuve DURAND Marie"])
def test_a_married_name_after_the_birth_name_is_the_name_in_use(line):
    meta = meta_of([[(40, 100, line)]], "fr")
    assert (meta.patient_first_name, meta.patient_last_name) == ("Marie", "DURAND")


@pytest.mark.parametrize("language, name, given", [
    ("de", "Name: Müller", "Vorname: Anna"), (None, "Name: SMITH", "First Name: JANE"),
    ("de", "Name: MÜLLER", "Vorname: ANNA"),
])
def test_a_one_word_name_beside_a_given_name_label_is_the_surname(language, name, given):
    meta = meta_of([[(40, 100, name), (250, 100, given)]], language)
    assert (meta.patient_first_name.lower(), meta.patient_last_name.lower()) == \
        (given.split(": ")[1].lower(), name.split(": ")[1].lower())
    meta = meta_of([[(40, 100, name)], [(40, 112, given)]], language)  # stacked lines
    assert meta.patient_last_name.lower() == name.split(": ")[1].lower()
