"""Where a row's range is printed away from its cell: in a block under the table naming its
test, in tiers above the value's line, under a header stacked on two lines."""
from page_builder import cell_words, document, page

from parser.api import parse_document
from parser.page import Page


def _ranges(doc):
    return {r.test_name: (r.min_reference_range, r.max_reference_range, r.reference_range_text)
            for r in parse_document(doc).results}


def _block_page(label="Bio. Ref. Interval. :-", names=("TOTAL CHOLESTEROL", "HDL CHOLESTEROL"),
                third="TRIGLYCERIDES"):
    return page([
        [(40, 60, "NAME : MR. ANIL MEHTA (51Y/M)")],
        [(40, 90, "LIPID PROFILE")],
        [(40, 110, "TEST NAME"), (250, 110, "TECHNOLOGY"), (350, 110, "VALUE"), (420, 110, "UNITS")],
        [(40, 130, "TOTAL CHOLESTEROL"), (250, 130, "PHOTOMETRY"), (350, 130, "214"), (420, 130, "mg/dL")],
        [(40, 145, "HDL CHOLESTEROL"), (250, 145, "PHOTOMETRY"), (350, 145, "42"), (420, 145, "mg/dL")],
        [(40, 160, third), (250, 160, "PHOTOMETRY"), (350, 160, "156"), (420, 160, "mg/dL")],
        [(40, 185, label)],
        [(40, 200, f"{names[0]} : 125-200 mg/dL")],
        [(40, 215, f"{names[1]} : < 160 mg/dL")],
    ])


def test_a_range_block_under_the_table_gives_each_named_test_its_range():
    got = _ranges(document(_block_page()))
    assert got["TOTAL CHOLESTEROL"][:2] == (125.0, 200.0)
    assert got["HDL CHOLESTEROL"][:2] == (None, 160.0)
    assert got["TRIGLYCERIDES"][:2] == (None, None)  # the block does not name it
    assert len(got) == 3  # the block's lines are no results


def test_a_block_name_matching_no_row_gives_nothing():
    got = _ranges(document(_block_page(names=("TOTAL CHOLESTEROL", "NON-HDL CHOLESTEROL"))))
    assert got["TOTAL CHOLESTEROL"][:2] == (125.0, 200.0)
    assert got["HDL CHOLESTEROL"][:2] == (None, None)


def _tier_rows(y, name, value, unit, tiers, above, step=14.3, pad=3.3):
    """A row whose range cell holds `tiers`, `above` of them printed above the value's line;
    returns the cells and the y after the row."""
    cells, top = [], y
    for k, tier in enumerate(tiers):
        cells.append([(450, top + k * step, tier)])
    value_y = top + above * step
    cells.append([(40, value_y, name), (250, value_y, value), (360, value_y, unit)])
    return cells, top + max(len(tiers), 1) * step + pad


def _centred_page():
    rows = [[(40, 60, "Patient : DURAND Marie  Sexe : Femme  Âge : 53 ans")],
            [(40, 90, "Analyse"), (250, 90, "Résultat"), (360, 90, "Unité"),
             (450, 90, "Valeurs de référence")]]
    y = 110.0
    for name, value, unit, tiers, above in [
        ("Glycémie", "0,95", "g/l", ["0,70 - 1,10"], 0),
        ("Phosphatases alcalines", "88", "UI/l",
         ["18-59 ans : 40 - 130", "60 ans et plus : 50 - 150", "Enfants : 100 - 400"], 1),
        ("Ferritine", "45", "µg/l", ["Hommes : 30 - 400", "Femmes : 13 - 150"], 0),
        ("Cholestérol total", "2,10", "g/l",
         ["Souhaitable : < 2,00", "Limite : 2,00 - 2,39", "Élevé : > 2,40"], 1),
    ]:
        cells, y = _tier_rows(y, name, value, unit, tiers, above)
        rows.extend(cells)
    return page(rows)


def test_tiers_printed_above_the_value_line_belong_to_the_row_below():
    got = _ranges(document(_centred_page()))
    assert got["Glycémie"][2] == "0,70 - 1,10"  # not the next row's first tier
    assert got["Phosphatases alcalines"][2].startswith("18-59 ans : 40 - 130 60 ans")  # as printed
    assert got["Ferritine"][:2] == (13.0, 150.0)
    assert got["Cholestérol total"][:2] == (None, 2.0)


def test_evenly_spaced_lines_stay_with_the_row_above():
    # No padding between rows: which row a range line belongs to cannot be told by the gaps,
    # so it stays where the reader puts it (under its row, as in a top-aligned table).
    rows = [[(40, 90, "Test"), (250, 90, "Result"), (360, 90, "Units"), (450, 90, "Reference Range")],
            [(40, 110, "Hemoglobin"), (250, 110, "12.9"), (360, 110, "g/dL"),
             (450, 110, "Male: 13.5 - 17.5")],
            [(450, 124, "Female: 12.0 - 15.5")],
            [(40, 138, "WBC"), (250, 138, "6.8"), (360, 138, "K/uL"), (450, 138, "4.5 - 11.0")]]
    got = _ranges(document(page(rows)))
    assert got["WBC"][2] == "4.5 - 11.0"
    assert "Female" in got["Hemoglobin"][2]


def test_a_header_stacked_on_two_lines_is_kept_on_every_page():
    def one(number, name, value, rng):
        words = []
        for x, y, text in [(40, 20, "Laboratoire du Lac"), (400, 80, "Valeurs de"),
                           (40, 88, "Analyse"), (250, 88, "Résultat"), (330, 88, "Unité"),
                           (500, 88, "Résultat antérieur"), (400, 96, "référence"),
                           (40, 120, name), (250, 120, value), (330, 120, "g/l"), (400, 120, rng),
                           (40, 700, "Page 1 de 2" if number == 1 else "Page 2 de 2")]:
            words.extend(cell_words(x, y, text))
        return Page(number, 600, 800, words, "text")
    got = _ranges(document(one(1, "Hémoglobine", "121", "117-157"), one(2, "Albumine", "41", "35-52")))
    assert got["Hémoglobine"][:2] == (117.0, 157.0)
    assert got["Albumine"][:2] == (35.0, 52.0)


def test_a_block_name_may_be_the_first_words_of_one_row_name():
    got = _ranges(document(_block_page(names=("TOTAL CHOLESTEROL", "HDL"))))
    assert got["HDL CHOLESTEROL"][:2] == (None, 160.0)  # "HDL" starts only that name


def test_a_block_name_starting_two_row_names_gives_nothing():
    got = _ranges(document(_block_page(names=("TOTAL CHOLESTEROL", "HDL"), third="HDL RATIO")))
    assert got["TOTAL CHOLESTEROL"][:2] == (125.0, 200.0)
    assert got["HDL CHOLESTEROL"][:2] == (None, None)  # "HDL" starts two names: unsure
    assert got["HDL RATIO"][:2] == (None, None)


def test_a_range_block_at_the_top_of_the_next_page_belongs_to_the_table_before():
    first = _block_page()
    first.words = [w for w in first.words if w.top < 180]  # the block went over the page
    second = page([
        [(40, 40, "Bio. Ref. Interval. :-")],
        [(40, 55, "TRIGLYCERIDES : 25-150 mg/dL")],
        [(40, 90, "TEST NAME"), (250, 90, "TECHNOLOGY"), (350, 90, "VALUE"), (420, 90, "UNITS")],
        [(40, 110, "VITAMIN B-12"), (250, 110, "C.L.I.A"), (350, 110, "284"), (420, 110, "pg/mL")],
    ], number=2)
    got = _ranges(document(first, second))
    assert got["TRIGLYCERIDES"][:2] == (25.0, 150.0)
    assert got["VITAMIN B-12"][:2] == (None, None)


def test_a_note_after_the_unit_in_a_range_cell_leaves_the_unit():
    rows = [[(40, 90, "Test Name"), (250, 90, "Result"), (420, 90, "Reference Range")],
            [(40, 110, "LDL-CHOLESTEROL"), (250, 110, "139 H"), (420, 110, "<100 mg/dL (calc)")]]
    result = parse_document(document(page(rows))).results[0]
    assert (result.units, result.max_reference_range) == ("mg/dL", 100.0)


def test_a_range_block_may_set_name_and_range_in_two_cells():
    doc = document(_block_page(label="Reference Range :"))
    kept = [w for w in doc.pages[0].words if w.top < 200]  # the block's entries set anew:
    extra = page([[(40, 200, "TOTAL CHOLESTEROL"), (250, 200, "125-200 mg/dL")],
                  [(40, 215, "HDL CHOLESTEROL"), (250, 215, "< 160 mg/dL")]]).words
    got = _ranges(document(Page(1, 600, 800, kept + extra, "text")))
    assert got["TOTAL CHOLESTEROL"][:2] == (125.0, 200.0)
    assert got["HDL CHOLESTEROL"][:2] == (None, 160.0)
    assert len(got) == 3
