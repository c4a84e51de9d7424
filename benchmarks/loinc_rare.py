"""Choose `loinc.matcher.RARE_RATIO` on one half of the labelled names, report the other half.

    python benchmarks/loinc_rare.py

The names matched without units (the `unseen` and `fresh` sets of labelled_names.tsv and the MIMIC
hold-out with its fluid) are split in two by a hash of the name. For each ratio (how many times
less used a competing test must be before it stops holding back an auto_match) it prints
auto_match coverage and precision (strict, and counting method siblings) on the tuning half, then
on the reporting half, which no choice looked at. Neither half is read by the matcher.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loinc import matcher as matcher_module  # noqa: E402

_spec = importlib.util.spec_from_file_location("loinc_benchmark", Path(__file__).parent / "loinc.py")
bench = importlib.util.module_from_spec(_spec)
sys.modules["loinc_benchmark"] = bench
_spec.loader.exec_module(bench)

RATIOS = (float("inf"), 100.0, 50.0, 20.0, 10.0, 5.0, 2.0)


def half(name: str) -> int:
    return int(hashlib.sha1(name.lower().encode()).hexdigest()[:8], 16) % 2


def figures(matcher, cases) -> str:
    auto = right = sibling = 0
    for case in cases:
        result = matcher.match(case.name, case.unit, panel=case.panel, specimen=case.specimen)
        if result.status != "auto_match":
            continue
        code = result.matches[0][0].code
        auto += 1
        right += code in case.codes
        sibling += bench.sibling_of(matcher, code, case.codes)
    n = len(cases)
    return (f"cov {auto / n:.3f} prec {right / auto if auto else 1:.3f} sib {sibling / auto if auto else 1:.3f}"
            f" ({auto - right} wrong)")


def main() -> None:
    sets = {"unseen": bench.load_labelled("unseen"), "fresh": bench.load_labelled("fresh"),
            "mimic": bench.load_mimic(False)}
    matcher = matcher_module.Matcher()
    for which in (0, 1):
        print(f"{'tuning' if which == 0 else 'reporting'} half:")
        for ratio in RATIOS:
            matcher_module.RARE_RATIO = ratio
            cells = []
            for name, cases in sets.items():
                part = [c for c in cases if c.codes and half(c.name) == which]
                cells.append(f"{name}[{len(part)}] {figures(matcher, part)}")
            print(f"  ratio {ratio:>5}: " + " | ".join(cells))


if __name__ == "__main__":
    main()
