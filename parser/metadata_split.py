"""Metadata label text: where a printed phrase's labels are and which label it starts with.

A header prints its "Label: value" pairs in every way: several on one phrase ("Apellidos: GARCÍA
Doctor: DR LÓPEZ"), as prose items between spaced dashes, without a colon ("Name ASHDOWN,
PETER"), with a colon OCR misread ("Lab No.  3  X12"), with a label OCR cut in two ("N°" ||
"de demande"). Here: cutting phrases at their labels (split_at_labels), reading a phrase's label
and value (split_label), the label key the vocabulary lists (label_key), and whether a value has
the shape of its field's (value_fits, fits_beside; read_gender reads a sex).
"""

from __future__ import annotations

import re
from functools import lru_cache

from parser import vocabulary
from parser.lines import Phrase
from parser.metadata_dates import DATE_PATTERNS as _DATE_PATTERNS, read_date
from parser.metadata_labels import composed_label

LABELS: dict[str, str] = vocabulary.metadata_labels()

_GENDER = {word: sex for table in vocabulary.GENDER_WORDS.values() for sex, words in table.items()
           for word in words}


def ocr_colon(field: str, token: str, rest: list[str]) -> bool:
    """Is `token`, after a name's or a specimen number's label, the label's colon as OCR read
    it ("Name  3  DUMMY", "Lab No.  3 DUMMYS056"): a colon look-alike with the field's value
    after it (a name never starts with a digit; an identifier is one token)."""
    if field not in ("name", "first_name", "last_name", "specimen") or token not in _OCR_COLONS \
            or not rest or not rest[0]:
        return False
    if field == "specimen":
        return value_fits(field, rest[0])
    return bool(re.fullmatch(r"[A-Za-z][A-Za-z .,'\-]{1,60}", rest[0])) and len(rest[0].split()) <= 5


def split_at_labels(text: str) -> list[str]:
    """A phrase holding several "Label: value" pairs printed with single spaces, cut before
    each later known label: "Apellidos: GARCÍA Doctor: DR LÓPEZ" -> two phrases."""
    return list(label_parts(text))


@lru_cache(maxsize=4096)  # asked twice of many phrases (the header's again, by metadata)
def label_parts(text: str) -> tuple[str, ...]:
    """split_at_labels, kept: the parts as a tuple."""
    return tuple(part for segment in _prose_segments(text) for part in _split_colon_labels(segment))


# A spaced dash or middle dot between the items of a sentence-like patient line.
# OCR reads a dash as "-", a middle dot as "+", "»", "«" or "•".
PROSE_SEPARATOR = re.compile(r"(\s+[–—·•»«+-]\s+)")
# A sampling time printed without its date ("Prelievo ore 07:40", "Prélèvement à 07h40").
_TIME_ONLY = re.compile(r"^(.+?)\s+(?:ore|alle|à|a|at|um|h)?\s*(\d{1,2}[:h.]\d{2})$", re.I)


def _prose_segments(text: str) -> list[str]:
    """A patient block written as prose, its items between spaced dashes ("Sig. ROSSI MARIO –
    nato il 12/04/1958 a Napoli – Sesso: M", "Accettazione n. 1187 del 14/03/2025 – Prelievo
    ore 07:40"): cut before each item that starts with a label, so each label reads its own
    item. A sampling time printed alone takes the date the line printed before it."""
    if " : " not in text and not PROSE_SEPARATOR.search(text):
        return [text]
    pieces = _colon_separated(PROSE_SEPARATOR.split(text))
    segments = [pieces[0]]
    for separator, piece in zip(pieces[1::2], pieces[2::2]):
        timed = _TIME_ONLY.match(piece)
        if timed and LABELS.get(label_key(timed.group(1))) == "collected":
            date = _first_date_text(" ".join(segments))
            if date:
                segments.append(f"{timed.group(1)} {date} {timed.group(2)}")
                continue
        if split_label(piece)[0] is not None or _UNKNOWN_LABELLED_ITEM.match(piece):
            segments.append(piece)
        else:
            segments[-1] += separator + piece
    return segments


# An item with a label the vocabulary does not list ("Statut : compte rendu complet"): its own
# item, whose colon never hides the label of the item before it.
_UNKNOWN_LABELLED_ITEM = re.compile(r"[^\W\d_][^\W\d_.' \-]{0,30}\s*[:：](?!\d)\s*\S")


def _colon_separated(pieces: list[str]) -> list[str]:
    """The items of a prose line whose dot OCR read as a lone colon ("Reçu le 14/03/2025 à 09:05
    : Édité le 14/03/2025 à 17:05", "Specimen: Blood (EDTA) : Sample No. GB25.0224.41872"): a
    piece cut there when both sides are whole labelled items, a label with its value each (a
    label's own colon has no value before it: "N° de dossier : 2503140412"); the second item's
    label may be one the vocabulary does not list ("Statut : complet")."""
    out = _cut_at_lone_colon(pieces[0])
    for separator, piece in zip(pieces[1::2], pieces[2::2]):
        out += [separator, *_cut_at_lone_colon(piece)]
    return out


def _cut_at_lone_colon(piece: str) -> list[str]:
    head, colon, tail = piece.partition(" : ")
    if not colon:
        return [piece]
    label, value = split_label(head.strip())
    # The tail a whole labelled item too, its label listed or not ("... à 16 h 05 : Statut :
    # compte rendu complet", the dot read as a colon).
    tail_label, tail_value = split_label(tail.strip())
    if label is not None and value and (tail_label is not None and tail_value
                                        or _UNKNOWN_LABELLED_ITEM.match(tail.strip())):
        return [head.strip(), " : ", tail.strip()]
    return [piece]


def _first_date_text(text: str) -> str | None:
    for _, pattern in _DATE_PATTERNS:
        found = pattern.search(text)
        if found:
            return found.group(0)
    return None


def _split_colon_labels(text: str) -> list[str]:
    if ":" not in text:
        return _cut_trailing_label(text)
    tokens = text.split()
    cuts: list[int] = []
    previous_end = -1  # the colon token of the label before: a label starts after it
    for end, token in enumerate(tokens):
        if not token.endswith(":"):
            continue
        for start in range(max(previous_end + 1, _window_start(tokens, end)), end + 1):  # longest first
            if label_key(" ".join(tokens[start:end + 1])[:-1]) in LABELS:
                if start > 0:
                    cuts.append(start)
                previous_end = end
                break
    bounds = [0, *cuts, len(tokens)]
    return [" ".join(tokens[a:b]) for a, b in zip(bounds, bounds[1:])] if cuts else [text]


def _window_start(tokens: list[str], end: int) -> int:
    """The first token a label ending at `end` may start at: four words back, a lone "/" or
    "&" between them counting for none ("DOB / Age / Sex:")."""
    start, words = end, 1
    while start > 0 and words < _MAX_LABEL_WORDS:
        start -= 1
        words += tokens[start] not in ("/", "&")
    return start


# A label's colon; the colon of a clock time ("Collected On 09/13/2025 11:48") is none.
_LABEL_COLON = re.compile(r"[:：](?!\d)|(?<!\d)[:：]")


def _cut_trailing_label(text: str) -> list[str]:
    """A value printed close to the next label, without colons ("24.06.2024 Probenentnahme"
    before that label's own value): cut before the label when a number ends the value."""
    tokens = text.split()
    if len(tokens) < 2 or _last_word(" ".join(tokens[-_MAX_LABEL_WORDS:])) not in _LABEL_ENDS:
        return [text]  # most phrases: no label ends them (one key, not one per tail length)
    for n in range(min(_MAX_LABEL_WORDS, len(tokens) - 1), 0, -1):
        if label_key(" ".join(tokens[-n:])) in LABELS and re.search(r"\d", tokens[-n - 1]):
            return [" ".join(tokens[:-n]), " ".join(tokens[-n:])]
    return [text]


@lru_cache(maxsize=4096)  # asked twice of most phrases (join_split_labels, then metadata._labelled)
def split_label(text: str) -> tuple[str | None, str]:
    """("patient name", "Rahul Sharma") from "Patient Name: Rahul Sharma"; label None if none."""
    colon = _LABEL_COLON.search(text) if ":" in text or "：" in text else None
    if colon:
        head, rest = text[:colon.start()], text[colon.end():]
        key = label_key(head)
        if key in LABELS:
            return key, rest.strip()
        return None, ""
    key = label_key(text)
    if key in LABELS:
        return key, ""
    found = _label_prefix(text)
    if found[0] is None and " / " in text:
        # A label in two languages ("Abizenak, izena / Apellidos, nombre ETXEBARRIA, MIREN",
        # "Jaiotze-data / F. nacimiento 27/01/1954"): the language known after the slash, else
        # the one before it ("Freigabe / Convalida", its value in the next phrase).
        head, tail = text.split(" / ", 1)
        if several_fields(text):
            return None, ""  # "PRELIEVO / VALIDAZIONE": two fields, no label in two languages
        found = split_label(tail)
        if found[0] is None and label_key(head) in LABELS and _TRANSLATION.fullmatch(tail):
            found = label_key(head), ""
    return found


def several_fields(text: str) -> list[str]:
    """The label keys of a label naming several fields, each a label alone, slashed ("PRELIEVO /
    VALIDAZIONE", "Received / Reported"); [] for any other text (a label in two languages names
    one field twice: "Entnahme / Prelievo")."""
    if "/" not in text:
        return []
    keys = [label_key(part.strip(" :：")) for part in SLASH.split(text.strip(" :："))]
    fields = [LABELS.get(key) for key in keys]
    return keys if len(keys) > 1 and None not in fields and len(set(fields)) == len(fields) else []


# The other language's label after a slash: a few words of letters, nothing of a value.
_TRANSLATION = re.compile(r"[^\W\d_][^\W\d_.' \-]{0,40}")


_MAX_LABEL_WORDS = 4
_LABEL_STARTS = {label.split(" ")[0] for label in LABELS}
# A label key's last word, split at spaces and slashes: the same for every tail of a phrase
# (the key's spacing around "/" depends on the whole key, its last word does not).
_KEY_WORDS = re.compile(r"[ /]+")
_LABEL_ENDS = {_KEY_WORDS.split(label)[-1] for label in LABELS}


def _last_word(text: str) -> str:
    return _KEY_WORDS.split(label_key(text))[-1]


def _label_prefix(text: str) -> tuple[str | None, str]:
    """A label printed without a colon before its value ("Name ASHDOWN, PETER", "Sample ID
    LN45369115"): the longest label the phrase starts with, kept only when what follows has
    the shape of that field's value (a date for dates, a sex for gender, a name for names,
    digits for identifiers); a table row ("Specimen Serum") does not."""
    words = text.split()
    if len(words) > 2 and words[0] in _SPECKS:
        words = words[1:]  # "‘ geb. 19.04.1946": a speck OCR read before the label
    if words and (words[0].lower() + " ").startswith(_OCR_LEADING_SIGNS):
        words[0] = "Nº"  # "N? petición 2502180673": the sign as OCR read it
    if len(words) < 2 or label_key(words[0]).split(" ")[0] not in _LABEL_STARTS:
        return None, ""  # most phrases: no label starts them
    for n in range(min(_MAX_LABEL_WORDS, len(words) - 1), 0, -1):
        key = label_key(" ".join(words[:n]))
        if key not in LABELS or words[n - 1] in _OCR_COLONS:
            continue  # no label, or a label with the colon OCR read after it (seen at n - 1)
        if words[n] in _OCR_COLONS and len(words) > n + 1 and \
                fits_beside(LABELS[key], " ".join(words[n + 1:])):
            return key, " ".join(words[n + 1:])  # "Name 3 DUMMY": the colon, as OCR read it
        if value_fits(LABELS[key], " ".join(words[n:])):
            return key, " ".join(words[n:])
        if LABELS[key] == "specimen" and NUMBER_SIGN.match(words[n]) and len(words) > n + 1 \
                and value_fits("specimen", " ".join(words[n + 1:])):
            return key, " ".join(words[n + 1:])  # "Accettazione n. 2024-118833"
        # The longest label printed is the label: "Nom de naissance ROUX" is no "Nom" whose
        # value is "de naissance ROUX".
        return None, ""
    return None, ""


# Marks OCR reads from specks and cell rules, alone before a label: never a label's word.
_SPECKS = {"‘", "’", "'", "`", '"', "|", "!", ",", ";", "¦"}


NUMBER_SIGN = re.compile(r"^(n[°º.o]?|no\.|nr\.?|num\.?|#)$", re.I)


# What OCR makes of the colon after a label, printed apart from the value ("Lab No. 3 X12").
_OCR_COLONS = {"3", ";", "=", "_", "-", ".", ",", "—", "–", "~"}  # also dashes printed as separators


def value_fits(field: str, value: str) -> bool:
    if field in ("dob", "dob_gender", "collected", "reported", "received"):
        return read_date(value) is not None
    if field in ("gender", "age_gender"):
        return read_gender(value) is not None
    if field in ("name", "first_name", "last_name"):
        # Two to five words: "PATIENT INFORMATION" is a block title, not a patient called so.
        # A number sign ends a label, never a name ("ID Card No." beside "Patient").
        return bool(re.fullmatch(r"[^\W\d_](?:[^\W\d_]|[ .,'\-]){1,60}", value)) and \
            2 <= len(value.split()) <= 5 and not _DOCUMENT_WORDS.search(value) and \
            not _LABEL_SIGN.fullmatch(value.split()[-1])
    if field == "specimen":
        return (bool(re.search(r"\d", value)) and len(value.split()) == 1) or \
            dated_number(value) is not None
    return field == "other"


# A number sign that ends a label ("ID Card No.", "Hospital #"); "N." may be a name's initial.
_LABEL_SIGN = re.compile(r"n[°º]|no\.?|nr\.?|num\.?|#", re.I)


# Words of a document's or a block's title, never of a person's name: "Patient Results Report"
# is the page's title, its "Patient" no label.
_DOCUMENT_WORDS = re.compile(r"\b(reports?|results?|summary|information|details|demographics|"
                             r"cumulative|laboratory)\b", re.I)


# A request's number with the date it was made: "1187 del 14/03/2025", "2024-118 du 03/05/2024".
_DATED_NUMBER = re.compile(r"^(\S*\d\S*)\s+(?:del|dell'|du|de|vom|of|dated|from)\s+(.+)$", re.I)


def dated_number(value: str) -> str | None:
    """The number of "<number> del <date>" (the request numbered and dated in one item)."""
    found = _DATED_NUMBER.match(value.strip())
    return found.group(1) if found and read_date(found.group(2)) is not None else None


_SPACES = re.compile(r"\s+")
SLASH = re.compile(r"\s*/\s*")


@lru_cache(maxsize=4096)
def label_key(text: str) -> str:
    key = text.lower().replace(".", " ").replace("_", " ")
    key = _SPACES.sub(" ", key).strip(" -")
    key = SLASH.sub(" / ", key) if "/" in key and "date" not in key else key
    if key in LABELS:
        return key
    signless = _TRAILING_NUMBER_SIGN.sub("", key)
    if signless != key and signless in LABELS:
        return signless  # "Protocolo Nº" as OCR reads it: "Protocolo N?", "Protocolo N*"
    if key.startswith(_OCR_LEADING_SIGNS):
        # "Nº de petición" as OCR reads it: "N2 de petición", "N° de petición"
        return label_key("nº" + key[2:])
    return composed_label(key, LABELS) or key.replace(" / ", "/")


# A number sign after a label, as printed or as OCR reads "Nº".
# OCR may read the sign as two marks ("Protocolo N?*": the º read "?", its underline "*").
_TRAILING_NUMBER_SIGN = re.compile(r"\s+(n[°º?*oe2”\"]{0,2}|nr|no|#)$")
# "Nº" as OCR reads it: a digit 2, a question mark, a star, or the º read as a closing quote.
_OCR_LEADING_SIGNS = ("n2 ", "n? ", "n* ", "n” ", 'n" ')


def join_split_labels(parts: list[tuple[str, Phrase | None]]) -> list[tuple[str, Phrase | None]]:
    """A label OCR cut in two phrases at a wide gap ("N°" || "de demande"): two short phrases,
    neither a label alone, whose joined text is one, become one phrase."""
    joined: list[tuple[str, Phrase | None]] = []
    i = 0
    while i < len(parts):
        text, phrase = parts[i]
        if i + 1 < len(parts) and phrase is not None and parts[i + 1][1] is not None and \
                len(text.split()) <= 2 and split_label(text)[0] is None and \
                split_label(parts[i + 1][0])[0] is None:
            both = f"{text} {parts[i + 1][0]}"
            if label_key(both.rstrip(":： ")) in LABELS:
                joined.append((both, Phrase(phrase.words + parts[i + 1][1].words)))
                i += 2
                continue
        joined.append((text, phrase))
        i += 1
    return joined


def fits_beside(field: str, text: str) -> bool:
    """A value printed beside or under its label: as `value_fits`, and a surname or a given
    name may be one word ("Nom d'usage  FABRE", "COGNOME" over "CAZZANIGA")."""
    return value_fits(field, text) or (field in ("first_name", "last_name") and
                                        re.fullmatch(r"[^\W\d_][\w'\-]+", text) is not None)


def read_gender(text: str) -> str | None:
    for token in re.split(r"[\s/,|()]+", text.lower()):
        token = token.rstrip(".")  # an abbreviation's dot: "weibl.", "masc.", "F."
        if token in ("male", "m", "man"):
            return "male"
        if token in ("female", "f", "woman"):
            return "female"
        if token in ("other", "x", "nonbinary", "non-binary"):
            return "other"
        if token in _GENDER:
            return _GENDER[token]
    return None
