"""Printed test names -> comparable text plus the context the name itself carries.

"S. Creatinine (Calc)*" says three things: the analyte (creatinine), the specimen
(serum) and the method (calculated). `read_name` separates them; the matcher
compares analytes and uses the rest as ranking hints. The same `analyte_text`
runs over the table's own names so that "SGPT", "ALT" and "Alanine
aminotransferase" meet in the middle (see data/abbreviations.tsv).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_ABBREVIATIONS_PATH = Path(__file__).parent / "data" / "abbreviations.tsv"

# Specimen words -> specimen group (loinc.table.specimen_group puts LOINC systems in the same groups).
_SPECIMEN_WORDS = {
    "serum": "serum_plasma", "s": "serum_plasma", "ser": "serum_plasma", "plasma": "serum_plasma",
    "p": "serum_plasma", "plas": "serum_plasma", "serpl": "serum_plasma",
    # "Blood sugar", "blood urea": on reports plain "blood" rarely means whole blood.
    "blood": "any_blood", "whole blood": "blood", "edta blood": "blood", "edta": "blood", "wb": "blood", "bld": "blood",
    "venous": "blood", "arterial": "blood", "capillary": "blood",
    "urine": "urine", "urinary": "urine", "u": "urine", "ur": "urine", "urine spot": "urine",
    "spot urine": "urine", "24 hr urine": "urine", "24 hour urine": "urine", "24h urine": "urine",
    "random urine": "urine", "urine random": "urine",
    "csf": "csf", "cerebrospinal fluid": "csf", "spinal fluid": "csf",
    "stool": "stool", "faeces": "stool", "feces": "stool", "fecal": "stool", "faecal": "stool",
    "pleural": "pleural", "pleural fluid": "pleural", "ascites": "peritoneal",
    "ascitic fluid": "peritoneal", "ascitic": "peritoneal", "peritoneal fluid": "peritoneal",
    "joint fluid": "synovial", "synovial fluid": "synovial", "body fluid": "body_fluid",
    "other body fluid": "body_fluid", "fluid": "body_fluid",
    "bone marrow": "bone_marrow",
}
# The same in French, German, Italian and Spanish (issue 13), with the preposition that comes
# with them ("Creatinina en orina", "Kalium im Serum"); accents are folded before matching.
_SPECIMEN_WORDS.update({
    "serique": "serum_plasma", "plasmatique": "serum_plasma", "im serum": "serum_plasma",
    "im plasma": "serum_plasma", "siero": "serum_plasma", "sierico": "serum_plasma",
    "sierica": "serum_plasma", "nel siero": "serum_plasma", "nel plasma": "serum_plasma",
    "suero": "serum_plasma", "serico": "serum_plasma", "serica": "serum_plasma",
    "en suero": "serum_plasma", "en plasma": "serum_plasma", "plasmatico": "serum_plasma",
    "sang": "any_blood", "sanguin": "any_blood", "sanguine": "any_blood", "blut": "any_blood",
    "im blut": "any_blood", "sangue": "any_blood", "nel sangue": "any_blood",
    "sangre": "any_blood", "en sangre": "any_blood",
    "urines": "urine", "urinaire": "urine", "urin": "urine", "im urin": "urine",
    "spontanurin": "urine", "sammelurin": "urine", "urinario": "urine", "urinaria": "urine",
    "nelle urine": "urine", "orina": "urine", "en orina": "urine",
})
_SINGLE_LETTER_SPECIMENS = {"s", "p", "u"}  # "S. Creatinine": only as the first word
# ... in the five languages: German "berechnet" (printed "ber."), French "calculé", Italian "calcolato", Spanish "calculado".
_CALCULATED_WORDS = {"calculated", "calc", "cal", "calculation", "derived", "computed", "berechnet", "ber", "calcule",
                     "calculee", "calcolato", "calcolata", "calculado", "calculada"}
# Words of report furniture, not analytes: a "name" made only of these matches nothing.
_NON_ANALYTE_WORDS = {
    "sample", "type", "interpretation", "remark", "remarks", "comment", "comments", "note", "notes",
    "page", "reference", "thanks", "for", "instrument", "instruments", "investigation", "result",
    "results", "specimen", "report", "dr", "doctor", "patient", "name", "age", "sex", "gender",
    "date", "collected", "reported", "received", "signature", "pathologist", "technician", "end",
    "advice", "lab", "laboratory", "unit", "units", "range", "bio", "ref", "interval", "status",
    "printed", "on", "at", "by", "md", "mbbs", "dmlt", "bmlt", "fully", "automated", "cell", "counter",
    "method", "test", "tests", "of", "the", "and", "to", "is", "please", "correlate", "clinically",
}
# Words that name a method or are filler on reports and never help tell analytes apart.
_NOISE_WORDS = {
    "nih", "test", "tests", "level", "levels", "lvl", "value", "values", "estimation", "est", "assay",
    "the", "of", "in", "by", "and", "method", "auto", "automated", "analyser", "analyzer",
    "quantitative", "qn", "result", "results", "conc", "concentration", "measured", "measurement",
    "screen", "screening", "report", "mini", "clia", "eclia", "cmia", "elisa", "ise",
    "spectrophotometry", "immunoturbidimetry", "photometry", "colorimetric", "enzymatic",
    "kinetic", "jaffe", "modified", "uv", "ifcc", "hplc", "mass", "moles", "volume", "count",
    "absolute", "abs",  # kept as ReadName.wants_count instead
    "dcct", "ngsp",  # the HbA1c standardisation a % result is aligned to (IFCC's, above, is mmol/mol)
}
# Words asking for a count, in English, French, German, Italian and Spanish (issue 13: "Numération des
# plaquettes", "Recuento de leucocitos"); the absolute ones ("Linfocitos absolutos", "Neutrophils #")
# also say the unit kind. Noise too (kept as ReadName.wants_count), with the articles between words.
_ABSOLUTE_WORDS = {"absolute", "abs", "#", "absolut", "absolus", "absolues", "absoluto", "absolutos", "absolutas",
                   "assoluto", "assoluti"}
_COUNT_WORDS = {"count", "numeration", "recuento", "conteggio"} | _ABSOLUTE_WORDS
_NOISE_WORDS |= (_COUNT_WORDS - {"#"}) | {"des", "de", "du", "del", "della", "delle", "di", "der"}
# A share printed as a word, in the five languages ("Lymphozyten relativ", "Linfociti percentuale",
# "Neutrophiles pourcentage"): the name itself says the unit kind, as "%" does. "Relative" only off
# a density ("Relative density" is a urine specific gravity, a number without unit).
# "value", "level", "quantitative" in the five languages: a number, not a presence finding.
_QUANTITATIVE_WORDS = {"value", "level", "levels", "lvl", "quant", "quantitative", "qn", "quantitativ", "quantitatif",
                       "quantitativo", "quantitativa", "cuantitativo", "cuantitativa"}
_NOISE_WORDS |= _QUANTITATIVE_WORDS - {"quant"}
_PERCENT_WORDS = {"%", "percent", "percentage", "pct", "prozent", "prozentual", "pourcentage", "percentuale",
                  "porcentaje", "porcentual"}
_RELATIVE_WORDS = {"relative", "relativ", "relatif", "relatifs", "relativo", "relativi", "relativa", "relativos",
                   "relativas"}
_DENSITY_WORDS = {"density", "dichte", "densite", "densita", "densidad"}
_FOOTNOTE = re.compile(r"[*†‡§¶#^]+|\(\s*[a-z0-9]\s*\)$")
_FOOTNOTE_FREE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789 -,.:;/%+")  # no footnote mark nor ")"
_PUNCTUATION = re.compile(r"[^a-z0-9%/#]+")  # "+" too: "D3+D2", "CD3+CD4+" are word lists
_SPACED_SLASH = re.compile(r"\s*/\s*")
_IC_ACID = re.compile(r"\b([a-z]{3,})ic acid\b")
_ANTIBODY = re.compile(r"\b(?:antibody|antibodies|ab)\b")
# Antigen and antibody in the five languages ("Antigène HBs", "HBs-Antigen", "Antígeno", "Anticorps
# anti-HBs", "Antikörper", "Anticuerpos anti-VHC"), read as LOINC writes them; the French and Spanish
# order "Ag HBs" as "HBs Ag". Before the "anti" prefix is cut: "anticorps" is no "anti-corps".
_ANTIGEN_WORD = re.compile(r"\bantigen(?:e|es|o|os|a)\b")  # English "antigen" is the table's own word
_ANTIBODY_WORD = re.compile(r"\b(?:anticorps|anticorpi|anticorpo|anticuerpos?|antikorper|antikoerper)\b")
_ANTIGEN_FIRST = re.compile(r"\bag (hb[sec])\b")
_ANTI_PREFIX = re.compile(r"\banti ?(?!bod)([a-z]{3,})")
_ABSOLUTE_MARK = re.compile(r"([a-z])\s?#(?=\s|$)")
# "NEU%", "LYM%": a hematology analyser's share, the % glued to its short name.
_PERCENT_MARK = re.compile(r"([a-z])%(?=\s|$)")
_DOTTED = re.compile(r"\b(?:[a-z]\.){2,}[a-z]?\.?")
# "Vitamin B 12", "Vitamina B-12", "T 3": a lone letter and its number are one name (B12, T3).
_LETTER_NUMBER = re.compile(r"(?<![\w/])([a-z]) (\d{1,2})(?![\w/])")
_OCR_FIXES = ((re.compile(r"(?<=[a-z])0|0(?=[a-z])"), "o"), (re.compile(r"(?<=[a-z])1(?=[a-z])"), "l"))


@dataclass(frozen=True)
class ReadName:
    analyte: str            # normalized analyte words, abbreviations expanded
    specimen: str | None    # specimen group named in the printed name
    calculated: bool        # the name says it is calculated
    wants_count: bool       # "absolute", "count": the name asks for a count
    unit_kind: str | None = None  # "%" or "absolute"/"#" printed in the name itself
    quantitative: bool = False    # "value", "level", "quant": a number, not a presence finding
    usual_kind: str | None = None  # the kind such a name is printed in when no unit says ("RDW": %)


# Greek letters as LOINC spells them ("γ-GT": gamma glutamyl transferase, "α1-Antitrypsin", "β2-Mikroglobulin",
# "κ" light chains): NFKD would drop them, leaving "GT" or "1 antitrypsin". Both cases; "µ" is a unit prefix, not here.
_GREEK = str.maketrans({letter: f" {word} " for letters, word in (
    ("αΑ", "alpha"), ("βΒ", "beta"), ("γΓ", "gamma"), ("δΔ", "delta"), ("κΚ", "kappa"), ("λΛ", "lambda"))
    for letter in letters})


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower-case ASCII-ish text with punctuation turned into spaces."""
    if not text.isascii():
        text = text.translate(_GREEK)
        text = unicodedata.normalize("NFKD", text.replace("ß", "ss"))  # "Eiweiß" as "EIWEISS" is printed
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("µ", "u").replace("μ", "u").lower()
    # Each pattern below needs a character most names lack: testing for it first is faster than
    # letting the regex scan (the matcher folds every name it is given).
    if "#" in text:
        text = _ABSOLUTE_MARK.sub(r"\1 absolute ", text)  # "Lymphs#", "NEUT#": an absolute count
    if "%" in text:
        text = _PERCENT_MARK.sub(r"\1 % ", text)  # "EOS%": a share, read like "Eos %"
    if not _FOOTNOTE_FREE.issuperset(text):
        text = _FOOTNOTE.sub(" ", text)
    if "." in text:
        # "S.G.P.T." -> "sgpt", "R.D.W.-CV" -> "rdw-cv": dotted initialisms are one word.
        text = _DOTTED.sub(lambda m: m.group(0).replace(".", ""), text)
    text = _PUNCTUATION.sub(" ", text)
    if any(ch.isdigit() for ch in text):
        text = _LETTER_NUMBER.sub(r"\1\2", text)
    if "/" in text:
        text = _SPACED_SLASH.sub("/", text)
    return text.strip()


def fix_ocr(word: str) -> str:
    """Undo the usual OCR confusions inside a word (0->o, 1->l between letters).

    Only for words the vocabulary does not know: "a1c" is a real word.
    """
    if not any(ch.isalpha() for ch in word) or word.isdigit():
        return word
    for pattern, repl in _OCR_FIXES:
        word = pattern.sub(repl, word)
    return word


@lru_cache(maxsize=1)
def _abbreviations() -> tuple[re.Pattern[str], dict[str, str]]:
    mapping: dict[str, str] = {}
    for line in _ABBREVIATIONS_PATH.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        forms, expansion = line.split("\t")[:2]
        # The LOINC wording maps to itself, so "cholesterol in ldl" is not re-expanded word by word.
        expansion = fold(expansion)
        for form in [*forms.split("|"), expansion]:
            form = fold(form)
            if form:
                mapping.setdefault(form, expansion)
    ordered = sorted(mapping, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w/+])(?:%s)(?![\w/+])" % "|".join(re.escape(f) for f in ordered))
    return pattern, mapping


def abbreviation_words() -> set[str]:
    """Every word of the printed forms, so spelling correction can aim at them."""
    _pattern, mapping = _abbreviations()
    return {word for form in mapping for word in form.split()}


def _expand_and_clean(text: str) -> str:
    """Expand shorthand, then drop filler words that were printed (not ones an expansion brought)."""
    text = _IC_ACID.sub(r"\1ate", text)  # valproic acid -> valproate, as LOINC names acids
    if "anti" in text:
        text = _ANTIBODY_WORD.sub("antibody", _ANTIGEN_WORD.sub("ag", text))
    if "ag " in text:
        text = _ANTIGEN_FIRST.sub(r"\1 ag", text)
    if _ANTIBODY.search(text):
        text = _ANTI_PREFIX.sub(r"\1", text)  # "anticardiolipin antibody" -> "cardiolipin ab"
    pattern, mapping = _abbreviations()
    # Expansions travel as one "_"-joined token so noise filtering and de-duplication leave them whole.
    marked = pattern.sub(lambda m: mapping[m.group(0)].replace(" ", "_"), text).split()
    kept = [w for w in marked if w not in _NOISE_WORDS] or marked
    seen: set[str] = set()
    unique = [w for w in kept if not (w in seen or seen.add(w))]
    return " ".join(_singular(w) for w in " ".join(unique).replace("_", " ").split())


def _singular(word: str) -> str:
    """"Barbiturates" and "barbiturate" are one word here (both sides go through this)."""
    if "/" in word:
        return "/".join(_singular(part) for part in word.split("/"))
    if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ys")) and word.isalpha():
        return word[:-1]
    return word


_EUROPEAN_BLOOD = {"sang", "blut", "sangue", "sangre"}
_BLOOD_CELLS = re.compile(r"\b(red|white) blood cell")
# "Occult blood", or a name that is only "Blood" (a urinalysis row), names what is tested for,
# not the specimen: the specimen comes from the row's sample type or panel.
_BLOOD_AS_ANALYTE = re.compile(r"^blood$|\boccult blood\b|^(?:urine|urinary) blood$|^blood (?:in )?urine$")
# In urine, the dipstick's "Blood" / "Occult blood" is haemoglobin (LOINC 5794-3 "Hemoglobin
# [Presence] in Urine by Test strip"); in stool the table's own alias "Blood, Occult" matches.
_ANALYTE_IN_SPECIMEN = {("occult blood", "urine"): "hemoglobin"}


def analyte_in_specimen(analyte: str, specimen: str | None) -> str:
    """The analyte words as LOINC names them for this specimen ("blood" in urine = haemoglobin)."""
    return _ANALYTE_IN_SPECIMEN.get((analyte, specimen), analyte)


@lru_cache(maxsize=1)
def _specimen_pattern() -> re.Pattern[str]:
    words = sorted((w for w in _SPECIMEN_WORDS if w not in _SINGLE_LETTER_SPECIMENS), key=len, reverse=True)
    letters = "|".join(sorted(_SINGLE_LETTER_SPECIMENS))
    return re.compile(r"^(?:%s)(?= )|(?<![\w/])(?:%s)(?![\w/])" % (letters, "|".join(map(re.escape, words))))


# "Alkaline Phosphatase, S": a specimen letter after a comma at the end (US reference labs).
_TRAILING_SPECIMEN_LETTER = re.compile(r",\s*([SPU])\.?\s*$", re.IGNORECASE)


# IFCC-IUPAC NPU names, as Spanish (SEQC) and Nordic hospital laboratories print them:
# "System—Component; kind-of-quantity" ("Srm—Tiroxina(no unida a proteína); c.sust.",
# "P—Creatininium; subst.c."). The system names the specimen and the kind of quantity the property:
# both are what a unit would tell. Only with a dash that is no hyphen (em/en dash or "--").
_NPU = re.compile(r"^\s*([A-Za-z]{1,4}(?:\([A-Za-z]{1,4}\))?)\s*(?:—|–|--)\s*(.+?)\s*;\s*([^;]{2,24})$")
_NPU_SYSTEMS = {
    "srm": "serum_plasma", "s": "serum_plasma", "p": "serum_plasma", "pla": "serum_plasma", "pl": "serum_plasma",
    "b": "blood", "sng": "blood", "san": "blood", "bld": "blood", "u": "urine", "orn": "urine", "ur": "urine",
    "csf": "csf", "lcr": "csf",
}
_NPU_KINDS = (  # folded kind-of-quantity abbreviations (Spanish, English) -> unit kind
    (re.compile(r"^(?:c ?sust|subst ?c|amount ?c|substc)"), "molar_conc"),
    (re.compile(r"^(?:c ?masa|mass ?c)"), "mass_conc"),
    (re.compile(r"^(?:c ?num|num ?c|c ?n[uú]m)"), "count_conc"),
    (re.compile(r"^(?:fr ?\w+|\w+ ?fr)$"), "fraction"),
    (re.compile(r"^(?:c ?cat|cat ?c)"), "units"),
)


def _read_npu(printed: str) -> tuple[str, str | None, str | None] | None:
    """(component, specimen group, unit kind) of an NPU-style name, or None."""
    found = _NPU.match(printed)
    if found is None:
        return None
    system = fold(found.group(1)).split()[0]
    kind_text = fold(found.group(3))
    kind = next((k for pattern, k in _NPU_KINDS if pattern.search(kind_text)), None)
    if system not in _NPU_SYSTEMS and kind is None:
        return None  # a dash and a semicolon, but not the NPU form
    return found.group(2), _NPU_SYSTEMS.get(system), kind


# Method names printed with a test ("Fibrinogen (Clauss)", "Glucose (GOD-POD)", "Ferritina
# (chemiluminescenza)", "Potassium (potentiométrie)"), folded, in the five languages: the assay, not
# the analyte. Dropped from the analyte words of a printed name (the matcher still sees them among the
# row's words, so a sibling coded by that method can lead); LOINC's own names keep theirs.
_METHOD_WORDS = re.compile(
    r"\b(?:\w*(?:chemi|chimi|quimio|chemio)lumin\w*|poten[tzc]i?o?metr\w*|(?:immuno|inmuno)?turbidimetr\w*"
    r"|ne[pf]h?e?lometr\w*|[ck]olorimetr\w*|en[zs][iy]mati\w*|\w*[fp]h?otometr\w*|(?:immun|inmun)olog\w*"
    r"|(?:hex|eso)[oc]?[kqc]h?u?inas\w*|(?:god|chod|gpo)(?: (?:pod|pap|trinder))?|clauss|bcg|bcp|biuret"
    r"|jendrassik(?: grof)?|trinder|diazo|uricase|urease|methode|metodo|methodik|technique|tecnica|technik)\b")
# The reading time of an erythrocyte sedimentation, printed with its name in the five languages ("ESR 1st
# hour", "V.S.G. 1ª hora", "Vitesse de sédimentation (1ère heure)", "VES (1ª ora)", "BSG nach 1 Stunde"): the
# rate is read after the first hour by definition, so the words add nothing to the analyte. Only beside a
# sedimentation word: "Glucose 1 hr" is a timed tolerance test, another code.
_SEDIMENTATION = re.compile(r"\b(?:esr|vsg|ves|vs|bsg|vhs|\w*sedim\w*|\w*senkung\w*)\b")
_FIRST_HOUR = re.compile(r"\b(?:(?:nach|after|in|at|a|alla|de|la|der) )*(?:1|first|primera|premiere|prima|ersten?)"
                         r"(?:st|a|o|ere|re|e)?\.? ?(?:h|hr|hrs|hour|hora|heure|ora|std|stunde)\b")
# A finding in urine named by its "-uria" word (English, Italian, Spanish) or "-urie" (French, German).
_URIA = re.compile(r"[a-z]{4,}ur(?:ia|ie)\b")


@lru_cache(maxsize=65536)
def read_name(printed: str) -> ReadName:
    npu = _read_npu(printed)
    if npu is not None:
        read = read_name(npu[0])
        return ReadName(read.analyte, read.specimen or npu[1], read.calculated, read.wants_count,
                        read.unit_kind or npu[2], read.quantitative)
    letter = _TRAILING_SPECIMEN_LETTER.search(printed)
    if letter:
        printed = f"{letter.group(1)} {printed[:letter.start()]}"  # read like "S. Alkaline phosphatase"
    # "Red blood cells" names cells, not a specimen: in a urinalysis they are urine sediment.
    text = _BLOOD_CELLS.sub(r"\1 cell", fold(printed))
    if text in _EUROPEAN_BLOOD:  # "Sang", "Blut" alone: the strip's blood, as the English "Blood" is
        text = "blood"
    specimen = None
    found = [m for m in _specimen_pattern().finditer(text)]
    if _BLOOD_AS_ANALYTE.search(text):
        found = [m for m in found if m.group(0).strip() != "blood"]
    if found:
        phrase = max((m.group(0).strip() for m in found), key=len)
        specimen = _SPECIMEN_WORDS[phrase]
        # "Urine creatinine" keeps "creatinine"; a lone "blood" in "blood urea" is the specimen too.
        reduced = _without(text, found)
        if reduced:
            text = reduced
    if _METHOD_WORDS.search(text):
        text = " ".join(_METHOD_WORDS.sub(" ", text).split()) or text
    per_hour = bool(_SEDIMENTATION.search(text) and _FIRST_HOUR.search(text))
    if per_hour:  # the name says "per hour": a bare "mm" beside it is the rate's unit (ReadName.unit_kind)
        text = " ".join(_FIRST_HOUR.sub(" ", text).split()) or text
    if specimen is None and _URIA.search(text):
        specimen = "urine"  # "Microalbuminuria", "Protéinurie", "Glucosuria": the word names urine
    words = text.split()
    if all(w in _NON_ANALYTE_WORDS or w.isdigit() for w in words):
        return ReadName("", specimen, False, False)
    calculated = any(w in _CALCULATED_WORDS for w in words)
    wants_count = any(w in _COUNT_WORDS for w in words)
    if not _DENSITY_WORDS.intersection(words):
        words = ["%" if w in _RELATIVE_WORDS else w for w in words]
    percent = any(w in _PERCENT_WORDS for w in words)
    absolute = any(w in _ABSOLUTE_WORDS for w in words)
    quantitative = any(w in _QUANTITATIVE_WORDS for w in words)
    words = [w for w in words if w not in _CALCULATED_WORDS and w not in _PERCENT_WORDS]
    kind = "fraction" if percent else ("count_conc" if absolute else ("velocity" if per_hour else _width_kind(words)))
    return ReadName(_expand_and_clean(" ".join(words)), specimen, calculated, wants_count, kind, quantitative,
                    None if kind else _usual_width_kind(words))


_WIDTHS = re.compile(r"\b(?:rdw|pdw|distribution width)\b")


def _width_kind(words: list[str]) -> str | None:
    """A distribution width printed as "-CV" is a ratio (in %), as "-SD" a volume (in fL): RDW-CV and
    RDW-SD are two LOINC codes, and the suffix says which, unit or not."""
    if not _WIDTHS.search(" ".join(words)):
        return None
    if "cv" in words:
        return "fraction"
    return "entitic_volume" if "sd" in words else None


_RED_CELL_WIDTH = re.compile(r"\brdw\b|\b(?:red|erythrocyte)\b.*\bdistribution width\b")


def _usual_width_kind(words: list[str]) -> str | None:
    """A red cell distribution width printed without "-CV" or "-SD" is the CV: the 33 RDW rows of the
    opened real-like reports are all in %, 20 of them printed without a suffix. Platelet widths are
    printed in fL as often as in %: no default."""
    return "fraction" if _RED_CELL_WIDTH.search(" ".join(words)) else None


def _without(text: str, spans: list[re.Match[str]]) -> str:
    pieces, last = [], 0
    for span in spans:
        pieces.append(text[last:span.start()])
        last = span.end()
    pieces.append(text[last:])
    return " ".join(" ".join(pieces).split())


@lru_cache(maxsize=65536)
def analyte_text(name: str) -> str:
    """Normalized analyte words of a name, without reading context out of it."""
    return _expand_and_clean(fold(name.replace(".", " ")))
