"""Label arrangements by class: a label in two languages whose second language the vocabulary
does not know reads the first; a phrase ending in a number sign is a label, never a name."""

from page_builder import metadata_of as meta_of

from parser.metadata_split import split_label, value_fits


def test_a_bilingual_label_reads_the_first_language_when_the_second_is_unknown():
    assert split_label("Freigabe / Convalida") == ("freigabe", "")
    meta = meta_of([[(45, 148, "Entnahme / Prelievo"), (200, 148, "17.03.2025 07:55")],
                    [(45, 160, "Freigabe / Convalida"), (200, 160, "17.03.2025 13:48")]])
    assert (meta.date_collected, meta.date_reported) == ("2025-03-17", "2025-03-17")
    # Digits after the slash are no translation: no label read there.
    assert split_label("Freigabe / Convalida 12")[0] is None


def test_a_number_sign_ends_a_label_never_a_name():
    assert not value_fits("name", "Insurance No.") and not value_fits("name", "Hospital #")
    assert value_fits("name", "SMITH, JOHN N.")  # an initial
    meta = meta_of([
        [(44, 90, "Patient"), (160, 90, "Insurance No."), (260, 90, "Date of Birth")],
        [(44, 98, "CAMILLERI Marija"), (160, 98, "0412361M"), (260, 98, "15.08.1961")],
    ])
    assert (meta.patient_first_name, meta.patient_last_name) == ("Marija", "CAMILLERI")


def test_a_grid_row_of_labels_over_values_whose_cells_wrapped():
    # Labels in a header row, their values in the row below, a cell wrapped onto a second line:
    # the surname over the given name, a request number printed in two groups, a label of two
    # fields over its two values slashed the same way.
    meta = meta_of([
        [(38, 88, "PAZIENTE", 7), (190, 88, "NATA IL", 7), (300, 88, "SESSO", 7)],
        [(38, 94, "DELL'AQUILA", 8), (190, 94, "03/09/1941", 8), (300, 94, "F", 8)],
        [(38, 103, "ADDOLORATA", 8)],
        [(38, 121, "NOSOLOGICO", 7), (190, 121, "N. RICHIESTA", 7), (300, 121, "PRELIEVO / VALIDAZIONE", 7)],
        [(38, 127, "2025/004417", 8), (190, 127, "25073", 8), (300, 127, "14/03/2025 06:40 / 15/03/2025", 8)],
        [(190, 136, "1184", 8), (300, 136, "10:12", 8)],
    ], "it")
    assert (meta.patient_first_name, meta.patient_last_name) == ("ADDOLORATA", "DELL'AQUILA")
    assert (meta.specimen_number, meta.date_collected, meta.date_reported) == \
        ("25073 1184", "2025-03-14", "2025-03-15")


def test_a_new_row_below_a_grids_values_is_no_wrapped_cell():
    # The line below starts a cell where the value row has none: a new row, not a wrapped cell.
    meta = meta_of([
        [(38, 121, "N. RICHIESTA", 7), (190, 121, "REPARTO", 7)],
        [(38, 127, "25073", 8), (190, 127, "Medicina", 8)],
        [(38, 136, "1184", 8), (120, 136, "Note", 8)],
    ], "it")
    assert meta.specimen_number == "25073"


def test_a_label_of_two_fields_is_no_label_in_two_languages():
    assert split_label("PRELIEVO / VALIDAZIONE") == (None, "")
    assert split_label("Entnahme / Prelievo")[0] is not None


def test_a_number_printed_in_groups_of_digits_is_kept_whole():
    from parser.metadata import read_identifier

    assert read_identifier("25073 1184") == "25073 1184"
    assert read_identifier("25073 Serum") == "25073"
    assert read_identifier("LL-2409-55812 14/03/2025") == "LL-2409-55812"
