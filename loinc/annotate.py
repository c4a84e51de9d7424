"""Fill the LOINC fields of every result of a parsed report, in place."""

from __future__ import annotations

import logging

from loinc.matcher import MatchResult, get_matcher
from loinc.table import Entry
from parser.models import LabReportResult, LoincMatch, ReportData

log = logging.getLogger(__name__)

# Parser sample types that say nothing about the specimen.
_NO_SPECIMEN = {"unknown", "other"}


def to_loinc_match(entry: Entry, confidence: float) -> LoincMatch:
    # The table lists a label once per (fluid, unit) it was seen with: show each name once.
    aliases: list[str] = []
    seen: set[str] = set()
    for label in (entry.short_name, *(label for label, _fluid, _unit in entry.aliases)):
        if label and label.casefold() not in seen and len(aliases) < 6:
            seen.add(label.casefold())
            aliases.append(label)
    return LoincMatch(
        loinc_code=entry.code,
        loinc_name=entry.long_name,
        display_name=entry.display_name,
        aliases=aliases,
        confidence_score=max(0.0, min(1.0, confidence)),
    )


def match_result(result: LabReportResult, aliases: dict[tuple[str, str], str] | None = None) -> MatchResult:
    specimen = None if result.sample_type in _NO_SPECIMEN else result.sample_type
    return get_matcher().match(
        result.test_name,
        result.units,
        panel=result.source_panel_name,
        specimen=specimen,
        calculated=result.measurement_kind == "calculated",
        aliases=aliases,
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
