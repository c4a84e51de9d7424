"""Qualitative results have one home in parser/vocabulary.py (session 5, helper B)."""

from parser import vocabulary
from parser.columns import find_headers


def test_one_qualitative_vocabulary_for_every_language():
    words = vocabulary.qualitative_result()
    for cell in ("Negative", "Pale Yellow", "O Rh Positive", "2+", "jaune foncé", "Limpide",
                 "nicht nachweisbar", "leicht trüb", "paglierino", "Ligeramente turbio"):
        assert words.match(cell), cell
    assert not words.match("Reading") and not words.match("Indicator")


def test_a_data_row_of_qualitative_words_between_labels_is_not_a_header():
    # "Urine Colour  Limpide  Reference  Trüb  Unit": the words between the labels are a
    # data row's cells in another language, not headings the vocabulary lacks.
    words = [("Test", 40.0, 60.0), ("Limpide", 120.0, 160.0), ("Reference", 200.0, 250.0),
             ("Trüb", 290.0, 315.0), ("Unit", 350.0, 370.0)]
    assert find_headers(words, 100.0, 108.0, 1, 600.0) == []


def test_unitless_test_names_in_every_language_lose_no_unit():
    """The parser's missing-unit doubt and review's unit check read one five-language vocabulary
    (parser.vocabulary.UNITLESS_TEST_WORDS); until then the parser's was an English regex."""
    from parser import models
    from parser.layout import RawRow
    from parser.models import LabReportResult
    from parser.normalize import Context, normalize_row
    from review.plausibility import unit_expected_but_missing

    def doubted(name: str) -> bool:
        row = normalize_row(RawRow(page=1, name=name, value="3,4", unit_column=True), Context(decimal_comma=True))
        return models.DOUBT_UNIT_MISSING in row.confidence_doubts

    for name in ("Chol/HDL Ratio", "Rapport albumine créatinine", "Indice de saturation",
                 "Cholesterin-HDL-Quotient", "LDL/HDL-Verhältnis", "Rapporto AST ALT", "Índice aterogénico",
                 "Relación BUN creatinina", "Densidad", "Peso specifico", "pH-Wert", "INR", "Sp. Gr."):
        assert not doubted(name), name
        assert not unit_expected_but_missing(LabReportResult(test_name=name, value="3,4", type="numeric")), name
    # Whole words: a concentration and a saturation hold "ratio", lymphocytes end in "ph"; all need units.
    for name in ("Glucose", "Transferrin saturation", "Mean corpuscular haemoglobin concentration", "Lymph"):
        assert doubted(name), name
