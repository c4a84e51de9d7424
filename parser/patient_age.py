"""The patient's age in years, for ranges printed in age tiers ("18-59 y: 6 - 20 / >=60 y: 8 - 23").

From the birth date and the sampling (or report) date when both were read, else from an age
printed in the patient block ("Age : 42 Years", "42Y/M", "66Y / F", "Âge : 42 ans"). None when
neither is there: a tier is then never guessed.
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from parser.metadata_dates import years_between
from parser.models import ResultMetadata
from parser.page import Document

_AGE_UNIT = r"(?:y|yrs?|years?|ans|j\.?|jahre|anni|años|anos|a)\b"
# An age after its label: "Age : 42 Years", "Age/Sex : 42 Y / M", "Alter: 42 J.", "Età: 42 anni".
_LABELLED = re.compile(r"\b(?:age|âge|alter|età|eta|edad)\b(?:\s*/\s*(?:sex|gender|sexe))?\s*[:.\-]?\s*"
                       r"(\d{1,3})\s*" + _AGE_UNIT, re.I)
# An unlabelled age beside the sex: "(42Y/M)", "66Y / F", "42 Yrs / Male".
_BESIDE_SEX = re.compile(r"(?<![\d/.])(\d{1,3})\s*(?:y|yrs?|years?)\s*[/,]\s*(?:m|f|male|female)\b", re.I)
# An age without its unit, under an age-and-sex label: "Age/Sex: 47 / F", "Edad/Sexo: 52 / F".
_BARE_BESIDE_SEX = re.compile(r"\b(?:age|âge|alter|età|eta|edad)\s*/\s*(?:sex|gender|sexe|sexo|sesso|"
                              r"geschlecht)\s*[:.\-]?\s*(\d{1,3})\s*/\s*(?:m|f|male|female)\b", re.I)
# An age after its label and colon without a unit ("Age: 47 Sex: F"); never one in months or
# days ("Age: 6 months") nor a decimal.
_BARE_LABELLED = re.compile(
    r"\b(?:age|âge|alter|età|eta|edad)\s*:\s*(\d{1,3})(?!\s*[\d.,/]|\s*(?:m|mo|mos|months?|d|days?|w|"
    r"wks?|weeks?|mois|jours|semaines|monate|tage|wochen|mesi|giorni|settimane|meses|d[ií]as|"
    r"semanas)\b)", re.I)
_MAX_AGE = 120
# Where the patient block is: the first page's top words.
_HEAD_WORDS = 400


def patient_age(doc: Document, metadata: ResultMetadata) -> float | None:
    """Age in whole years at sampling, or None when it cannot be told."""
    born = _iso(metadata.dob)
    on = _iso(metadata.date_collected) or _iso(metadata.date_reported)
    if born is not None and on is not None and on >= born:
        years = years_between(born, on)
        return float(years) if years <= _MAX_AGE else None
    return head_age(doc)


def head_age(doc: Document) -> float | None:
    """The age printed in the patient block at the top of the first page."""
    return printed_age(" ".join(w.text for w in doc.pages[0].words[:_HEAD_WORDS])) if doc.pages else None


@lru_cache(maxsize=16)  # a document's head is read twice (date order, then age tiers); few kept
def printed_age(text: str) -> float | None:
    """The age a patient block prints; None unless exactly one age is printed there."""
    found = {int(m.group(1)) for pattern in (_LABELLED, _BESIDE_SEX, _BARE_BESIDE_SEX, _BARE_LABELLED)
             for m in pattern.finditer(text)}
    if len(found) != 1:
        return None
    age = found.pop()
    return float(age) if age <= _MAX_AGE else None


def _iso(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None
