"""Classes opened with real-like batch 4 (session 9): a test-code column before the names,
specimen lines under section headings in other languages, a comment line under the last row,
and the country a letterhead names settling ambiguous numeric dates."""

from page_builder import document, page

from parser.api import parse_document
from parser.lines import Line
from parser.metadata_hints import region_date_order
from parser.page import Word


def _coded_page(code_label: str = "Kürzel"):
    return page([
        [(40, 100, code_label), (100, 100, "Untersuchung"), (300, 100, "Ergebnis"), (360, 100, "Einheit"),
         (430, 100, "Referenzbereich"), (520, 100, "Bewertung")],
        [(40, 120, "Hämatologie", 10.0, True)],
        [(40, 135, "Material: EDTA-Blut")],
        [(40, 150, "LEUK"), (100, 150, "Leukozyten"), (300, 150, "8,7"), (360, 150, "G/l"), (430, 150, "3,9 - 10,2")],
        [(40, 165, "HB"), (100, 165, "Hämoglobin"), (300, 165, "11,9"), (360, 165, "g/dl"), (430, 165, "12,3 - 15,3"),
         (520, 165, "-")],
        [(40, 185, "Urinstatus", 10.0, True)],
        [(40, 200, "Material: Spontanurin")],
        [(40, 215, "U-PH"), (100, 215, "pH-Wert"), (300, 215, "6,0"), (430, 215, "5,0 - 8,0")],
    ])


def test_a_labelled_code_column_is_not_part_of_the_name_and_headings_under_it_are_panels():
    results = parse_document(document(_coded_page())).results
    assert [r.test_name for r in results] == ["Leukozyten", "Hämoglobin", "pH-Wert"]
    assert [r.source_panel_name for r in results] == ["Hämatologie", "Hämatologie", "Urinstatus"]
    assert results[1].interpretation == "abnormal" and results[1].extraction_confidence == 1.0
    assert [r.sample_type for r in results] == ["serum_plasma_blood", "serum_plasma_blood", "urine"]


def _unlabelled(rows):
    header = [(40, 100, "Test"), (300, 100, "Result"), (360, 100, "Units"), (430, 100, "Reference Range")]
    lines = [header] + [[(40, y, a), (x, y, b), (300, y, v), (360, y, u), (430, y, r)]
                        for y, (a, x, b, v, u, r) in zip(range(120, 400, 15), rows)]
    return [r.test_name for r in parse_document(document(page(lines))).results]


def test_an_unlabelled_code_column_is_told_by_codes_of_many_widths_before_aligned_names():
    names = _unlabelled([("GLU", 100, "Glucose", "5.4", "mmol/L", "3.9 - 6.1"),
                         ("UREA", 100, "Urea", "4.1", "mmol/L", "2.5 - 7.1"),
                         ("CREA", 100, "Creatinine", "88", "umol/L", "62 - 106"),
                         ("NA", 100, "Sodium", "139", "mmol/L", "135 - 145"),
                         ("K", 100, "Potassium", "4.2", "mmol/L", "3.5 - 5.1"),
                         ("ALT-GPT", 100, "ALT", "31", "U/L", "< 41")])
    assert names == ["Glucose", "Urea", "Creatinine", "Sodium", "Potassium", "ALT"]


def test_row_numbers_before_the_names_are_not_part_of_the_name_whatever_their_width():
    """"No." over numbers counting the rows (one or two digits wide, a section numbering
    anew from 1), the names aligned after them."""
    blood = ["WBC", "Neutrophil %", "Lymphocyte %", "RBC", "Hemoglobin", "Hematocrit", "MCV", "MCH",
             "MCHC", "Platelets", "ESR"]
    chemistry = ["Glucose", "Urea", "Creatinine"]
    rows = [(str(n), 70, name, "5.2", "mg/dL", "4.0 - 10.0")
            for names in (blood, chemistry) for n, name in enumerate(names, start=1)]
    assert _unlabelled(rows) == blood + chemistry


def test_capitals_starting_names_are_not_a_code_column():
    """"HDL Cholesterol": the word after the capitals starts where their width ends, not at
    one x for all rows."""
    rows = [("HDL", 62, "Cholesterol", "1.2", "mmol/L", "> 1.0"), ("LDL", 62, "Cholesterol", "3.1", "mmol/L", "< 3.4"),
            ("VLDL", 67, "Cholesterol", "0.5", "mmol/L", "< 0.8"), ("TSH", 62, "Ultrasensitive", "2.1", "mIU/L", "0.4 - 4.0"),
            ("T4", 57, "Free", "14", "pmol/L", "10 - 22")]
    assert _unlabelled(rows) == ["HDL Cholesterol", "LDL Cholesterol", "VLDL Cholesterol", "TSH Ultrasensitive",
                                 "T4 Free"]


def test_a_comment_line_under_the_last_row_never_continues_its_name():
    doc = document(page([
        [(40, 100, "INVESTIGATION"), (260, 100, "RESULT"), (320, 100, "FLAG"), (360, 100, "UNIT"),
         (430, 100, "REFERENCE RANGE")],
        [(40, 120, "FASTING BLOOD SUGAR")],
        [(40, 140, "Fasting Blood Sugar (FBS)"), (260, 140, "7.4"), (320, 140, "H"), (360, 140, "mmol/L"),
         (430, 140, "3.9 - 6.1")],
        [(40, 151, "Comment: Fasting glucose above 7.0 mmol/L: repeat or request HbA1c to confirm.")],
    ]))
    results = parse_document(doc).results
    assert [(r.test_name, r.value) for r in results] == [("Fasting Blood Sugar (FBS)", "7.4")]


def _lines(*texts: str) -> list[Line]:
    return [Line([Word(t, 40, 10 * i, 300, 10 * i + 8)], 1) for i, t in enumerate(texts)]


def test_the_country_of_the_letterhead_settles_the_order_of_numeric_dates():
    assert region_date_order(_lines("14 Adeniran Close, Lagos", "lab@ikenga.com.ng")) == "dmy"
    assert region_date_order(_lines("Tel: +254 20 555 0142")) == "dmy"
    assert region_date_order(_lines("Makati City, Philippines")) == "mdy"
    assert region_date_order(_lines("Columbus, OH 43215", "www.lab.com.au")) is None  # both: nothing settled
    assert region_date_order(_lines("Main Street 4", "Tel 555 0142")) is None


def _ocr_results(rows):
    return [(r.test_name, r.value, r.min_reference_range, r.max_reference_range)
            for r in parse_document(document(page(rows, source="ocr"))).results]


def test_an_ocr_heading_word_one_letter_off_is_still_its_label():
    rows = [
        [(40, 100, "Analyse"), (250, 100, "Résultat"), (330, 100, "Unité"), (400, 100, "Valeurs de référèhce")],
        [(40, 120, "Glucose"), (250, 120, "0,95"), (330, 120, "g/l"), (400, 120, "0,70 - 1,10")],
        [(40, 135, "Créatinine"), (250, 135, "8,1"), (330, 135, "mg/l"), (400, 135, "5,0 - 10,0")],
    ]
    assert _ocr_results(rows) == [("Glucose", "0,95", 0.7, 1.1), ("Créatinine", "8,1", 5.0, 10.0)]


def test_labels_stacked_on_two_ocr_lines_read_top_line_first():
    """OCR gives one header as two lines whose boxes differ in height ("Valeurs de" 6 pt high
    over "référèhce" 12 pt high): the stacked label reads top line first, and snapped."""
    from parser.layout.document import _stacked_words

    top = Line([Word("Analyse", 54, 170, 87, 182), Word("Valeurs", 389, 168, 420, 174),
                Word("de", 423, 168, 433, 174)], 2, ocr=True)
    below = Line([Word("Unité", 339, 170, 360, 182), Word("référèhce", 389, 170, 429, 182)], 2, ocr=True)
    assert _stacked_words([top, below]) == [("Analyse", 54, 87), ("Unité", 339, 360),
                                            ("Valeurs de reference", 389, 433)]


def _metadata(rows):
    table = [[(40, 300, "Test"), (250, 300, "Result"), (330, 300, "Units"), (420, 300, "Reference Range")],
             [(40, 320, "Hemoglobin"), (250, 320, "14.9"), (330, 320, "g/dL"), (420, 320, "13.5 - 17.5")],
             [(40, 335, "Glucose"), (250, 335, "5.4"), (330, 335, "mmol/L"), (420, 335, "3.9 - 6.1")]]
    return parse_document(document(page(rows + table))).metadata


def test_a_day_first_country_settles_a_padded_birth_date_when_the_other_dates_are_in_words():
    meta = _metadata([[(40, 40, "Qasr Hospital · Al Wasl Road, Dubai, U.A.E. · Tel +971 4 555 0118")],
                      [(40, 70, "Patient Name"), (150, 70, "AL MANSOORI, MOHAMMED")],
                      [(40, 85, "Collected"), (150, 85, "11-Feb-2025 08:20")],
                      [(40, 100, "DOB / Age"), (150, 100, "03/11/1974 (50 Y)")]])
    assert (meta.dob, meta.date_collected) == ("1974-11-03", "2025-02-11")


def test_italian_referto_del_is_the_report_date():
    meta = _metadata([[(40, 70, "Cognome e nome"), (150, 70, "BERNASCONI Chiara")],
                      [(40, 85, "Prelievo"), (150, 85, "15.04.2024 07:50")],
                      [(40, 100, "Referto del"), (150, 100, "16.04.2024 14:36")]])
    assert (meta.date_collected, meta.date_reported) == ("2024-04-15", "2024-04-16")


def test_a_capitals_chinese_name_is_surname_first_where_the_letterhead_says_so():
    rows = [[(40, 70, "Patient Name"), (150, 70, "TAN BOON HUAT")]]
    singapore = [[(40, 40, "11 Jalan Tembusu Hijau, Singapore 529881 · Tel 6555 0190")]]
    meta = _metadata(singapore + rows)
    assert (meta.patient_first_name, meta.patient_last_name) == ("Boon Huat", "Tan")
    elsewhere = _metadata([[(40, 40, "12 Main Street, Leeds LS1 4AP")]] + rows)
    assert (elsewhere.patient_first_name, elsewhere.patient_last_name) == ("TAN", "HUAT")


def test_a_dash_between_a_label_and_its_value_is_a_separator():
    meta = _metadata([[(40, 70, "Cognome e nome — BERNASCONI Chiara")], [(40, 85, "Prelievo 15.04.2024 07:50")]])
    assert (meta.patient_first_name, meta.patient_last_name) == ("Chiara", "BERNASCONI")


def test_an_ocr_row_whose_value_was_unreadable_does_not_swallow_the_next_row():
    rows = [
        [(40, 100, "Analyse"), (200, 100, "Ergebnis"), (250, 100, "Einheit"), (330, 100, "Referenzbereich")],
        [(40, 120, "Leukozyten"), (235, 120, "142,:@lE"), (330, 120, "4,0 - 10,0")],
        [(40, 132, "Erythrozyten"), (229, 132, "4,41"), (258, 132, "T/L"), (330, 132, "3,9 - 5,2")],
        [(40, 144, "Hämoglobin"), (229, 144, "13,1"), (258, 144, "g/dL"), (330, 144, "12,0 - 16,0")],
    ]
    assert [name for name, *_ in _ocr_results(rows)] == ["Erythrozyten", "Hämoglobin"]


def test_a_labelled_range_and_a_flag_between_value_and_unit_on_a_page_without_header():
    """Uruguayan lab print: "Glicemia ...... 1,24 ↑ g/L   V.R.: 0,70 - 1,10 g/L   Ant.: 1,16 (12/09/2024)"."""
    doc = document(page([
        [(40, 100, "Hemoglobina ..........."), (250, 100, "12,9"), (290, 100, "g/dL"), (340, 100, "V.R.: 12,0 - 16,0 g/dL"),
         (470, 100, "Ant.: 12,7 (12/09/2024)")],
        [(40, 115, "Glicemia ..........."), (250, 115, "1,24 ↑ g/L"), (340, 115, "V.R.: 0,70 - 1,10 g/L"),
         (470, 115, "Ant.: 1,16 (12/09/2024)")],
        [(40, 130, "Colesterol total ......"), (250, 130, "2,38 ↑ g/L"), (340, 130, "V.R.: hasta 2,00 g/L")],
    ]))
    got = [(r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range, r.interpretation)
           for r in parse_document(doc).results]
    assert got == [("Hemoglobina", "12,9", "g/dL", 12.0, 16.0, "normal"),
                   ("Glicemia", "1,24", "g/L", 0.7, 1.1, "abnormal"),
                   ("Colesterol total", "2,38", "g/L", None, 2.0, "abnormal")]


def test_a_name_running_on_below_after_a_comma_and_accented_given_names():
    meta = _metadata([[(48, 100, "Paciente:"), (133, 100, "RODRÍGUEZ FERREIRA,"), (284, 100, "Nº de solicitud:"),
                       (389, 100, "250311-0472")],
                      [(133, 111, "María Cecilia")],
                      [(48, 140, "Fecha de nac.:"), (133, 140, "22/10/1966 (58 años)")]])
    assert (meta.patient_first_name, meta.patient_last_name, meta.dob) == ("María", "RODRÍGUEZ FERREIRA", "1966-10-22")


def test_a_previous_results_date_under_its_label_and_a_bracketed_b_flag():
    """Dakar lab print: "ANTÉRIORITÉS" over "(21/10/24)", "VALEURS DE" over "RÉFÉRENCE"; "(B)" bas."""
    doc = document(page([
        [(43, 189, "ANALYSES"), (207, 189, "RÉSULTATS"), (304, 189, "UNITÉS"), (360, 189, "VALEURS DE"),
         (462, 189, "ANTÉRIORITÉS")],
        [(360, 198, "RÉFÉRENCE"), (462, 198, "(21/10/24)")],
        [(43, 226, "Hémogramme", 10.0, True)],
        [(43, 244, "Leucocytes"), (207, 244, "4,12"), (304, 244, "10^3/µL"), (360, 244, "3,0 - 9,0"), (462, 244, "3,94")],
        [(43, 256, "Hémoglobine"), (207, 256, "10,6 (B)"), (304, 256, "g/dL"), (360, 256, "11,0 - 15,0"),
         (462, 256, "10,9")],
    ]))
    got = [(r.test_name, r.value, r.min_reference_range, r.max_reference_range, r.source_flag, r.interpretation)
           for r in parse_document(doc).results]
    assert got == [("Leucocytes", "4,12", 3.0, 9.0, None, "normal"), ("Hémoglobine", "10,6", 11.0, 15.0, "(B)", "abnormal")]


def test_b_alone_is_no_flag():
    from parser.flags import parse_flag

    assert parse_flag("B") is None and parse_flag("(B)").direction == "low"


def test_labels_in_two_languages_and_one_word_names_under_capitals_labels():
    basque = _metadata([[(40, 70, "Abizenak, izena / Apellidos, nombre"), (250, 70, "ETXEBARRIA OLABARRIETA, MIREN")],
                        [(40, 85, "Jaiotze-data / F. nacimiento"), (250, 85, "27/01/1954")],
                        [(40, 100, "Balioztatzea / Validación"), (250, 100, "18/02/2025 14:31")]])
    assert (basque.patient_first_name, basque.patient_last_name, basque.dob, basque.date_reported) == (
        "MIREN", "ETXEBARRIA OLABARRIETA", "1954-01-27", "2025-02-18")
    grid = _metadata([[(40, 60, "COGNOME")], [(40, 72, "CAZZANIGA")], [(40, 90, "NOME")], [(40, 102, "GIANFRANCO")]])
    assert (grid.patient_first_name, grid.patient_last_name) == ("GIANFRANCO", "CAZZANIGA")


def test_initials_before_the_given_name_are_not_the_first_name():
    from parser.metadata_names import split_person_name

    assert split_person_name("Mrs. H.M. Chandima Dilrukshi Herath") == ("Chandima", "Herath")
    assert split_person_name("A.B. Smith") == ("A.B.", "Smith")  # initials alone are the given names


def test_on_a_page_without_header_a_capitalised_word_after_a_number_is_no_unit():
    doc = document(page([
        [(40, 60, "Member No."), (150, 60, "11082743"), (300, 60, "Received"), (380, 60, "06/03/2025 10:05")],
        [(40, 100, "White Cell Count"), (200, 100, "2.6"), (260, 100, "x10^9/L"), (340, 100, "3.0 - 9.5")],
        [(40, 112, "Haemoglobin"), (200, 112, "12.4"), (260, 112, "g/dL"), (340, 112, "13.0 - 17.5")],
    ]))
    assert [r.test_name for r in parse_document(doc).results] == ["White Cell Count", "Haemoglobin"]


def test_unlabelled_range_and_previous_columns_are_found_across_a_wide_garbage_phrase():
    """A photo's header lost its last labels; OCR ran one line's specks across both unlabelled
    columns ("< 2,00 NES ..."): the ranges and the previous results are still two columns."""
    from parser.columns import NAME, OTHER, RANGE, RESULT, UNITS, Column, Header, with_unlabelled_columns

    header = Header([Column(NAME, 112, 214, "analyses"), Column(RESULT, 542, 651, "resultats"),
                     Column(UNITS, 793, 865, "unites")], 0.0, 1551.0)
    ranges = [(940.0, 1052.0, t) for t in ("3,80 - 5,20", "11,0 - 15,0", "34 - 45", "78 - 98", "26 - 33")]
    previous = [(1206.0, 1246.0, t) for t in ("4,40", "10,9", "33,6", "76", "24,8")]
    bridge = [(940.0, 1300.0, "< 2,00 NES ee Re a")]
    kinds = [(c.kind, c.x0) for c in with_unlabelled_columns(header, ranges + previous + bridge).columns]
    assert kinds == [(NAME, 112), (RESULT, 542), (UNITS, 793), (RANGE, 940.0), (OTHER, 1206.0)]


def test_a_banner_name_over_the_birth_date_line_and_a_specimen_label_naming_the_sample():
    meta = _metadata([[(40, 40, "WOLFE-LINDQVIST, Brandon James")],
                      [(40, 52, "ULI/PHN: 718 440 093"), (200, 52, "DOB: 1961-Jul-04 (63 yrs)"), (360, 52, "Gender: Male")],
                      [(40, 70, "Specimen: Blood EDTA · Hematology, Foothills site")]])
    assert (meta.patient_first_name, meta.patient_last_name, meta.dob) == ("Brandon", "WOLFE-LINDQVIST", "1961-07-04")
    assert meta.specimen_number is None


def _numbered_page(source="text"):
    header = [(40, 0, "S/N"), (70, 0, "Parameter"), (260, 0, "Result"), (310, 0, "Units"), (380, 0, "Reference Range")]

    def at(y, cells):
        return [(x, y, *rest) for x, _, *rest in cells]

    return page([
        [(40, 80, "Full Blood Picture (FBP)", 10.0, True)],
        [(40, 92, "Sample: Whole blood (EDTA)")],
        at(105, header),
        [(40, 118, "1"), (70, 118, "White Blood Cells (WBC)"), (260, 118, "11.8"), (310, 118, "x10^9/L"),
         (380, 118, "4.0 - 10.0")],
        [(40, 130, "5"), (70, 130, "MCV"), (260, 130, "80"), (310, 130, "fL"), (380, 130, "80 - 100")],
        [(40, 142, "6"), (70, 142, "MCH"), (260, 142, "25.7"), (310, 142, "pg"), (380, 142, "27 - 33")],
        [(40, 154, "10"), (70, 154, "Neutrophils"), (260, 154, "78.4"), (310, 154, "%"), (380, 154, "40 - 75")],
        [(40, 175, "Blood Slide for Malaria Parasites", 10.0, True)],
        [(40, 187, "Sample: Thick and thin blood film")],
        at(200, header),
        [(40, 213, "1"), (70, 213, "Malaria Parasites (BS)"), (250, 213, "No MPs seen")],
    ], source=source)


def test_a_row_number_column_headed_s_n_stays_out_of_the_names():
    results = parse_document(document(_numbered_page())).results
    assert [r.test_name for r in results] == ["White Blood Cells (WBC)", "MCV", "MCH", "Neutrophils",
                                              "Malaria Parasites (BS)"]


def test_a_negative_finding_is_a_result():
    results = parse_document(document(_numbered_page())).results
    assert results[-1].value == "No MPs seen"  # "No <finding> seen": a microscopy result


def test_a_specimen_line_over_the_next_table_names_no_panel():
    # OCR knows no fonts: the lines after the last row left of the names could both be headings.
    results = parse_document(document(_numbered_page(source="ocr"))).results
    assert results[-1].source_panel_name == "Blood Slide for Malaria Parasites"


def test_a_title_over_a_specimen_line_over_the_header_names_the_panel():
    results = parse_document(document(_numbered_page())).results
    assert results[0].source_panel_name == "Full Blood Picture (FBP)"
