from parser import columns as cols
from parser.columns import find_headers, with_unlabelled_columns


def words(*cells):
    """(text, x0) cells -> (text, x0, x1) words, 5 units per character, one space apart."""
    out = []
    for text, x in cells:
        for token in text.split():
            out.append((token, x, x + 5 * len(token)))
            x += 5 * len(token) + 3
    return out


def kinds(header):
    return [(c.kind, c.label) for c in header.columns]


def test_multi_word_labels_are_one_column_each():
    [header] = find_headers(words(("Test Name", 40), ("Results", 280), ("Units", 380),
                                  ("Bio. Ref. Interval", 480)), 0, 10, 1, 600)
    assert kinds(header) == [("name", "test name"), ("result", "results"), ("units", "units"),
                             ("range", "bio ref interval")]


def test_in_range_out_of_range_and_previous_columns():
    [header] = find_headers(words(("Test Name", 40), ("In Range", 200), ("Out Of Range", 270),
                                  ("Reference Range", 360), ("Previous Result and Date", 470)),
                            0, 10, 1, 700)
    assert [c.kind for c in header.columns] == ["name", "in_range", "out_of_range", "range", "previous"]


def test_a_sentence_is_not_a_header():
    assert find_headers(words(("The result of this test is within the reference range", 40)),
                        0, 10, 1, 600) == []


def test_two_header_sets_on_one_line_are_two_tables():
    left, right = find_headers(words(("Test", 20), ("Result", 150), ("Units", 200), ("Test", 320),
                                     ("Result", 450), ("Units", 500)), 0, 10, 1, 600)
    assert (left.x_start, left.x_end) == (0.0, 316)
    assert right.x_start == 316 and right.contains(450, 470) and not left.contains(450, 470)


def test_header_beside_a_data_row_of_the_left_panel():
    [header] = find_headers(words(("Glucose", 30), ("Negative", 136), ("Negative", 236),
                                  ("Test", 304), ("Result", 408), ("Units", 456), ("Range", 508)),
                            0, 10, 1, 595)
    assert header.x_start == 300 and [c.kind for c in header.columns][:2] == ["name", "result"]


def test_phrase_in_a_gap_is_placed_by_content():
    [header] = find_headers(words(("Investigation", 20), ("Result", 188), ("Reference Value", 327),
                                  ("Unit", 464)), 0, 10, 1, 600)
    assert header.assign(262, 288, "Normal", 8) == cols.FLAG
    assert header.assign(184, 204, "13.00", 8) == cols.RESULT


def test_unlabelled_columns_are_found_from_alignment_but_never_as_values():
    [header] = find_headers(words(("Tests", 47), ("Result", 247), ("Flag", 301), ("Units", 343)),
                            0, 10, 1, 612)
    phrases = []
    for i in range(4):
        phrases += [(421, 438, f"<{200 + i}"), (503, 516, str(150 + i)), (521, 560, "11/03/2023")]
    extended = with_unlabelled_columns(header, phrases)
    added = [c.kind for c in extended.columns if c.x0 >= 421]
    assert added[0] == "range" and set(added[1:]) == {"other"}  # never a second value column


def test_a_second_result_label_is_a_past_result():
    [header] = find_headers(words(("Tests", 40), ("Result", 250), ("Units", 330), ("Range", 420),
                                  ("Result", 520)), 0, 10, 1, 612)
    assert [c.kind for c in header.columns] == ["name", "result", "units", "range", "previous"]


def test_labels_without_spaces_and_method_columns():
    [header] = find_headers(words(("TEST NAME", 40), ("TECHNOLOGY", 200), ("VALUE", 300),
                                  ("UNITS", 360), ("Ref.Range", 430)), 0, 10, 1, 600)
    assert [c.kind for c in header.columns] == ["name", "other", "result", "units", "range"]


def test_multi_word_labels_in_ocr_pixels_stay_together():
    # At 300 dpi a space between label words is wider than in PDF points.
    cells = [("Test", 100, 160), ("Name", 185, 265), ("In", 700, 730), ("Range", 752, 850),
             ("Out", 900, 950), ("Of", 972, 1000), ("Range", 1022, 1120)]
    [header] = find_headers(cells, 0, 30, 1, 1700)
    assert [c.kind for c in header.columns] == ["name", "in_range", "out_of_range"]


def test_words_the_vocabulary_lacks_before_a_label_start_its_column():
    # "Limiti di riferimento": the range column starts at "Limiti", so a range set under the
    # whole label is not cut into a column of its own low ends.
    [header] = find_headers(words(("Determinazione", 40), ("Risultato", 270), ("Unità", 330),
                                  ("Limiti di riferimento", 400)), 0, 10, 1, 600)
    assert header.columns[-1].kind == "range" and header.columns[-1].x0 == 400


def test_a_dated_group_heading_holding_label_words_is_not_a_header():
    # A GP system's result group: date, group term, "Pathology result · department". "tests"
    # and "result" are labels, but each is run on into words the vocabulary lacks: titles.
    line = words(("11-Mar-2025", 44), ("Liver function tests", 118),
                 ("Pathology result · Clinical biochemistry", 415))
    assert find_headers(line, 0, 10, 1, 600) == []


def test_a_label_with_one_unknown_word_beside_it_still_heads_a_column():
    [header] = find_headers(words(("Test Report Status", 40), ("Results", 280),
                                  ("Reporting Unit", 380), ("Reference Range", 480)), 0, 10, 1, 700)
    assert [c.kind for c in header.columns][:2] == ["name", "result"]


def test_an_hl7_viewers_abn_column_is_the_flag_and_status_is_not():
    # Excelleris / OSCAR lab viewer: "Abn" holds H / L / HH (OBX-8), "Status" the result status
    # (F final, C corrected: a "C" read as a flag would say critical).
    [header] = find_headers(words(("Test Name", 28), ("Result", 164), ("Abn", 215), ("Reference Range", 241),
                                  ("Units", 315), ("Date/Time", 388), ("Status", 465)), 0, 10, 1, 600)
    kinds_by_label = {c.label: c.kind for c in header.columns}
    assert kinds_by_label["abn"] == "flag" and kinds_by_label["status"] != "flag"


def test_status_alone_still_heads_the_flags():
    [header] = find_headers(words(("Test", 28), ("Result", 164), ("Status", 240), ("Units", 315),
                                  ("Reference Range", 388)), 0, 10, 1, 600)
    assert {c.label: c.kind for c in header.columns}["status"] == "flag"


def ocr_words(*cells, space=16.0, letter=12.0):
    """(text, x0) cells -> words as OCR boxes them on a photo 23 units tall: ink-tight, so one
    space between words is about 0.7 of the box's height (a text layer's is under half its em)."""
    out = []
    for text, x in cells:
        for token in text.split():
            out.append((token, x, x + letter * len(token)))
            x += letter * len(token) + space
    return out


def test_an_ocr_title_holding_two_label_words_is_not_a_header():
    # A photo of an HPRIM print: "Résultats d'analyses reçus (HPRIM Santé) — COMPLET" above the
    # table; read as a header it put every row under a name column starting at "analyses".
    title = ocr_words(("Résultats analyses reçus (HPRIM Santé) — COMPLET", 117))
    assert find_headers(title, 142.8, 166.0, 1, 1650, ocr=True) == []


def test_an_ocr_header_with_column_gaps_is_still_found():
    line = ocr_words(("Analyse", 110), ("Résultat", 620), ("Unité", 800), ("Valeurs de référence", 1000))
    [header] = find_headers(line, 450.0, 473.0, 1, 1650, ocr=True)
    assert [c.kind for c in header.columns] == ["name", "result", "units", "range"]


def test_bilingual_labels_head_one_column_each():
    # South Tyrol prints each heading in German and Italian: "Untersuchung / Esame" is one
    # name column, "Einheit / Unità" one units column (read as two of each kind, the header
    # was cut at the second half: the names left of it, the range column right of it, lost).
    # On a text layer and on an OCR line alike.
    for ocr in (False, True):
        [header] = find_headers(words(("Untersuchung / Esame", 40), ("Ergebnis", 270), ("Einheit / Unità", 340),
                                      ("Referenzbereich", 430)), 0, 10, 1, 600, ocr=ocr)
        assert kinds(header) == [("name", "untersuchung"), ("result", "ergebnis"), ("units", "einheit"),
                                 ("range", "referenzbereich")]
        assert header.columns[0].x0 == 40 and header.x_start <= 40


def test_two_name_labels_a_column_gap_apart_stay_two_tables():
    left, right = find_headers(words(("Test", 20), ("Result", 150), ("Units", 200), ("/", 260), ("Test", 320),
                                     ("Result", 450), ("Units", 500)), 0, 10, 1, 600)
    assert [c.kind for c in left.columns] == [c.kind for c in right.columns] == ["name", "result", "units"]
