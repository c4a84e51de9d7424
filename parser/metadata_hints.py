"""Metadata a report prints without labels, and the country hints that settle its dates.

- A German hospital's patient block prints the birth date after a star and the sex after it
  ("* 14.08.1951  m"), under the patient's name ("Kowalski, Dariusz").
- A header prints the patient's name, surname first with a comma, just before the birth date
  ("Osterhout, Kimberly   DOB: 01/09/1983").
- The lab's address says which way its numeric dates run: a US ZIP code ("OH 44870") month
  first, an Indian PIN code ("Gurugram 122016") or a UK postcode ("SP2 8XX") day first; so do
  the country's name, web or e-mail domain and telephone prefix ("+234", "lab@x.com.ng").
"""

from __future__ import annotations

import re

from parser.columns import PREVIOUS, RESULT, label_key, label_kind
from parser.lines import Line
from parser.metadata_dates import DATE_PATTERNS, is_iso, read_date
from parser.metadata_split import LABELS, label_key as metadata_key, label_parts, split_label

# "* 14.08.1951" (geboren), then perhaps the sex: "* 14.08.1951 m".
_STAR_BIRTH = re.compile(r"^[*✱]\s?(\d{1,2}[./]\d{1,2}[./]\d{2,4})(?:\s+(\S+))?$")
# A name printed surname first with a comma: "Kowalski, Dariusz", "O'Neil-Ray, Mary Ann".
_COMMA_NAME = re.compile(r"^[^\W\d_][\w'\-]+(?: [^\W\d_][\w'\-]+)?, [^\W\d_][\w'\-]+(?: [^\W\d_][\w.'\-]*){0,2}$")
_BIRTH_WORDS = r"(?:dob|d\.o\.b\.?|date of birth|birth ?date|born|geb\.?|geburtsdatum)"
_BIRTH_LABEL = re.compile(r"^" + _BIRTH_WORDS + r"\s*[:.]?\s*\S", re.I)  # a phrase that starts with it
_BIRTH_INSIDE = re.compile(r"\b" + _BIRTH_WORDS + r"\s*[:.]\s*\d", re.I)  # "ULI/PHN: 718 440 093  DOB: 1961-Jul-04"

_US_ZIP = re.compile(r"\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b")
_INDIAN_PIN = re.compile(r"[A-Za-z)]\s*[,\-–]?\s*[1-8]\d{5}(?!\d)|\bIndia\b|\bNABL\b|\+91\b")
_UK_POSTCODE = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b")
# What a letterhead prints of its country (the country's name, its web or e-mail domain, its
# telephone prefix) and what that says: the order its numeric dates run in ("dmy" in the
# English-speaking countries whose labs print numeric dates and every country of the supported
# European languages; "mdy" in the Philippines, as in the US; Canada mixes both, so it settles
# nothing) and whether names of Chinese origin are printed surname first in capitals ("TAN BOON
# HUAT": Tan, given name Boon Huat). India's name and prefix are read with its PIN codes.
# (names, domain, telephone prefix, date order, surname first)
_COUNTRIES: tuple[tuple[tuple[str, ...], str, str | None, str | None, bool], ...] = (
    (("nigeria",), "ng", "234", "dmy", False),
    (("ghana",), "gh", "233", "dmy", False),
    (("kenya",), "ke", "254", "dmy", False),
    (("uganda",), "ug", "256", "dmy", False),
    (("tanzania",), "tz", "255", "dmy", False),
    (("zambia",), "zm", "260", "dmy", False),
    (("zimbabwe",), "zw", "263", "dmy", False),
    (("south africa",), "za", "27", "dmy", False),
    (("botswana",), "bw", "267", "dmy", False),
    (("namibia",), "na", "264", "dmy", False),
    (("australia",), "au", "61", "dmy", False),
    (("new zealand",), "nz", "64", "dmy", False),
    (("ireland",), "ie", "353", "dmy", False),
    (("united kingdom",), "uk", "44", "dmy", False),
    (("singapore",), "sg", "65", "dmy", True),
    (("malaysia",), "my", "60", "dmy", True),
    (("pakistan",), "pk", "92", "dmy", False),
    (("bangladesh",), "bd", "880", "dmy", False),
    (("sri lanka",), "lk", "94", "dmy", False),
    (("hong kong",), "hk", "852", "dmy", True),
    (("united arab emirates", "u.a.e", "uae"), "ae", "971", "dmy", False),
    (("saudi arabia",), "sa", "966", "dmy", False),
    (("qatar",), "qa", "974", "dmy", False),
    (("oman",), "om", "968", "dmy", False),
    (("bahrain",), "bh", "973", "dmy", False),
    (("kuwait",), "kw", "965", "dmy", False),
    (("egypt",), "eg", "20", "dmy", False),
    (("jamaica",), "jm", None, "dmy", False),  # +1, as the US
    (("trinidad",), "tt", None, "dmy", False),
    ((), "in", "91", "dmy", False),
    ((), "fr", None, "dmy", False),
    ((), "de", None, "dmy", False),
    ((), "it", None, "dmy", False),
    ((), "es", None, "dmy", False),
    ((), "ch", None, "dmy", False),
    ((), "at", None, "dmy", False),
    ((), "be", None, "dmy", False),
    ((), "lu", None, "dmy", False),
    (("philippines",), "ph", "63", "mdy", False),
    (("taiwan",), "tw", "886", None, True),
    (("china",), "cn", "86", None, True),
    (("macau", "macao"), "mo", "853", None, True),
)


def _country_pattern(rows: list[tuple[tuple[str, ...], str, str | None, str | None, bool]]) -> re.Pattern[str]:
    """Any of the rows' country names, web or e-mail domains or telephone prefixes."""
    names = [re.escape(name) for row in rows for name in row[0]]
    phones = [row[2] for row in rows if row[2]]
    return re.compile(r"\b(?:" + "|".join(names) + r")\b"
                      r"|(?:@|www\.|https?://)[\w.-]*\.(?:" + "|".join(row[1] for row in rows) + r")\b"
                      r"|(?<![\w+])\+(?:" + "|".join(phones) + r")(?=[\s(\-])", re.I)


_DAY_FIRST = _country_pattern([row for row in _COUNTRIES if row[3] == "dmy"])
_MONTH_FIRST = _country_pattern([row for row in _COUNTRIES if row[3] == "mdy"])


def star_birth(lines: list[Line]) -> tuple[str | None, str | None]:
    """(birth date text, sex text) of a "* 14.08.1951  m" line, or (None, None)."""
    for line in lines:
        phrases = [p.text.strip() for p in line.phrases()]
        for k, text in enumerate(phrases):
            m = _STAR_BIRTH.match(text)
            if not m:
                continue
            sex = m.group(2) or (phrases[k + 1] if k + 1 < len(phrases) and
                                 len(phrases[k + 1].split()) == 1 else None)
            return m.group(1), sex
    return None, None


def starts_birth_line(text: str) -> bool:
    """A line that begins with the birth date, labelled or starred: the patient's name is
    printed just above it. A speck OCR read before it ("‘ geb. 19.04.1946") is no part of it."""
    text = text.strip().lstrip(_SPECKS).strip()
    return bool(_STAR_BIRTH.match(text) or _BIRTH_LABEL.match(text))


# Marks OCR reads from specks and rules at a line's start: never a label's first letter.
_SPECKS = "‘’'`\"|!.,:;"


def name_beside_birth(lines: list[Line]) -> str | None:
    """A "Surname, Given" name printed just before a birth date label on the same line, or
    alone on the line above the one that prints the birth date (a banner: "WOLFE-LINDQVIST,
    Brandon James" over "ULI/PHN: 718 440 093  DOB: 1961-Jul-04")."""
    for line in lines:
        phrases = [_BRACKETED_TITLE.sub("", p.text.strip()) for p in line.phrases()]
        for k in range(1, len(phrases)):
            if starts_birth_line(phrases[k]) and _COMMA_NAME.match(phrases[k - 1]):
                return phrases[k - 1]
    for line, below in zip(lines, lines[1:]):
        phrases = line.phrases()
        name = _BRACKETED_TITLE.sub("", phrases[0].text.strip()) if len(phrases) == 1 else ""
        if name and below.page == line.page and _COMMA_NAME.match(name) \
                and any(_BIRTH_LABEL.match(p.text.strip()) or _BIRTH_INSIDE.search(p.text) for p in below.phrases()):
            return name
    return None


# A title printed in brackets after a banner's name ("DRUMMOND, Morag (Mrs)"): not a name word.
_BRACKETED_TITLE = re.compile(r"\s+\((?:mr|mrs|ms|miss|mx|mstr|master|dr|prof|rev)\.?\)$", re.I)


# A US laboratory's federal certificate number (CLIA), printed in its header or footer.
_CLIA = re.compile(r"\bCLIA\b")


def us_certified(lines: list[Line]) -> str | None:
    """"mdy" when the report prints a CLIA number (only US laboratories hold one)."""
    return "mdy" if any(_CLIA.search(line.text) for line in lines) else None


def region_date_order(lines: list[Line]) -> str | None:
    """"mdy" for a US (or Philippine) address, "dmy" for an Indian, UK or other day-first
    country's one, None when the header says neither or both."""
    text = "\n".join(line.text for line in lines)
    orders = set()
    if _US_ZIP.search(text) or _MONTH_FIRST.search(text):
        orders.add("mdy")
    if _INDIAN_PIN.search(text) or _UK_POSTCODE.search(text) or _DAY_FIRST.search(text):
        orders.add("dmy")
    return orders.pop() if len(orders) == 1 else None


# Where names of Chinese origin are printed surname first in capitals: the letterhead's
# country, domain or telephone prefix says so.
_SURNAME_FIRST_REGION = _country_pattern([row for row in _COUNTRIES if row[4]])
# Common Chinese surnames as romanized in those places (Hokkien, Teochew, Cantonese, Hakka,
# Mandarin pinyin): a first word among them starts a surname-first name there.
_CHINESE_SURNAMES = frozenset("""
tan lim lee ng ong wong goh chua chan koh teo ang yeo tay ho low toh sim chong chia leong foo yap
seah soh chew lau cheung leung chow kwok li wang zhang liu chen yang huang zhao wu zhou xu sun ma
zhu hu guo he lin luo gao zheng liang xie song tang cheng lai kok khoo quek heng neo phua poh pang
tsang tse yip yuen fung kong lam mak mok siu tam tong tsui chiu choi hui kwan kwong law loh lui
ngai pun szeto wan woo yau yeung yiu
""".split())


def surname_first_chinese(name: str, header: list[Line]) -> tuple[str, str] | None:
    """(given name, surname) of a capitals name of three words led by a Chinese surname, on a
    report from a place that prints such names surname first; None otherwise."""
    words = name.split()
    if len(words) != 3 or not name.isupper() or words[0].lower() not in _CHINESE_SURNAMES:
        return None
    if not _SURNAME_FIRST_REGION.search("\n".join(line.text for line in header)):
        return None
    return " ".join(w.capitalize() for w in words[1:]), words[0].capitalize()


# A letter's dateline: the place, a comma, perhaps a preposition, then the date ("Tunis, le 14
# mars 2025", "Benevento, lì 15/03/2025", "Berlin, den 14.03.2025", "Madrid, a 14 de marzo de
# 2025"). French, Italian, German and Spanish reports date their letter so: the report's date.
_DATELINE = re.compile(r"^([^\W\d_][^\W\d_'’.\- ]{1,30}(?: [^\W\d_][^\W\d_'’.\-]*){0,2}),\s*"
                       r"(?:(?:le|den|am|lì|li|il|el|a|on)\s+)?(\d.{4,30})$", re.I)


def dateline(lines: list[Line], order: str | None) -> str | None:
    """The ISO date of the first phrase that is a letter's dateline, or None. A phrase of the
    same shape that holds no date ("Sodium, 140 mmol/L") is passed over, not taken for it.
    `order`: the report's numeric date order."""
    for line in lines:
        for phrase in line.phrases():
            found = _DATELINE.match(phrase.text.strip())
            if found and len(found.group(2).split()) <= 6:
                date = read_date(found.group(2), order, recent=True)
                if is_iso(date):
                    return date
    return None


# A column heading that is only a date and perhaps a clock time ("01/16/2025 04:30",
# "2025-Mar-14 09:12"): a cumulative view heads each collection's column so.
_DATE_HEADING = re.compile(r"^[\w/.\-]{6,11}(?:\s+[\w/.\-]{2,4}){0,2}(?:\s+\d{1,2}:\d{2}(?:\s*[ap]m)?)?$", re.I)


def cumulative_collection(lines: list[Line], order: str | None) -> tuple[str, str | None] | None:
    """The collection date of a cumulative view (flowsheet) heading one column per
    collection with its date, this report's the latest ("01/14/2025 22:47 | 01/15/2025 04:15 |
    Current 01/16/2025 04:30"): the latest ISO date of a line of two or more date headings,
    with the accession printed under it, if any ("2025-Mar-14 09:12" over "C25-073-1042").
    None when a heading beside them names a result column: the report's own values are then
    undated and the dated columns are earlier results. `order`: the report's numeric date order."""
    for k, line in enumerate(lines):
        dated = [(read_date(p.text.strip(), order, recent=True), p) for p in line.phrases()
                 if _DATE_HEADING.match(p.text.strip())]
        dated = [(d, p) for d, p in dated if is_iso(d)]
        if len({d for d, _ in dated}) < 2 or _labels_another_field(line):
            continue
        near = [p.text for other in lines[max(0, k - 1):k + 2] if other.page == line.page
                for p in other.phrases()]
        if any(label_kind(label_key(text)) in (RESULT, PREVIOUS) for text in near):
            return None
        latest, heading = max(dated, key=lambda item: item[0])
        return latest, _accession_under(lines[k + 1] if k + 1 < len(lines) else None, heading, line, order)
    return None


# Fields whose label on a line makes its dates label:value pairs, never a flowsheet's column
# headings ("14/03/2025  Fecha de informe: 15/03/2025", a sampling label OCR left unread).
_OTHER_FIELDS = {"reported", "printed", "received", "dob", "dob_gender", "specimen", "name", "gender",
                 "age_gender"}


def _labels_another_field(line: Line) -> bool:
    return any(LABELS.get(split_label(part)[0] or "") in _OTHER_FIELDS
               for p in line.phrases() for part in label_parts(p.text.strip()))


# An accession: one token of letters and digits ("C25-073-1042"), never a result ("11.8").
_ACCESSION = re.compile(r"(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9][A-Za-z0-9/\-]{5,}")


def _accession_under(below: Line | None, heading, line: Line, order: str | None) -> str | None:
    if below is None or below.page != line.page or below.top - line.bottom > line.size:
        return None
    for phrase in below.phrases():
        text = phrase.text.strip()
        if abs(phrase.x0 - heading.x0) < line.size and _ACCESSION.fullmatch(text) and \
                read_date(text, order, recent=True) is None:
            return text
    return None


def collection_column(lines: list[Line], order: str | None) -> str | None:
    """The collection date of an EMR's results list whose first column is the collection's
    ("Collected Date/Time | Result Name | Result | Units ...", each row "03/14/2025 05:42 EDT
    WBC 14.2 ..."): the ISO date that starts the first row under that heading, in its column."""
    for k, line in enumerate(lines):
        phrases = line.phrases()
        if len(phrases) < 3 or not _collection_heading(phrases[0].text):
            continue
        head = phrases[0]
        for below in lines[k + 1:k + 8]:
            first = below.phrases()[0] if below.phrases() else None
            if below.page != line.page or first is None or abs(first.x0 - head.x0) > line.size:
                continue
            if any(pattern.match(first.text) for _, pattern in DATE_PATTERNS):
                date = read_date(first.text, order, recent=True)
                return date if is_iso(date) else None
        return None
    return None


def _collection_heading(text: str) -> bool:
    """A collection date's column heading, alone or with the next heading OCR joined to it
    ("Collected Date/Time Result Name")."""
    words = text.replace(":", " ").split()
    return any(LABELS.get(metadata_key(" ".join(words[:n]))) == "collected"
               for n in range(1, min(4, len(words)) + 1))
