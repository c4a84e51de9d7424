"""Which language is a report in? Counted from function words and lab-report vocabulary.

Lab reports are mostly numbers, units and abbreviations, so only words clearly of one language
count: articles and prepositions, and the few dozen labels every report prints (result, unit,
reference values, patient, date of birth, white cells...). Matching ignores accents (OCR often
drops them). A word listed by several languages ("de", "urea") counts a share to each. With too
little evidence either way the report is taken as English, the parser's first language.

The parser reads English, French, German, Italian and Spanish (SUPPORTED); Portuguese and Dutch
are profiled only so that such a report is named when it is refused.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

SUPPORTED = ("en", "fr", "de", "it", "es")
NAMES = {
    "en": "English", "fr": "French", "de": "German", "it": "Italian", "es": "Spanish",
    "pt": "Portuguese", "nl": "Dutch",
}
# Tesseract's language data for each supported language (Debian tesseract-ocr-<code>).
TESSERACT_CODES = {"en": "eng", "fr": "fra", "de": "deu", "it": "ita", "es": "spa"}
DEFAULT = "en"

# A language wins with at least this much evidence (weighted word count)...
MIN_EVIDENCE = 6.0
# ...and clearly ahead of the runner-up: English beside a few foreign words stays English.
MIN_LEAD = 1.5

_PROFILES: dict[str, str] = {
    "en": """
        the of and or in on to for with by from is are not no this that at as be
        test tests result results reference range value values patient name date report reported
        collected sample specimen blood count normal high low units unit interval negative
        positive total serum urine profile panel age sex gender male female doctor page received
        investigation method cholesterol glucose protein white red cells birth previous
        collection comments comment fasting count differential platelets
    """,
    "fr": """
        le la les de des du et au aux une est pour sur dans par avec sans ou
        resultat resultats valeurs valeur reference references unite unites analyse analyses
        anteriorites anteriorite patient nom prenom ne nee le date prelevement preleve prelevee
        edite dossier biologie medicale medical numeration formule sanguine sang urines
        hematies leucocytes polynucleaires neutrophiles eosinophiles basophiles lymphocytes
        monocytes plaquettes hemoglobine glycemie jeun creatinine cholesterol triglycerides
        eleve elevee bas basse laboratoire docteur prescripteur sexe masculin feminin biochimie
        hematologie compte rendu demande serique dosage normales
    """,
    "de": """
        der die das und oder mit von vom zum zur im ist nicht ein eine fur bei aus
        ergebnis ergebnisse befund befunde referenzbereich referenzwerte einheit einheiten
        patient name vorname nachname datum geburtsdatum geboren probe blut labor untersuchung
        untersuchungen normalbereich wert werte geschlecht mannlich weiblich entnahme
        eingang auftrag blutbild kleines grosses leukozyten erythrozyten thrombozyten
        hamoglobin hamatokrit kreatinin harnstoff harnsaure gesamt cholesterin eisen
        erhoht erniedrigt klinische chemie gerinnung urin serum vorwert vorwerte seite arzt
    """,
    "it": """
        il lo la gli della delle dei degli del di e per con nel nella sono non una uno
        esame esami risultato risultati valori valore riferimento unita misura paziente
        cognome nome nato nata data nascita prelievo accettazione referto sangue urine
        emocromo globuli bianchi rossi piastrine emoglobina ematocrito glicemia creatinina
        azotemia colesterolo trigliceridi alto alta basso bassa laboratorio analisi medico
        sesso maschio femmina chimica clinica ematologia siero dosaggio precedenti pagina
    """,
    "es": """
        el la los las del de y en por para con se no un una es al
        resultado resultados paciente fecha nombre apellidos informe muestra valores valor
        referencia sangre orina suero prueba pruebas unidades edad sexo hombre mujer medico
        peticion servicio hospital analisis hemograma bioquimica negativo positivo numero
        historia pagina recuento hematies leucocitos plaquetas glucosa observaciones
        nacimiento extraccion recepcion finalizacion origen neutrofilos linfocitos hemoglobina
        hematocrito colesterol trigliceridos hierro creatinina alto bajo serie blanca roja
    """,
    "pt": """
        o os as da do das dos e em no na um uma com por para nao
        resultado resultados paciente data nome exame exames valores valor referencia sangue
        urina material hemacias leucocitos plaquetas glicose colesterol triglicerides
        nascimento coleta medico laudo idade sexo masculino feminino unidade unidades
    """,
    "nl": """
        de het een en van op in met voor niet is zijn
        uitslag uitslagen waarde waarden referentie eenheid patient naam datum geboortedatum
        bloed urine onderzoek monster afname aanvrager laboratorium geslacht man vrouw
        leukocyten trombocyten hemoglobine glucose kreatinine cholesterol verhoogd verlaagd
    """,
}
# Letters only some languages use: a little extra evidence, as OCR keeps most of them.
_LETTER_HINTS = {"ñ": "es", "ß": "de", "ä": "de", "ö": "de", "œ": "fr", "ç": "fr", "è": "fr",
                 "ê": "fr", "ã": "pt", "õ": "pt", "ì": "it", "ò": "it"}
_LETTER_HINT_WEIGHT = 0.5
_TOKEN = re.compile(r"[^\W\d_]+")


def fold(text: str) -> str:
    """Lower case without accents: "Hématies" -> "hematies", "Größe" -> "grosse"."""
    text = text.lower().replace("ß", "ss").replace("œ", "oe")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


_LANGUAGES_OF: dict[str, list[str]] = {}
for _language, _words in _PROFILES.items():
    for _word in set(_words.split()):
        _LANGUAGES_OF.setdefault(fold(_word), []).append(_language)


@dataclass(frozen=True, slots=True)
class LanguageGuess:
    language: str  # ISO 639-1 code; DEFAULT when the evidence is too thin
    evidence: float  # the winner's weighted word count
    scores: dict[str, float]

    @property
    def supported(self) -> bool:
        return self.language in SUPPORTED

    @property
    def name(self) -> str:
        return NAMES.get(self.language, self.language)


def language_scores(words: list[str]) -> Counter[str]:
    """Weighted evidence per language: a word listed by k languages gives 1/k to each."""
    scores: Counter[str] = Counter()
    ascii_run: list[str] = []
    for raw in words:
        if raw.isascii():  # most words: no hint letters, and folding is only lower case
            ascii_run.append(raw)
            continue
        if ascii_run:
            _count_tokens(scores, " ".join(ascii_run).lower())
            ascii_run = []
        lowered = raw.lower()
        for letter, language in _LETTER_HINTS.items():
            if letter in lowered:
                scores[language] += _LETTER_HINT_WEIGHT
        _count_tokens(scores, fold(raw))
    if ascii_run:
        _count_tokens(scores, " ".join(ascii_run).lower())
    return scores


def _count_tokens(scores: Counter[str], folded: str) -> None:
    """Add the listed words of `folded` in order. A run of ASCII words is read as one text (a
    token never spans the space between words), so the sums are those of word by word."""
    # Most tokens are no listed word: they are looked up and dropped in C (map, filter).
    for languages in filter(None, map(_LANGUAGES_OF.get, _TOKEN.findall(folded))):
        share = 1.0 / len(languages)
        for language in languages:
            scores[language] += share


def detect_language(words: list[str]) -> LanguageGuess:
    """The report's language from its words (text layer or a first OCR pass)."""
    scores = language_scores(words)
    ranked = scores.most_common(2)
    if not ranked:
        return LanguageGuess(DEFAULT, 0.0, {})
    best, evidence = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    if best == DEFAULT or evidence < MIN_EVIDENCE or evidence < MIN_LEAD * runner_up:
        best, evidence = DEFAULT, scores.get(DEFAULT, 0.0)
    return LanguageGuess(best, round(evidence, 2), {k: round(v, 2) for k, v in scores.items()})


def is_english(words: list[str]) -> bool:
    """True unless another language clearly outnumbers English."""
    return detect_language(words).language == "en"


def unsupported_message(guess: LanguageGuess) -> str:
    """The refusal's message: the language detected and the ones the parser reads."""
    supported = ", ".join(NAMES[code] for code in SUPPORTED)
    return f"the report appears to be in {guess.name}; supported languages are {supported}"
