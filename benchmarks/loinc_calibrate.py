"""Fit the LOINC matcher's confidence (a logistic model over `Matcher.judge` features).

    python benchmarks/loinc_calibrate.py [--write]

Fits on the development names (report rows, `unseen`) and one half of the MIMIC hold-out
(split by a hash of the label), then prints a reliability table on the other half and on the
later `fresh` set: predicted confidence bucket -> share of top-1 codes that were right.
With --write it stores the weights in loinc/data/confidence.json, which the matcher reads.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

# The repository root first: this directory's loinc.py must not shadow the loinc package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import importlib.util  # noqa: E402

from loinc.confidence import CONFIDENCE_PATH, FEATURES  # noqa: E402
from loinc.confidence import weights as stored_weights  # noqa: E402
from loinc.matcher import Matcher  # noqa: E402

_spec = importlib.util.spec_from_file_location("loinc_benchmark", Path(__file__).parent / "loinc.py")
bench = importlib.util.module_from_spec(_spec)
sys.modules["loinc_benchmark"] = bench
_spec.loader.exec_module(bench)


def _half(label: str) -> int:
    return int(hashlib.sha1(label.lower().encode()).hexdigest()[:8], 16) % 2


def examples(matcher: Matcher, cases) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for case in cases:
        if not case.codes:
            continue
        ranked = matcher.rank(case.name, case.unit, panel=case.panel, specimen=case.specimen)
        _status, features = matcher.judge(case.name, case.unit, ranked, panel=case.panel, specimen=case.specimen)
        if not features:
            continue
        xs.append(features)
        ys.append(1.0 if ranked[0].entry.code in case.codes else 0.0)
    return np.array(xs), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 0.01, steps: int = 20000, rate: float = 0.5) -> np.ndarray:
    weights = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-x @ weights))
        gradient = x.T @ (p - y) / len(y) + l2 * np.r_[0.0, weights[1:]]
        weights -= rate * gradient
    return weights


def reliability(title: str, x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> None:
    p = 1.0 / (1.0 + np.exp(-x @ weights))
    bins: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for prob, right in zip(p, y):
        b = bins[min(int(prob * 5), 4)]
        b[0] += 1
        b[1] += right
        b[2] += prob
    cells = [f"{k / 5:.1f}-{(k + 1) / 5:.1f}: n={v[0]:3d} said {v[2] / v[0]:.2f} right {v[1] / v[0]:.2f}"
             for k, v in sorted(bins.items())]
    brier = float(np.mean((p - y) ** 2))
    print(f"{title} (n={len(y)}, Brier {brier:.3f})\n    " + "\n    ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store the weights for the matcher")
    args = parser.parse_args()
    matcher = Matcher()
    mimic = bench.load_mimic(False) + bench.load_mimic(True)
    fit_cases = bench.load_labelled("report") + bench.load_labelled("unseen") + [c for c in mimic if _half(c.name) == 0]
    check_mimic = [c for c in mimic if _half(c.name) == 1]
    x, y = examples(matcher, fit_cases)
    weights = fit(x, y)
    print("weights:", [round(float(w), 3) for w in weights])
    reliability("fit set", x, y, weights)
    reliability("MIMIC check half", *examples(matcher, check_mimic), weights)
    reliability("fresh set", *examples(matcher, bench.load_labelled("fresh")), weights)
    stored = np.array(stored_weights())
    reliability("MIMIC check half, weights the matcher uses now", *examples(matcher, check_mimic), stored)
    reliability("fresh set, weights the matcher uses now", *examples(matcher, bench.load_labelled("fresh")), stored)
    if args.write:
        CONFIDENCE_PATH.write_text(json.dumps({
            "features": list(FEATURES),
            "weights": [round(float(w), 4) for w in weights],
        }, indent=1) + "\n")
        print(f"wrote {CONFIDENCE_PATH}")


if __name__ == "__main__":
    main()
