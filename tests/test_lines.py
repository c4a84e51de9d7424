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


def test_ocr_words_on_one_text_line_stay_one_line_where_their_boxes_overlap():
    # Tesseract boxes a text line's words one height; a range's "|4,0" and the "-" after it
    # overlap (a rule's stroke read into the number). They are one line's words: split, the
    # range's end "- 11,0" became a line of its own and the row lost its range.
    band = (518.4, 551.3)
    words = [Word(t, x0, band[0], x1, band[1], 0.9, 0.0) for t, x0, x1 in (
        ("Leucocytes", 100.0, 207.9), ("7,8", 609.2, 638.1), ("10^9/L", 917.7, 992.7),
        ("|4,0", 1092.7, 1145.4), ("-", 1139.5, 1148.0), ("11,0", 1155.2, 1196.7))]
    [line] = build_lines(words, 1, ocr=True)
    assert line.text == "Leucocytes 7,8 10^9/L |4,0 - 11,0"
    # On a text layer overlapping words are one above the other: two lines, as before.
    assert len(build_lines(words, 1, ocr=False)) == 2


def test_ocr_words_stacked_in_one_tall_box_stay_two_lines():
    # A two-line cell ("HRDLICKA" over "Leopoldine") that tesseract boxed nearly one band:
    # the second word lies across the first, not beside it; it stays a line of its own.
    words = [Word("HRDLICKA", 100.0, 225.2, 259.4, 270.4, 0.9, 0.0),
             Word("Leopoldine", 110.0, 229.2, 215.6, 270.4, 0.9, 0.0),
             Word("W2503180417", 600.0, 225.2, 800.0, 270.4, 0.9, 0.0)]
    assert len(build_lines(words, 1, ocr=True)) == 2


def test_a_speck_on_a_shorter_ocr_box_does_not_pull_a_tall_line_into_it():
    # A big-font name (tall boxes) beside a row of small labels whose box starts a little
    # higher: the speck "=" of the small row lies inside "Leopoldine"; the name stays apart
    # from "Auftragsnummer" (joined, the specimen number's label and value were lost).
    words = [Word("=", 397.9, 225.2, 403.9, 242.4, 0.5, 0.0),
             Word("Auftragsnummer", 808.4, 225.2, 976.4, 242.4, 0.9, 0.0),
             Word("HRDLICKA", 122.2, 229.2, 270.4, 270.4, 0.9, 0.0),
             Word("Leopoldine", 281.0, 229.2, 440.4, 270.4, 0.9, 0.0)]
    lines = build_lines(words, 1, ocr=True)
    assert not any("Leopoldine" in line.text and "Auftragsnummer" in line.text for line in lines)
