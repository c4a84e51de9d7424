"""Printed test name (+ unit, panel, specimen) -> ranked LOINC candidates and a status.

Stages: read the name (names.read_name) -> candidate entries from a token index
(misspelt and OCR-garbled words are corrected against the index vocabulary first)
-> name similarity with rapidfuzz -> context adjustments (unit kind, specimen,
calculated, commonness) -> confidence and status. A unit whose kind contradicts
a code's property removes that code.
"""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from loinc.confidence import probability
from loinc.names import ReadName, abbreviation_words, analyte_in_specimen, analyte_text, fix_ocr, fold, read_name
from loinc.specimens import mentions_sediment, mentions_strip, specimen_fits, specimen_hint, specimen_score
from loinc.table import UNRANKED, Entry, load_table
from loinc.units import COUNT_AREA, COUNT_CONC, count_magnitude, normalize_unit, placeholder_unit, unit_kind, unit_kinds

AUTO_MATCH = "auto_match"
NEEDS_REVIEW = "needs_review"
NO_MATCH = "no_match"

# Status thresholds, chosen on the labelled sets (benchmarks/loinc.py): auto_match needs a
# near-exact name, a high total and a clear lead over the next code that could also be meant.
AUTO_MIN_NAME = 88.0
AUTO_MIN_SCORE = 95.0
AUTO_MIN_LEAD = 5.0
REVIEW_MIN_NAME = 62.0  # below: no_match
# A printed unit whose kind is the code's property ("DFG estimé (CKD-EPI)" in mL/min/1.73m², "Neutrófilos
# segmentados" in %), with no other test within this lead, stands in for the last points of name
# similarity: a translated or reworded name of the one test the unit allows. On the opened real-like
# digital rows +10 auto_match, all right; MIMIC held-out with units +2 right; a lead of 10 let 4 wrong
# MIMIC rows through ("Plasma" % in a body fluid), 15 and 20 none. The score floor still holds.
AUTO_MIN_NAME_UNIT_CONFIRMED = 80.0
UNIT_CONFIRMED_LEAD = 15.0
# A count printed per a volume this many times larger than any unit LOINC gives the code is not that
# code: urine and CSF counts are per microlitre (or per field), never 10^9/L, 10^12/L or /nl, so
# "Leukozyten /nl" is blood. Below the gap a unit fits both ("/uL" is used for blood counts too).
COUNT_SCALE_GAP = 1000.0
# A competing test (another specimen, property or sub-type; never a mass/moles twin) used this many
# times less often than the best one, by the Top 2000 usage ranks of the two tests, does not hold
# back an auto_match: "Potassium" is serum (rank 3), not urine (493). Chosen on one half of the
# labelled names and checked on the other (benchmarks/loinc_rare.py).
RARE_RATIO = 20.0
# Classes whose names are reliable enough to auto-match; microbiology, serology, cell markers and
# allergy codes differ by specimen and method in ways a printed name rarely settles.
AUTO_CLASSES = {"Chem", "CHEM", "HEM/BC", "UA", "COAG", "DRUG/TOX", "CHAL", "FERT", ""}
# ... except a serum antigen/antibody screen whose LOINC code names no method ("HBsAg",
# "Anti-HCV"), or only the method the printed name is ("VDRL", "RPR": Reagin Ab [Presence] in Serum by
# VDRL / by RPR): presence in serum is what every such printed name means (method siblings aside).
_SEROLOGY_SYSTEMS = {"Serum", "Serum or Plasma"}
# Codes labs use for one printed test, which no printed name tells apart: "Vitamin D, 25-OH"
# is coded as 25-OH D3 (1989-3, Top 2000 rank 127) or as D2+D3 (62292-8) by lab, and every
# labelled set (benchmarks/data, benchmarks/loinc_truth.py) accepts both. Neither holds the
# other back from auto_match. Likewise a urine albumin/creatinine ratio, coded as "Microalbumin/Creatinine"
# (14959-1, rank 212) or "Albumin/Creatinine" (9318-7): one measurement under the old and the new name.
_ONE_CONCEPT_ON_REPORTS = {frozenset({"1989-3", "62292-8"}), frozenset({"14959-1", "9318-7"})}
_COAGULATION_SYSTEMS = {"Platelet poor plasma", "Blood"}  # citrated plasma, coded either way (_coagulation_twins)
_CELL_MARKER = re.compile(r"^CD\d", re.IGNORECASE)  # flow cytometry markers: review, like CELLMARK

# Search effort.
COMMON_WORD_POSTINGS = 150  # words in more strings than this ("cells", "ab") do not retrieve alone
SCREEN_LIMIT = 100          # strings kept after the C++ screen for full scoring
NAME_CANDIDATES = 200       # entries kept per analyte text after name scoring
NAME_REACH = 30.0           # context moves a score by less: weaker names cannot win
MAX_NAME_LENGTH = 200      # printed test names are short; a runaway line must not cost seconds
RANKED_KEEP = 20            # candidates rank() returns: enough for top 5, the lead and tie checks

_WORD_SPLIT = re.compile(r"[ /]+")
_NAME_AND_SYNONYM = re.compile(r"^\s*([^()]*\w[^()]*?)\s*\(([^()]*\w[^()]*)\)\s*$")  # "X (Y)", nothing after
# "GOT/AST", "SGPT / ALT", "Hämoglobin / Emoglobina" (a bilingual report): two names of one test joined
# by a slash (letters of any alphabet only: "T3/T4" or a ratio's parts like "BUN/Creatinine" match
# different tests and are left alone by the agreement check).
_SLASH_SYNONYMS = re.compile(r"^\s*([^\W\d_](?:[^\W\d_]|[.\- ])*?)\s*/\s*([^\W\d_](?:[^\W\d_]|[.\- ])*?)\s*$")
# "Average Blood Glucose (ABG)", "Total Leucocyte Count (TLC)": a bracket holding the initials of the
# name before it adds nothing, and as a word of its own it may be another test's ("ABG": a blood gas).
_INITIALS_WORDS = re.compile(r"[A-Za-z]+")
_TWIN_BLIND_KINDS = {None, "fraction", "ratio"}  # unit kinds that cannot tell mass from substance
_TWIN_PROPERTIES = (
    {"mass/volume", "moles/volume"},
    {"mass fraction", "molar fraction", "moles fraction"},
    {"mass ratio", "molar ratio"},
)
_ORDINAL_ONLY = frozenset({"ordinal"})
# A LOINC system of a timed collection ("24 hour Urine", "unspecified time Urine"), and the words that
# name one on a report ("24 hr urine", "Urine 24h", "Sammelurin", "urines de 24 heures"). The
# unspecified-time systems count too (sixteenth session): unitless fresh +1 and i18n names without
# units +4 auto_match, all right; MIMIC held-out +1 wrong each way (urine "Protein" MIMIC codes as the
# strip's presence 20454-5; its other "Protein" label, the strip's mass 5804-0, is a method sibling).
_TIMED_SYSTEM = re.compile(r"^(?:\d+ hours?|unspecified time) ", re.IGNORECASE)
_COLLECTION_TIME = re.compile(r"\b\d+\s?(?:h|hr|hrs|hour|hours|heures|std|stunden|ore|horas)\b|\btimed\b|"
                              r"\bcollection\b|sammel|\bdiurese\b|\bdiuresi\b")
_PLAIN_BLOOD = {"blood", "serum or plasma", "serum", "plasma"}
_BLOOD_SITE_WORDS = {"arterial", "venous", "capillary", "cord"}

# "Neutrophils/100 leukocytes" is the percentage of neutrophils: the unit says "per hundred";
# "GFR/1.73 sq M" likewise carries its unit in the name.
_PER_HUNDRED = re.compile(
    r"/100 (?:leukocytes?|cells?|erythrocytes?|wbc|lymphocytes?|blasts?|granulocytes?)\b|/1 73 sq m\b")
_SHORT_NAME_STOP = re.compile(
    r"^(?:SerPl|Ser|Plas|Bld|BldA|BldV|BldC|BldCo|BldCoA|BldCoV|BldMV|Ur|UrnS|CSF|Fld|Stl|XXX|"
    r"Mar|Islt|Spt|Gast|Amn|DBS|Cvx|Vag|Urth|RBC|Ql|Qn|Auto|Manual|Strip|Calc|IA|#|NFr|MFr|VFr|"
    r"Susc|Titr|Cult|PCR|Micro|Est|Scn|24h|Plr|Prt|Snv|BLDCO)$"
)


@dataclass(slots=True)  # not frozen: made by the thousand, and a frozen __init__ costs more
class Candidate:
    entry: Entry
    score: float
    name_score: float
    unasked_method: bool = False  # a specific method the printed name does not mention


@dataclass(frozen=True, slots=True)
class MatchResult:
    status: str
    matches: list[tuple[Entry, float]]  # (entry, confidence 0..1), best first


def alias_key(test_name: str, units: str | None) -> tuple[str, str]:
    """Key of a team alias: the printed name and unit as the matcher normalizes them."""
    return fold(test_name or ""), normalize_unit(units)


def _short_analyte(short_name: str) -> str:
    """The analyte words of a short name: "Ca-I SerPl-sCnc" -> "Ca-I" (the qualifier stays: ionized)."""
    words = []
    for word in short_name.split():
        if _SHORT_NAME_STOP.match(word.split("-")[0]):
            break
        words.append(word)
    return " ".join(words)


class Matcher:
    """Holds the table and its indexes; thread-safe for reads once built."""

    def __init__(self, entries: list[Entry] | None = None) -> None:
        self.entries = entries if entries is not None else load_table()
        self._by_code = {entry.code: entry for entry in self.entries}
        self._index = {entry.code: index for index, entry in enumerate(self.entries)}
        self._index_strings()
        self._index_entry_features()
        self._index_test_ranks()
        self._specimen_scores: dict[str | None, list[float]] = {}
        self._methodless_sibling: dict[str, bool] = {}
        self._nearby_words: dict[int, list[str]] = {}

    def _index_strings(self) -> None:
        """The searchable texts, their owners, word postings and the known words."""
        # Each distinct searchable text once, with the entries that carry it: the component
        # "glucose" alone belongs to some forty codes and is scored once per query.
        owners: dict[str, list[tuple[int, bool]]] = {}  # (entry index, text is a MIMIC alias)
        for index, entry in enumerate(self.entries):
            for text, is_alias in self._entry_strings(entry):
                owners.setdefault(text, []).append((index, is_alias))
        # String ids in order of length (then of first use): a query's candidates sort by id alone.
        self._strings = sorted(owners, key=len)
        self._owners = [owners[text] for text in self._strings]
        self._postings: dict[str, set[int]] = {}
        for string_id, text in enumerate(self._strings):
            for word in text.split():
                self._postings.setdefault(word, set()).add(string_id)
        self._known_words = set(self._postings) | abbreviation_words()
        self._string_words = [frozenset(_WORD_SPLIT.split(text)) for text in self._strings]
        self._short_tokens = [tuple(w for w in words if len(w) <= 2) for words in self._string_words]
        self._words_by_length: dict[int, list[str]] = {}
        for word in sorted(self._known_words):
            self._words_by_length.setdefault(len(word), []).append(word)

    def _index_entry_features(self) -> None:
        """Per-entry parts of the scores that do not depend on the query."""
        self._rank_bonus = [self._commonness(entry) for entry in self.entries]
        # Per-entry parts of the context score that do not depend on the query.
        self._method_words = [
            frozenset() if e.method in ("", "Automated count") else frozenset(analyte_text(e.method).split())
            for e in self.entries
        ]
        self._cell_kinds: dict[str, set[str]] = {}
        for entry in self.entries:
            if entry.kinds & {"count_conc", "fraction"}:
                self._cell_kinds.setdefault(_cell_key(entry), set()).update(entry.kinds)
        mass = {(e.component, e.system, e.timing) for e in self.entries
                if e.property.lower() == "mass/volume" and "US" in e.lists}
        moles = {(e.component, e.system, e.timing) for e in self.entries
                 if e.property.lower() == "moles/volume" and "SI" in e.lists}
        self._mass_or_moles = mass & moles
        self._per_leukocytes = {_cell_key(e) for e in self.entries if "/100 leukocytes" in e.component.lower()}
        self._is_mass = [e.property.lower().startswith("mass") for e in self.entries]
        self._count_scale = [_largest_count(e) for e in self.entries]
        self._by_calculation = ["calc" in e.method.lower() or " Calc" in e.short_name for e in self.entries]
        # Computed values: "by calculation", or predicted by a formula ("GFR/1.73 sq M.predicted by
        # Creatinine-based formula (CKD-EPI)"): a row printed as "calculated" may have either.
        self._computed = [calc or "formula" in e.method.lower() or ".predicted" in e.component.lower()
                          for calc, e in zip(self._by_calculation, self.entries)]
        self._special_blood = [e.specimen == "blood" and e.system.lower() not in _PLAIN_BLOOD for e in self.entries]
        self._from_donor = ["from donor" in e.system.lower() for e in self.entries]  # blood-bank screening
        self._static_score = [
            self._rank_bonus[i]
            - (1.0 if self._by_calculation[i] else 0.0)
            - (4.0 if self._special_blood[i] else 0.0)  # arterial/venous/cord blood: blood gas sections
            for i in range(len(self.entries))
        ]
        self._timing_words = [frozenset(analyte_text(e.timing).split()) for e in self.entries]
        self._strip_method = [e.method.lower() == "test strip" for e in self.entries]

    def _index_test_ranks(self) -> None:
        """Concepts, method-less siblings and usage ranks per test, whatever its method."""
        self._concepts: dict[str, list[Entry]] = {}  # component -> its entries
        for e in self.entries:
            self._concepts.setdefault(e.component, []).append(e)
        # (component, property, system, timing) -> the entry of that test with no method.
        self._methodless = {(e.component, e.property, e.system, e.timing): i
                            for i, e in reversed(list(enumerate(self.entries))) if not e.method}
        # Usage rank of a test, whatever its method: the best rank among its method siblings.
        # Per code, what the per-query checks look up again and again (speed only).
        self._test_key_of = {e.code: _test_key(e) for e in self.entries}
        self._test_rank: dict[tuple, int] = {}
        self._hand_picked: set[tuple] = set()  # tests picked by hand as common: never "much rarer"
        for e in self.entries:
            key = self._test_key_of[e.code]
            self._test_rank[key] = min(self._test_rank.get(key, UNRANKED), e.rank or UNRANKED)
            if "common" in e.lists:
                self._hand_picked.add(key)
        # Per code, its test's usage rank and whether it was picked by hand: what _much_rarer asks.
        self._usage = {e.code: (self._test_rank[key], key in self._hand_picked)
                       for e, key in ((e, self._test_key_of[e.code]) for e in self.entries)}

    @staticmethod
    def _entry_strings(entry: Entry) -> list[tuple[str, bool]]:
        names = {_PER_HUNDRED.sub("", analyte_text(entry.component)).strip()}
        if entry.loinc_component:
            names.add(_PER_HUNDRED.sub("", analyte_text(entry.loinc_component)).strip())
        short = _short_analyte(entry.short_name)
        if short:
            names.add(analyte_text(short))
        extra = set()
        for name in names:
            if entry.timing:
                extra.add(f"{name} {analyte_text(entry.timing)}")
            if entry.method:
                extra.add(f"{name} {analyte_text(entry.method)}")
        strings = [(text, False) for text in sorted(names | extra) if text]
        # Aliases keep their specimen words: "Plasma Hemoglobin" must not become plain "hemoglobin".
        aliases = {analyte_text(label) for label, _fluid, _unit in entry.aliases}
        strings += [(text, True) for text in sorted(aliases - names) if text]
        return strings

    @staticmethod
    def _commonness(entry: Entry) -> float:
        if entry.rank is None:
            return 0.0
        return 6.0 * (1.0 - math.log(max(entry.rank, 1)) / math.log(UNRANKED))

    # -- candidate retrieval -------------------------------------------------
    @lru_cache(maxsize=65536)
    def _correct_word(self, word: str) -> str | None:
        if word in self._known_words or not word.isalpha() and not any(ch.isalpha() for ch in word):
            return word
        for variant in (*_ocr_variants(word), *_digit_variants(word), *_blood_level_stems(word)):
            if variant in self._known_words:
                return variant
        if len(word) < 4:
            return None
        # A ratio of 80 allows few edits: only words of a similar length can reach it.
        nearby = self._nearby_words.get(len(word))
        if nearby is None:
            nearby = self._nearby_words[len(word)] = [
                w for length in range(len(word) - 2, len(word) + 3) for w in self._words_by_length.get(length, ())]
        found = process.extractOne(word, nearby, scorer=fuzz.ratio, score_cutoff=80)
        return found[0] if found else None

    @lru_cache(maxsize=65536)
    def _read(self, name: str) -> tuple[ReadName, bool]:
        """Read the name; if a word is unknown, fix spelling/OCR on the printed words and read again.

        The flag says a word needed more than an OCR fix or a one-letter slip: the match may be
        a different analyte with a similar name (glutathione/glutamine), so it cannot auto-match.
        """
        read = read_name(name)
        if all(word in self._postings for word in read.analyte.split()):
            return read, False
        guessed = False
        words = []
        for word in fold(name).split():
            corrected = self._correct_word(word) or word
            if corrected != word and (corrected in _digit_variants(word) or corrected not in _ocr_variants(word) and (
                    Levenshtein.distance(word, corrected) > 1 or len(word) < 5 or not word.isalpha())
                    and not _inflected(word, corrected)):
                guessed = True  # CD103 -> CD10 is another marker, not a typo
            words.append(corrected)
        return read_name(" ".join(words)), guessed

    def _string_candidates(self, query: str) -> list[int]:
        """Strings sharing a word with the query; very common words only when nothing rarer is shared."""
        postings = [self._postings[w] for w in set(query.split()) if w in self._postings]
        if not postings:
            return []
        rare = [p for p in postings if len(p) <= COMMON_WORD_POSTINGS]
        ids: set[int] = set()
        for posting in rare or [min(postings, key=len)]:
            ids |= posting
        # Shortest first (ids are in length order): the screen keeps the first of equal scores, and
        # "igg" itself must not lose its place to the hundred IgG antibodies that merely contain the word.
        return sorted(ids)

    # -- scoring -------------------------------------------------------------
    @lru_cache(maxsize=65536)
    def _name_scores(self, query: str) -> tuple[tuple[int, float, bool], ...]:
        """Best name similarity per entry: (entry index, score 0..100, via alias)."""
        ids = self._string_candidates(query)
        if not ids:
            return ()
        best: dict[int, tuple[float, bool]] = {}
        query_length = len(query)
        strings = self._strings
        choices = [strings[string_id] for string_id in ids]
        # Cheap screen in C++ first; only strings that share real substance get the full score.
        screened = process.extract(query, choices, scorer=fuzz.token_set_ratio, limit=SCREEN_LIMIT, score_cutoff=55)
        token_sort = fuzz.token_sort_ratio
        query_words = set(_WORD_SPLIT.split(query))
        short_words = {w for w in query_words if len(w) <= 4 and not w.isdigit()}
        string_words, short_tokens, owners = self._string_words, self._short_tokens, self._owners
        for choice, subset_score, position in screened:
            string_id = ids[position]
            score = token_sort(query, choice)
            if score < 100:
                # One name inside the other ("glucose" / "glucose fasting") is a weaker hit, and the
                # more of the longer name the shorter one leaves unexplained, the weaker.
                length = len(choice)
                coverage = min(length, query_length) / max(length, query_length)
                score = max(score, (0.75 + 0.2 * coverage) * subset_score)
                # Short words carry the meaning (HDL/LDL, T3/T4, CD4/CD8): one letter off is another test.
                if short_words:
                    missing = short_words - string_words[string_id]
                    if missing:
                        score -= 20.0 * len(missing)
                shorts = short_tokens[string_id]
                if shorts:
                    extra = sum(w not in query_words for w in shorts)
                    if extra:
                        score -= 6.0 * extra  # "Cholesterol in VLDL 3", "Hemoglobin A2": a sub-type
            for owner, is_alias in owners[string_id]:
                known = best.get(owner)
                if known is None or score > known[0]:
                    best[owner] = (score, is_alias)
        # Ties (many codes share a name) go to the commoner code first.
        ranked = sorted(best.items(), key=lambda item: (-item[1][0], item[0]))[:NAME_CANDIDATES]
        return tuple((index, score, via_alias) for index, (score, via_alias) in ranked)

    def _context_score(
        self, index: int, entry: Entry, kind: str | None, specimen_scores: list[float], calculated: bool,
        wants_count: bool, query_words: set[str], sediment: bool = False, allowed: frozenset[str] = frozenset(),
        magnitude: float | None = None, strip: bool = False,
    ) -> float | None:
        """Score from everything but the name: unit, specimen, method, timing, commonness.
        `specimen_scores`: the row's specimen hint's score per entry (_specimen_scores_for);
        `allowed`: every kind the unit may measure (default: `kind`); `magnitude`: a count unit's cells/L;
        `strip`: the row names a urine test strip (mentions_strip)."""
        score = self._static_score[index]
        kinds = entry.kinds
        if kind:
            if kinds:
                if kinds.isdisjoint(allowed or (kind,)):
                    return None  # the unit contradicts the code's property
                scale = self._count_scale[index]
                if magnitude and scale and "count_conc" in kinds and magnitude >= COUNT_SCALE_GAP * scale:
                    return None  # a blood-sized count unit on a code counted per microlitre (urine, CSF)
                score += 8.0
            else:
                score -= 4.0
            if kind in _TWIN_BLIND_KINDS and self._is_mass[index]:
                score += 1.5
        else:
            if self._is_mass[index]:
                score += 1.5  # without a unit, conventional mass-based codes are the default
            if wants_count:
                score += 5.0 if "count_conc" in kinds else (-5.0 if "fraction" in kinds else 0.0)
        score += specimen_scores[index]
        if sediment and entry.system == "Urine sediment":
            score += 4.0
        elif strip and entry.system == "Urine sediment":
            score -= 8.0  # a strip's pad ("Leucocitos" under "tira reactiva") is no microscopy finding
        if strip and self._strip_method[index]:
            score += 4.0
        if self._special_blood[index] and query_words & _BLOOD_SITE_WORDS:
            score += 4.0  # the name asks for arterial/venous/cord blood after all
        if calculated and self._by_calculation[index]:
            score += 7.0
        elif self._method_words[index] and not (query_words & self._method_words[index]):
            score -= 2.0  # a method the printed name does not mention
        if entry.timing and not (query_words & self._timing_words[index]):
            score -= 6.0
        if self._from_donor[index] and "donor" not in query_words:
            score -= 6.0  # "HBsAg [Presence] in Serum from donor": a patient's report means the patient
        return score

    def _specimen_scores_for(self, hint: str | None) -> list[float]:
        """specimen_score of the hint for every entry, computed once per hint (few hints exist)."""
        scores = self._specimen_scores.get(hint)
        if scores is None:
            scores = self._specimen_scores[hint] = [specimen_score(hint, e.specimen) for e in self.entries]
        return scores

    def rank(
        self, name: str, unit: str | None = None, *, panel: str | None = None, specimen: str | None = None,
        calculated: bool = False, keep: int = RANKED_KEEP, value_kind: str | None = None,
    ) -> list[Candidate]:
        name = (name or "")[:MAX_NAME_LENGTH]
        read, _guessed = self._read(name)
        hint = specimen_hint(name, specimen, panel)
        query = analyte_in_specimen(read.analyte, hint)
        if not query:
            return []
        kind = unit_kind(unit) or read.unit_kind or value_kind
        allowed = unit_kinds(unit)  # empty when the unit has no kind
        magnitude = count_magnitude(unit)
        words = set(query.split()) | set(fold(name).split())
        sediment = mentions_sediment(name, panel, unit)
        strip = not sediment and kind not in (COUNT_AREA, COUNT_CONC) and mentions_strip(name, panel, unit)
        scored: list[tuple[float, int, float]] = []
        # Context moves a score by less than NAME_REACH points: names that much weaker than the
        # best admissible one (its unit fits) cannot win.
        floor = -1.0
        entries = self.entries
        is_calculated, wants_count, quantitative = read.calculated or calculated, read.wants_count, read.quantitative
        specimen_scores = self._specimen_scores_for(hint)
        for index, name_score, via_alias in self._name_scores(query):
            if name_score < floor:
                break
            entry = entries[index]
            if quantitative and entry.kinds == _ORDINAL_ONLY:
                continue  # "IgG Ab value" is a number, not a presence finding
            context = self._context_score(index, entry, kind, specimen_scores, is_calculated, wants_count, words,
                                          sediment, allowed, magnitude, strip)
            if context is None:
                continue
            scored.append((name_score + context + (3.0 if via_alias else 0.0), index, name_score))
            if floor < 0:
                floor = name_score - NAME_REACH
        scored.sort(key=lambda item: (-item[0], item[1]))  # ties: table order (commonest first)
        out = []
        for total, index, name_score in scored[:max(keep, RANKED_KEEP)]:
            unasked = bool(self._method_words[index]) and not (words & self._method_words[index]) and not (
                is_calculated and self._by_calculation[index])
            out.append(Candidate(self.entries[index], total, name_score, unasked))
        return self._methodless_first(out, words, is_calculated)

    def _methodless_first(self, ranked: list[Candidate], words: set[str], calculated: bool) -> list[Candidate]:
        """Method siblings are one concept: unless the row names the method, the method-less code
        leads ("Erythrocytes [#/volume] in Blood", not "... by Automated count"), at the score of
        the sibling that won, and the sibling moves just behind it; a derived quantity's
        calculated code is the exception (_derived_in_use)."""
        if not ranked:
            return ranked
        best = ranked[0]
        entry = best.entry
        for other in ranked[1:10]:  # the row names a sibling's method: that sibling leads
            if _method_variants(entry, other.entry) and self._method_words[self._index[other.entry.code]] & words:
                return self._lead_with(other.entry, best, ranked)
        if not entry.method:
            for other in ranked[1:10]:
                if _method_variants(entry, other.entry) and self._derived_in_use(other.entry, entry):
                    return self._lead_with(other.entry, best, ranked)
            return ranked
        if words & frozenset(analyte_text(entry.method).split()) or (
                calculated and self._by_calculation[self._index[entry.code]]):
            return ranked  # the row names the method (or says "calculated")
        sibling_index = self._methodless.get((entry.component, entry.property, entry.system, entry.timing))
        if sibling_index is None or self._derived_in_use(entry, self.entries[sibling_index]):
            return ranked
        return self._lead_with(self.entries[sibling_index], best, ranked)

    def _derived_in_use(self, entry: Entry, sibling: Entry) -> bool:
        """A quantity labs derive (VLDL = TG/5, LDL by Friedewald, globulin = protein - albumin):
        its "by calculation" code is the one in use (a better Top 2000 rank than the method-less
        sibling's) and reports rarely print "calculated", so that code leads."""
        return self._by_calculation[self._index[entry.code]] and entry.rank is not None and (
            sibling.rank is None or entry.rank < sibling.rank)

    @staticmethod
    def _lead_with(sibling: Entry, best: Candidate, ranked: list[Candidate]) -> list[Candidate]:
        """The sibling leads at the winner's score; the winner follows."""
        rest = [c for c in ranked if c.entry.code != sibling.code]
        return [Candidate(sibling, best.score, best.name_score, False), *rest]

    # -- public API ----------------------------------------------------------
    def match(
        self, name: str, unit: str | None = None, *, panel: str | None = None, specimen: str | None = None,
        top: int = 5, aliases: dict[tuple[str, str], str] | None = None, calculated: bool = False,
        value_kind: str | None = None,
    ) -> MatchResult:
        """Best codes for a printed name; `calculated` = the report marks the row as calculated;
        `value_kind` = what the printed value says when no unit does ("Negative": ordinal)."""
        top = max(1, min(top, 50))
        name = (name or "")[:MAX_NAME_LENGTH]
        unit = None if placeholder_unit(unit) else unit
        alias_entry = None
        if aliases:
            key = alias_key(name, unit)
            code = aliases.get(key) or aliases.get((key[0], ""))
            alias_entry = self._by_code.get(code) if code else None
        ranked = self.rank(name, unit, panel=panel, specimen=specimen, calculated=calculated, keep=top,
                           value_kind=value_kind)
        status, features = self.judge(name, unit, ranked, panel=panel, specimen=specimen, value_kind=value_kind)
        confidences = self._confidences(ranked[:top], features)
        if alias_entry is not None:
            rest = [(c.entry, conf) for c, conf in zip(ranked[:top], confidences) if c.entry.code != alias_entry.code]
            return MatchResult(AUTO_MATCH, [(alias_entry, 1.0), *rest][:top])
        if status != AUTO_MATCH:
            both = self._both_names_agree(name, unit, panel, specimen, top, calculated, value_kind)
            if both is not None and (both.status == AUTO_MATCH or status == NO_MATCH):
                return both
            spelled = _initials_dropped(name)
            if spelled is not None:
                alone = self.match(spelled, unit, panel=panel, specimen=specimen, top=top, calculated=calculated,
                                   value_kind=value_kind)
                if alone.status == AUTO_MATCH or (status == NO_MATCH and alone.matches):
                    return alone
        if not ranked and unit_kind(unit) is not None:
            return self._despite_unit(name, panel, specimen, top, calculated)
        return MatchResult(status, [(c.entry, conf) for c, conf in zip(ranked[:top], confidences)])

    def _despite_unit(self, name: str, panel: str | None, specimen: str | None, top: int,
                      calculated: bool) -> MatchResult:
        """The printed unit contradicts every code the name could mean ("C.C.M.H." in %, the old way of
        printing g/dL): the name still says the test. Its codes at half confidence, never auto_match."""
        found = self.match(name, None, panel=panel, specimen=specimen, top=top, calculated=calculated)
        status = NO_MATCH if found.status == NO_MATCH else NEEDS_REVIEW
        return MatchResult(status, [(entry, round(confidence / 2, 3)) for entry, confidence in found.matches])

    def _both_names_agree(self, name: str, unit: str | None, panel: str | None, specimen: str | None, top: int,
                          calculated: bool, value_kind: str | None) -> MatchResult | None:
        """"ASAT (TGO)", "FREIES T4 (FT4)", "GOT/AST": a name and its synonym (in brackets or after a
        slash), each matching the same test on its own, decide together what the longer, less similar
        whole name did not: auto_match when both parts do, else needs_review with the parts' codes."""
        found = _NAME_AND_SYNONYM.match(name) or _SLASH_SYNONYMS.match(name)
        if found is None:
            return None
        results = [self.match(part, unit, panel=panel, specimen=specimen, top=top, calculated=calculated,
                              value_kind=value_kind) for part in found.group(1, 2)]
        if any(not r.matches for r in results):
            return None
        first, second = (r.matches[0][0] for r in results)
        if self._test_key_of[first.code] != self._test_key_of[second.code]:
            return None
        if all(r.status == AUTO_MATCH for r in results):
            return results[0]
        return MatchResult(NEEDS_REVIEW, results[0].matches)

    def judge(
        self, name: str, unit: str | None, ranked: list[Candidate], *, panel: str | None = None,
        specimen: str | None = None, value_kind: str | None = None,
    ) -> tuple[str, list[float]]:
        """Status of a ranked list, and the features its confidence is computed from."""
        if not ranked:
            return NO_MATCH, []
        best = ranked[0]
        name = (name or "")[:MAX_NAME_LENGTH]
        read, guessed = self._read(name)
        kind = unit_kind(unit) or read.unit_kind or value_kind
        unit_given = kind not in _TWIN_BLIND_KINDS
        hint = specimen_hint(name, specimen, panel)
        fits = specimen_fits(best.entry.specimen, hint)
        timed_named = bool(_COLLECTION_TIME.search(fold(f"{name} {panel or ''}")))
        # No unit, but the name is printed in one kind by custom ("RDW": the CV, in %), and the best code has it.
        usual_kind = read.usual_kind if kind is None and read.usual_kind in best.entry.kinds else None
        lead = self._lead(ranked, unit_given, serum_default=hint in (None, "any_blood", "serum_plasma"),
                          timed_named=timed_named, usual_kind=usual_kind)
        if best.name_score < REVIEW_MIN_NAME:
            status = NO_MATCH
        else:
            status = self._status(ranked, lead, kind_given=kind is not None or usual_kind is not None,
                                  unit_confirms=bool(unit_kinds(unit) & best.entry.kinds), timed_named=timed_named,
                                  count_named=self._white_count_named(read, best.entry))
            if status == AUTO_MATCH and guessed:
                status = NEEDS_REVIEW  # a guessed spelling correction
            if status == AUTO_MATCH and read.calculated and not self._computed[self._index[best.entry.code]]:
                status = NEEDS_REVIEW  # the name says calculated; the code is a measured one
            if status == AUTO_MATCH and not fits:
                status = NEEDS_REVIEW  # e.g. a pleural fluid row and only a generic body-fluid code
            if status == AUTO_MATCH and hint is None and not read.wants_count and _urine_twin(ranked, self._much_rarer):
                # "R.B.C", "Bilirubin": blood or urine, nothing on the row says which. A count word ("White
                # cell count", "TLC") names the blood count: the 140 opened real-like rows with one are all blood.
                status = NEEDS_REVIEW
            if status == AUTO_MATCH and normalize_unit(unit) and unit_kind(unit) is None and not _hour_in_name(unit, read):
                # A unit is printed but unreadable (often OCR: "yumol/L"): it cannot confirm the
                # code's property, and might have picked the mass or the substance twin.
                status = NEEDS_REVIEW
        lead = min(lead, 20.0)
        features = [  # in the order of loinc.confidence.FEATURES
            1.0,
            best.name_score / 100.0,
            lead / 20.0,
            1.0 if status == AUTO_MATCH else 0.0,
            1.0 if best.entry.cls in AUTO_CLASSES else 0.0,
            1.0 if kind is not None else 0.0,
            1.0 if fits else 0.0,
            1.0 if guessed else 0.0,
            1.0 if best.name_score >= 99.0 else 0.0,
            1.0 if best.entry.rank is not None else 0.0,
        ]
        return status, features

    def _confidences(self, candidates: list[Candidate], features: list[float]) -> list[float]:
        """Calibrated probability that the top code is right; the others decay with their score gap."""
        if not candidates:
            return []
        top = probability(features)
        best = candidates[0].score
        return [round(top * math.exp(-(best - c.score) / 4.0), 3) for c in candidates]

    def _much_rarer(self, best: Entry, other: Entry) -> bool:
        """The other test is used RARE_RATIO times less often than the best (never a unit twin)."""
        other_rank, hand_picked = self._usage[other.code]
        return not hand_picked and other_rank >= RARE_RATIO * self._usage[best.code][0] and not _unit_twins(best, other)

    def _lead(self, ranked: list[Candidate], unit_given: bool, serum_default: bool = False,
              timed_named: bool = True, usual_kind: str | None = None) -> float:
        """`timed_named`: the row's name or panel names a collection time ("24 hr urine");
        `usual_kind`: the kind the unitless name is printed in by custom, which the best code has."""
        best = ranked[0]
        for other in ranked[1:]:
            if not timed_named and _timed_unlike(best.entry, other.entry):
                continue  # a timed collection nobody printed: the row is a spot sample
            if usual_kind and usual_kind not in other.entry.kinds:
                continue  # "RDW-SD" (fL) where "RDW" was printed
            # A mass/substance twin is a real competitor when no unit decides between them: without
            # a unit, creatinine in mg/dL and in umol/L are equally likely (the ranking still puts
            # the conventional one first, but it must not be auto-matched). A unitless ratio or a
            # fraction (iron saturation in %: mass and molar fraction are the same number) is the
            # exception: no unit could ever decide, and the conventional twin is the one in use.
            if not unit_given and _unit_twins(best.entry, other.entry) and _dimensionless(best.entry) \
                    and "US" in best.entry.lists and "US" not in other.entry.lists:
                continue
            if _method_variants(best.entry, other.entry) and (
                    other.unasked_method or not other.entry.method
                    or {best.entry.method, other.entry.method} <= {"", "Automated count"}):
                continue  # same test by a named method nobody asked for, or without one: one concept
            if self._much_rarer(best.entry, other.entry):
                continue
            if other.unasked_method and other.entry.kinds == _ORDINAL_ONLY and best.entry.kinds - _ORDINAL_ONLY:
                continue  # "Platelets [Presence] in Blood by Light microscopy": a smear finding nobody named
            if frozenset((best.entry.code, other.entry.code)) in _ONE_CONCEPT_ON_REPORTS:
                continue
            if _coagulation_twins(best.entry, other):
                continue
            if serum_default and best.entry.specimen == "serum_plasma" and other.entry.system == "Blood" and (
                    other.entry.component, other.entry.property) == (best.entry.component, best.entry.property):
                continue  # chemistry on a report is serum unless the row says whole blood (blood gas)
            return best.score - other.score
        return 100.0

    def _status(self, ranked: list[Candidate], lead: float, kind_given: bool, unit_confirms: bool = False,
                timed_named: bool = True, count_named: bool = False) -> str:
        """`unit_confirms`: the printed unit's kind is one the best code's property takes;
        `timed_named`: the row names a collection time (see _lead); `count_named`: see _white_count_named."""
        best = ranked[0]
        name_floor = AUTO_MIN_NAME_UNIT_CONFIRMED if unit_confirms and lead >= UNIT_CONFIRMED_LEAD else AUTO_MIN_NAME
        if (best.name_score >= name_floor and best.score >= AUTO_MIN_SCORE
                and lead >= AUTO_MIN_LEAD
                and (best.entry.cls in AUTO_CLASSES or _serology_presence(best.entry, not best.unasked_method))
                # LOINC has it by a method the report never named, and also without one
                and not (best.unasked_method and self._has_methodless_sibling(best.entry))
                and not (best.entry.method == "Automated count" and not best.entry.kinds - {"ordinal"})
                and not (not kind_given and _kind_ambiguous(ranked, self._cell_kinds, self._much_rarer, timed_named,
                                                            count_named))
                and not _CELL_MARKER.match(best.entry.component)):
            return AUTO_MATCH
        return NEEDS_REVIEW

    def _white_count_named(self, read: ReadName, best: Entry) -> bool:
        """"Neutrophil count", "Lymphocyte Count": a count word on a white cell type names its count per
        volume, not its share of the leukocytes. On the opened real-like reports every row whose name
        has a count word and no % nor "absolute" (81, 7 of them white cell types) prints a count unit.
        Not red cells: reticulocytes are printed as a "count" in %."""
        return read.wants_count and "count_conc" in best.kinds and self.white_cell_type(best)

    def _has_methodless_sibling(self, entry: Entry) -> bool:
        known = self._methodless_sibling.get(entry.code)
        if known is None:
            known = self._methodless_sibling[entry.code] = any(
                _method_variants(entry, other) and not other.method for other in self._concepts.get(entry.component, ()))
        return known

    def search(self, text: str, top: int = 20) -> list[tuple[Entry, float]]:
        """Free-text search for the review UI: by code, or by name without context."""
        text = (text or "").strip()
        if not text:
            return []
        exact = self.lookup(text)
        if exact:
            return [(exact, 1.0)]
        ranked = self.rank(text, keep=top)
        _status, features = self.judge(text, None, ranked)
        return list(zip((c.entry for c in ranked[:top]), self._confidences(ranked[:top], features)))

    def reported_both_ways(self, entry: Entry) -> bool:
        """Labs report this test in mass units (conventional, the US list) or in moles (SI list):
        glucose, creatinine, cholesterol; not sodium (moles everywhere)."""
        return (entry.component, entry.system, entry.timing) in self._mass_or_moles

    def white_cell_type(self, entry: Entry) -> bool:
        """A cell type LOINC counts per 100 leukocytes: one of a white-cell differential's rows."""
        return _cell_key(entry) in self._per_leukocytes

    def lookup(self, code: str) -> Entry | None:
        return self._by_code.get((code or "").strip())


def _kind_ambiguous(ranked: list[Candidate], cell_kinds: dict[str, set[str]], much_rarer,
                    timed_named: bool = True, count_named: bool = False) -> bool:
    """Without a unit, the same analyte and specimen under another property (%, #, presence) is a tie.

    A cell type that LOINC counts both per volume and per 100 leukocytes is a tie even when the
    other code is missing from the table: only the unit could say which one the lab reported,
    unless the name asks for the count (`count_named`: "Neutrophil count", the best code a count).
    """
    best = ranked[0]
    best_cell = _cell_key(best.entry)
    kinds = cell_kinds.get(best_cell, set())
    if not count_named and best.entry.kinds & kinds and len(kinds & {"count_conc", "fraction"}) == 2:
        return True
    for other in ranked[1:10]:
        if not timed_named and _timed_unlike(best.entry, other.entry):
            continue  # "Urine Microalbumin": a 24-hour amount nobody printed is no tie, as in Matcher._lead
        if count_named and "fraction" in other.entry.kinds and _cell_key(other.entry) == best_cell:
            continue  # the share of the leukocytes, where the name asked for the count
        if (other.name_score >= best.name_score - 2 and other.entry.specimen == best.entry.specimen
                and other.entry.kinds != best.entry.kinds and not _unit_twins(best.entry, other.entry)
                and not (other.unasked_method and other.entry.kinds == {"ordinal"})  # "... by Light microscopy"
                and not much_rarer(best.entry, other.entry)):
            return True
    return False


def _timed_unlike(best: Entry, other: Entry) -> bool:
    """The other code is a timed collection ("24 hour Urine"), the best is not."""
    return bool(_TIMED_SYSTEM.match(other.system)) and not _TIMED_SYSTEM.match(best.system)


def _urine_twin(ranked: list[Candidate], much_rarer) -> bool:
    """A close candidate is the same analyte in urine while the best is in blood (or the reverse)."""
    best = ranked[0]
    sides = {"urine"}, {"serum_plasma", "blood"}
    for other in ranked[1:10]:
        if (other.name_score < best.name_score - 2 or other.entry.property != best.entry.property
                or other.entry.component.lower() != best.entry.component.lower()
                or other.unasked_method  # "Globulin in Urine by Electrophoresis": a method nobody named
                or much_rarer(best.entry, other.entry)):
            continue
        pair = {best.entry.specimen, other.entry.specimen}
        if len(pair) == 2 and pair & sides[0] and pair & sides[1]:
            return True
    return False


def _hour_in_name(unit: str | None, read: ReadName) -> bool:
    """"V.S.G. 1ª hora" in "mm", "Vitesse de sédimentation (1ère heure)" in "mm": the name gives the hour of
    the millimetres per hour (names.read_name reads it as a rate), so the bare length is no unreadable unit."""
    return read.unit_kind == "velocity" and normalize_unit(unit) == "mm"


def _coagulation_twins(best: Entry, other: Candidate) -> bool:
    """A clotting test is run on citrated platelet-poor plasma, yet LOINC codes the same test "in Blood"
    as well (aPTT 14979-9 and 3173-2, INR 6301-6 and 34714-6) and labs use either code for one printed
    row: the twin in the other system is no competitor. Nor is a variant by a method nobody named
    ("aPTT ... by Coagulation 1:1 saline", a mixing study's step) whose component reads the same."""
    twin = other.entry
    if best.cls != "COAG" or twin.cls != "COAG" or best.timing != twin.timing:
        return False
    if best.property.lower() != twin.property.lower() or not {best.system, twin.system} <= _COAGULATION_SYSTEMS:
        return False
    if best.component == twin.component:
        return best.system != twin.system or other.unasked_method
    return other.unasked_method and analyte_text(best.component) == analyte_text(twin.component)


def _serology_presence(entry: Entry, method_printed: bool = False) -> bool:
    """`method_printed`: the code's method, if any, is among the printed name's words."""
    return (entry.cls == "MICRO" and entry.property == "Presence" and (not entry.method or method_printed)
            and entry.system in _SEROLOGY_SYSTEMS and entry.rank is not None)


def _dimensionless(entry: Entry) -> bool:
    """A ratio or fraction property: its mass and molar twins print the same number, unit or not."""
    prop = entry.property.lower()
    return "ratio" in prop or "fraction" in prop


def _test_key(entry: Entry) -> tuple[str, str, str, str]:
    """One test whatever its method: component, property, system, timing."""
    return entry.component, entry.property.lower(), entry.system, entry.timing


def _largest_count(entry: Entry) -> float | None:
    """The largest count magnitude (cells/L) among the units LOINC gives the code, if any."""
    scales = [m for m in map(count_magnitude, entry.units) if m]
    return max(scales) if scales else None


def _cell_key(entry: Entry) -> str:
    return _PER_HUNDRED.sub("", entry.component.lower()).strip()


def _method_variants(a: Entry, b: Entry) -> bool:
    """The same test by another method. The Top 2000 long names of some codes leave the system
    out ("GFR/1.73 sq M.predicted by Creatinine-based formula (MDRD)"): a missing system matches."""
    return (a.component == b.component and a.timing == b.timing  # cheap tests first: called per candidate
            and (a.property == b.property or a.property.lower() == b.property.lower())
            and (a.system == b.system or not a.system or not b.system))


_BLOOD_LEVEL = re.compile(r"^([a-z]{4,}?)(?:e|ae)mi[ea]$")


def _blood_level_stems(word: str) -> tuple[str, ...]:
    """French "-émie" and Italian/Spanish "-emia" name an analyte's blood level ("Ferritinémie",
    "Albuminemia"): the analyte is the stem ("ferritin", "ferritine", "albumina")."""
    found = _BLOOD_LEVEL.match(word)
    if found is None:
        return ()
    stem = found.group(1)
    return stem, stem + "e", stem + "a"


# Endings that make a plural or a gender in the five languages ("Thrombozyt"/"Thrombozyten",
# "Ferritin"/"Ferritine", "Leucocito"/"Leucocitos"): the word read, not a guess at another word.
_INFLECTIONS = ("en", "es", "s", "n", "e")


def _inflected(word: str, known: str) -> bool:
    """One word is the other with a plural or gender ending, on a stem long enough to be an analyte."""
    short, long_ = sorted((word, known), key=len)
    return len(short) >= 5 and long_.startswith(short) and long_[len(short):] in _INFLECTIONS


def _ocr_variants(word: str) -> tuple[str, ...]:
    return (fix_ocr(word), word.replace("rn", "m"), word.replace("m", "rn"))


def _digit_variants(word: str) -> tuple[str, ...]:
    """The digit 1 read as "i" or "l" ("HbAic" is HbA1c). Tried after the OCR fixes, and counted as
    a guess (needs_review): the printed name stays misread, and a person should see it."""
    return word.replace("i", "1"), word.replace("l", "1")


def _unit_twins(a: Entry, b: Entry) -> bool:
    """Same test reported in mass or in substance units: only the printed unit tells them apart."""
    if (a.component, a.system, a.method, a.timing) != (b.component, b.system, b.method, b.timing):
        return False
    pair = {a.property.lower(), b.property.lower()}
    return len(pair) == 2 and any(pair <= group for group in _TWIN_PROPERTIES)


_MATCHER: Matcher | None = None
_LOCK = threading.Lock()


def get_matcher() -> Matcher:
    """The process-wide matcher, built on first use."""
    global _MATCHER
    if _MATCHER is None:
        with _LOCK:
            if _MATCHER is None:
                _MATCHER = Matcher()
    return _MATCHER


def _initials_dropped(name: str) -> str | None:
    """"Average Blood Glucose (ABG)" -> "Average Blood Glucose": the name without a bracket that only
    spells its words' initials (a trailing "s" and lower-case letters allowed: "eGFR", "RBCs"), else None."""
    found = _NAME_AND_SYNONYM.match(name)
    if found is None:
        return None
    words = _INITIALS_WORDS.findall(found.group(1))
    initials = "".join(word[0] for word in words).lower()
    bracket = found.group(2).strip().lower()
    if len(words) < 2 or not bracket.isalpha() or bracket.rstrip("s") != initials.rstrip("s"):
        return None
    return found.group(1).strip()

