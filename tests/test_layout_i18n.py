"""European report layouts built as pages (issue 13): each test is a class of layout, not a file.

Decimal commas, thousands grouped with spaces or dots, `à` / `bis` ranges, an anteriority column,
dotted abbreviations as names, qualitative words of each language, a panel title that starts
with a heading word, and the metadata conventions (surname first in capitals, day-first dates,
sex words, two-digit report years).
"""

from page_builder import document, page

from parser.api import parse_document
from parser.metadata_dates import read_date
from parser.metadata_names import split_person_name
from parser.metadata_split import read_gender
from parser.ranges import parse_range


def _results(doc):
    return [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range,
             r.interpretation) for r in parse_document(doc).results]


def _french_page():
    return page([
        [(40, 60, "Nom : DUPONT Marie"), (350, 60, "Sexe : Féminin")],
        [(40, 75, "Prélevé le : 12/03/2024"), (350, 75, "Né(e) le : 15/07/1980")],
        [(40, 100, "Analyse"), (250, 100, "Résultat"), (330, 100, "Unités"),
         (400, 100, "Valeurs de référence"), (520, 100, "Antériorités")],
        [(40, 125, "HÉMATOLOGIE", 10, True)],
        [(40, 150, "Hémoglobine"), (250, 150, "11,2"), (330, 150, "g/dl"), (400, 150, "12,0 à 16,0"),
         (520, 150, "12,8")],
        [(40, 165, "Leucocytes"), (250, 165, "7 300"), (330, 165, "/mm³"), (400, 165, "4 000 à 10 000"),
         (520, 165, "6 900")],
        [(40, 180, "Plaquettes"), (250, 180, "445.000"), (330, 180, "/mm³"),
         (400, 180, "150.000 à 400.000"), (520, 180, "251.000")],
        [(40, 195, "V.G.M."), (250, 195, "88,5"), (330, 195, "fl"), (400, 195, "80 à 100"), (520, 195, "90,1")],
        [(40, 220, "Examen des urines", 10, True)],
        [(40, 245, "Protéines"), (250, 245, "Négatif"), (400, 245, "Négatif")],
        [(40, 260, "Aspect"), (250, 260, "Légèrement trouble"), (400, 260, "Limpide")],
    ])


def test_french_table_with_grouped_thousands_anteriority_and_qualitative_rows():
    assert _results(document(_french_page())) == [
        ("Hémoglobine", "11,2", "g/dl", 12.0, 16.0, "abnormal"),
        ("Leucocytes", "7300", "/mm³", 4000.0, 10000.0, "normal"),  # spaces of the grouping dropped
        ("Plaquettes", "445.000", "/mm³", 150000.0, 400000.0, "abnormal"),
        ("V.G.M.", "88,5", "fl", 80.0, 100.0, "normal"),  # the previous result 90,1 is never read
        ("Protéines", "Négatif", None, None, None, "normal"),
        ("Aspect", "Légèrement trouble", None, None, None, "abnormal"),
    ]


def test_french_metadata_surname_first_and_sex_word():
    meta = parse_document(document(_french_page())).metadata
    assert (meta.patient_first_name, meta.patient_last_name) == ("Marie", "DUPONT")
    assert (meta.gender, meta.dob, meta.date_collected) == ("female", "1980-07-15", "2024-03-12")


def test_panel_title_under_the_header_is_not_a_second_header_line():
    """'ESAME URINE' starts with a heading word and sits right under the header: a title, so
    the names under it stay whole ("PESO SPECIFICO", not "PESO" with a unit "SPECIFICO")."""
    doc = document(page([
        [(40, 100, "ESAMI"), (300, 100, "Risultato"), (420, 100, "Valori di riferimento")],
        [(40, 112, "ESAME URINE", 10, True)],
        [(40, 135, "PESO SPECIFICO"), (300, 135, "1,012"), (420, 135, "1,005 - 1,030")],
        [(40, 150, "CORPI CHETONICI"), (300, 150, "Negativo"), (420, 150, "Negativo")],
        [(40, 165, "GLICEMIA"), (300, 165, "5,1 mmol/L"), (420, 165, "3,9 - 5,5")],
    ]))
    assert [(name, value) for name, value, *_ in _results(doc)] == [
        ("PESO SPECIFICO", "1,012"), ("CORPI CHETONICI", "Negativo"), ("GLICEMIA", "5,1")]


def test_german_header_words_and_bis_ranges():
    doc = document(page([
        [(40, 100, "Untersuchung"), (220, 100, "Normbereich"), (340, 100, "Ergebnis"), (420, 100, "Einheit")],
        [(40, 125, "Kalium"), (220, 125, "3,5 bis 5,1"), (340, 125, "5,6"), (420, 125, "mmol/l")],
        [(40, 140, "Farbe"), (340, 140, "gelb")],
        [(40, 155, "Eiweiß"), (220, 155, "negativ"), (340, 155, "negativ")],
    ]))
    assert _results(doc) == [
        ("Kalium", "5,6", "mmol/l", 3.5, 5.1, "abnormal"),
        ("Farbe", "gelb", None, None, None, "unknown"),
        ("Eiweiß", "negativ", None, None, None, "normal"),
    ]


def _bounds(text, decimal_comma=False):
    found = parse_range(text, decimal_comma=decimal_comma)
    return None if found is None else (found.low, found.high)


def test_ranges_read_european_separators_and_groupings_only_with_decimal_commas():
    assert _bounds("4.000 à 11.000", True) == (4000.0, 11000.0)
    assert _bounds("4 000 - 11 000", True) == (4000.0, 11000.0)
    assert _bounds("1.5 - 2.5") == (1.5, 2.5)  # a point report keeps its decimals
    assert _bounds("4.000 - 11.000") == (4.0, 11.0)
    assert _bounds("0,41 a 0,53", True) == (0.41, 0.53)
    assert _bounds("pas de 3 à l'heure") is None


def test_metadata_words_and_two_digit_years():
    assert [read_gender(w) for w in ("männlich", "Femmina", "Hombre", "Féminin")] == \
        ["male", "female", "male", "female"]
    assert read_gender("M") == "male"  # lone letters stay English
    assert split_person_name("DELACROIX Rohan") == ("Rohan", "DELACROIX")
    assert split_person_name("JOHN SMITH") == ("JOHN", "SMITH")  # capitals throughout: as printed
    assert read_date("24/06/25", "dmy", recent=True) == "2025-06-24"
    assert read_date("24/06/25", "dmy") is None  # a birth date's century is never guessed
    assert read_date("24/06/99", "dmy", recent=True) is None  # 2099 is in the future


def test_dotted_abbreviations_and_count_units_in_rows_without_a_header():
    """SACYL-style lines read by their words: dotted names ("V.C.M", "H.C.M.") are names, and
    a count unit followed by a range starting at 0 keeps the 0 in the range."""
    doc = document(page([
        [(40, 100, "Basófilos 0.0 x10^3/µL 0 - 0.2")],
        [(40, 115, "V.C.M 104.8 fL 80.0 - 96.0")],
        [(40, 130, "H.C.M. 30.0 pg 27.0 - 33.0")],
    ]))
    assert _results(doc) == [
        ("Basófilos", "0.0", "x10^3/µL", 0.0, 0.2, "normal"),
        ("V.C.M", "104.8", "fL", 80.0, 96.0, "abnormal"),
        ("H.C.M.", "30.0", "pg", 27.0, 33.0, "normal"),  # names stay as printed
    ]


def test_value_cell_with_grouped_count_unit_range_and_a_flagged_qualitative_result():
    """One result column holding value, unit and range ("32 100 /mm³ (4 000 - 10 000)") and a
    qualitative result followed by its flag and the expected result ("Positif anormal Négatif")."""
    doc = document(page([
        [(40, 100, "Examen"), (300, 100, "Résultat")],
        [(40, 125, "Hémoglobine"), (300, 125, "13,5 g/dl (12,0 - 16,0)")],
        [(40, 140, "Leucocytes"), (300, 140, "32 100 /mm³ (4 000 - 10 000)")],
        [(40, 155, "Nitrites"), (300, 155, "Positif anormal Négatif")],
    ]))
    assert _results(doc) == [
        ("Hémoglobine", "13,5", "g/dl", 12.0, 16.0, "normal"),
        ("Leucocytes", "32100", "/mm³", 4000.0, 10000.0, "abnormal"),
        ("Nitrites", "Positif", None, None, None, "abnormal"),
    ]


def test_capitals_name_is_surname_first_on_european_reports_only():
    assert split_person_name("PEMBERTON THOMAS", surname_first=True) == ("THOMAS", "PEMBERTON")
    assert split_person_name("PEMBERTON THOMAS") == ("PEMBERTON", "THOMAS")
    assert split_person_name("Thomas Pemberton", surname_first=True) == ("Thomas", "Pemberton")


def test_arrow_flag_read_into_the_name_is_the_flag():
    """A flag column whose heading the vocabulary lacks ("Alerte") leaves its arrow in the name
    cell: the arrow is the row's flag, not part of its name."""
    doc = document(page([
        [(40, 100, "Paramètre"), (250, 100, "Alerte"), (330, 100, "Normes"), (450, 100, "Résultats")],
        [(40, 118, "EXAMEN", 10, True), (82, 118, "DES", 10, True), (109, 118, "URINES", 10, True)],
        [(40, 135, "Créatinine ↓"), (330, 135, "62 - 115 µmol/L"), (450, 135, "41")],
        [(40, 150, "Densité"), (330, 150, "1,005 - 1,030"), (450, 150, "1,016")],
    ]))
    results = parse_document(doc).results
    assert [(r.test_name, r.value, r.source_flag, r.interpretation) for r in results] == [
        ("Créatinine", "41", "↓", "abnormal"), ("Densité", "1,016", None, "normal")]


def _bilingual_rows():
    from parser.layout import document_rows

    doc = document(page([
        [(40, 100, "Untersuchung / Esame"), (250, 100, "Ergebnis /"), (330, 100, "Einheit / Unità"),
         (420, 100, "Referenzbereich / Intervallo di")],
        [(250, 109, "Risultato"), (420, 109, "riferimento")],
        [(40, 130, "Leukozyten / Leucociti"), (250, 130, "5,8"), (330, 130, "10^3/µL"), (420, 130, "4,0 - 10,0")],
        [(40, 142, "INR"), (250, 142, "1,31"), (420, 142, "0,85 - 1,20")],
        [(40, 154, "Kalium / Potassio"), (250, 154, "4,7"), (330, 154, "mmol/L"), (420, 154, "3,5 - 5,1")],
    ]))
    return [(r.name, r.value, r.units, r.range_text) for r in document_rows(doc)]


def test_headings_printed_in_two_languages_and_wrapped_in_their_cells_place_one_column_each():
    """South Tyrol prints each heading twice ("Einheit / Unità"), the long ones wrapped on a
    second line at the cell's left ("Referenzbereich / Intervallo di" over "riferimento")."""
    assert _bilingual_rows() == [("Leukozyten / Leucociti", "5,8", "10^3/µL", "4,0 - 10,0"),
                                 ("INR", "1,31", None, "0,85 - 1,20"),
                                 ("Kalium / Potassio", "4,7", "mmol/L", "3,5 - 5,1")]


def test_a_label_wrapped_in_its_cell_joins_the_cells_last_word_not_the_word_above_it():
    from parser.layout.document import _stacked_words
    from parser.lines import page_lines

    lines = page_lines(page([[(420, 100, "Referenzbereich / Intervallo di")], [(420, 109, "riferimento")]]))
    assert [text for text, _, _ in _stacked_words(lines)] == ["Referenzbereich", "/", "Intervallo", "di riferimento"]


def test_a_decimal_comma_report_prints_a_density_and_its_range_with_points():
    """"1.005 - 1.030" read as grouped thousands spans too little for a count's range: the row's
    decimals are printed with a point (urine density), its value too; counts keep their dots."""
    doc = document(page([
        [(40, 100, "Prueba"), (250, 100, "Resultado"), (330, 100, "Unidades"), (420, 100, "Valores de referencia")],
        [(40, 120, "Hemoglobina"), (250, 120, "14,1"), (330, 120, "g/dl"), (420, 120, "13,0 - 17,5")],
        [(40, 132, "Creatinina"), (250, 132, "1,18"), (330, 132, "mg/dl"), (420, 132, "0,7 - 1,3")],
        [(40, 144, "Bilirrubina total"), (250, 144, "0,9"), (330, 144, "mg/dl"), (420, 144, "0,2 - 1,1")],
        [(40, 156, "Plaquetas"), (250, 156, "198.000"), (330, 156, "/mm³"), (420, 156, "150.000 - 400.000")],
        [(40, 168, "Densidad"), (250, 168, "1.022"), (420, 168, "1.005 - 1.030")],
    ]))
    rows = _results(doc)
    assert rows[3][3:] == (150000.0, 400000.0, "normal")
    assert rows[4][3:] == (1.005, 1.03, "normal")
