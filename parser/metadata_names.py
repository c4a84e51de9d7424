"""Patient names: a printed name cut into first and last names, the civility before it and
the sex it states, and a name printed without a label (below a "Patient Information" title,
above "Age :", after "Madame").
"""

from __future__ import annotations

import re

from parser.lines import Line
from parser.metadata_hints import starts_birth_line
from parser.metadata_split import LABELS, PROSE_SEPARATOR, label_key, split_label

TITLES = re.compile(r"^(mr|mrs|ms|miss|mstr|master|baby|dr|prof)\.?\s+", re.I)
# Civilities printed before a patient's name, and the sex each one states ("Dr" states none).
# French "M." is one only on a European report: on others it may be a first initial.
_CIVILITIES = {
    "male": ("mr", "mister", "monsieur", "herr", "sig", "signor", "sig re", "sr", "señor", "senor"),
    "female": ("mrs", "ms", "miss", "madame", "mme", "mademoiselle", "mlle", "frau", "sig ra",
               "signora", "sig na", "signorina", "sra", "señora", "senora", "srta", "señorita",
               "doña", "dña", "dna", "dª"),
}
# Civilities that are one only on a European report, where they stand before the name: French
# "M." (Monsieur), Spanish "D." and "Don"; elsewhere "M." and "D." are initials, "Don" a name.
_EUROPEAN_CIVILITIES = {"m.": "male", "d.": "male", "don": "male"}
_CIVILITY_SEX = {word: sex for sex, words in _CIVILITIES.items() for word in words}
# A sex printed in brackets after a name: "DOE, JANE (F)".
BRACKETED_SEX = re.compile(r"\((m|f|male|female)\)", re.I)


def split_person_name(text: str, *, surname_first: bool = False, two_surnames: bool = False,
                      declared: str | None = None) -> tuple[str | None, str | None]:
    """(first, last) of a printed name. `surname_first`: a European report, whose systems print
    "DUPONT MARIE" surname first when the whole name is in capitals (a mixed-case "Brunner
    Regula" is not settled by the print: fixtures' European reports print both orders).
    `two_surnames`: a Spanish report, where a person bears two surnames after the given names
    ("GUADALUPE HERNÁNDEZ RAMÍREZ", "María Laura Gómez Pérez"). `declared`: the order the
    name's label states (metadata_labels.declared_name_order), for a name in capitals, whose
    case cannot say it; a mixed-case name keeps its printed order (the HTML fixtures print
    "Name, Vorname : Arjun Hartley", given name first)."""
    text = re.split(r"\s{2,}|\b(age|sex|gender|dob)\b", text, maxsplit=1, flags=re.I)[0]
    text = PROSE_SEPARATOR.split(text, maxsplit=1)[0]  # "ROSSI MARIO – Acc. n. 1187"
    text = BRACKETED_SEX.sub(" ", before_other_label(_without_birth_name(text)))
    # A rule or a cell's border OCR read before the name ("—BERNASCONI Chiara"): no name starts
    # so; a bracket OCR read inside a word ("MAHARA)J-BAPTISTE") is no letter of it.
    text = TITLES.sub("", " ".join(text.split()).lstrip("—–-_|~ ")).strip(" ,;")
    text = _BRACKET_IN_WORD.sub("", text)
    if civility(text.split()[0] if text else "", european=surname_first):
        text = text.split(maxsplit=1)[1] if len(text.split()) > 1 else ""
    if not text or not re.search(r"[A-Za-z]", text):
        return None, None
    if "," in text:
        last, _, first = text.partition(",")
        first_tokens = first.split()
        return (first_tokens[0] if first_tokens else None), last.strip() or None
    tokens = text.split()
    while len(tokens) > 2 and _INITIALS.fullmatch(tokens[0]):
        tokens = tokens[1:]  # "H.M. Chandima Herath": initials (of family names) before the given name
    if len(tokens) == 1:
        return tokens[0], None
    if declared and text.isupper():
        return _declared_split(tokens, declared, two_surnames)
    run = surname_run(tokens)
    if run:  # "DE LA CRUZ Maria", "HERNÁNDEZ RAMÍREZ Guadalupe"
        return tokens[run], " ".join(tokens[:run])
    if surname_first and len(tokens) == 2 and text.isupper():
        return tokens[1], tokens[0]
    if two_surnames and len(tokens) in (3, 4):
        return tokens[0], " ".join(tokens[-2:])
    if surname_first and len(tokens) >= 3 and text.isupper() and \
            (len(tokens) == 3 or _leading_particles(tokens)):
        # "GASPERONI MARIA LUISA", "DE LUCA MARIO", "DE LA CRUZ MARIA ELENA": an Italian, French
        # or German system prints the surname first and all the given names after it (particles
        # begin a surname).
        run = _leading_particles(tokens) + 1
        return " ".join(tokens[run:]), " ".join(tokens[:run])
    return tokens[0], tokens[-1]


def _declared_split(tokens: list[str], declared: str, two_surnames: bool) -> tuple[str, str]:
    """(first, last) of a name's words in the order its label declared: the surname's words
    are the capitals leading it, else two on a Spanish report, else one with the particles
    before it ("DE LUCA ANNA MARIA", "ANNA MARIA DE LUCA")."""
    run = surname_run(tokens) if declared == "surname_first" else 0
    if declared == "surname_first":
        surnames = run or (2 if two_surnames and len(tokens) >= 3 else _leading_particles(tokens) + 1)
        return " ".join(tokens[surnames:]), " ".join(tokens[:surnames])
    surnames = 2 if two_surnames and len(tokens) >= 3 else 1
    while len(tokens) - surnames > 1 and tokens[-surnames - 1].lower() in _SURNAME_PARTICLES:
        surnames += 1  # "ANNA MARIA DE LUCA": the particle belongs to the surname after it
    return " ".join(tokens[:-surnames]), " ".join(tokens[-surnames:])


def _leading_particles(tokens: list[str]) -> int:
    """How many surname particles lead the name ("DE LA CRUZ": 2), a given name left after."""
    count = 0
    while count < len(tokens) - 2 and tokens[count].lower() in _SURNAME_PARTICLES:
        count += 1
    return count


_BRACKET_IN_WORD = re.compile(r"(?<=[^\W\d_])[()\[\]](?=[^\W\d_])")
_INITIALS = re.compile(r"(?:[A-Z]\.){2,4}")
_SURNAME_PARTICLES = {"de", "di", "da", "del", "della", "dal", "la", "le", "lo", "du", "van", "von",
                      "zu", "dos", "das", "d'", "der", "den", "des", "dei", "delle", "dello", "degli",
                      "ter", "ten"}


def civility(token: str, *, european: bool = False) -> str | None:
    """The sex a civility states ("Madame", "Sig.ra", "Herr"); None for any other word."""
    key = " ".join(token.lower().replace(".", " ").split())  # "Sig.ra" -> "sig ra"
    if european and token.lower() in _EUROPEAN_CIVILITIES:
        return _EUROPEAN_CIVILITIES[token.lower()]
    return _CIVILITY_SEX.get(key)


def surname_text(text: str) -> str | None:
    """The whole printed surname under a surname label, without what follows it."""
    text = re.split(r"\s{2,}", text, maxsplit=1)[0]
    return TITLES.sub("", before_other_label(text)).strip(" ,;") or None


def surname_run(tokens: list[str]) -> int:
    """How many words in capitals lead the name before given names that are not ("DELACROIX
    Rohan": 1, "HERNÁNDEZ RAMÍREZ Guadalupe": 2), as European (and many hospital) systems
    print a surname; 0 when the name is not printed so."""
    run = 0
    while run < len(tokens) and tokens[run].isupper() and tokens[run].replace("-", "").isalpha():
        run += 1
    if run == 0 or run == len(tokens) or any(t.isupper() for t in tokens[run:]) or \
            not any(len(t) > 1 for t in tokens[:run]):
        return 0
    return run


def before_other_label(text: str) -> str:
    """A name value ends where another label, a number or a time begins ("Jane Doe MRN 123",
    "Jane Doe 10:47 am"), or a birth date's label of two words ("Mme SOULIÉ Martine, née le
    02/10/1958"): a label or a clock time is never part of a person's name."""
    kept: list[str] = []
    tokens = text.split()
    for k, token in enumerate(tokens):
        bare = token.strip(":#.,").lower()
        # A label ends the name only after it: a name may begin with a label's word
        # ("Nombre: PACIENTE PRUEBA").
        if re.search(r"\d", token) or (kept and (bare in LABELS or bare in ("am", "pm") or
                                                  _birth_label(tokens[k:k + 2]))):
            break
        kept.append(token)
    return " ".join(kept)


def _birth_label(tokens: list[str]) -> bool:
    """Two words that are a birth date's label: "née le", "nato il", "nacida el", "geb. am"."""
    return len(tokens) == 2 and LABELS.get(label_key(" ".join(tokens).strip(" :,"))) == "dob"


# A birth name printed after the name in use ("DUPONT née MARTIN Claire", "Müller geb. Schmidt,
# Anna"): the word, then the birth surname, in capitals or before the given names' comma.
_BIRTH_NAME = re.compile(r"[\s,]+(?:[nN][éeÉE][eE]?|[gG][eE][bB]\.|geborene|nata|nacida)\s+"
                         r"(?:[^\W\d_a-zß-ÿ][^\W\d_a-zß-ÿ'’\-]+(?:\s+[^\W\d_a-zß-ÿ][^\W\d_a-zß-ÿ'’\-]+)*"
                         r"|[^\W\d_][\w'’\-]*(?=,))")


def _without_birth_name(text: str) -> str:
    """The name in use without the birth name printed with it: "DUPONT née MARTIN Claire" ->
    "DUPONT Claire"; "MARTIN épouse DUPONT Claire" (the birth name, then the married one) ->
    "DUPONT Claire"."""
    tokens = text.split()
    married = next((k for k, t in enumerate(tokens[1:-1], 1) if t.lower() in _MARRIED_WORDS), None)
    if married is not None:
        text = " ".join(tokens[married + 1:])
    return _BIRTH_NAME.sub("", text, count=1)


# "épouse" / "veuve" between a woman's birth surname and her married one, the name in use.
_MARRIED_WORDS = {"épouse", "epouse", "ép.", "ep.", "épse", "veuve", "vve", "vve."}


def unlabelled_patient_name(lines: list[Line]) -> str | None:
    """A name printed without a label: directly above "Age :" / "Sex :" at the same indent,
    or directly below a "Patient Information" block title."""
    return _name_below_patient_title(lines) or _name_above_age(lines)


# The patient block's title, in the five languages: "Patient Details", "Datos del paciente",
# "Données patient", "Patientendaten", "Dati del paziente".
_PATIENT_TITLE = re.compile(
    r"(patient\s*(information|info|details|demographics|data)?|(datos|dati|données|informations?)"
    r"\s+(du|de\s+la|del|de)?\s*(patient|paciente|paziente|patiente)|patienten\s*daten|"
    r"patientendaten|angaben\s+zum\s+patienten|identit[ée]\s+(du\s+)?patient)\s*:?", re.I)


def _name_below_patient_title(lines: list[Line]) -> str | None:
    for i, line in enumerate(lines):
        for title in line.phrases():
            if not _PATIENT_TITLE.fullmatch(title.text.strip()):
                continue
            below = [l for l in lines[i + 1:i + 4] if l.page == line.page
                     and l.top - line.bottom < 2.5 * line.size]
            for other in below:
                for phrase in other.phrases():
                    if abs(phrase.x0 - title.x0) < 4 and _name_like(phrase.text):
                        return phrase.text.strip()
    return None


def civility_name(lines: list[Line], european: bool) -> str | None:
    """A name printed without a label after a civility, as address blocks print it ("Madame
    DUPONT Marie", "Sig.ra ROSSI MARIA", or "Frau" with the name on the line below)."""
    for i, line in enumerate(lines):
        phrases = line.phrases()
        for k, phrase in enumerate(phrases):
            tokens = phrase.text.split()
            if not civility(tokens[0], european=european) or \
                    (k and phrases[k - 1].text.rstrip().endswith(":")):
                continue  # a labelled value ("Prescripteur : M. X") is not the patient's
            if len(tokens) > 1:
                if letters_name(" ".join(tokens[1:])) and len(tokens) <= 5:
                    return phrase.text.strip()
                continue
            below = [l for l in lines[i + 1:i + 3] if l.page == line.page
                     and l.top - line.bottom < 1.5 * line.size]
            for other in below[:1]:
                for candidate in other.phrases():
                    if abs(candidate.x0 - phrase.x0) < 4 and letters_name(candidate.text) \
                            and 1 < len(candidate.text.split()) <= 4:
                        return f"{tokens[0]} {candidate.text.strip()}"
    return None


# Words a civility may sit before that show the person is no patient ("Monsieur le Docteur").
_NOT_PATIENT = {"le", "la", "docteur", "dr", "dr.", "doktor", "dott.", "dott", "dottore", "prof."}


def letters_name(text: str) -> bool:
    """Words of letters (accented ones too) and name punctuation, none of them a title or an
    article ("le Docteur"); callers bound the number of words."""
    text = text.strip()
    return bool(text) and text[0].isalpha() and all(c.isalpha() or c in " .,'-" for c in text) \
        and not {t.lower() for t in text.split()} & _NOT_PATIENT


def _name_like(text: str) -> bool:
    text = text.strip()
    return ":" not in text and not re.search(r"\d", text) and 1 <= len(text.split()) <= 5 \
        and bool(re.fullmatch(r"[^\W\d_](?:[^\W\d_]|[ .,'\-])+", text))  # "MUÑOZ PÉREZ, ÁNGELA"


# Words of a block's title, printed where a name could be ("Patient Details" over "DOB: ...").
_BLOCK_TITLE = re.compile(r"\b(patient|details|information|info|demographics|report|specimen|"
                          r"physician|doctor|order|sample|client|account)\b", re.I)


# Labels of a patient's particulars that print their value after a space, no colon
# ("Nationality Saudi" above "DOB / Age"): the label and its value are no name.
_DEMOGRAPHIC_LABEL = re.compile(r"(nationality|nationalit[ée]|nazionalit[àa]|nacionalidad|"
                                r"staatsangeh[öo]rigkeit|religion|religione|religi[óo]n|"
                                r"marital\s+status|occupation|ethnicity|race|language)\b", re.I)


def _indent_tolerance(line: Line) -> float:
    """How far two lines' starts may differ and be one indent: a few points in a text layer; on
    an OCR'd page a character (a speck read before a line moves its start, a photo's pixels are small)."""
    return max(4.0, line.size) if line.ocr else 4.0


def _name_above_age(lines: list[Line]) -> str | None:
    for i, line in enumerate(lines):
        phrases = line.phrases()
        if not phrases or not (re.match(r"^(age|sex|gender)\b\s*:?", phrases[0].text, re.I)
                               or starts_birth_line(phrases[0].text)):
            continue
        # Above: its middle above this line's top (an OCR box made tall by a barcode beside
        # the name may reach down into the "Age" line).
        above = [l for l in lines[:i] if l.page == line.page and (l.top + l.bottom) / 2 < line.top
                 and abs(l.x0 - line.x0) < _indent_tolerance(line) and line.top - l.bottom < 3 * line.size]
        if not above:
            continue
        candidates = max(above, key=lambda l: l.bottom).phrases()
        if not candidates:
            continue
        text = candidates[0].text.strip()
        if text.endswith(",") and len(candidates) > 1:  # "Kowalski," || "Dariusz": a gap OCR kept
            text = f"{text} {candidates[1].text.strip()}"
        if letters_name(text) and 1 <= len(text.split()) <= 5 and not _BLOCK_TITLE.search(text) \
                and not _DEMOGRAPHIC_LABEL.match(text) and split_label(text)[0] is None:
            return text
    return None
