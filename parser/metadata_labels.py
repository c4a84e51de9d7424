"""Metadata labels the vocabulary does not list word for word, read by how they are built.

Labs compose their labels from a few parts in every language, so a list of whole labels always
misses some ("Data refertazione", "Date du protocole", "Fecha de impresión", "Befund-Nr.",
"Protocole n°", "DATE OF BIRTH (AGE)"). Read by their parts:
- a date word with what it dates: "Date du protocole", "Data refertazione" (the report),
  "Fecha de toma" (the sampling), "Geb.-Dat." (the birth), "Date de réception" (other);
- a number sign with what it numbers: "Befund-Nr.", "Protocole n°", "N° de protocole",
  "Orden N°" (the request or sample: the specimen number); a patient's or an insurer's number
  is never one (its noun is not in the list);
- a known label with a note in brackets: "DATE OF BIRTH (AGE)", "Patient(e)".
"""

from __future__ import annotations

import re

# What each composed label's field is called in the vocabulary (a label of that field).
CANONICAL = {"reported": "date reported", "collected": "date collected", "dob": "date of birth",
             "specimen": "specimen number", "received": "sample received", "other": "registered",
             "age_gender": "age / sex",
             "dob_gender": "dob / sex", "name": "patient name", "printed": "printed"}

# "F." is a Spanish form's "Fecha" cut to its initial ("F. validación", "F. emisión").
_DATE_WORDS = {"date", "data", "fecha", "datum", "dat", "dt", "fec", "f"}
_SIGNS = {"n°", "nº", "no", "nr", "n", "#", "number", "num", "numero", "número", "nummer", "n?",
          "n*", "id", "ref", "código", "codigo", "codice", "code", "cod",
          "identifiant", "identificativo", "identificador"}
_JOINERS = {"of", "du", "de", "del", "della", "dell", "di", "la", "le", "des", "der", "do", "da",
            "the", "y", "and", "et", "&", "time", "heure", "ora", "hora", "zeit", "e", "und"}
# Word stems that say what a date dates (accents as printed, and folded).
_DATED = {
    "reported": ("report", "refert", "inform", "protocol", "emisi", "emissi", "valid", "releas",
                 "edit", "édit", "rapport", "verif", "authori", "approv",
                 "befund", "result", "résultat", "compte", "issu",
                 # When the results were handed over ("Fecha de entrega"): the report's date.
                 "entreg",
                 # Released or signed: "Freigabedatum", "Data firma".
                 "freigab", "firm"),
    # A print date is the report's only where none other is printed (print_label).
    "printed": ("impres", "print", "stamp", "druck"),
    "collected": ("collect", "prélèv", "prelev", "prelie", "extrac", "toma", "entnahm", "abnahm",
                  "recog", "draw", "obten", "raccolt",
                 # A blood donor's report dates the donation, its sampling.
                 "donation", "donazion", "donación", "donacion", "spende"),
    "dob": ("birth", "naiss", "nasc", "nacim", "geburt", "geb"),
    # When the lab received the sample ("Sample Receipt Date"): the sampling date only where
    # none is printed; a receipt naming no sample is "other" (_dated_field).
    "received": ("récep", "recep", "receipt", "ricev", "accettazion", "eingang", "receiv"),
    "other": ("registr", "request",
              "richiest", "solicit", "demande", "order", "orden", "admis", "aufnahm"),
}
_EARLIER = ("previous", "prior", "last", "anterior", "antérieur", "precedent", "précédent",
            "vorherig", "letzt", "vorbefund", "ultim", "dernier")
# What a sampling date may be named by alone ("Sample Date", "Fecha de muestra").
_SAMPLE_WORDS = ("sampl", "specimen", "muestr", "campion", "probe", "proben", "échantillon",
                 "echantillon")
# Nouns whose number is the specimen's (the request, order, sample or report protocol; "Referto
# n." the Italian report's, as "Befund-Nr."; "Episode No." an Irish or UK hospital lab's request).
_NUMBERED = ("protocol", "befund", "auftrag", "order", "orden", "request", "richiest", "accession",
             "sampl", "specimen", "probe", "proben", "campion", "muestr", "lab", "petici",
             "solicitud", "demande", "requête", "requete", "dossier", "échantillon", "echantillon", "requisition",
             "accettazion", "refert", "episode", "spec", "anforder", "barcode", "antrag",
             # A report's number ("Report No.", "Nº de informe", "N° de rapport"), as "Befund-Nr.".
             "report", "inform", "rapport")  # "SPEC #": a hospital system's abbreviation
_PARENTHESIS = re.compile(r"^(.+?)\s*(\([^()]*\)|\[[^\[\]]*\])$")
_ELISION = re.compile(r"^[dl]['’]")  # "d'", "l'" before a word: "Date d'édition"
_TOKEN_GAPS = re.compile(r"[\s\-/]+")


def composed_label(key: str, known: dict[str, str]) -> str | None:
    """A label of `known` (label -> field) that the label key `key` stands for, or None.
    Called for most phrases of a report's first pages (metadata._label_key), so the cheap
    refusals come first."""
    bare = _PARENTHESIS.match(key) if key.endswith((")", "]")) else None
    if bare and bare.group(1).strip() in known:
        return bare.group(1).strip()
    if any(map(str.isdigit, key)):
        return None  # a label and its value ("date of birth 25"), no label alone
    tokens = [_ELISION.sub("", t).strip(",;") for t in _TOKEN_GAPS.split(key)]
    tokens = [t for t in tokens if t]
    content = [t for t in tokens if t not in _JOINERS]
    field = _dated_field(content) or _numbered_field(content) or _several_fields(tokens) or \
        _whole_name(tokens) or _one_date_twice(tokens, known)
    return CANONICAL[field] if field else None


def _one_date_twice(tokens: list[str], known: dict[str, str]) -> str | None:
    """"Reported/Verified", "Collected/Drawn": labels of one date joined, each known alone
    as that date's label; the date's field."""
    fields = {known.get(t) for t in tokens}
    if len(tokens) < 2 or len(fields) != 1:
        return None
    field = fields.pop()
    return field if field in ("reported", "collected") else None


_SEX = {"sex", "sexe", "sexo", "sesso", "gender", "geschlecht", "geschl", "genre", "género", "genero",
        "sx"}  # "AGE/SX: 59/F", a hospital system's abbreviation
_AGE = {"age", "âge", "edad", "età", "eta", "alter", "idade"}
_BIRTH = {"dob", "ddn", "fdn", "birthdate"}


def _several_fields(tokens: list[str]) -> str | None:
    """"Sexe / Âge", "Edad/Sexo", "Età - Sesso" (age and sex: age_gender); "DDN / Sexe" (the
    birth date and the sex: dob_gender), in any language and order."""
    words = set(tokens)
    if len(tokens) != len(words) or not words & _SEX or not words <= _SEX | _AGE | _BIRTH \
            or len(words) < 2:
        return None
    return "dob_gender" if words & _BIRTH else "age_gender"


def _stem_field(word: str, table: dict[str, tuple[str, ...]]) -> str | None:
    for field, stems in table.items():
        if word.startswith(stems):
            return field
    return None


def _dated_field(content: list[str]) -> str | None:
    """"date du protocole", "data refertazione", "geb dat", "abnahmedatum" (`content`: the
    label's words without joiners)."""
    if any(t.startswith(_EARLIER) for t in content):
        return None  # "Previous Result Date": an earlier report's, never this one's
    if len(content) == 1 and content[0].endswith("datum") and len(content[0]) > 5:
        return _stem_field(content[0][:-5], _DATED)  # "Druckdatum"
    if not 2 <= len(content) <= 3:
        return None
    if content[0] in _DATE_WORDS and content[-1] not in _DATE_WORDS:
        nouns = content[1:]
    elif content[-1] in _DATE_WORDS and content[0] not in _DATE_WORDS:
        nouns = content[:-1]  # "Specimen Collection Date": the first noun saying what is dated
    else:
        return None
    # What was done says more than to what: "Sample Receipt Date" is no sampling date.
    acts = [n for n in nouns if not n.startswith(_SAMPLE_WORDS)]
    found = [f for f in (_stem_field(n, _DATED) for n in acts) if f]
    if found and found[0] == "received" and len(acts) == len(nouns):
        return "other"  # "Date de réception": the request's receipt, no sample's
    if found or acts:
        return found[0] if found else None
    return "collected"  # "Sample Date", "Date of specimen"


def _numbered_field(content: list[str]) -> str | None:
    """"befund nr", "protocole n°", "n° de protocole", "befundnummer" (`content`: the label's
    words without joiners)."""
    if len(content) == 1 and content[0].endswith("nummer") and len(content[0]) > 6:
        return "specimen" if content[0][:-6].startswith(_NUMBERED) else None
    if not 2 <= len(content) <= 3:
        return None
    if content[-1] in _SIGNS:
        nouns = content[:-1]
    elif content[0] in _SIGNS:
        nouns = content[1:]
    else:
        return None
    return "specimen" if all(n.startswith(_NUMBERED) and n not in _SIGNS for n in nouns) else None


# Words of a given name and of a surname, every language's.
_GIVEN = {"prénom", "prenom", "prénoms", "prenoms", "vorname", "vornamen", "nome", "nombre", "nombres", "first",
          "given", "forename", "forenames"}
_SURNAME = {"nom", "nachname", "cognome", "apellidos", "apellido", "surname", "last", "family"}
_NAME_PARTS = _GIVEN | _SURNAME | {"name"}


def _whole_name(tokens: list[str]) -> str | None:
    """"Nom, prénom", "Last name, First name", "Cognome / Nome": a surname's and a given
    name's labels joined, over the whole name."""
    words = set(tokens) - {"et", "y", "e", "and", "und", "&"}
    return "name" if words <= _NAME_PARTS and words & _GIVEN and words & _SURNAME else None


# A print date's label: when the page was printed ("Imprimé le", "RUN DATE", "Data stampa"), a
# report date only where the report prints no other (metadata._read_pairs).
_PRINT_WORDS = re.compile(r"\b(print|printed|imprim\w*|impres\w*|stampa|stampato|\w*druck\w*|gedruckt|run date)\b")


def print_label(key: str) -> bool:
    """Is the label key `key` a print date's ("imprimé le", "druckdatum", "run date")?"""
    return _PRINT_WORDS.search(key) is not None


def declared_name_order(key: str) -> str | None:
    """The order of a name's parts its label declares: "surname_first" for "Cognome e Nome",
    "Apellidos, nombre", "PATIENT NAME (LAST, FIRST)", "given_first" for "Nombre y apellidos",
    "Prénom Nom" ("Name, Vorname": the family name); None when the label names no part ("Patient", "Name")."""
    words = [t.strip("(),;:") for t in _TOKEN_GAPS.split(key)]
    given = next((k for k, w in enumerate(words) if w in _GIVEN), None)
    surname = next((k for k, w in enumerate(words) if w in _SURNAME), None)
    if surname is None and given is not None:  # "Name, Vorname": the name is the family name
        surname = next((k for k, w in enumerate(words) if w == "name"), None)
    if given is None or surname is None:
        return None
    return "surname_first" if surname < given else "given_first"

