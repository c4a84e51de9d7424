from parser.lines import build_lines, is_prose, split_phrases
from parser.page import Word


def test_lines_are_rebuilt_from_geometry_not_text_order():
    # The text layer lists every value after every name; geometry puts them back together.
    words = [
        Word("Glucose", 40, 100, 80, 110), Word("Urea", 40, 120, 70, 130),
        Word("92", 250, 103, 262, 113), Word("31", 250, 123, 262, 133),
    ]
    lines = build_lines(words, 1)
    assert [line.text for line in lines] == ["Glucose 92", "Urea 31"]


def test_phrases_split_at_column_gaps_only():
    words = [Word("Total", 40, 0, 65, 10, size=10), Word("Protein", 67.5, 0, 102, 10, size=10),
             Word("7.1", 250, 0, 265, 10, size=10)]
    assert [p.text for p in split_phrases(words)] == ["Total Protein", "7.1"]


def test_stray_table_rules_are_dropped():
    words = [Word("|", 30, 0, 32, 10, size=10), Word("Sodium", 40, 0, 70, 10, size=10),
             Word("|", 240, 0, 242, 10, size=10), Word("140", 250, 0, 265, 10, size=10)]
    assert [p.text for p in split_phrases(words)] == ["Sodium", "140"]


def test_justified_prose_is_recognised_and_table_rows_are_not():
    prose = build_lines([Word(t, 40 + i * 40, 0, 40 + i * 40 + 30, 10, size=10)
                         for i, t in enumerate("the result of this test must be read with care".split())], 1)
    row = build_lines([Word(t, x, 0, x + 25, 10, size=10) for t, x in
                       [("Total", 40), ("Protein", 70), ("7.1", 250), ("g/dL", 330), ("6.0", 420),
                        ("-", 450), ("8.3", 460), ("H", 520)]], 1)
    assert is_prose(prose[0])
    assert not is_prose(row[0])


def test_ocr_lines_allow_wider_spaces_inside_a_phrase():
    # Monospace OCR: a space is wider than 0.75 of a glyph box's height.
    words = [Word("CARBON", 40, 0, 100, 10, size=10), Word("DIOXIDE", 108, 0, 178, 10, size=10),
             Word("24", 300, 0, 320, 10, size=10)]
    text_line = build_lines(words, 1)[0]
    ocr_line = build_lines(words, 1, ocr=True)[0]
    assert [p.text for p in text_line.phrases()] == ["CARBON", "DIOXIDE", "24"]
    assert [p.text for p in ocr_line.phrases()] == ["CARBON DIOXIDE", "24"]


def test_drawn_cell_borders_split_phrases_even_when_words_nearly_touch():
    from parser.lines import page_lines
    from parser.page import Page, Word

    words = [Word("Hemoglobin", 40, 100, 90, 110, size=10), Word("13.2", 93, 100, 110, 110, size=10),
             Word("g/dL", 113, 100, 130, 110, size=10)]
    plain = Page(1, 600, 800, list(words))
    ruled = Page(1, 600, 800, list(words), rules=[(91.0, 95.0, 91.5, 115.0), (111.0, 95.0, 111.5, 115.0)])
    assert [p.text for p in page_lines(plain)[0].phrases()] == ["Hemoglobin 13.2 g/dL"]
    assert [p.text for p in page_lines(ruled)[0].phrases()] == ["Hemoglobin", "13.2", "g/dL"]
