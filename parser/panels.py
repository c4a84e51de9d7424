"""What panel headings, specimen lines and test names say about a row: sample type and
measurement kind. Pure functions over printed text."""

from __future__ import annotations

import re

_SAMPLE_WORDS: list[tuple[str, re.Pattern[str]]] = [
    ("urine", re.compile(r"\b(urine|urinalysis|urinary|urine\s+r/?e|routine\s+urine|ua)\b", re.I)),
    ("stool", re.compile(r"\b(stool|faeces|feces|faecal|fecal|occult\s+blood)\b", re.I)),
    ("saliva", re.compile(r"\b(saliva|salivary)\b", re.I)),
    ("capillary_blood", re.compile(r"\b(capillary|finger\s*stick|fingerprick|finger\s*prick)\b", re.I)),
    ("other", re.compile(r"\b(csf|cerebrospinal|sputum|swab|semen|seminal|synovial|pleural|ascitic)\b", re.I)),
    ("serum_plasma_blood", re.compile(
        r"\b(serum|plasma|blood|whole\s+blood|edta|cbc|haemogram|hemogram|hematology|haematology|"
        r"lipid|liver|lft|kidney|kft|renal|rft|thyroid|tft|metabolic|cmp|bmp|electrolytes?|"
        r"diabetes|glycemic|hba1c|iron|vitamins?|biochemistry|chemistry|coagulation|hormones?|"
        r"cardiac|hepatitis|serology|immunology|inflammatory|blood\s+count|lipids)\b", re.I)),
]
# The same in French, German, Italian and Spanish (issue 13); accented and unaccented spellings.
_SAMPLE_WORDS_I18N: list[tuple[str, re.Pattern[str]]] = [
    # German compounds end in the sample: "Spontanurin", "Sammelurin", "Citratblut", "Vollblut".
    ("urine", re.compile(r"\b(urines?|urinaires?|\w*urin|urinstatus|harn|orina|urinari[oa]|"
                         r"sedimento|s[ée]diment|ecbu)\b", re.I)),
    ("stool", re.compile(r"\b(selles|stuhl|feci|heces)\b", re.I)),
    ("serum_plasma_blood", re.compile(
        r"\b(sang|sanguin|sanguine|\w*blut|sangue|sangre|s[ée]rum|siero|suero|plasmatique|"
        r"h[ée]mogramme|blutbild|emocromo|hemograma|h[ée]matologie|h[äa]matologie|haematologie|"
        r"ematologia|hematolog[íi]a|biochimie|klinische\s+chemie|chimica\s+clinica|biochimica|"
        r"bioqu[íi]mica|h[ée]mostase|gerinnung|coagulazione|coagulaci[óo]n|gasom[ée]trie|"
        r"gasometr[íi]a|blutgasanalyse|emogasanalisi|s[ée]rologie|serolog[íi]a|sierologia)\b",
        re.I)),
]
_SAMPLE_WORDS += _SAMPLE_WORDS_I18N

# English words only: the whole-report fallback also reads patient names ("Sang", "Blut").
_BLOOD = dict(_SAMPLE_WORDS[: -len(_SAMPLE_WORDS_I18N)])["serum_plasma_blood"]

_CALCULATED = re.compile(
    r"\b(calc|calculated|calculation|derived|computed|estimated|egfr|non[-\s]?hdl|"
    r"globulin|anion\s+gap|transferrin\s+saturation|iron\s+saturation|homa|"
    # the European words for calculated / estimated ('Cholestérol LDL calculé', 'LDL berechnet')
    r"calcul[ée]e?s?|calculad[oa]s?|calcolat[oaie]|berechnet(?:e[rsn]?)?|"
    r"estim[ée]e?s?|estimad[oa]s?|stimat[oaie]|geschätzt(?:e[rsn]?)?)(?!\w)", re.I)
_RATIO = re.compile(r"\bratio\b|\b[a-z]{1,6}\s*/\s*[a-z]{1,6}\s+ratio\b|\ba\s*/\s*g\b", re.I)


def sample_type(*texts: str | None, default: str = "unknown") -> str:
    """The first sample kind named by the texts (specimen line, test name, panel heading)."""
    for text in texts:
        if not text:
            continue
        for kind, pattern in _SAMPLE_WORDS:
            if pattern.search(text):
                return kind
    return default


def measurement_kind(test_name: str, method: str | None) -> str:
    """calculated / ratio from the name or method line; direct when a method is printed."""
    if _RATIO.search(test_name):
        return "ratio"
    if method and _CALCULATED.search(method):
        return "calculated"
    if _CALCULATED.search(test_name):
        return "calculated"
    return "direct" if method else "unknown"


def document_sample_type(text: str) -> str:
    """The fallback sample type of a report: blood when it speaks of blood, serum or plasma."""
    return "serum_plasma_blood" if _BLOOD.search(text) else "unknown"
