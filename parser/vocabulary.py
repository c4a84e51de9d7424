"""Words that carry meaning on a report page, keyed by language: column headings, section
(panel) words, printed flags, metadata labels and labels that are never test names.

One module, one place: the layout, flag and metadata stages read these tables through the
merged views at the bottom, so adding a language is adding entries here (keys "fr", "de",
"it", "es" next to "en"). Labels are lower case with punctuation dropped, as `label_key`
and the metadata label lookup normalise them.
"""

from __future__ import annotations

from functools import lru_cache

# Column kinds (the same strings parser.columns uses).
NAME, RESULT, FLAG, UNITS, RANGE = "name", "result", "flag", "units", "range"
IN_RANGE, OUT_OF_RANGE, PREVIOUS, OTHER = "in_range", "out_of_range", "previous", "other"

# ---------------------------------------------------------------- table column headings
HEADER_LABELS: dict[str, dict[str, list[str]]] = {
    "en": {
        NAME: [
            "test", "tests", "test name", "test names", "investigation", "investigations",
            "analysis", "analyte", "analytes", "parameter", "parameters", "test description",
            "description", "component", "components", "examination", "test performed",
            "tests performed", "name of test", "test parameter", "lab test", "assay",
        ],
        RESULT: [
            "result", "results", "value", "values", "your value", "observed value",
            "observed values", "result value", "patient value", "patient result", "findings",
            "current result", "test result", "test results", "measured value", "your result",
        ],
        FLAG: ["flag", "flags", "abnormal flag", "abn flag", "status", "h/l", "alert"],
        UNITS: ["unit", "units", "uom", "unit of measure", "units of measure"],
        RANGE: [
            "reference range", "reference ranges", "reference interval", "reference intervals",
            "reference value", "reference values", "ref range", "ref value", "ref values",
            "ref interval", "ref intervals", "bio ref interval", "bio ref range",
            "biological ref interval", "biological reference interval", "biological ref range",
            "biological reference range", "normal range", "normal ranges", "normal value",
            "normal values", "expected value", "expected values", "expected range",
            "standard range", "reference", "range", "interval", "ref", "limits",
            "reference limits", "ref limits",
        ],
        IN_RANGE: ["in range", "within range", "within normal range", "normal result"],
        OUT_OF_RANGE: [
            "out of range", "outside range", "out of normal range", "abnormal result",
            "abnormal", "outside normal range",
        ],
        PREVIOUS: [
            "previous result", "previous results", "previous", "prior result", "prior results",
            "prior", "last result", "previous value", "previous values", "earlier result",
            "historical result", "previous result and date", "prior result and date",
        ],
        OTHER: ["method", "methods", "methodology", "technology", "technique", "specimen", "date",
                "lab", "site", "comment", "comments", "remarks", "performing lab", "code", "loinc",
                "sample", "cpt", "test code", "instrument"],
    },
}

# ---------------------------------------------------------------- section (panel) headings
# Words that make a line without a value read as a section heading ("Renal Function Panel").
SECTION_WORDS: dict[str, list[str]] = {
    "en": [
        "panel", "profile", "count", "test", "tests", "function", "studies", "markers",
        "chemistry", "hematology", "haematology", "urinalysis", "urine", "lipid", "lipids",
        "differential", "electrolytes", "serology", "vitamins", "hormone", "hormones", "thyroid",
        "iron", "analysis", "examination", "biochemistry", "immunology", "coagulation", "cbc",
        "cmp", "bmp", "lft", "kft", "rft", "tft", "hba1c", "diabetes", "metabolic", "cardiac",
        "inflammation", "inflammatory", "routine", "complete", "special",
    ],
}

# Words of a method / technique line printed under a test name.
METHOD_WORDS: dict[str, list[str]] = {
    "en": [
        "calculated", "calculation", "derived", "immunoturbidimetry", "impedance", "photometry",
        "spectrophotometry", "colorimetric", "enzymatic", "kinetic", "clia", "cmia", "eclia",
        "elisa", "hplc", "ise", "flow cytometry", "microscopy", "uricase", "urease", "jaffe",
        "turbidimetric", "chemiluminescence", "immunoassay", "biuret", "bcg", "arsenazo",
        "molybdate", "ifcc", "vcs", "automated",
    ],
}
# Labels starting a method line ("Method: ...").
METHOD_LABELS: dict[str, list[str]] = {"en": ["method", "methodology", "technique", "principle"]}

# ---------------------------------------------------------------- not test names
# Line starts that mean "not a result" even when something sits in the value column.
NON_RESULT_LABELS: dict[str, list[str]] = {
    "en": [
        "sample", "specimen", "sample type", "specimen type", "method", "methodology", "note",
        "notes", "comment", "comments", "interpretation", "remark", "remarks", "tat", "page",
        "printed", "reported", "collected", "received", "registered", "ref by", "ref. by",
        "referred", "doctor", "dr.", "signature", "end of report", "result", "results",
        "instrument", "instruments", "clinical", "advice", "kindly", "please", "test name",
        "investigation", "patient", "name", "age", "sex", "gender", "dob", "date", "lab no",
        "accession", "uhid", "barcode", "report status", "status",
        # identifiers and visit labels that are printed like "LAB NO. : 2" inside tables
        "mrn", "patient id", "visit", "visit no", "bill no", "ward", "bed", "ip no", "op no",
        "reg no", "registration", "consultant", "location", "time",
    ],
}

# ---------------------------------------------------------------- printed flags
# Printed flag (upper case) -> (interpretation, direction).
FLAGS: dict[str, dict[str, tuple[str, str | None]]] = {
    "en": {
        "H": ("abnormal", "high"), "HI": ("abnormal", "high"), "HIGH": ("abnormal", "high"),
        "L": ("abnormal", "low"), "LO": ("abnormal", "low"), "LOW": ("abnormal", "low"),
        "A": ("abnormal", None), "ABN": ("abnormal", None), "ABNORMAL": ("abnormal", None),
        "*": ("abnormal", None), "**": ("abnormal", None),
        "↑": ("abnormal", "high"), "↓": ("abnormal", "low"),
        "HH": ("critical", "high"), "LL": ("critical", "low"), "H*": ("critical", "high"),
        "L*": ("critical", "low"), "!H": ("critical", "high"), "!L": ("critical", "low"),
        "↑↑": ("critical", "high"), "↓↓": ("critical", "low"),
        "!!": ("critical", None), "!": ("abnormal", None), "C": ("critical", None),
        "CRIT": ("critical", None), "CRITICAL": ("critical", None),
        "PANIC": ("critical", None), "CRITICAL HIGH": ("critical", "high"),
        "CRITICAL LOW": ("critical", "low"), "HIGH*": ("critical", "high"),
        "LOW*": ("critical", "low"),
        "N": ("normal", None), "NORMAL": ("normal", None), "WNL": ("normal", None),
        "BORDERLINE": ("abnormal", None), "BORDERLINE HIGH": ("abnormal", "high"),
        "BORDERLINE LOW": ("abnormal", "low"),
    },
}

# ---------------------------------------------------------------- metadata labels
METADATA_LABELS: dict[str, dict[str, list[str]]] = {
    "en": {
        "name": ["patient name", "name", "patient", "pt name", "patient's name", "name of patient",
                 "patient full name", "full name", "patient name (last, first)"],
        "first_name": ["first name", "given name", "forename"],
        "last_name": ["last name", "surname", "family name"],
        "dob": ["dob", "d o b", "date of birth", "birth date", "birthdate", "born",
                "date of birth (dob)"],
        "gender": ["gender", "sex"],
        "age_gender": ["age / gender", "age/gender", "age / sex", "age/sex", "sex / age",
                       "sex/age", "gender / age", "gender/age", "age-sex", "age & sex",
                       "age & gender"],
        "lab": ["lab", "laboratory", "lab name", "performing lab", "performing laboratory",
                "testing lab"],
        "collected": ["collected", "collected on", "collection date", "date collected",
                      "sample collected", "sample collected on", "collection date/time",
                      "collection date & time", "specimen collected", "date of collection",
                      "sample collection date", "collection time", "collected date", "drawn",
                      "date drawn", "collection", "sample date", "specimen date",
                      "date/time collected", "date & time of collection"],
        "reported": ["reported", "reported on", "report date", "date reported", "date of report",
                     "report released", "released", "released on", "result date",
                     "reporting date", "final report date", "report date/time", "reported date",
                     "report printed", "date/time reported", "authorised on", "authorized on",
                     "verified on", "authorised", "authorized", "validated", "validated on",
                     "approved", "approved on", "verified", "signed out", "finalized",
                     "finalised", "report generated"],
        "specimen": ["accession", "accession no", "accession number", "accession #", "acc no",
                     "acc #", "specimen id", "specimen no", "specimen number", "specimen #",
                     "sample id", "sample no", "sample number", "lab no", "lab number", "lab id",
                     "lab ref", "barcode", "barcode no", "requisition no", "requisition #",
                     "order no", "order number", "specimen", "accession id", "lab accession",
                     "sample barcode"],
        # Labels read so they are never taken as another label's value ("Name: MRN ...").
        "other": ["mrn", "uhid", "patient id", "pid", "age", "time", "ref by", "referred by",
                  "doctor", "physician", "visit no", "bill no", "ward", "bed", "ip no", "op no",
                  "reg no", "registration no", "client", "location", "received", "registered",
                  "printed", "status", "report status", "phone", "address", "email"],
    },
}


# ---------------------------------------------------------------- merged views
def _merge_lists(table: dict[str, list]) -> list:
    seen: dict = {}
    for entries in table.values():
        for entry in entries:
            seen.setdefault(entry, None)
    return list(seen)


def _merge_keyed(table: dict[str, dict]) -> dict:
    merged: dict = {}
    for entries in table.values():
        for key, value in entries.items():
            if isinstance(value, list):
                merged.setdefault(key, [])
                merged[key].extend(v for v in value if v not in merged[key])
            else:
                merged.setdefault(key, value)
    return merged


@lru_cache(maxsize=1)
def header_labels() -> dict[str, str]:
    """Heading label -> column kind, all languages."""
    return {label: kind for kind, labels in _merge_keyed(HEADER_LABELS).items() for label in labels}


@lru_cache(maxsize=1)
def metadata_labels() -> dict[str, str]:
    """Metadata label -> field, all languages."""
    return {label: f for f, labels in _merge_keyed(METADATA_LABELS).items() for label in labels}


@lru_cache(maxsize=1)
def flags() -> dict[str, tuple[str, str | None]]:
    return _merge_keyed(FLAGS)


def words(table: dict[str, list[str]]) -> list[str]:
    """A word list of all languages (SECTION_WORDS, METHOD_WORDS, NON_RESULT_LABELS...)."""
    return _merge_lists(table)
