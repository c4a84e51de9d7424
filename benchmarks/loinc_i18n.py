"""LOINC top-1 on French, German, Italian and Spanish printed names: `python benchmarks/loinc_i18n.py`.

The names (benchmarks/data/i18n_names.tsv) are variants of how labs print them, none verbatim in
loinc/data/aliases_i18n.tsv, each matched with its printed unit, in two sets: `dev` (its misses
were looked at) and `fresh` (written later, before any change made from dev's misses). Prints
top-1 (the first candidate is an acceptable code) and the share auto-matched right, per set and
language; `--show-misses` lists the misses.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loinc.matcher import AUTO_MATCH, Matcher  # noqa: E402

DATA = Path(__file__).parent / "data" / "i18n_names.tsv"


@dataclass(frozen=True)
class Case:
    set: str  # dev or fresh
    language: str
    name: str
    unit: str | None
    codes: tuple[str, ...]


def load_cases(path: Path = DATA) -> list[Case]:
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        which, language, name, unit, codes = line.split("\t")
        cases.append(Case(which, language, name, unit or None, tuple(codes.split("|"))))
    return cases


def evaluate(matcher: Matcher, cases: list[Case]) -> dict[str, dict]:
    """language (and "all") -> {"n", "top1", "auto", "misses"}."""
    figures: dict[str, dict] = defaultdict(lambda: {"n": 0, "top1": 0, "auto": 0, "misses": []})
    for case in cases:
        result = matcher.match(case.name, case.unit)
        top = result.matches[0][0].code if result.matches else None
        for key in (case.language, "all"):
            row = figures[key]
            row["n"] += 1
            if top in case.codes:
                row["top1"] += 1
                row["auto"] += result.status == AUTO_MATCH
            elif key == "all":
                row["misses"].append((case, top, result.status))
    return dict(figures)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    matcher, cases = Matcher(), load_cases()
    print(f"{'set':6s} {'language':10s} {'names':>6s} {'top-1':>7s} {'auto-matched right':>19s}")
    for which in ("dev", "fresh"):
        figures = evaluate(matcher, [case for case in cases if case.set == which])
        for language in ("fr", "de", "it", "es", "all"):
            row = figures[language]
            print(f"{which:6s} {language:10s} {row['n']:6d} {row['top1'] / row['n']:7.3f} "
                  f"{row['auto'] / row['n']:19.3f}")
        if args.show_misses:
            for case, top, status in figures["all"]["misses"]:
                print(f"MISS {which} {case.language} {case.name!r} [{case.unit}] -> {top} ({status}); "
                      f"want {case.codes[0]}")


if __name__ == "__main__":
    main()
