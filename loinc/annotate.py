"""Fill the LOINC fields of every result of a parsed report, in place."""

from __future__ import annotations

import logging
import re

from loinc.matcher import MatchResult, get_matcher
from loinc.table import Entry
from loinc.units import ORDINAL
from parser import vocabulary
from parser.models import LabReportResult, LoincMatch, ReportData

log = logging.getLogger(__name__)

# Parser sample types that say nothing about the specimen.
_NO_SPECIMEN = {"unknown", "other"}


def to_loinc_match(entry: Entry, confidence: float) -> LoincMatch:
    return LoincMatch(
        loinc_code=entry.code,
        loinc_name=entry.long_name,
        display_name=entry.display_name,
        aliases=list(_shown_aliases(entry)),
        confidence_score=max(0.0, min(1.0, confidence)),
    )


# Per entry (by id, the entry kept alongside so a recycled id is noticed): the table is built
# once and every result of every report asks for its candidates' aliases.
_ALIASES: dict[int, tuple[Entry, tuple[str, ...]]] = {}


def _shown_aliases(entry: Entry) -> tuple[str, ...]:
    cached = _ALIASES.get(id(entry))
    if cached is not None and cached[0] is entry:
        return cached[1]
    # The table lists a label once per (fluid, unit) it was seen with: show each name once.
    aliases: list[str] = []
    seen: set[str] = set()
    for label in (entry.short_name, *(label for label, _fluid, _unit in entry.aliases)):
        if label and label.casefold() not in seen and len(aliases) < 6:
            seen.add(label.casefold())
            aliases.append(label)
    if len(_ALIASES) > 20_000:
        _ALIASES.clear()
    _ALIASES[id(entry)] = (entry, tuple(aliases))
    return tuple(aliases)


# A flag letter the reader left at the end of the name ("Urea H", "Iron, Total L").
_TRAILING_FLAG = re.compile(r"\s+\(?(H|L|HH|LL)\)?\s*$")


def name_for_matching(result: LabReportResult) -> str:
    """The printed name without a trailing flag letter that the row's value and range bear out.

    Only when no flag was read separately and the value lies on that side of its range: "Factor H"
    inside its range keeps its letter.
    """
    name = result.test_name
    found = _TRAILING_FLAG.search(name)
    if found is None or result.source_flag:
        return name
    try:
        value = float(result.value.strip().replace(",", "."))
    except ValueError:
        return name
    high = found.group(1).startswith("H")
    limit = result.max_reference_range if high else result.min_reference_range
    if limit is None or not (value > limit if high else value < limit):
        return name
    return name[:found.start()]


# Printed results that are a finding on an ordinal scale (dipstick, serology): without a unit they
# say the code is a presence-type one, not a mass concentration. The English words, and the French,
# German, Italian and Spanish negatives and positives as the parser reads them (parser.vocabulary;
# positives are its "posi..." words, as parser.normalize picks them). On the non-sealed html_i18n
# and real_i18n rows with such a word and no unit: 15 of 28 auto-matched right (7 before), top-1
# unchanged (20), no wrong auto-match.
# "Trace" on a strip, in French, Italian, Spanish and German: an ordinal step like "1+".
_EUROPEAN_TRACE = ["traces", "trace", "tracce", "traccia", "indicios", "trazas", "spuren", "spur"]
_EUROPEAN_ORDINAL = sorted(vocabulary.european_presence_words(), key=len, reverse=True)
_ORDINAL_VALUE = re.compile(
    r"^(?:negative|positive|neg|pos|nil|absent|present|trace|reactive|non[ -]?reactive|detected|"
    r"not detected|[1-4]\s?\+|\+{1,4}|" + "|".join(map(re.escape, _EUROPEAN_ORDINAL + _EUROPEAN_TRACE)) + r")$",
    re.IGNORECASE)


def value_kind(result: LabReportResult) -> str | None:
    """ORDINAL for a unit-less result like "Negative", "Trace", "2+"; None otherwise."""
    if result.units or not _ORDINAL_VALUE.match(" ".join(result.value.split())):
        return None
    return ORDINAL


def match_result(result: LabReportResult, aliases: dict[tuple[str, str], str] | None = None) -> MatchResult:
    specimen = None if result.sample_type in _NO_SPECIMEN else result.sample_type
    return get_matcher().match(
        name_for_matching(result),
        result.units,
        panel=result.source_panel_name,
        specimen=specimen,
        calculated=result.measurement_kind == "calculated",
        aliases=aliases,
        value_kind=value_kind(result),
    )


def annotate_report(report: ReportData, aliases: dict[tuple[str, str], str] | None = None) -> None:
    """Set `loinc_matches` (<= 5, best first) and `loinc_match_status` on every result.

    `aliases` maps a team's (normalized printed name, normalized unit) -> LOINC code, keyed
    with `loinc.matcher.alias_key`; an exact hit is an auto_match.
    """
    counts = {"auto_match": 0, "needs_review": 0, "no_match": 0}
    for result in report.results:
        found = match_result(result, aliases)
        result.loinc_matches = [to_loinc_match(entry, confidence) for entry, confidence in found.matches[:5]]
        result.loinc_match_status = found.status
        counts[found.status] = counts.get(found.status, 0) + 1
    log.debug("loinc annotate: %d results %s", len(report.results), counts)
