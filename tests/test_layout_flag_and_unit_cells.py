"""A flag column headed by an abbreviation ("Ind.") inside a run of labels, and the unit printed
in the range cell with a word under the units' place on the next line."""

from page_builder import document, page

from parser.api import parse_document


def test_an_abbreviated_indicator_label_heads_the_flags_so_they_stay_out_of_the_units():
    rows = [[(37, 171.8, "Análisis", 8.5), (124, 171.8, "Resultado Ind. Unidades Valores de", 8.5)],
            [(222, 179.3, "referencia", 8.5)],
            [(37, 192.4, "Serie roja", 10.0, True)]]
    cells = [("Eritrocitos", "4.31", "", "x10⁶/µL", "4.00 - 5.40"), ("Hemoglobina", "11.6", "B", "g/dL", "12.0 - 16.0"),
             ("Hematocrito", "35.9", "B", "%", "37.0 - 47.0"), ("ADE", "15.1", "A", "%", "11.5 - 14.5")]
    for k, (name, value, flag, unit, ref) in enumerate(cells):
        y = 203.6 + 11.3 * k
        rows.append([(37, y, name), (141, y, value), *([(169, y, flag)] if flag else []), (184, y, unit),
                     (222, y, ref)])
    results = parse_document(document(page(rows))).results
    assert [(r.test_name, r.value, r.units, r.interpretation) for r in results] == [
        ("Eritrocitos", "4.31", "x10⁶/µL", "normal"), ("Hemoglobina", "11.6", "g/dL", "abnormal"),
        ("Hematocrito", "35.9", "%", "abnormal"), ("ADE", "15.1", "%", "abnormal")]


def test_a_word_under_the_units_place_after_the_last_row_is_no_unit():
    """The unit printed after the range in the value's cell; "segue" (continued overleaf) or a
    specimen ("Siero") set far right on the next line is no unit of the row above."""
    for word, x in (("segue", 533), ("Siero", 520), ("continua", 500)):
        rows = [[(44, 158.5, "Esame", 9.3), (199, 158.5, "Risultato", 9.3), (242, 158.5, "Valori di riferimento e unità", 9.3),
                 (446, 158.5, "Segnalazione", 9.3)],
                [(44, 205.6, "Sodio"), (217, 205.6, "140 136 - 145 mmol/L")],
                [(44, 218.3, "Calcio"), (220, 218.3, "9,3 8,6 - 10,2 mg/dL")],
                [(x, 234.6, word)]]
        results = parse_document(document(page(rows))).results
        assert [(r.test_name, r.value, r.units) for r in results] == [
            ("Sodio", "140", "mmol/L"), ("Calcio", "9,3", "mg/dL")], word
