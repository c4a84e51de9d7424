"""FHIR output coverage over the fixtures (issue 12's "Done means"), one line per family.

    python -m benchmarks.fhir [--ocr]

For every fixture the report is parsed (real and digital; `--ocr` adds the scanned and photo
ones, slow) and its Bundle built, validated by fhir.resources and counted: Observations =
results, auto_match rows carrying their LOINC coding, numeric rows with a printed unit that
carry a UCUM quantity, emitted UCUM codes outside the valid set, rows with a range that have a
`referenceRange`, abnormal rows with an `interpretation`. The `expected` line does the same
from the fixtures' expected JSON (every modality, no parsing): the mapping on true units.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass, field, fields

from fhir.resources.R4B.bundle import Bundle

from fixtures.catalog import discover
from loinc.ucum import UCUM_SYSTEM, annotate_units, to_ucum, valid_codes
from parser.models import ReportData
from service.fhir import build_bundle, bundle_json, decimal_comma_of, numeric_value, observations_of


@dataclass
class Coverage:
    reports: int = 0
    valid_bundles: int = 0
    results: int = 0
    observations: int = 0
    auto_match: int = 0
    auto_match_coded: int = 0
    numeric_with_unit: int = 0
    ucum_quantity: int = 0
    invalid_codes: int = 0
    with_range: int = 0
    range_emitted: int = 0
    abnormal: int = 0
    interpreted: int = 0
    no_ucum: Counter = field(default_factory=Counter)  # printed units of numeric rows left without a code

    def add(self, other: Coverage) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def line(self, name: str) -> str:
        def share(part: int, whole: int) -> str:
            return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0"

        return (
            f"{name:<9} bundles valid {share(self.valid_bundles, self.reports)}  "
            f"observations {self.observations}/{self.results}  "
            f"auto_match coded {share(self.auto_match_coded, self.auto_match)}  "
            f"UCUM quantity {share(self.ucum_quantity, self.numeric_with_unit)}  "
            f"invalid codes {self.invalid_codes}  "
            f"referenceRange {share(self.range_emitted, self.with_range)}  "
            f"interpretation {share(self.interpreted, self.abnormal)}"
        )


def measure(report: ReportData, bundle: Bundle) -> Coverage:
    """What the Bundle carries of the report, row by row."""
    cov = Coverage(reports=1, results=len(report.results))
    Bundle.model_validate_json(bundle_json(bundle))  # raises when the Bundle is not valid
    cov.valid_bundles = 1
    observations = [json.loads(o.model_dump_json(exclude_none=True)) for o in observations_of(bundle)]
    cov.observations = len(observations)
    decimal_comma = decimal_comma_of(report)
    valid = valid_codes()
    for result, obs in zip(report.results, observations):
        quantity = obs.get("valueQuantity") or {}
        ranges = obs.get("referenceRange", [])
        quantities = [quantity, *(rr[k] for rr in ranges for k in ("low", "high") if k in rr)]
        cov.invalid_codes += sum(q["code"] not in valid for q in quantities if "code" in q)
        if result.loinc_match_status == "auto_match":
            cov.auto_match += 1
            coding = obs["code"].get("coding", [])
            cov.auto_match_coded += bool(coding) and coding[0]["code"] == result.loinc_matches[0].loinc_code
        if result.units and numeric_value(result, decimal_comma) is not None:
            cov.numeric_with_unit += 1
            coded = quantity.get("system") == UCUM_SYSTEM and bool(quantity.get("code"))
            cov.ucum_quantity += coded
            cov.no_ucum.update([] if coded else [result.units])
        if result.min_reference_range is not None or result.max_reference_range is not None \
                or result.reference_range_text:
            cov.with_range += 1
            cov.range_emitted += bool(obs.get("referenceRange"))
        if result.interpretation in ("abnormal", "critical"):
            cov.abnormal += 1
            cov.interpreted += bool(obs.get("interpretation"))
    return cov


def parsed_reports(modalities: set[str]):
    """(family, report) for every parsable fixture of these modalities, parsed once."""
    from service.pipeline import process_document

    for fixture in discover():
        if fixture.modality in modalities and not fixture.expected_failure:
            yield fixture.modality, process_document(fixture.path.read_bytes(), filename=fixture.path.name)


def expected_reports():
    """Every fixture's expected report, with the UCUM field set as the pipeline would."""
    for fixture in discover():
        if not fixture.expected_failure:
            report = ReportData.model_validate(fixture.expected)
            annotate_units(report.results)
            yield report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ocr", action="store_true", help="also parse the scanned and photo fixtures (slow)")
    args = parser.parse_args(argv)
    modalities = {"real", "digital"} | ({"scanned", "photo"} if args.ocr else set())
    families: dict[str, Coverage] = {}
    total = Coverage()
    for number, (family, report) in enumerate(parsed_reports(modalities)):
        cov = measure(report, build_bundle(report, key=f"bench-{number}", final=True))
        families.setdefault(family, Coverage()).add(cov)
        total.add(cov)
    expected = Coverage()
    for number, report in enumerate(expected_reports()):
        expected.add(measure(report, build_bundle(report, key=f"expected-{number}", final=True)))
    for family, cov in sorted(families.items()):
        print(cov.line(family))
    print(f"parsed units without a UCUM code: {dict(total.no_ucum)}")
    print(total.line("parsed"))
    print(expected.line("expected"))
    print(f"expected units without a UCUM code: {dict(expected.no_ucum)}")
    print(mimic_units())


def mimic_units() -> str:
    """UCUM codes for a real LIS's printed units (MIMIC-IV lab items), which the build does not read."""
    import csv

    from loinc.ucum_build import DEFAULT_SOURCE

    with (DEFAULT_SOURCE / "mimic_d_labitems_to_loinc.csv").open(encoding="utf-8", newline="") as handle:
        units = Counter(row["valueuom"].strip() for row in csv.DictReader(handle) if row["valueuom"].strip())
    mapped = {unit for unit in units if to_ucum(unit)}
    rows = sum(count for unit, count in units.items() if unit in mapped)
    return (f"MIMIC-IV lab item units: {len(mapped)}/{len(units)} distinct, {rows}/{sum(units.values())} "
            f"items get a UCUM code; none: {sorted(set(units) - mapped)}")


if __name__ == "__main__":
    main()
