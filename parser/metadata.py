"""Report metadata: patient name, date of birth, gender, lab name, dates, specimen number.

Read from "Label: value" pairs (the value may be the next phrase on the line, after a
lone colon) and from a few layout habits (an unlabelled patient name above "Age :").
Dates become ISO YYYY-MM-DD only when the day and month cannot be confused; an
ambiguous numeric date (4/6/2021) that nothing on the report settles is null, as is an
unreadable one. Label text is cut and read in parser.metadata_split, patient names in
parser.metadata_names.
"""

from __future__ import annotations

import itertools
import re

from parser.lines import Line, Phrase, page_lines
from parser.locale_forms import DAY_FIRST
from parser.metadata_dates import DATE_PATTERNS as _DATE_PATTERNS, NUMERIC_DATE, date_order, dotted_order, is_iso, \
    order_by_age, printed_date_order, read_date
from parser.metadata_hints import collection_column, cumulative_collection, dateline, name_beside_birth, region_date_order, \
    star_birth, surname_first_chinese, us_certified
from parser.metadata_captions import captions_under, value_above
from parser.metadata_lab import LAB_WORDS, find_lab_name
from parser.metadata_labels import declared_name_order, print_label
from parser.metadata_names import BRACKETED_SEX, TITLES, before_other_label, civility, civility_name, \
    letters_name, split_person_name, surname_run, surname_text, unlabelled_patient_name
from parser.metadata_split import LABELS, NUMBER_SIGN, PROSE_SEPARATOR, SLASH, dated_number, fits_beside, \
    join_split_labels, label_key, label_parts, ocr_colon, read_gender, several_fields, split_label, value_fits
from parser.models import ResultMetadata
from parser.page import Document
from parser.patient_age import head_age


def extract_metadata(doc: Document, language: str | None = None) -> ResultMetadata:
    """`language` (parser.language) settles the day/month order of numeric dates when the
    dates themselves do not: French, German, Italian and Spanish reports write the day first;
    else the lab's address may (metadata_hints.region_date_order)."""
    lines = [line for page in doc.pages[:3] for line in page_lines(page)]
    keyed = _labelled(lines)
    pairs = _surname_beside_given(_whole_name_pairs(_printed_apart(keyed)))
    european = language in DAY_FIRST
    order = _settled_order(doc, lines, pairs, european)
    meta = ResultMetadata()
    declared = next((declared_name_order(key) for key, field, _ in keyed if field == "name"), None)
    name_text, received = _read_pairs(meta, pairs, order, language, declared)
    if meta.patient_first_name is None:
        name, civil = unlabelled_patient_name(lines), civility_name(lines, european)
        if name is None or (civil and civil.endswith(name)):  # "Frau" above the name
            name = civil or name_beside_birth(lines)
        if name:
            meta.patient_first_name, meta.patient_last_name = split_person_name(
                name, surname_first=european, two_surnames=language == "es")
            name_text = name
    if name_text and (chinese := surname_first_chinese(TITLES.sub("", name_text).strip(), _header_lines(doc, lines))):
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
    if meta.date_collected is None and (column := cumulative_collection(lines, order)):
        meta.date_collected = column[0]
        meta.specimen_number = meta.specimen_number or column[1]
    if meta.date_collected is None:
        meta.date_collected = collection_column(lines, order)
    # A report printing no sampling date dates the sample by its receipt or the patient's
    # visit (README of fixtures/reallike: every report's expected sampling date is one of these).
    meta.date_collected = meta.date_collected or received
    if meta.date_reported is None:
        meta.date_reported = dateline(lines, order)
    if meta.lab_name is None:
        printed = {value for _, value in pairs} | ({name_text.strip()} if name_text else set())
        meta.lab_name = find_lab_name(doc, lines, printed,
                                      lambda text: split_label(text)[0] is not None)
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
    the sampling date give it), else the dates' dots (dotted_order)."""
    births = [v for f, v in pairs if f in ("dob", "dob_gender")]
    dates = [v for f, v in pairs if f in ("collected", "reported", "printed", "received")]
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
    return order or dotted_order(births + dates)


# The request's registration number, in English and Spanish ("Nº de registro: 0314/12").
_REGISTRATION_LABELS = {"reg no", "registration no", "nº de registro", "n° de registro", "nº registro",
                        "n° registro", "número de registro", "registro", "n° d'enregistrement",
                        "n° enregistrement", "nº d'enregistrement", "n registrazione", "n° registrazione",
                        "numero registrazione"}
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
    return any(LABELS.get(split_label(part)[0] or "") == "specimen"
               for line in lines for phrase in line.phrases()
               for part in label_parts(phrase.text.strip()))


def _header_lines(doc: Document, lines: list[Line], share: float = 0.25) -> list[Line]:
    first = doc.pages[0]
    return [line for line in lines if line.page == first.number and line.top < share * first.height]


def _padded(values: list[str]) -> bool:
    """Every numeric date among `values` prints two-digit days and months ("04/02/2025"), as a
    day-first country's systems do; "4/6/2021 11:18:00AM" is a US machine default."""
    found = [m for value in values for m in NUMERIC_DATE.finditer(value)]
    return bool(found) and all(len(m.group(1)) == 2 and len(m.group(2)) == 2 for m in found)


def _read_pairs(meta: ResultMetadata, pairs: list[tuple[str, str]], order: str | None,
                language: str | None, declared: str | None) -> tuple[str | None, str | None]:
    """Fill `meta` from the labelled pairs, the first value of each field winning; returns
    the printed name, whose civility may state the sex, and the date the sample was received
    (or the patient's visit). `declared`: the name's order its label states."""
    name_text, european, printed, received = None, language in DAY_FIRST, None, None
    for field, value in pairs:
        if field == "name" and meta.patient_first_name is None:
            first, last = split_person_name(value, surname_first=european,
                                            two_surnames=language == "es", declared=declared)
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
        elif field == "lab" and meta.lab_name is None and _lab_value_fits(lab := _first_item(value)):
            meta.lab_name = lab
        elif field == "collected" and meta.date_collected is None:
            meta.date_collected = read_date(value, order, recent=True)
        elif field == "reported" and meta.date_reported is None:
            meta.date_reported = read_date(value, order, recent=True)
        elif field == "printed" and printed is None:
            printed = read_date(value, order, recent=True)
        elif field == "received" and received is None:
            received = read_date(value, order, recent=True)
        elif field == "specimen" and meta.specimen_number is None and (number := dated_number(value)):
            meta.specimen_number = number  # "Accettazione n. 1187 del 14/03/2025"
        elif field == "specimen" and meta.specimen_number is None and read_date(value) is None \
                and re.search(r"\d", value) and not _CLOCK_TIME.match(value):
            # "Accettazione: 13/02/2024" is a date; "Specimen: Blood EDTA" names the sample;
            # "Accettazione 7:30-10:30" in a letterhead gives the desk's opening hours
            meta.specimen_number = read_identifier(value)
    meta.date_reported = meta.date_reported or printed  # the print date when no other is printed
    if meta.dob is None:
        meta.dob = next((born for _, value in pairs if (born := _bracketed_birth(value, order))), None)
    return name_text, received


_BRACKETS = re.compile(r"\(([^()]+)\)")


def _bracketed_birth(value: str, order: str | None) -> str | None:
    """A birth date printed with its own label in brackets inside another field's value
    ("Age/Sex: 39 Y / F (DOB 14-Feb-1986)", "Âge : 45 ans (né le 12/03/1980)")."""
    for inner in _BRACKETS.findall(value):
        label, rest = split_label(inner.strip())
        if label is not None and LABELS[label] == "dob" and rest:
            return read_date(rest, order)
    return None


# A dotted (or underscored) leader printed as its own phrase between a label and its value.
_LEADER = re.compile(r"[.·…_:\-]{3,}|(?:[.·_] ){2,}[.·_]")
_CLOCK_TIME = re.compile(r"\d{1,2}[:.h]\d{2}(?!\d)(?:\s*[-–]\s*\d{1,2}[:.h]\d{2})?(?:\s|$)")


def _printed_apart(keyed: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(field, value) pairs, a print date's ("Imprimé le", "RUN DATE", "Printed:") told apart
    as "printed": printed the day after the report, or days after, it is the report's date only
    where the report prints no other."""
    return [("printed" if field == "reported" and print_label(key) else field, value)
            for key, field, value in keyed]


def _read_last_name(meta: ResultMetadata, value: str) -> None:
    first, last = split_person_name(value)
    if last and surname_run(value.split()):
        meta.patient_last_name = last
        if meta.patient_first_name is None:
            meta.patient_first_name = first  # "Nom : DUPONT Marie"
    else:  # all of it is the surname ("Apellidos: GARCÍA LÓPEZ")
        meta.patient_last_name = surname_text(value) if first else None


def _read_birth_and_sex(meta: ResultMetadata, value: str, order: str | None) -> None:
    """One label, several fields: "DOB / Sex: 22-Jul-1964 / Female", "04/19/1958 / 66Y / F"."""
    if meta.dob is None:
        meta.dob = read_date(value, order)
    if meta.gender is None:
        meta.gender = read_gender(_without_dates(value))


def _sex_after_birth(value: str) -> str | None:
    """The sex printed right after the birth date, in its value: "22/04/1966 (F)",
    "14.09.1958 (weiblich)", after the age in brackets ("02/03/1957 (68 años) · Mujer"); an
    age alone there ("1972-05-12 (52 Y)") states none."""
    rest = [t for t in _BRACKETED_AGE.sub(" ", _without_dates(value)).replace("(", " ").replace(")", " ").split()
            if t not in _ITEM_MARKS]  # "27/01/1954 · Emakumea / Mujer": the sex in two languages
    return read_gender(" ".join(rest)) if 1 <= len(rest) <= 2 else None


_ITEM_MARKS = {"·", "/", "–", "—", "|", ",", "-"}  # "-": a dash or a dot as OCR reads it
# The age in brackets after a birth date ("(68 años)", "(66 J.)", "(52 Y)"): a number, so no sex.
_BRACKETED_AGE = re.compile(r"\(\s*\d[^()]*\)")


def _read_after_name(meta: ResultMetadata, value: str, order: str | None) -> None:
    """What a name's value prints after the name: "Favre-Bulle Nathalie, 11.04.1968, F",
    "MR. SANJAY RAO (42Y/M)": the birth date and the sex, when no label gives them."""
    name = before_other_label(value)
    tail = value[len(name):] if value.startswith(name) else ""
    sex = BRACKETED_SEX.search(value)
    if meta.gender is None and sex:
        meta.gender = read_gender(sex.group(1))  # "DOE, JANE (F)": in brackets, no initial
    if not re.search(r"\d", tail):
        return  # no age or date after the name: a lone letter there is an initial
    if meta.dob is None:
        meta.dob = read_date(tail, order)
    if meta.gender is None:
        meta.gender = read_gender(_without_dates(tail))


def _without_dates(text: str) -> str:
    for _, pattern in _DATE_PATTERNS:
        text = pattern.sub(" ", text)
    return text


def _first_item(value: str) -> str:
    """A lab's name before its address: "Fraser Coast Medical Laboratories · 7455 130 St"."""
    return PROSE_SEPARATOR.split(value.strip(), maxsplit=1)[0].strip()


def _lab_value_fits(value: str) -> bool:
    """A lab's name under a "Lab:" label; "Processing Lab: D-37/1, TTC MIDC, Navi Mumbai
    400703" is an address."""
    value = value.strip()
    return bool(value) and not re.search(r"\d|[·@]", value) and len(value.split()) <= 8 \
        and not _REPORT_WORD.fullmatch(value) and not _sentence_without_lab_word(value)


def _sentence_without_lab_word(value: str) -> bool:
    """"Labor: Teilnahme an Ringversuchen nach RiliBÄK" states the lab's quality scheme: words
    joined by small lower-case words, none a lab's word, are a sentence, no lab's name."""
    return not LAB_WORDS.search(value) and any(word.islower() for word in value.split()[1:])


# The page's title "LABORATORY  REPORT" (letter-spaced, read as two phrases) is no "Laboratory"
# label with its value: a report's own word is no lab's name.
_REPORT_WORD = re.compile(r"reports?|results?|r[ée]sultats?|risultati|resultados?|befunde?|rapport|"
                          r"referto|informe|bericht", re.I)


def _whole_name_pairs(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A report whose only name label is "Nom" or "Nombre" (a first- or last-name label) prints
    the whole name there ("Nom: HARTLEY ROBERT"): with no other name label, a value of several
    words under it is the full name."""
    fields = {f for f, _ in pairs if f in ("name", "first_name", "last_name")}
    if len(fields) != 1 or "name" in fields:
        return pairs
    return [("name", v) if f in fields and len(before_other_label(v).split()) >= 2 else (f, v)
            for f, v in pairs]


def _surname_beside_given(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A report that labels the given name apart ("Vorname: Anna", "First name: Jane") prints
    the surname under a plain name label ("Name: Müller", "Name: SMITH"): a one-word value
    there is the surname, never a given name."""
    if not any(f == "first_name" for f, _ in pairs):
        return pairs
    return [("last_name", v) if f == "name" and len(before_other_label(v).split()) == 1 else (f, v)
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
    upward = captions_under(lines)
    for index, line in enumerate(lines):
        pairs.extend(wrapped.get(index, []))
        parts = join_split_labels([(part, phrase if part == phrase.text.strip() else None)
                                    for phrase in line.phrases()
                                    for part in label_parts(phrase.text.strip())])
        phrases = [text for text, _ in parts]
        i = 0
        while i < len(phrases):
            text = phrases[i]
            label, rest = split_label(text)
            if label is None:
                found, i = _several_fields_pairs(lines, index, parts, i)
                pairs.extend(found)
                i += 1
                continue
            value = rest
            if not value:
                # The value is the next phrase, perhaps after a lone ":".
                j = i + 1
                while j < len(phrases) and (phrases[j] in (":", "-", "：") or _LEADER.fullmatch(phrases[j])
                                            or ocr_colon(LABELS[label], phrases[j], phrases[j + 1:j + 2])):
                    j += 1
                beside = phrases[j].lstrip(":：- ").strip() if j < len(phrases) and \
                    split_label(phrases[j])[0] is None and not several_fields(phrases[j]) else ""
                if index in upward:  # a caption under its value: nothing beside it is its value
                    beside = ""
                below = "" if parts[i][1] is None or text.rstrip().endswith((":", "：")) or \
                    (beside and fits_beside(LABELS[label], beside)) else \
                    _value_below(lines, index, parts[i][1], LABELS[label]) if index not in upward else \
                    value_above(lines, index, parts[i][1], LABELS[label])
                value = below or beside
                if value and not below and LABELS[label] == "name" and j < len(parts) \
                        and parts[j][1] is not None:
                    # The name runs on below: "RODRÍGUEZ FERREIRA," over "María Cecilia", or
                    # a long name its cell wrapped.
                    run_on = _value_below(lines, index, parts[j][1], "name") if value.endswith(",") \
                        else _name_run_on(lines, index, parts[j][1])
                    value = f"{value} {run_on}".strip()
                if value and not below:
                    i = j
                elif not value and j >= len(phrases) and parts[i][1] is not None:
                    value = _value_on_split_line(lines, index, parts[i][1], LABELS[label])
                elif not value and j >= len(phrases):
                    value = _prose_value_wrapped(lines, index, text, LABELS[label])
            if value:
                words = value.split()
                if ocr_colon(LABELS[label], words[0], [" ".join(words[1:])]):
                    value = " ".join(words[1:])
                if LABELS[label] == "name" and _lone_civility(value) and i + 1 < len(phrases) \
                        and split_label(phrases[i + 1])[0] is None:
                    i += 1  # "MR." apart from the name it stands before, as OCR may read it
                    value = f"{value} {phrases[i]}"
                pairs.append((label, LABELS[label], value))
            i += 1
    return pairs


def _several_fields_pairs(lines: list[Line], index: int, parts: list[tuple[str, Phrase | None]],
                          i: int) -> tuple[list[tuple[str, str, str]], int]:
    """A label of several fields beside or over their values slashed the same way ("PRELIEVO /
    VALIDAZIONE" over "14/03/2025 06:40 / 14/03/2025", a grid's header row over its values):
    (key, field, value) pairs, and the index of the last part read."""
    text, phrase = parts[i]
    keys = several_fields(text)
    if not keys:
        return [], i
    if i + 1 < len(parts) and split_label(parts[i + 1][0])[0] is None:
        beside = _slashed_pairs("/".join(keys), parts[i + 1][0].lstrip(":：- ").strip())
        if beside:
            return beside, i + 1
    below = _value_below(lines, index, phrase, LABELS[keys[0]]) if phrase is not None else ""
    return (_slashed_pairs("/".join(keys), below) if below else []), i


def _wrapped_label_pairs(lines: list[Line]) -> dict[int, list[tuple[str, str, str]]]:
    """Labels a grid cell wrapped over two lines, the value printed between them at mid-height
    ("Performing" / "Lab", "Specimen" / "taken", "Received /" / "Reported", as EMR and GP-system
    prints lay out their request boxes): by the index of the value's line, (key, field, value)
    pairs. A slashed label names as many fields as its value has slashed parts."""
    found: dict[int, list[tuple[str, str, str]]] = {}
    shorts = [[p for p in line.phrases() if _label_part(p)] for line in lines]
    for i, line in enumerate(lines):
        # The next two lines when close below this one and holding a short phrase: the same for
        # every head of the line, so judged once (most lines have none).
        below = shorts[i] and [j for j in range(i + 1, min(i + 3, len(lines)))
                               if shorts[j] and _close_below(lines[j], line)]
        if not below:
            continue
        for head in shorts[i]:
            if head.text.rstrip().endswith((":", "：")):
                continue  # a label with its colon is whole: "Registered:" over "Report Date:" are two
            for j in below:
                tail = next((p for p in shorts[j] if abs(p.x0 - head.x0) < line.size), None)
                if tail is None:
                    continue
                key = label_key(f"{head.text} {tail.text}".strip(" :："))
                # The joined label, a new one or the head's with its number sign wrapped
                # under it ("Lab Accession" / "No", the number beside "No").
                if key in LABELS and (key != label_key(head.text.strip(" :：")) or
                                      NUMBER_SIGN.match(tail.text.strip(" :："))) or \
                        len(SLASH.split(key)) > 1 and all(k in LABELS for k in SLASH.split(key)):
                    right = max(head.x1, tail.x1)
                    beside = [p for other in lines[i:j + 1] for p in other.phrases()
                              if p.x0 > right and p.text.strip() not in _LONE_SEPARATORS]  # ":" set apart
                    left = min(head.x0, tail.x0) - line.size
                    if any(p.x0 < right and p.x1 > left for other in lines[i + 1:j] for p in other.phrases()):
                        break  # a stacked label column, not one label wrapped (a column at its
                        # left, "Fecha de toma: …" OCR set on a line of its own between, is no part)
                    if beside:
                        value = min(beside, key=lambda p: p.x0).text.strip()
                        found.setdefault(j, []).extend(_slashed_pairs(key, value))
                break
    return found


_LONE_SEPARATORS = (":", "：", "-")  # a grid's colon column between its labels and values


def _label_part(phrase: Phrase) -> bool:
    """Short and without a digit: a half of a wrapped label can be no more."""
    return len(phrase.text.split()) <= 2 and not _DIGIT.search(phrase.text)


_DIGIT = re.compile(r"\d")  # compiled once: asked of every phrase of the first pages


def _close_below(other: Line, line: Line) -> bool:
    """`other` starts below `line` on its page, within one and a half of its size."""
    return other.page == line.page and other.top - line.bottom <= 1.5 * line.size and other.top > line.top


def _slashed_pairs(key: str, value: str) -> list[tuple[str, str, str]]:
    """(key, field, value) of a label, or of each label of "Received / Reported" with the
    value's part in the same place ("11-Mar-2025 14:02 / 12-Mar-2025 13:05")."""
    if key in LABELS:
        return [(key, LABELS[key], value)]
    keys, values = SLASH.split(key), re.split(r"\s+/\s+", value)
    if len(keys) != len(values) or not all(k in LABELS for k in keys):
        return []
    return [(k, LABELS[k], v) for k, v in zip(keys, values)]


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
            not 1 <= len(text.split()) <= 2 or not letters_name(text) or not text[0].isupper() \
            or split_label(text)[0] is not None or "," in value.text:
        return ""
    return text


def _prose_value_wrapped(lines: list[Line], index: int, label: str, field: str) -> str:
    """The value of a label that ends a prose line, wrapped to the start of the next one
    ("Reçu le 14/03/2025 à 09h40 · Édité le" over "14/03/2025"): the next line's phrase that
    starts under the prose's start, up to its first label, when it has the field's shape."""
    line = lines[index]
    prose = next((p for p in line.phrases() if label in p.text), None)
    if prose is None or field not in _SHAPED_FIELDS:
        return ""
    # The first phrase below that starts under the prose (a column beside it has lines between).
    start = next((p for below in lines[index + 1:index + 4] if below.page == line.page
                  and 0 <= below.top - line.bottom <= line.size
                  for p in below.phrases() if abs(p.x0 - prose.x0) < line.size), None)
    text = label_parts(start.text.strip())[0].strip() if start is not None else ""
    return text if text and split_label(text)[0] is None and value_fits(field, text) else ""


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
            text = label_parts(phrases[0].text.strip())[0].lstrip(":：- ").strip()
            if field in _SHAPED_FIELDS and split_label(text)[0] is None and value_fits(field, text):
                return text
    return ""


def _lone_civility(value: str) -> bool:
    words = value.split()
    return len(words) == 1 and (civility(words[0]) is not None or TITLES.match(words[0] + " ") is not None)


# Fields whose value can be told by its shape alone, so may be read under their label.
_SHAPED_FIELDS = ("name", "first_name", "last_name", "dob", "collected", "reported", "received",
                  "gender", "age_gender", "dob_gender", "specimen")


def _value_below(lines: list[Line], index: int, label: Phrase, field: str) -> str:
    """The value printed under a label that stands alone ("Patient Name" over "SMITH, JOHN A"
    in a boxed grid, "SEX" over "Female" in a header row): the phrase of the next line below
    that shares the label's column, when it has the shape of the field's value."""
    if field not in _SHAPED_FIELDS:
        return ""
    line = lines[index]
    k = next((k for k in range(index + 1, min(index + 4, len(lines))) if lines[k].page == line.page
              and lines[k].top > (line.top + line.bottom) / 2), None)
    below = lines[k] if k is not None else None
    if below is None or below.top - line.bottom > 1.5 * line.size:
        return ""
    column = [p for p in below.phrases() if min(p.x1, label.x1) - max(p.x0, label.x0) > 0
              or abs(p.x0 - label.x0) < line.size]
    if len(column) != 1:
        return ""  # no phrase, or several: not one label's value
    text = column[0].text.strip()
    if split_label(text)[0] is not None:
        return ""
    wrapped = _cell_run_on(lines, k, column[0], field) if field in ("name", "specimen") else ""
    if wrapped and field == "name" and not fits_beside(field, text):
        text = f"{text} {wrapped}"  # a name's words: whole only with the line below
    if not fits_beside(field, text):
        return ""
    return f"{text} {wrapped}" if wrapped and field == "specimen" else text


def _cell_run_on(lines: list[Line], index: int, value: Phrase, field: str) -> str:
    """The end of a grid's value its cell wrapped onto the next line ("DELL'AQUILA" over
    "ADDOLORATA", "25073" over "1184"): the next line's phrase under the value, when every
    phrase of that line stands under one of the value's line (its cells wrapped, no new row
    begun) and has the field's shape (a name's words, a number's group of digits)."""
    line = lines[index]
    below = lines[index + 1] if index + 1 < len(lines) else None
    if below is None or below.page != line.page or below.top - line.bottom > 1.5 * line.size:
        return ""
    starts = [p.x0 for p in line.phrases()]
    if not all(any(abs(p.x0 - x) < line.size for x in starts) for p in below.phrases()):
        return ""
    tail = next((p.text.strip() for p in below.phrases() if abs(p.x0 - value.x0) < line.size), "")
    if field == "name" and 1 <= len(tail.split()) <= 2 and letters_name(tail) and split_label(tail)[0] is None:
        return tail
    if field == "specimen" and _NUMBER_GROUP.fullmatch(tail) and len(value.text.split()) == 1:
        return tail
    return ""


_NUMBER_GROUP = re.compile(r"[A-Z\d\-]{0,9}\d[A-Z\d\-]{0,9}")  # "1184", "C-07"



def read_identifier(text: str) -> str | None:
    tokens = text.split()
    token = tokens[0] if tokens else ""
    token = token.strip(" :#,;|‘’'\"`“”")  # "|S87561601": a cell's rule (or a speck) read by OCR
    token = re.sub(r"^\$(?=\d)", "S", token)  # OCR reads a leading S as '$': never in a number
    if token.isdigit() and len(tokens) > 1 and _DIGIT_GROUP.fullmatch(tokens[1]):
        # "25073 1184": a number printed (or its cell wrapped) in groups of digits.
        return " ".join([token, *itertools.takewhile(_DIGIT_GROUP.fullmatch, tokens[1:3])])
    if _LETTER_PREFIX.fullmatch(token) and len(tokens) > 1 and _DIGIT_GROUP.fullmatch(tokens[1]):
        # "CH 0206 12": an accession printed as a section's letters and groups of digits.
        groups = list(itertools.takewhile(_DIGIT_GROUP.fullmatch, tokens[1:4]))
        return " ".join([token, *groups])
    return token if re.search(r"\d", token) or len(token) >= 4 else None


_LETTER_PREFIX = re.compile(r"[A-Z]{1,3}")
_DIGIT_GROUP = re.compile(r"\d{1,8}")
