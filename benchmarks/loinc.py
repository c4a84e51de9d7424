"""LOINC matcher benchmark: accuracy on labelled printed names, speed, load time.

    python benchmarks/loinc.py [--show-misses]

Sets (all in benchmarks/data/, none read by the matcher):
  report  rows of the real sample reports, with unit and panel context;
  unseen  names as other labs print them, labelled by hand, matched WITHOUT units (error
          analysis was done on this set: it is a development set);
  fresh   a second such set, labelled after tuning, WITHOUT units (first-run figures in
          labelled_names.tsv; later generic changes followed one look at its misses);
  mimic   the MIMIC-IV labels held out of the alias table (loinc/build.py split),
          matched with their fluid as specimen, once without and once with units.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# After the path line, so the file also runs as a plain script.
from loinc import names, units  # noqa: E402
from loinc.matcher import Matcher  # noqa: E402
from loinc.table import load_table  # noqa: E402

DATA = Path(__file__).parent / "data"


@dataclass
class Case:
    name: str
    unit: str | None
    panel: str | None
    specimen: str | None
    codes: list[str]  # acceptable codes; empty = no_match expected


def load_labelled(which: str) -> list[Case]:
    cases = []
    for line in (DATA / "labelled_names.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = (line.split("\t") + [""] * 6)[:6]
        if cols[0] != which:
            continue
        _, name, unit, panel, sample_type, codes = (c.strip() for c in cols)
        cases.append(Case(name, unit or None, panel or None, sample_type or None,
                          [] if codes == "-" else codes.split("|")))
    return cases


_FLUID = {"Blood": "serum_plasma_blood", "Urine": "urine", "Stool": "stool"}


def load_mimic(with_units: bool) -> list[Case]:
    cases = []
    with (DATA / "mimic_heldout.tsv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if not row["code"]:
                continue
            fluid = row["fluid"]
            cases.append(Case(row["label"], row["unit"] or None if with_units else None, None,
                              _FLUID.get(fluid, fluid), [row["code"]]))
    return cases


def sibling_of(matcher, code: str, wanted: list[str]) -> bool:
    """The code is a wanted one, or the same test (component, property, system, timing) by another
    method: LOINC's method siblings ("... by Automated count") name one concept."""
    if code in wanted:
        return True
    got = matcher.lookup(code)
    if got is None:
        return False
    return any(w is not None and (w.component, w.property, w.system, w.timing) ==
               (got.component, got.property, got.system, got.timing) for w in map(matcher.lookup, wanted))


def evaluate(matcher, cases: list[Case], show_misses: bool, title: str) -> dict:
    hits1 = hits5 = auto = auto_right = scored = 0
    sib1 = sib5 = sib_auto_right = 0  # the same, counting a method sibling as right
    t_hits1 = t_auto = t_auto_right = 0  # restricted to cases whose code the table has
    auto_same_test = 0  # wrong code but the same component, property and specimen (a method variant)
    expected_none = none_ok = 0
    misses = []
    in_table = 0
    for case in cases:
        result = matcher.match(case.name, case.unit, panel=case.panel, specimen=case.specimen)
        codes = [entry.code for entry, _ in result.matches]
        if not case.codes:
            expected_none += 1
            none_ok += result.status == "no_match"
            if result.status != "no_match":
                misses.append((case, result))
            continue
        scored += 1
        has_code = any(matcher.lookup(c) for c in case.codes)
        in_table += has_code
        right1 = bool(codes) and codes[0] in case.codes
        hits1 += right1
        if has_code:
            t_hits1 += right1
            t_auto += result.status == "auto_match"
            t_auto_right += result.status == "auto_match" and right1
        hits5 += any(c in case.codes for c in codes[:5])
        sibling1 = bool(codes) and sibling_of(matcher, codes[0], case.codes)
        sib1 += sibling1
        sib5 += any(sibling_of(matcher, c, case.codes) for c in codes[:5])
        if result.status == "auto_match":
            auto += 1
            auto_right += right1
            sib_auto_right += sibling1
            if not right1:
                misses.append((case, result))
                wanted = [matcher.lookup(c) for c in case.codes]
                got = result.matches[0][0]
                auto_same_test += any(w and (w.component, w.property, w.system) == (got.component, got.property,
                                                                                     got.system) for w in wanted)
        elif not right1:
            misses.append((case, result))
    out = {
        "n": scored, "codes_in_table": in_table / scored if scored else 0,
        "top1": hits1 / scored if scored else 0, "top5": hits5 / scored if scored else 0,
        "auto_coverage": auto / scored if scored else 0,
        "auto_precision": auto_right / auto if auto else 1.0, "auto_wrong": auto - auto_right,
        "no_match_expected": expected_none, "no_match_given": none_ok,
        "in_table_top1": t_hits1 / in_table if in_table else 0,
        "in_table_auto_precision": t_auto_right / t_auto if t_auto else 1.0,
        "top1_siblings": sib1 / scored if scored else 0, "top5_siblings": sib5 / scored if scored else 0,
        "auto_precision_siblings": sib_auto_right / auto if auto else 1.0,
    }
    print(f"{title:38s} n={scored:4d} top1={out['top1']:.3f} top5={out['top5']:.3f} "
          f"auto_cov={out['auto_coverage']:.3f} auto_prec={out['auto_precision']:.3f} "
          f"(wrong auto {out['auto_wrong']}, of which method variants {auto_same_test}) "
          f"codes_in_table={out['codes_in_table']:.3f}"
          + (f" no_match {none_ok}/{expected_none}" if expected_none else ""))
    print(f"{'':38s} method siblings count as right: top1={out['top1_siblings']:.3f} "
          f"top5={out['top5_siblings']:.3f} auto_prec={out['auto_precision_siblings']:.3f}")
    if in_table < scored:
        print(f"{'':38s} codes the table has ({in_table}): top1={out['in_table_top1']:.3f} "
              f"auto_prec={out['in_table_auto_precision']:.3f} ({t_auto_right}/{t_auto})")
    if show_misses:
        for case, result in misses:
            top = "; ".join(f"{e.code} {e.long_name[:50]} {c:.2f}" for e, c in result.matches[:2])
            print(f"    MISS {case.name!r} {case.unit!r} want={case.codes} got[{result.status}] {top}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()

    started, cpu = time.perf_counter(), time.process_time()
    entries = load_table()
    table_seconds, table_cpu = time.perf_counter() - started, time.process_time() - cpu
    started, cpu = time.perf_counter(), time.process_time()
    matcher = Matcher(entries)
    index_seconds, index_cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"table load {table_seconds:.3f} s wall / {table_cpu:.3f} s CPU ({len(entries)} codes); "
          f"matcher index build {index_seconds:.3f} s wall / {index_cpu:.3f} s CPU")

    sets = {
        "report rows (unit + panel)": load_labelled("report"),
        "unseen lab names (no units; dev)": load_labelled("unseen"),
        "fresh lab names (no units; late)": load_labelled("fresh"),
        "MIMIC held-out (no units, fluid)": load_mimic(with_units=False),
        "MIMIC held-out (units, fluid)": load_mimic(with_units=True),
    }
    for title, cases in sets.items():
        evaluate(matcher, cases, args.show_misses, title)

    # Speed: fresh matcher (empty caches), every distinct query once, one thread.
    queries = list({(c.name, c.unit, c.panel, c.specimen) for cases in sets.values() for c in cases})
    # CPU time of this process (one thread): the machine may be shared, wall time is printed too.
    runs, wall_runs = [], []
    for _ in range(5):
        for cached in (names.read_name, names.analyte_text, names.fold, units.unit_kind, units.normalize_unit):
            cached.cache_clear()
        cold = Matcher(entries)
        cpu, wall = time.process_time(), time.perf_counter()
        for name, unit, panel, specimen in queries:
            cold.match(name, unit, panel=panel, specimen=specimen)
        runs.append(len(queries) / (time.process_time() - cpu))
        wall_runs.append(len(queries) / (time.perf_counter() - wall))
    # Like timeit, the best run is the machine's speed; slower runs measured other processes too.
    print(f"speed: {max(runs):,.0f} names/s of CPU time, one thread, best of 5 cold runs "
          f"(median {statistics.median(runs):,.0f}; wall {max(wall_runs):,.0f}/s) over {len(queries)} distinct queries")
    # A batch of reports repeats names: the same queries again on the now warm matcher.
    cpu = time.process_time()
    for name, unit, panel, specimen in queries:
        cold.match(name, unit, panel=panel, specimen=specimen)
    print(f"       {len(queries) / (time.process_time() - cpu):,.0f} names/s of CPU time when the names repeat (warm caches)")


if __name__ == "__main__":
    main()
