"""Is the report in English? Counted from common label and function words.

Lab reports are mostly numbers and abbreviations, so only words that are clearly of one
language count: a report whose labels are mostly Spanish (or French, German, Portuguese,
Italian) words and hardly any English ones is not English.
"""

from __future__ import annotations

import re
from collections import Counter

_WORDS: dict[str, set[str]] = {
    "english": {
        "the", "of", "and", "test", "tests", "result", "results", "reference", "range", "value",
        "patient", "name", "date", "report", "reported", "collected", "sample", "specimen",
        "blood", "count", "normal", "high", "low", "units", "unit", "interval", "negative",
        "positive", "total", "serum", "urine", "profile", "panel", "with", "for", "age", "sex",
        "gender", "male", "female", "doctor", "page", "received", "investigation", "method",
        "cholesterol", "glucose", "protein", "white", "red", "cells", "is", "are", "not", "by",
    },
    "spanish": {
        "el", "la", "los", "las", "del", "de", "y", "en", "por", "para", "con", "resultado",
        "resultados", "paciente", "fecha", "nombre", "informe", "muestra", "valores", "valor",
        "referencia", "sangre", "orina", "suero", "prueba", "pruebas", "unidades", "edad",
        "sexo", "hombre", "mujer", "médico", "medico", "petición", "peticion", "servicio",
        "hospital", "análisis", "analisis", "hemograma", "bioquímica", "bioquimica", "negativo",
        "positivo", "número", "numero", "historia", "página", "pagina", "recuento", "hematíes",
        "leucocitos", "plaquetas", "glucosa", "observaciones", "se", "no", "un", "una",
    },
    "french": {
        "le", "les", "des", "du", "et", "résultat", "résultats", "valeurs", "référence",
        "patient", "nom", "prénom", "né", "née", "date", "analyse", "analyses", "sang", "urine",
        "prélèvement", "dossier", "biologie", "médicale", "numération", "antériorités",
    },
    "german": {
        "der", "die", "das", "und", "ergebnis", "befund", "referenzbereich", "einheit",
        "patient", "name", "datum", "geburtsdatum", "probe", "blut", "labor", "untersuchung",
        "normalbereich", "wert", "werte", "geschlecht",
    },
    "portuguese": {
        "o", "os", "as", "da", "do", "das", "dos", "e", "resultado", "resultados", "paciente",
        "data", "nome", "exame", "exames", "valores", "referência", "sangue", "urina", "material",
    },
}
_TOKEN = re.compile(r"[a-záéíóúñüàâçèêëîïôûœäöß]+", re.I)
# token -> the languages listing it (in _WORDS order): one lookup per token, not one per language.
_LANGUAGES_OF: dict[str, list[str]] = {}
for _language, _vocabulary in _WORDS.items():
    for _token in _vocabulary:
        _LANGUAGES_OF.setdefault(_token, []).append(_language)


def language_scores(words: list[str]) -> Counter[str]:
    scores: Counter[str] = Counter()
    for raw in words:
        for token in _TOKEN.findall(raw.lower()):
            for language in _LANGUAGES_OF.get(token, ()):
                scores[language] += 1
    return scores


def is_english(words: list[str]) -> bool:
    """False only when another language clearly outnumbers English."""
    scores = language_scores(words)
    english = scores.pop("english", 0)
    if not scores:
        return True
    other, count = scores.most_common(1)[0]
    return not (count >= 8 and count > 2 * english)
