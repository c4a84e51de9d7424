"""Classes opened with real-like batch 13's European reports (session 16): a block of a share
and its absolute count headed by "V.U." ranges, a column of group labels left of the names,
+/- signs set apart between the value and the range, "menor a" / "mayor a" ranges, and the
Spanish and other European words of "few" and "non-reactive"."""

from page_builder import document, page

from parser.api import parse_document
from parser.ranges import parse_range


def _results(rows):
    return parse_document(document(page(rows))).results


def test_a_block_of_shares_and_counts_headed_by_vu_ranges_reads_two_results_a_row():
    """"%  V.U. (%)  Valeurs absolues / (/mm³)  V.U. (/mm³)": each row a share and a count,
    each with its own range; the count's spaces group its thousands."""
    results = _results([
        [(40, 100, "Paramètres"), (240, 100, "Résultats"), (300, 100, "Unités"), (360, 100, "Valeurs usuelles")],
        [(40, 115, "Plaquettes"), (240, 115, "312000"), (300, 115, "/mm³"), (360, 115, "150 000 – 400 000")],
        [(40, 140, "Formule leucocytaire"), (233, 140, "%"), (261, 140, "V.U. (%)"), (332, 140, "Valeurs absolues"),
         (430, 140, "V.U. (/mm³)")],
        [(372, 151, "(/mm³)", 8.0)],
        [(40, 162, "Polynucléaires neutrophiles"), (221, 162, "46,0"), (261, 162, "35 – 70"), (374, 162, "2668"),
         (430, 162, "1 200 – 6 000")],
        [(40, 176, "Polynucléaires éosinophiles"), (226, 176, "7,5"), (249, 176, "*"), (263, 176, "0 – 6"),
         (382, 176, "435"), (430, 176, "0 – 500")],
        [(40, 190, "Lymphocytes"), (221, 190, "39,0"), (261, 190, "20 – 50"), (374, 190, "2262"),
         (430, 190, "1 000 – 4 000")],
    ])
    read = [(r.test_name, r.value.replace(" ", ""), r.units, r.min_reference_range, r.max_reference_range, r.interpretation)
            for r in results]
    assert read == [
        ("Plaquettes", "312000", "/mm³", 150000.0, 400000.0, "normal"),
        ("Polynucléaires neutrophiles", "46,0", "%", 35.0, 70.0, "normal"),
        ("Polynucléaires neutrophiles", "2668", "/mm³", 1200.0, 6000.0, "normal"),
        ("Polynucléaires éosinophiles", "7,5", "%", 0.0, 6.0, "abnormal"),
        ("Polynucléaires éosinophiles", "435", "/mm³", 0.0, 500.0, "normal"),
        ("Lymphocytes", "39,0", "%", 20.0, 50.0, "normal"),
        ("Lymphocytes", "2262", "/mm³", 1000.0, 4000.0, "normal"),
    ]


def _grouped_rows(signs: dict[str, str]):
    """A German table with a group column before the names; `signs` by test name, printed on
    their own between the value and the range."""
    rows = [[(50, 100, "Gruppe"), (130, 100, "Analyse"), (250, 100, "Resultat"), (355, 100, "Referenzbereich")]]
    lines = [("Hämatologie", "Hämoglobin", "118 g/l", "120 - 160"),
             ("", "Hämatokrit", "0.36 l/l", "0.36 - 0.47"),
             ("Leukozyten", "Neutrophile", "3.42 G/l", "1.8 - 7.5"),
             ("Differenzierung", "Lymphozyten", "1.85 G/l", "1.0 - 4.0"),
             ("Klinische", "Glukose nüchtern", "5.4 mmol/l", "3.9 - 5.6"),
             ("Chemie", "eGFR (CKD-EPI)", "81 ml/min", "> 90"),
             ("", "Kreatinin", "71 µmol/l", "45 - 84"),
             ("Lipide", "Cholesterin total", "5.9 mmol/l", "< 5.0")]
    for y, (group, name, value, reference) in zip(range(115, 400, 13), lines):
        row = [(130, y, name), (250, y, value), (355, y, reference)]
        if group:
            row.insert(0, (50, y, group))
        if name in signs:
            row.append((338, y, signs[name]))
        rows.append(row)
    return rows


def test_a_column_of_group_labels_before_the_names_is_never_part_of_a_name():
    """"Gruppe" heads labels that run past it ("Differenzierung") towards the names."""
    results = _results(_grouped_rows({}))
    assert [r.test_name for r in results] == [
        "Hämoglobin", "Hämatokrit", "Neutrophile", "Lymphozyten", "Glukose nüchtern", "eGFR (CKD-EPI)",
        "Kreatinin", "Cholesterin total"]


def test_signs_set_apart_between_the_value_and_the_range_are_flags_not_range_text():
    """Two signs (each placed in the gap) and four (a column the header does not label)."""
    for signs in ({"Hämoglobin": "-", "eGFR (CKD-EPI)": "-"},
                  {"Hämoglobin": "-", "eGFR (CKD-EPI)": "-", "Cholesterin total": "+", "Lymphozyten": "+"}):
        results = {r.test_name: r for r in _results(_grouped_rows(signs))}
        egfr = results["eGFR (CKD-EPI)"]
        assert (egfr.min_reference_range, egfr.max_reference_range, egfr.interpretation) == (90.0, None, "abnormal")
        assert egfr.reference_range_text == "> 90"
        assert results["Hämoglobin"].reference_range_text == "120 - 160"
        assert results["Hämoglobin"].interpretation == "abnormal"
        assert results["Cholesterin total"].reference_range_text == "< 5.0"


def test_menor_a_and_mayor_a_are_one_sided_ranges():
    assert (parse_range("menor a 200").low, parse_range("menor a 200").high) == (None, 200.0)
    assert (parse_range("mayor a 45").low, parse_range("mayor a 45").high) == (45.0, None)


def test_few_and_non_reactive_in_european_words_are_results():
    results = _results([
        [(40, 100, "Examen"), (230, 100, "Resultado"), (300, 100, "Unidad"), (360, 100, "Valor de referencia")],
        [(40, 115, "Células epiteliales"), (230, 115, "Escasas"), (360, 115, "Escasas")],
        [(40, 130, "VDRL"), (230, 130, "No reactivo"), (360, 130, "No reactivo")],
        [(40, 145, "Antígeno de superficie (HBsAg)"), (230, 145, "Reactivo"), (360, 145, "No reactivo")],
    ])
    assert [(r.test_name, r.value) for r in results] == [
        ("Células epiteliales", "Escasas"), ("VDRL", "No reactivo"), ("Antígeno de superficie (HBsAg)", "Reactivo")]
    assert results[2].interpretation == "abnormal"


def test_increased_and_decreased_in_words_are_flags():
    """An observation column printing "Aumentado" / "Disminuido": the flag, which alone tells
    a value with no range out of it."""
    results = _results([
        [(40, 100, "EXAMEN"), (230, 100, "RESULTADO"), (300, 100, "UNIDAD"), (360, 100, "VALOR DE REFERENCIA"),
         (480, 100, "OBSERVACIÓN")],
        [(40, 115, "Hemoglobina"), (230, 115, "12.9"), (300, 115, "g/dL"), (360, 115, "14.0 - 17.5"),
         (480, 115, "Disminuido")],
        [(40, 130, "Velocidad de sedimentación"), (230, 130, "28"), (300, 130, "mm/h"), (480, 130, "Aumentado")],
        [(40, 145, "Glucosa"), (230, 145, "98"), (300, 145, "mg/dL"), (360, 145, "70 - 105")],
        [(40, 160, "Colesterol total"), (230, 160, "224"), (300, 160, "mg/dL"), (360, 160, "menor a 200"),
         (480, 160, "Aumentado")],
    ])
    assert [(r.test_name, r.source_flag, r.interpretation) for r in results] == [
        ("Hemoglobina", "Disminuido", "abnormal"), ("Velocidad de sedimentación", "Aumentado", "abnormal"),
        ("Glucosa", None, "normal"), ("Colesterol total", "Aumentado", "abnormal")]
