"""Patient names by class: Spanish civilities ("D." Don, "Dña." Doña) before the name state the
sex and are no given name; a name ends where its birth date's label begins ("née le 02/10/1958");
a birth name printed after the name in use ("née MARTIN") is no part of it."""

import pytest
from page_builder import metadata_of as meta_of

from parser.metadata_names import civility, split_person_name


@pytest.mark.parametrize("value, first, last, sex", [
    ("D. Agustín Prieto Calvo", "Agustín", "Prieto Calvo", "male"),
    ("Dña. Rosario Blanco Ruiz", "Rosario", "Blanco Ruiz", "female"),
    ("Doña Rosario Blanco Ruiz", "Rosario", "Blanco Ruiz", "female"),
])
def test_a_spanish_civility_before_the_name(value, first, last, sex):
    meta = meta_of([[(63, 110, "Paciente:"), (140, 110, value)]], "es")
    assert (meta.patient_first_name, meta.patient_last_name, meta.gender) == (first, last, sex)


def test_d_and_don_are_civilities_only_on_a_european_report():
    # Elsewhere "D." is an initial and "Don" a given name.
    assert civility("Don") is None and civility("D.") is None
    assert civility("Don", european=True) == "male" and civility("D.", european=True) == "male"
    assert split_person_name("Don Henley") == ("Don", "Henley")


def test_a_name_ends_where_its_birth_dates_label_begins():
    meta = meta_of([[(43, 76, "Patient : Mme SOULIÉ Martine, née le 02/10/1958"),
                     (300, 76, "N° dossier labo : 250314-0153")]], "fr")
    assert (meta.patient_first_name, meta.patient_last_name, meta.dob, meta.gender) == \
        ("Martine", "SOULIÉ", "1958-10-02", "female")
    assert split_person_name("ROSSI Maria nata il 12/04/1958", surname_first=True) == ("Maria", "ROSSI")


@pytest.mark.parametrize("text", ["DUPONT née MARTIN Claire", "Mme DUPONT NÉE MARTIN Claire",
                                  "DUPONT Claire née MARTIN", "Dupont née Martin, Claire"])
def test_a_birth_name_after_the_name_in_use_is_no_part_of_it(text):
    assert split_person_name(text, surname_first=True)[0] == "Claire"
    assert split_person_name(text, surname_first=True)[1].lower() == "dupont"
    assert split_person_name("Müller geb. Schmidt, Anna", surname_first=True) == ("Anna", "Müller")
