"""Report metadata: patient name, date of birth, gender, lab name, dates, specimen number.

Read from "Label: value" pairs (the value may be the next phrase on the line, after a
lone colon) and from a few layout habits (an unlabelled patient name above "Age :").
Dates become ISO YYYY-MM-DD only when the day and month cannot be confused; an
ambiguous numeric date (4/6/2021) that nothing on the report settles is null, as is an
unreadable one.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from parser import vocabulary
from parser.lines import Line, Phrase, page_lines
from parser.metadata_hints import cumulative_collection, dateline, name_beside_birth, region_date_order, \
    star_birth, starts_birth_line, surname_first_chinese, us_certified
from parser.metadata_lab import find_lab_name
from parser.metadata_labels import composed_label
from parser.locale_forms import DAY_FIRST
from parser.metadata_dates import DATE_PATTERNS as _DATE_PATTERNS, NUMERIC_DATE, date_order, is_iso, \
    order_by_age, printed_date_order, read_date
from parser.models import ResultMetadata
from parser.page import Document
from parser.patient_age import head_age

_LABELS: dict[str, str] = vocabulary.metadata_labels()

_GENDER = {word: sex for table in vocabulary.GENDER_WORDS.values() for sex, words in table.items()
           for word in words}
_TITLES = re.compile(r"^(mr|mrs|ms|miss|mstr|master|baby|dr|prof)\.?\s+", re.I)
# Civilities printed before a patient's name, and the sex each one states ("Dr" states none).
# French "M." is one only on a European report: on others it may be a first initial.
_CIVILITIES = {
    "male": ("mr", "mister", "monsieur", "herr", "sig", "signor", "sig re", "sr", "señor", "senor"),
    "female": ("mrs", "ms", "miss", "madame", "mme", "mademoiselle", "mlle", "frau", "sig ra",
               "signora", "sig na", "signorina", "sra", "señora", "senora", "srta", "señorita"),
}
_CIVILITY_SEX = {word: sex for sex, words in _CIVILITIES.items() for word in words}


def extract_metadata(doc: Document, language: str | None = None) -> ResultMetadata:
    """`language` (parser.language) settles the day/month order of numeric dates when the
    dates themselves do not: French, German, Italian and Spanish reports write the day first;
    else the lab's address may (metadata_hints.region_date_order)."""
    lines = [line for page in doc.pages[:3] for line in page_lines(page)]
    pairs = _whole_name_pairs(labelled_pairs(lines))
    european = language in DAY_FIRST
    order = _settled_order(doc, lines, pairs, european)
    meta = ResultMetadata()
    name_text = _read_pairs(meta, pairs, order, language)
    if meta.patient_first_name is None:
        name, civil = unlabelled_patient_name(lines), civility_name(lines, european)
        if name is None or (civil and civil.endswith(name)):  # "Frau" above the name
            name = civil or name_beside_birth(lines)
        if name:
            meta.patient_first_name, meta.patient_last_name = split_person_name(
                name, surname_first=european, two_surnames=language == "es")
            name_text = name
    if name_text and (chinese := surname_first_chinese(_TITLES.sub("", name_text).strip(), _header_lines(doc, lines))):
        meta.patient_first_name, meta.patient_last_name = chinese
    if meta.gender is None and name_text:
        meta.gender = civility(name_text.split()[0], european=european)
    if meta.dob is None or meta.gender is None:
        birth, sex = star_birth(lines)
        meta.dob = meta.dob or (read_date(birth, order) if birth else None)
        meta.gender = meta.gender or (read_gender(sex) if sex else None)
    if meta.specimen_number is None:
        header = _header_lines(doc, lines, share=0.4)
        if not _prints_specimen_label(header):
            meta.specimen_number = _registration_number(header)
    if meta.date_collected is None and \
            (column := cumulative_collection(lines, lambda text: read_date(text, order, recent=True))):
        meta.date_collected = column[0]
        meta.specimen_number = meta.specimen_number or column[1]
    if meta.date_reported is None and (dated := dateline(lines)):
        meta.date_reported = read_date(dated, order, recent=True)
    if meta.lab_name is None:
        printed = {value for _, value in pairs} | ({name_text.strip()} if name_text else set())
        meta.lab_name = find_lab_name(doc, lines, printed,
                                      lambda text: _split_label(text)[0] is not None)
    # A date whose day and month nothing on the report settles is no date the contract can
    # give: null, never the printed text.
    meta.dob, meta.date_collected, meta.date_reported = (
        value if is_iso(value) else None for value in (meta.dob, meta.date_collected, meta.date_reported))
    return meta


def _settled_order(doc: Document, lines: list[Line], pairs: list[tuple[str, str]],
                   european: bool) -> str | None:
    """Which of day and month a numeric date prints first: told by the labelled dates, else
    the report's language, else the lab's address (two-digit days and months only), else any
    date printed on the report, else the printed age (which order makes the birth date and
    the sampling date give it)."""
    births = [v for f, v in pairs if f in ("dob", "dob_gender")]
    dates = [v for f, v in pairs if f in ("collected", "reported")]
    order = date_order(births + dates)
    if order is None and european:
        return "dmy"
    if order is None:
        # A US address or certificate says month first whatever the padding ("2/6/2025" is
        # the US machine default too); an Indian or UK one says day first only for padded
        # dates ("4/6/2021 11:18:00AM" may be a US-configured system's).
        region = region_date_order(_header_lines(doc, lines)) or us_certified(lines)
        if region == "mdy" or (region == "dmy" and _padded(births + dates)):
            order = region
    if order is None:
        order = printed_date_order([line.text for line in lines])
    if order is None:
        order = order_by_age(births, dates, head_age(doc))
    return order


_REGISTRATION_LABELS = {"reg no", "registration no"}
# A doctor's line: its "Reg. No." is a medical council's ("Chief Pathologist | Reg. No: MCI-7854").
_DOCTOR_LINE = re.compile(r"\b(dr|pathologist|consultant|m\.?d|m\.?b\.?b\.?s|mci|mmc|dmc)\b\.?", re.I)


def _registration_number(header: list[Line]) -> str | None:
    """"Reg. No." numbers the patient's visit when the patient block has no specimen label;
    only in the report's `header` lines, never on a doctor's line."""
    for line in header:
        if "reg" not in line.text.lower() or _DOCTOR_LINE.search(line.text):
            continue  # no such label on the line (the cheap test first), or a doctor's
        for key, _, value in _labelled([line]):
            if key in _REGISTRATION_LABELS and read_date(value) is None:
                return read_identifier(value)
    return None


def _prints_specimen_label(lines: list[Line]) -> bool:
    """A specimen label, read or not ("LAB NO. : hy." as OCR left it): another number is then
    never the specimen's."""
    return any(_LABELS.get(_split_label(part)[0] or "") == "specimen"
               for line in lines for phrase in line.phrases()
               for part in _split_at_labels(phrase.text.strip()))


def _header_lines(doc: Document, lines: list[Line], share: float = 0.25) -> list[Line]:
    first = doc.pages[0]
    return [line for line in lines if line.page == first.number and line.top < share * first.height]


def _padded(values: list[str]) -> bool:
    """Every numeric date among `values` prints two-digit days and months ("04/02/2025"), as a
    day-first country's systems do; "4/6/2021 11:18:00AM" is a US machine default."""
    found = [m for value in values for m in NUMERIC_DATE.finditer(value)]
    return bool(found) and all(len(m.group(1)) == 2 and len(m.group(2)) == 2 for m in found)


def _read_pairs(meta: ResultMetadata, pairs: list[tuple[str, str]], order: str | None,
                language: str | None) -> str | None:
    """Fill `meta` from the labelled pairs, the first value of each field winning; returns
    the printed name, whose civility may state the sex."""
    name_text, european = None, language in DAY_FIRST
    for field, value in pairs:
        if field == "name" and meta.patient_first_name is None:
            first, last = split_person_name(value, surname_first=european,
                                            two_surnames=language == "es")
            if first is not None:  # "N° patient: 2507694" names nobody
                meta.patient_first_name, meta.patient_last_name = first, last
                name_text = value
                _read_after_name(meta, value, order)
        elif field == "first_name" and meta.patient_first_name is None:
            meta.patient_first_name = split_person_name(value)[0]
        elif field == "last_name" and meta.patient_last_name is None:
            _read_last_name(meta, value)
        elif field == "dob" and meta.dob is None:
            meta.dob = read_date(value, order)
            meta.gender = meta.gender or _sex_after_birth(value)
        elif field == "dob_gender":
            _read_birth_and_sex(meta, value, order)
        elif field in ("gender", "age_gender") and meta.gender is None:
            meta.gender = read_gender(value)
        elif field == "lab" and meta.lab_name is None and _lab_value_fits(_first_item(value)):
            meta.lab_name = _first_item(value)
        elif field == "collected" and meta.date_collected is None:
            meta.date_collected = read_date(value, order, recent=True)
        elif field == "reported" and meta.date_reported is None:
            meta.date_reported = read_date(value, order, recent=True)
        elif field == "specimen" and meta.specimen_number is None and dated_number(value):
            meta.specimen_number = dated_number(value)  # "Accettazione n. 1187 del 14/03/2025"
        elif field == "specimen" and meta.specimen_number is None and read_date(value) is None \
                and re.search(r"\d", value):
            # "Accettazione: 13/02/2024" is a date; "Specimen: Blood EDTA" names the sample
            meta.specimen_number = read_identifier(value)
    return name_text


def _read_last_name(meta: ResultMetadata, value: str) -> None:
    first, last = split_person_name(value)
    if last and _surname_run(value.split()):
        meta.patient_last_name = last
        if meta.patient_first_name is None:
            meta.patient_first_name = first  # "Nom : DUPONT Marie"
    else:  # all of it is the surname ("Apellidos: GARCÍA LÓPEZ")
        meta.patient_last_name = _surname_text(value) if first else None


def _read_birth_and_sex(meta: ResultMetadata, value: str, order: str | None) -> None:
    """One label, several fields: "DOB / Sex: 22-Jul-1964 / Female", "04/19/1958 / 66Y / F"."""
    if meta.dob is None:
        meta.dob = read_date(value, order)
    if meta.gender is None:
        meta.gender = read_gender(_without_dates(value))


def _sex_after_birth(value: str) -> str | None:
    """The sex printed right after the birth date, in its value: "22/04/1966 (F)",
    "14.09.1958 (weiblich)"; an age there ("1972-05-12 (52 Y)") states none."""
    rest = [t for t in _without_dates(value).replace("(", " ").replace(")", " ").split()
            if t not in _ITEM_MARKS]  # "27/01/1954 · Emakumea / Mujer": the sex in two languages
    return read_gender(" ".join(rest)) if 1 <= len(rest) <= 2 else None


_ITEM_MARKS = {"·", "/", "–", "—", "|", ","}


def _read_after_name(meta: ResultMetadata, value: str, order: str | None) -> None:
    """What a name's value prints after the name: "Favre-Bulle Nathalie, 11.04.1968, F",
    "MR. SANJAY RAO (42Y/M)": the birth date and the sex, when no label gives them."""
    name = _before_other_label(value)
    tail = value[len(name):] if value.startswith(name) else ""
    sex = _BRACKETED_SEX.search(value)
    if meta.gender is None and sex:
        meta.gender = read_gender(sex.group(1))  # "DOE, JANE (F)": in brackets, no initial
    if not re.search(r"\d", tail):
        return  # no age or date after the name: a lone letter there is an initial
    if meta.dob is None:
        meta.dob = read_date(tail, order)
    if meta.gender is None:
        meta.gender = read_gender(_without_dates(tail))


_BRACKETED_SEX = re.compile(r"\((m|f|male|female)\)", re.I)


def _without_dates(text: str) -> str:
    for _, pattern in _DATE_PATTERNS:
        text = pattern.sub(" ", text)
    return text


def _first_item(value: str) -> str:
    """A lab's name before its address: "Fraser Coast Medical Laboratories · 7455 130 St"."""
    return _PROSE_SEPARATOR.split(value.strip(), maxsplit=1)[0].strip()


def _lab_value_fits(value: str) -> bool:
    """A lab's name under a "Lab:" label; "Processing Lab: D-37/1, TTC MIDC, Navi Mumbai
    400703" is an address."""
    value = value.strip()
    return bool(value) and not re.search(r"\d|[·@]", value) and len(value.split()) <= 8


def _whole_name_pairs(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A report whose only name label is "Nom" or "Nombre" (a first- or last-name label) prints
    the whole name there ("Nom: HARTLEY ROBERT"): with no other name label, a value of several
    words under it is the full name."""
    fields = {f for f, _ in pairs if f in ("name", "first_name", "last_name")}
    if len(fields) != 1 or "name" in fields:
        return pairs
    return [("name", v) if f in fields and len(_before_other_label(v).split()) >= 2 else (f, v)
            for f, v in pairs]


def labelled_pairs(lines: list[Line]) -> list[tuple[str, str]]:
    """(field, value text) for every "Label: value" on the lines, in reading order. A label
    with no value beside it may have it in the line below (a boxed grid prints each label
    above its value)."""
    return [(field, value) for _, field, value in _labelled(lines)]


def _labelled(lines: list[Line]) -> list[tuple[str, str, str]]:
    """(label key, field, value text): labelled_pairs, with the label that was read."""
    pairs = []
    wrapped = _wrapped_label_pairs(lines)
    for index, line in enumerate(lines):
        pairs.extend(wrapped.get(index, []))
        parts = _join_split_labels([(part, phrase if part == phrase.text.strip() else None)
                                    for phrase in line.phrases()
                                    for part in _split_at_labels(phrase.text.strip())])
        phrases = [text for text, _ in parts]
        i = 0
        while i < len(phrases):
            text = phrases[i]
            label, rest = _split_label(text)
            if label is None:
                i += 1
                continue
            value = rest
            if not value:
                # The value is the next phrase, perhaps after a lone ":".
                j = i + 1
                while j < len(phrases) and (phrases[j] in (":", "-", "：") or _ocr_colon(
                        _LABELS[label], phrases[j], phrases[j + 1:j + 2])):
                    j += 1
                beside = phrases[j].lstrip(":：- ").strip() if j < len(phrases) and \
                    _split_label(phrases[j])[0] is None else ""
                below = "" if parts[i][1] is None or text.rstrip().endswith((":", "：")) or \
                    (beside and _fits_beside(_LABELS[label], beside)) else \
                    _value_below(lines, index, parts[i][1], _LABELS[label])
                value = below or beside
                if value and not below and value.endswith(",") and _LABELS[label] == "name" \
                        and j < len(parts) and parts[j][1] is not None:
                    # "RODRÍGUEZ FERREIRA," over "María Cecilia": the name runs on below.
                    value = f"{value} {_value_below(lines, index, parts[j][1], 'name')}".strip()
                elif value and not below and _LABELS[label] == "name" and j < len(parts) \
                        and parts[j][1] is not None:
                    value = f"{value} {_name_run_on(lines, index, parts[j][1])}".strip()
                if value and not below:
                    i = j
                elif not value and j >= len(phrases) and parts[i][1] is not None:
                    value = _value_on_split_line(lines, index, parts[i][1], _LABELS[label])
            if value:
                words = value.split()
                if _ocr_colon(_LABELS[label], words[0], [" ".join(words[1:])]):
                    value = " ".join(words[1:])
                if _LABELS[label] == "name" and _lone_civility(value) and i + 1 < len(phrases) \
                        and _split_label(phrases[i + 1])[0] is None:
                    i += 1  # "MR." apart from the name it stands before, as OCR may read it
                    value = f"{value} {phrases[i]}"
                pairs.append((label, _LABELS[label], value))
            i += 1
    return pairs


def _wrapped_label_pairs(lines: list[Line]) -> dict[int, list[tuple[str, str, str]]]:
    """Labels a grid cell wrapped over two lines, the value printed between them at mid-height
    ("Performing" / "Lab", "Specimen" / "taken", "Received /" / "Reported", as EMR and GP-system
    prints lay out their request boxes): by the index of the value's line, (key, field, value)
    pairs. A slashed label names as many fields as its value has slashed parts."""
    found: dict[int, list[tuple[str, str, str]]] = {}
    for i, line in enumerate(lines):
        for head in line.phrases():
            if len(head.text.split()) > 2 or re.search(r"\d", head.text):
                continue
            for j in range(i + 1, min(i + 3, len(lines))):
                tail = _phrase_below(lines[j], head, line)
                if tail is None:
                    continue
                key = _label_key(f"{head.text} {tail.text}".strip(" :："))
                if key in _LABELS and key != _label_key(head.text.strip(" :：")) or \
                        len(_SLASH.split(key)) > 1 and all(k in _LABELS for k in _SLASH.split(key)):
                    right = max(head.x1, tail.x1)
                    beside = [p for other in lines[i:j + 1] for p in other.phrases() if p.x0 > right]
                    if any(p.x0 < right for other in lines[i + 1:j] for p in other.phrases()):
                        break  # a stacked label column, not one label wrapped
                    if beside:
                        value = min(beside, key=lambda p: p.x0).text.strip()
                        found.setdefault(j, []).extend(_slashed_pairs(key, value))
                break
    return found


def _phrase_below(other: Line, head: Phrase, line: Line) -> Phrase | None:
    """The short phrase of `other` starting at `head`'s column, close below `line`."""
    if other.page != line.page or other.top - line.bottom > 1.5 * line.size or other.top <= line.top:
        return None
    return next((p for p in other.phrases() if abs(p.x0 - head.x0) < line.size
                 and len(p.text.split()) <= 2 and not re.search(r"\d", p.text)), None)


def _slashed_pairs(key: str, value: str) -> list[tuple[str, str, str]]:
    """(key, field, value) of a label, or of each label of "Received / Reported" with the
    value's part in the same place ("11-Mar-2025 14:02 / 12-Mar-2025 13:05")."""
    if key in _LABELS:
        return [(key, _LABELS[key], value)]
    keys, values = _SLASH.split(key), re.split(r"\s+/\s+", value)
    if len(keys) != len(values) or not all(k in _LABELS for k in keys):
        return []
    return [(k, _LABELS[k], v) for k, v in zip(keys, values)]


def _name_run_on(lines: list[Line], index: int, value: Phrase) -> str:
    """The end of a long name its cell wrapped onto the next line (": Mrs. H.M. Chandima
    Dilrukshi" over "Herath"): that line's only phrase, one or two words of letters starting
    under the value's text, nothing in the label column beside it."""
    line = lines[index]
    below = next((other for other in lines[index + 1:index + 3] if other.page == line.page
                  and other.top > (line.top + line.bottom) / 2), None)
    if below is None or below.top - line.bottom > line.size or len(below.phrases()) != 1:
        return ""
    tail = below.phrases()[0]
    text = tail.text.strip()
    if not value.x0 - line.size / 2 <= tail.x0 <= value.x0 + 1.5 * line.size or \
            not 1 <= len(text.split()) <= 2 or not _letters_name(text) or not text[0].isupper() \
            or _split_label(text)[0] is not None or "," in value.text:
        return ""
    return text


def _fits_beside(field: str, text: str) -> bool:
    """A value printed beside or under its label: as `_value_fits`, and a surname or a given
    name may be one word ("Nom d'usage  FABRE", "COGNOME" over "CAZZANIGA")."""
    return _value_fits(field, text) or (field in ("first_name", "last_name") and
                                        re.fullmatch(r"[^\W\d_][\w'\-]+", text) is not None)


def _value_on_split_line(lines: list[Line], index: int, label: Phrase, field: str) -> str:
    """The value of a label that ends its line, when OCR made two lines of one ("Prélèvement"
    and ": 23.09.2024 08:05 Réception : ..." at the same height): the start of the other
    line's first phrase, up to the next label, when it has the field's shape."""
    line = lines[index]
    for other in lines[max(0, index - 2):index + 3]:
        if other is line or other.page != line.page or abs(other.top - line.top) > 0.3 * line.size:
            continue
        phrases = other.phrases()
        # Right of the label (OCR boxes may overlap it a little) and close to it.
        if phrases and phrases[0].x0 > (label.x0 + label.x1) / 2 and phrases[0].x0 - label.x1 < 3 * line.size:
            text = split_at_labels(phrases[0].text.strip())[0].lstrip(":：- ").strip()
            if field in _SHAPED_FIELDS and _split_label(text)[0] is None and _value_fits(field, text):
                return text
    return ""


def _lone_civility(value: str) -> bool:
    words = value.split()
    return len(words) == 1 and (civility(words[0]) is not None or _TITLES.match(words[0] + " ") is not None)


# Fields whose value can be told by its shape alone, so may be read under their label.
_SHAPED_FIELDS = ("name", "first_name", "last_name", "dob", "collected", "reported", "gender",
                  "age_gender", "dob_gender", "specimen")


def _value_below(lines: list[Line], index: int, label: Phrase, field: str) -> str:
    """The value printed under a label that stands alone ("Patient Name" over "SMITH, JOHN A"
    in a boxed grid, "SEX" over "Female" in a header row): the phrase of the next line below
    that shares the label's column, when it has the shape of the field's value."""
    if field not in _SHAPED_FIELDS:
        return ""
    line = lines[index]
    below = next((other for other in lines[index + 1:index + 4] if other.page == line.page
                  and other.top > (line.top + line.bottom) / 2), None)
    if below is None or below.top - line.bottom > 1.5 * line.size:
        return ""
    column = [p for p in below.phrases() if min(p.x1, label.x1) - max(p.x0, label.x0) > 0
              or abs(p.x0 - label.x0) < line.size]
    if len(column) != 1:
        return ""  # no phrase, or several: not one label's value
    text = column[0].text.strip()
    if _split_label(text)[0] is not None or not _fits_beside(field, text):
        return ""
    return text


def _ocr_colon(field: str, token: str, rest: list[str]) -> bool:
    """Is `token`, after a name's or a specimen number's label, the label's colon as OCR read
    it ("Name  3  DUMMY", "Lab No.  3 DUMMYS056"): a colon look-alike with the field's value
    after it (a name never starts with a digit; an identifier is one token)."""
    if field not in ("name", "first_name", "last_name", "specimen") or token not in _OCR_COLONS \
            or not rest or not rest[0]:
        return False
    if field == "specimen":
        return _value_fits(field, rest[0])
    return bool(re.fullmatch(r"[A-Za-z][A-Za-z .,'\-]{1,60}", rest[0])) and len(rest[0].split()) <= 5


def split_at_labels(text: str) -> list[str]:
    """A phrase holding several "Label: value" pairs printed with single spaces, cut before
    each later known label: "Apellidos: GARCÍA Doctor: DR LÓPEZ" -> two phrases."""
    return list(_split_at_labels(text))


@lru_cache(maxsize=4096)  # asked twice of many phrases (the header's again: _prints_specimen_label)
def _split_at_labels(text: str) -> tuple[str, ...]:
    return tuple(part for segment in _prose_segments(text) for part in _split_colon_labels(segment))


# A spaced dash or middle dot between the items of a sentence-like patient line.
_PROSE_SEPARATOR = re.compile(r"(\s+[–—·-]\s+)")  # OCR reads a dash as "-"
# A sampling time printed without its date ("Prelievo ore 07:40", "Prélèvement à 07h40").
_TIME_ONLY = re.compile(r"^(.+?)\s+(?:ore|alle|à|a|at|um|h)?\s*(\d{1,2}[:h.]\d{2})$", re.I)


def _prose_segments(text: str) -> list[str]:
    """A patient block written as prose, its items between spaced dashes ("Sig. ROSSI MARIO –
    nato il 12/04/1958 a Napoli – Sesso: M", "Accettazione n. 1187 del 14/03/2025 – Prelievo
    ore 07:40"): cut before each item that starts with a label, so each label reads its own
    item. A sampling time printed alone takes the date the line printed before it."""
    if not _PROSE_SEPARATOR.search(text):
        return [text]
    pieces = _PROSE_SEPARATOR.split(text)
    segments = [pieces[0]]
    for separator, piece in zip(pieces[1::2], pieces[2::2]):
        timed = _TIME_ONLY.match(piece)
        if timed and _LABELS.get(_label_key(timed.group(1))) == "collected":
            date = _first_date_text(" ".join(segments))
            if date:
                segments.append(f"{timed.group(1)} {date} {timed.group(2)}")
                continue
        if _split_label(piece)[0] is not None:
            segments.append(piece)
        else:
            segments[-1] += separator + piece
    return segments


def _first_date_text(text: str) -> str | None:
    for _, pattern in _DATE_PATTERNS:
        found = pattern.search(text)
        if found:
            return found.group(0)
    return None


def _split_colon_labels(text: str) -> list[str]:
    if ":" not in text:
        return tuple(_cut_trailing_label(text))
    tokens = text.split()
    cuts: list[int] = []
    previous_end = -1  # the colon token of the label before: a label starts after it
    for end, token in enumerate(tokens):
        if not token.endswith(":"):
            continue
        for start in range(max(previous_end + 1, _window_start(tokens, end)), end + 1):  # longest first
            if _label_key(" ".join(tokens[start:end + 1])[:-1]) in _LABELS:
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
        if _label_key(" ".join(tokens[-n:])) in _LABELS and re.search(r"\d", tokens[-n - 1]):
            return [" ".join(tokens[:-n]), " ".join(tokens[-n:])]
    return [text]


@lru_cache(maxsize=4096)  # asked twice of most phrases (_join_split_labels, then _labelled)
def _split_label(text: str) -> tuple[str | None, str]:
    """("patient name", "Rahul Sharma") from "Patient Name: Rahul Sharma"; label None if none."""
    colon = _LABEL_COLON.search(text) if ":" in text or "：" in text else None
    if colon:
        head, rest = text[:colon.start()], text[colon.end():]
        key = _label_key(head)
        if key in _LABELS:
            return key, rest.strip()
        return None, ""
    key = _label_key(text)
    if key in _LABELS:
        return key, ""
    found = _label_prefix(text)
    if found[0] is None and " / " in text:
        # A label in two languages ("Abizenak, izena / Apellidos, nombre ETXEBARRIA, MIREN",
        # "Jaiotze-data / F. nacimiento 27/01/1954"): the language known after the slash.
        found = _split_label(text.split(" / ", 1)[1])
    return found


_MAX_LABEL_WORDS = 4
_LABEL_STARTS = {label.split(" ")[0] for label in _LABELS}
# A label key's last word, split at spaces and slashes: the same for every tail of a phrase
# (the key's spacing around "/" depends on the whole key, its last word does not).
_KEY_WORDS = re.compile(r"[ /]+")
_LABEL_ENDS = {_KEY_WORDS.split(label)[-1] for label in _LABELS}


def _last_word(text: str) -> str:
    return _KEY_WORDS.split(_label_key(text))[-1]


def _label_prefix(text: str) -> tuple[str | None, str]:
    """A label printed without a colon before its value ("Name ASHDOWN, PETER", "Sample ID
    LN45369115"): the longest label the phrase starts with, kept only when what follows has
    the shape of that field's value (a date for dates, a sex for gender, a name for names,
    digits for identifiers); a table row ("Specimen Serum") does not."""
    words = text.split()
    if len(words) < 2 or _label_key(words[0]).split(" ")[0] not in _LABEL_STARTS:
        return None, ""  # most phrases: no label starts them
    for n in range(min(_MAX_LABEL_WORDS, len(words) - 1), 0, -1):
        key = _label_key(" ".join(words[:n]))
        if key not in _LABELS or words[n - 1] in _OCR_COLONS:
            continue  # no label, or a label with the colon OCR read after it (seen at n - 1)
        if words[n] in _OCR_COLONS and len(words) > n + 1 and \
                _fits_beside(_LABELS[key], " ".join(words[n + 1:])):
            return key, " ".join(words[n + 1:])  # "Name 3 DUMMY": the colon, as OCR read it
        if _value_fits(_LABELS[key], " ".join(words[n:])):
            return key, " ".join(words[n:])
        if _LABELS[key] == "specimen" and _NUMBER_SIGN.match(words[n]) and len(words) > n + 1 \
                and _value_fits("specimen", " ".join(words[n + 1:])):
            return key, " ".join(words[n + 1:])  # "Accettazione n. 2024-118833"
        # The longest label printed is the label: "Nom de naissance ROUX" is no "Nom" whose
        # value is "de naissance ROUX".
        return None, ""
    return None, ""


_NUMBER_SIGN = re.compile(r"^(n[°º.o]?|no\.|nr\.?|num\.?|#)$", re.I)


# What OCR makes of the colon after a label, printed apart from the value ("Lab No. 3 X12").
_OCR_COLONS = {"3", ";", "=", "_", "-", ".", ",", "—", "–", "~"}  # also dashes printed as separators


def _value_fits(field: str, value: str) -> bool:
    if field in ("dob", "dob_gender", "collected", "reported"):
        return read_date(value) is not None
    if field in ("gender", "age_gender"):
        return read_gender(value) is not None
    if field in ("name", "first_name", "last_name"):
        # Two to five words: "PATIENT INFORMATION" is a block title, not a patient called so.
        return bool(re.fullmatch(r"[^\W\d_](?:[^\W\d_]|[ .,'\-]){1,60}", value)) and 2 <= len(value.split()) <= 5
    if field == "specimen":
        return (bool(re.search(r"\d", value)) and len(value.split()) == 1) or \
            dated_number(value) is not None
    return field == "other"


# A request's number with the date it was made: "1187 del 14/03/2025", "2024-118 du 03/05/2024".
_DATED_NUMBER = re.compile(r"^(\S*\d\S*)\s+(?:del|dell'|du|de|vom|of|dated|from)\s+(.+)$", re.I)


def dated_number(value: str) -> str | None:
    """The number of "<number> del <date>" (the request numbered and dated in one item)."""
    found = _DATED_NUMBER.match(value.strip())
    return found.group(1) if found and read_date(found.group(2)) is not None else None


_SPACES = re.compile(r"\s+")
_SLASH = re.compile(r"\s*/\s*")


@lru_cache(maxsize=4096)
def _label_key(text: str) -> str:
    key = text.lower().replace(".", " ").replace("_", " ")
    key = _SPACES.sub(" ", key).strip(" -")
    key = _SLASH.sub(" / ", key) if "/" in key and "date" not in key else key
    if key in _LABELS:
        return key
    signless = _TRAILING_NUMBER_SIGN.sub("", key)
    if signless != key and signless in _LABELS:
        return signless  # "Protocolo Nº" as OCR reads it: "Protocolo N?", "Protocolo N*"
    return composed_label(key, _LABELS) or key.replace(" / ", "/")


# A number sign after a label, as printed or as OCR reads "Nº".
_TRAILING_NUMBER_SIGN = re.compile(r"\s+(n[°º?*oe]?|nr|no|#)$")


def _join_split_labels(parts: list[tuple[str, Phrase | None]]) -> list[tuple[str, Phrase | None]]:
    """A label OCR cut in two phrases at a wide gap ("N°" || "de demande"): two short phrases,
    neither a label alone, whose joined text is one, become one phrase."""
    joined: list[tuple[str, Phrase | None]] = []
    i = 0
    while i < len(parts):
        text, phrase = parts[i]
        if i + 1 < len(parts) and phrase is not None and parts[i + 1][1] is not None and \
                len(text.split()) <= 2 and _split_label(text)[0] is None and \
                _split_label(parts[i + 1][0])[0] is None:
            both = f"{text} {parts[i + 1][0]}"
            if _label_key(both.rstrip(":： ")) in _LABELS:
                joined.append((both, Phrase(phrase.words + parts[i + 1][1].words)))
                i += 2
                continue
        joined.append((text, phrase))
        i += 1
    return joined


def split_person_name(text: str, *, surname_first: bool = False,
                      two_surnames: bool = False) -> tuple[str | None, str | None]:
    """(first, last) of a printed name. `surname_first`: a European report, whose systems print
    "DUPONT MARIE" surname first when the whole name is in capitals. `two_surnames`: a Spanish
    report, where a person bears two surnames after the given names ("GUADALUPE HERNÁNDEZ
    RAMÍREZ", "María Laura Gómez Pérez")."""
    text = re.split(r"\s{2,}|\b(age|sex|gender|dob)\b", text, maxsplit=1, flags=re.I)[0]
    text = _PROSE_SEPARATOR.split(text, maxsplit=1)[0]  # "ROSSI MARIO – Acc. n. 1187"
    text = _BRACKETED_SEX.sub(" ", _before_other_label(text))
    text = _TITLES.sub("", " ".join(text.split())).strip(" ,;")
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
    run = _surname_run(tokens)
    if run:  # "DE LA CRUZ Maria", "HERNÁNDEZ RAMÍREZ Guadalupe"
        return tokens[run], " ".join(tokens[:run])
    if surname_first and len(tokens) == 2 and text.isupper():
        return tokens[1], tokens[0]
    if two_surnames and len(tokens) in (3, 4):
        return tokens[0], " ".join(tokens[-2:])
    if surname_first and len(tokens) == 3 and text.isupper():
        # "GASPERONI MARIA LUISA", "DE LUCA MARIO": an Italian, French or German system prints
        # the surname first and all the given names after it (a particle begins a surname).
        run = 2 if tokens[0].lower() in _SURNAME_PARTICLES else 1
        return " ".join(tokens[run:]), " ".join(tokens[:run])
    return tokens[0], tokens[-1]


_INITIALS = re.compile(r"(?:[A-Z]\.){2,4}")
_SURNAME_PARTICLES = {"de", "di", "da", "del", "della", "dal", "la", "le", "lo", "du", "van", "von",
                      "zu", "dos", "das", "d'"}


def civility(token: str, *, european: bool = False) -> str | None:
    """The sex a civility states ("Madame", "Sig.ra", "Herr"); None for any other word."""
    key = " ".join(token.lower().replace(".", " ").split())  # "Sig.ra" -> "sig ra"
    if key == "m" and token.endswith(".") and european:
        return "male"
    return _CIVILITY_SEX.get(key)


def _surname_text(text: str) -> str | None:
    """The whole printed surname under a surname label, without what follows it."""
    text = re.split(r"\s{2,}", text, maxsplit=1)[0]
    return _TITLES.sub("", _before_other_label(text)).strip(" ,;") or None


def _surname_run(tokens: list[str]) -> int:
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


def _before_other_label(text: str) -> str:
    """A name value ends where another label, a number or a time begins ("Jane Doe MRN 123",
    "Jane Doe 10:47 am"): a label or a clock time is never part of a person's name."""
    kept: list[str] = []
    for token in text.split():
        bare = token.strip(":#.,").lower()
        # A label ends the name only after it: a name may begin with a label's word
        # ("Nombre: PACIENTE PRUEBA").
        if re.search(r"\d", token) or (kept and (bare in _LABELS or bare in ("am", "pm"))):
            break
        kept.append(token)
    return " ".join(kept)


def read_gender(text: str) -> str | None:
    for token in re.split(r"[\s/,|()]+", text.lower()):
        if token in ("male", "m", "man"):
            return "male"
        if token in ("female", "f", "woman"):
            return "female"
        if token in ("other", "x", "nonbinary", "non-binary"):
            return "other"
        if token in _GENDER:
            return _GENDER[token]
    return None


def read_identifier(text: str) -> str | None:
    tokens = text.split()
    token = tokens[0] if tokens else ""
    token = token.strip(" :#,;|‘’'\"`“”")  # "|S87561601": a cell's rule (or a speck) read by OCR
    token = re.sub(r"^\$(?=\d)", "S", token)  # OCR reads a leading S as '$': never in a number
    if _LETTER_PREFIX.fullmatch(token) and len(tokens) > 1 and _DIGIT_GROUP.fullmatch(tokens[1]):
        # "CH 0206 12": an accession printed as a section's letters and groups of digits.
        groups = list(itertools.takewhile(_DIGIT_GROUP.fullmatch, tokens[1:4]))
        return " ".join([token, *groups])
    return token if re.search(r"\d", token) or len(token) >= 4 else None


_LETTER_PREFIX = re.compile(r"[A-Z]{1,3}")
_DIGIT_GROUP = re.compile(r"\d{1,8}")


def unlabelled_patient_name(lines: list[Line]) -> str | None:
    """A name printed without a label: directly above "Age :" / "Sex :" at the same indent,
    or directly below a "Patient Information" block title."""
    return _name_below_patient_title(lines) or _name_above_age(lines)


_PATIENT_TITLE = re.compile(r"patient\s*(information|info|details|demographics|data)?\s*:?", re.I)


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
                if _letters_name(" ".join(tokens[1:])) and len(tokens) <= 5:
                    return phrase.text.strip()
                continue
            below = [l for l in lines[i + 1:i + 3] if l.page == line.page
                     and l.top - line.bottom < 1.5 * line.size]
            for other in below[:1]:
                for candidate in other.phrases():
                    if abs(candidate.x0 - phrase.x0) < 4 and _letters_name(candidate.text) \
                            and 1 < len(candidate.text.split()) <= 4:
                        return f"{tokens[0]} {candidate.text.strip()}"
    return None


# Words a civility may sit before that show the person is no patient ("Monsieur le Docteur").
_NOT_PATIENT = {"le", "la", "docteur", "dr", "dr.", "doktor", "dott.", "dott", "dottore", "prof."}


def _letters_name(text: str) -> bool:
    """Words of letters (accented ones too) and name punctuation, none of them a title or an
    article ("le Docteur"); callers bound the number of words."""
    text = text.strip()
    return bool(text) and text[0].isalpha() and all(c.isalpha() or c in " .,'-" for c in text) \
        and not {t.lower() for t in text.split()} & _NOT_PATIENT


def _name_like(text: str) -> bool:
    text = text.strip()
    return ":" not in text and not re.search(r"\d", text) and 1 <= len(text.split()) <= 5 \
        and bool(re.fullmatch(r"[A-Za-z][A-Za-z .,'\-]+", text))


# Words of a block's title, printed where a name could be ("Patient Details" over "DOB: ...").
_BLOCK_TITLE = re.compile(r"\b(patient|details|information|info|demographics|report|specimen|"
                          r"physician|doctor|order|sample|client|account)\b", re.I)


def _name_above_age(lines: list[Line]) -> str | None:
    for i, line in enumerate(lines):
        phrases = line.phrases()
        if not phrases or not (re.match(r"^(age|sex|gender)\b\s*:?", phrases[0].text, re.I)
                               or starts_birth_line(phrases[0].text)):
            continue
        # Above: its middle above this line's top (an OCR box made tall by a barcode beside
        # the name may reach down into the "Age" line).
        above = [l for l in lines[:i] if l.page == line.page and (l.top + l.bottom) / 2 < line.top
                 and abs(l.x0 - line.x0) < 4 and line.top - l.bottom < 3 * line.size]
        if not above:
            continue
        candidates = max(above, key=lambda l: l.bottom).phrases()
        if not candidates:
            continue
        text = candidates[0].text.strip()
        if text.endswith(",") and len(candidates) > 1:  # "Kowalski," || "Dariusz": a gap OCR kept
            text = f"{text} {candidates[1].text.strip()}"
        if _letters_name(text) and 1 <= len(text.split()) <= 5 and not _BLOCK_TITLE.search(text) \
                and _split_label(text)[0] is None:
            return text
    return None
