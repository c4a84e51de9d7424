"""The laboratory's name, read from the top of the report's first page (its letterhead).

A letterhead prints the lab's name largest, often a short brand ("AGILE HEALTHCARE") over a
small line that names the company in full ("Agile Healthcare Laboratories Ltd · National
Reference Lab: <address>"). The name is the most prominent lab-like phrase; the company's full
name replaces a brand it begins like; an address or a "Lab: <address>" never is the name.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import replace
from typing import Callable

from parser import vocabulary
from parser.columns import label_key as column_key, label_kind as column_kind
from parser.lines import Line, Phrase, build_lines, large_words, page_lines, word_size
from parser.page import Document

LAB_WORDS = re.compile(
    r"\b(lab|labs|laboratory|laboratories|diagnostics?|patholog(y|ies)|pathlabs|pathcare|pathkind|"
    r"clinic|hospital|hospitals|medical\s+cent(er|re)|health(care)?|imaging|biolab|quest|labcorp|"
    r"klinikum|clinique|ospedale|"
    # German compounds end in the hospital's or the lab's word: "Landeskrankenhaus",
    # "Universitätsklinikum", "Zentrallabor".
    r"\w+(?:krankenhaus|klinikum|labor)|"
    + "|".join(re.escape(w) for w in vocabulary.LAB_NAME_WORDS) + r")\b", re.I)
_LAB_IN_TEXT = re.compile(
    r"([A-Z][\w.&']*(?:\s+[A-Z][\w.&']*){0,4}\s+(?:PathLabs|Laboratories|Laboratory|Labs|"
    r"Diagnostics|Pathology))\b")
# Words of a report's own title, which a page top may print as large as a lab's name.
_TITLE_WORDS = re.compile(
    r"\b(report|reports|rapport|compte|rendu|befund|laborbefund|bericht|referto|informe|results?|"
    r"r[ée]sultats?|ergebnisse?|risultati|resultados?|tests?|patient|page|final|copy|duplicate)\b",
    re.I)  # not "analyses": "Laboratorio Analisi Cliniche" is a lab's name
_HEADINGS = vocabulary.header_labels()  # a column heading is no lab's name
_PROMINENT = 1.15  # glyph-box sizes: capitals at 15 pt over 8.5 pt body text measure 1.25x
# Company forms that end a lab's full name ("... Laboratories Pvt. Ltd.", "... s.r.l.").
_COMPANY = re.compile(r"\b(ltd|pvt|inc|llc|limited|private|gmbh|s\.?\s?r\.?\s?l|s\.?p\.?a|"
                      r"s\.a\.s|sas|sa|ag|plc)\b\.?", re.I)
# Separators between the items of a letterhead line ("Name · Address · Phone").
_ITEM_SEPARATOR = re.compile(r"\s+[·•|—–-]\s+")  # OCR reads "·" as "-"
_ADDRESS = re.compile(r"@|www\.|\d{3}")  # e-mail, web, postcode or phone


def find_lab_name(doc: Document, lines: list[Line], values: set[str],
                  is_label: Callable[[str], bool]) -> str | None:
    """The laboratory's name: the most prominent lab-like phrase at the top of page 1, or the
    largest text there when it is none of the labelled `values` (a patient's name printed
    large), or a "<Name> PathLabs / Laboratories" mention anywhere."""
    if not doc.pages:
        return None
    page = doc.pages[0]
    top_phrases = _top_phrases(page)
    items = [(text, p) for p in top_phrases for text in _letterhead_items(p.text)]
    labbish = [(text, p) for text, p in items if ":" not in text and LAB_WORDS.search(text)
               and not _ADDRESS.search(text) and not is_label(text)
               and not _TITLE_WORDS.search(text) and not _lab_described(text)]
    brand = _brand_phrase(top_phrases, is_label)  # a name with no lab word, largest
    if brand and (brand.text.strip() in values or _under_column_headings(brand, top_phrases)):
        brand = None
    name = None
    if labbish:
        name, best = max(labbish, key=lambda item: _phrase_size(item[1]))
        # "BIOLOIRE" over "Laboratoire de Biologie Médicale multisite" printed under it; a
        # larger phrase lower down is no letterhead (an OCR box made tall by a table's rule).
        if brand and _phrase_size(brand) > _PROMINENT * _phrase_size(best) and \
                brand.words[0].top <= best.words[0].top and _prominent(brand, page, strict=False):
            name = brand.text
        elif _description(name) and (above := _name_above(best, top_phrases, is_label)):
            name = above  # OCR box heights may not say which is larger: the place does
        elif (_SUBUNIT.match(name) or _generic(name)) and (institution := _institution_above(best, labbish)):
            name = institution
    elif brand and _prominent(brand, page, strict=True):
        name = brand.text
    if name is None:
        return _mentioned_lab(lines)
    name = _with_wrapped_end(name, top_phrases, is_label)
    return clean_lab(_company_name(name, [text for text, _ in labbish]) or name)


# A report title printed in the same run as the lab's name, as an EHR print banner does
# ("Saint Brendan Medical Center  Laboratory Results").
_TRAILING_TITLE = re.compile(r"\s+(?:lab|laboratory|laboratoire|laboratorio|labor)?\s*"
                             r"(?:results?|reports?|r[ée]sultats?|risultati|resultados?|befunde?)$", re.I)


def _letterhead_items(text: str) -> list[str]:
    """The items of a top phrase that may name the lab: none after a label's colon ("Flowsheet:
    Laboratory — General Lab" is a view's title and its value), and a report title cut off
    the end of an item."""
    items = []
    for item in _ITEM_SEPARATOR.split(text.strip()):
        untitled = _TRAILING_TITLE.sub("", item)
        # (untitled is item when no title trails it: no search needed to keep it)
        items.append(untitled if untitled != item and LAB_WORDS.search(untitled) else item)
        if ":" in item:
            break
    return items


def _top_phrases(page) -> list[Phrase]:
    """All phrases of the page top, large words included: a lab's name may be printed far
    larger than the body text (body lines leave such words out as watermarks)."""
    top = 0.25 * page.height
    large = [w for w in large_words(page) if w.top < top]
    phrases = [p for line in page_lines(page) if line.top < top for p in line.phrases()]
    return [_rejoined(p) for p in phrases] + [
        _rejoined(p) for line in build_lines(large, page.number, page.source == "ocr") for p in line.phrases()]


def _rejoined(phrase: Phrase) -> Phrase:
    """A letterhead set in small capitals or letter-spaced ("Lab o rato ri o Anal i s i Lan g h
    e": a larger capital, then small capitals the text layer cut at its tracking gaps) as the
    words it prints: fragments a tracking gap apart joined, the wider gaps kept as spaces.
    Only a phrase of many one- or two-letter fragments whose gaps are of two clear widths."""
    words = phrase.words
    gaps = [b.x0 - a.x1 for a, b in zip(words, words[1:])]
    if len(words) < 4 or 2 * sum(len(w.text) <= 2 for w in words) < len(words) or \
            min(gaps) < 0 or max(gaps) < 2 * min(gaps):
        return phrase
    cut = (min(gaps) + max(gaps)) / 2
    joined = [words[0]]
    for gap, word in zip(gaps, words[1:]):
        if gap < cut:
            last = joined[-1]
            joined[-1] = replace(last, text=last.text + word.text, x1=word.x1,
                                 top=min(last.top, word.top), bottom=max(last.bottom, word.bottom),
                                 size=max(last.size, word.size))
        else:
            joined.append(word)
    return Phrase(joined)


def _with_wrapped_end(name: str, phrases: list[Phrase], is_label: Callable[[str], bool]) -> str:
    """The name with its end a narrow letterhead wrapped onto the next line ("Laborärztliche"
    over "Gemeinschaftspraxis Harz"): a phrase right under the name's, at its indent and its
    size, of one to three capitalised words (a tagline's lower-case words, an address's digits,
    a description's "médicale" are no part of it)."""
    own = next((p for p in phrases if p.text.strip() == name), None)
    if own is None:
        return name
    size = _phrase_size(own)
    for phrase in phrases:
        text, gap = phrase.text.strip(), phrase.words[0].top - own.words[-1].bottom
        if phrase is not own and abs(phrase.x0 - own.x0) < size / 2 and -0.1 * size <= gap < 0.6 * size \
                and abs(_phrase_size(phrase) - size) <= 0.1 * size and _WRAPPED_END.fullmatch(text) \
                and not _TITLE_WORDS.search(text) and not is_label(text):
            return f"{name} {text}"
    return name


# One to three capitalised words of letters: a name's end.
_WRAPPED_END = re.compile(r"[^\W\d_a-zß-ÿ][^\W\d_'’\-]*(?:[ '’\-][^\W\d_a-zß-ÿ][^\W\d_'’\-]*){0,2}")


def _company_name(name: str, candidates: list[str]) -> str | None:
    """The company's full name printed with the brand ("Navya Diagnostic Laboratories Pvt. Ltd."
    under "NAVYA DIAGNOSTICS"): a lab-like item ending in a company form whose first word is
    the brand's first word."""
    first = name.split()[0].lower() if name.split() else ""
    for text in candidates:
        words = text.split()
        if words and words[0].lower() == first and _COMPANY.search(words[-1]) and \
                len(words) > len(name.split()):
            return text
    return None


def _mentioned_lab(lines: list[Line]) -> str | None:
    for line in lines:
        m = _LAB_IN_TEXT.search(line.text)
        if m:
            return clean_lab(m.group(1))
    return None


def _lab_described(text: str) -> bool:
    """A letterhead's sentence about the lab, no name: its lab words all in lower case, the
    first after a lower-case word ("GESY contracted laboratory", "an accredited laboratory"); a
    name capitalises its lab word or starts with it ("Laboratoire de biologie médicale")."""
    found = list(LAB_WORDS.finditer(text))
    before = text[:found[0].start()].split() if found else []
    return bool(found) and all(m.group(0).islower() for m in found) and bool(before) \
        and before[-1].isalpha() and before[-1].islower() and len(before[-1]) >= 4


def _description(text: str) -> bool:
    """A kind of lab described in words, not named: "Laboratoire de biologie médicale
    multisite", "Laboratoire de Biologie Médicale multisite" (a word of four letters or more in
    lower case, no particle; a name capitalises its words, "Laboratorio Bioquímico del Parque")."""
    words = text.split()
    return len(words) >= 3 and any(w.isalpha() and w.islower() and len(w) >= 4 and w not in _PARTICLES
                                   for w in words[1:])


_PARTICLES = {"della", "delle", "dello", "degli", "dalla", "pour", "para", "with", "unter", "sous", "from"}


def _name_above(description: Phrase, phrases: list[Phrase], is_label: Callable[[str], bool]) -> str | None:
    """The lab's name printed directly above its description, at the same indent ("BIOLOGIE
    VERCORS" over "Laboratoire de biologie médicale multisite"): a short phrase of words."""
    size = _phrase_size(description)
    top = description.words[0].top
    for phrase in phrases:
        text = phrase.text.strip()
        gap = top - phrase.words[0].bottom
        if abs(phrase.x0 - description.x0) < size and -0.3 * size < gap < size and \
                1 <= len(text.split()) <= 4 and re.fullmatch(r"[^\W\d_][^\W\d_ '&.-]*(?: [^\W\d_'&.-]+)*", text) \
                and not _TITLE_WORDS.search(text) and not is_label(text):
            return text
    return None


# A department or service of an institution ("Department of Clinical Laboratory", "Servizio di
# Immunoematologia", "Abteilung für Labormedizin"): the institution printed above it names the lab.
_SUBUNIT = re.compile(r"(department|dept\.?|division|section|unit|service|servicio|servizio|"
                      r"dipartimento|d[ée]partement|departamento|abteilung|u\.?o\.?c?\.?|unit[àa] operativa)"
                      r"\s+(of|de|di|du|des|del|della|für)\b", re.I)


# Words of a service's generic name, no one's own: "Laboratory Services", "Clinical Laboratory",
# "Laboratorio Clínico", "Klinisches Labor", "Laboratoire d'analyses médicales".
_GENERIC_WORDS = {"services", "service", "clinical", "medical", "central", "main", "department", "dept",
                  "division", "unit", "of", "the", "and", "&", "de", "d'analyses", "analyses", "analysis",
                  "médicale", "medicale", "médicales", "clínico", "clinico", "clínicos", "clinicos",
                  "clinica", "analisi", "cliniche", "análisis", "analisis", "klinisches",
                  "medizinisches", "servicio", "servizio", "di", "del"}


def _generic(name: str) -> bool:
    """A service's generic name, every word a lab word or a generic one ("Laboratory Services")."""
    words = name.lower().split()
    return bool(words) and all(w in _GENERIC_WORDS or LAB_WORDS.fullmatch(w) for w in words)


def _institution_above(subunit: Phrase, labbish: list[tuple[str, Phrase]]) -> str | None:
    """A lab-like item, no department itself, printed higher up the letterhead than the
    department chosen (OCR box heights often misjudge which of the two is the larger); of
    several, the largest ("GASABO REFERRAL HOSPITAL" over "MINISTRY OF HEALTH")."""
    above = [(text, p) for text, p in labbish if not _SUBUNIT.match(text) and not _generic(text)
             and p.words[0].bottom <= subunit.words[0].top]
    return max(above, key=lambda item: (_phrase_size(item[1]), -item[1].words[0].top))[0] if above else None


def _phrase_size(phrase: Phrase) -> float:
    return max(word_size(w) for w in phrase.words)


def _brand_phrase(phrases: list[Phrase], is_label: Callable[[str], bool]) -> Phrase | None:
    """A lab whose name has no lab word ("THYROCARE TECHNOLOGIES LTD.", "BIOLOIRE"): the
    largest text at the page top, when it is no report title, label, address or number."""
    if not phrases:
        return None
    largest = max(phrases, key=_phrase_size)
    if not 1 <= len(largest.words) <= 6 or re.search(r"[\d:@]", largest.text) or \
            _TITLE_WORDS.search(largest.text) or is_label(largest.text) or \
            largest.text.strip().lower() in _HEADINGS or \
            not re.search(r"[^\W\d_]{3}", largest.text):
        return None
    return largest


def _under_column_headings(phrase: Phrase, phrases: list[Phrase]) -> bool:
    """Printed under the results table's column headings (two headings side by side: "Prueba"
    and "Resultado"): a result's name, never a lab's, when a photo cut off the letterhead."""
    headings = [p for p in phrases if column_kind(column_key(p.text.strip())) is not None]
    size = _phrase_size(phrase)
    return any(a is not b and abs(a.words[0].top - b.words[0].top) < size
               and a.words[0].top < phrase.words[0].top for a in headings for b in headings)


def _prominent(phrase: Phrase, page, *, strict: bool) -> bool:
    """Clearly larger than the body text; `strict`: also the page's largest text (the lab's
    name with no lab-like phrase to compare it with)."""
    sizes = [word_size(w) for w in page.words]
    size = _phrase_size(phrase)
    return bool(sizes) and size >= _PROMINENT * statistics.median(sizes) and \
        (not strict or size >= max(sizes))


# A lab word the text layer split at a kerning gap ("Lab oratorio").
_SPLIT_LAB_WORD = re.compile(r"\b(Lab)\s+(orator[a-z]+)\b", re.I)


_BANG_FOR_I = re.compile(r"(?<=[A-Z])!(?=[A-Z]|\s|$)")


def clean_lab(text: str) -> str:
    """The name without company forms and what a separator puts after it."""
    text = _SPLIT_LAB_WORD.sub(r"\1\2", text)
    text = _BANG_FOR_I.sub("I", text)  # "CARON! MEDICAL LABORATORIES": OCR's "!" for a capital I
    text = _COMPANY.sub("", text)
    parts = re.split(r"\s+[-–|·]\s+", text.strip())
    kept = [t for t in parts if LAB_WORDS.search(t)] or parts
    return " ".join(kept[0].split()).strip(" ,.-")
