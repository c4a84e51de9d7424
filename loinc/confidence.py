"""Confidence of a match: a logistic model over the matcher's judgement features.

The weights are fitted on labelled printed names by `python benchmarks/loinc_calibrate.py
--write` and stored in data/confidence.json, so 0.9 means about nine in ten such top codes
were right on the labelled sets (see the benchmark's reliability table).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

CONFIDENCE_PATH = Path(__file__).parent / "data" / "confidence.json"
FEATURES = ("bias", "name_score", "lead", "auto_match", "reliable_class", "unit_kind_known",
            "specimen_fits", "guessed_spelling", "exact_name", "common_code")
# Used only until a fitted file exists; same order as FEATURES.
_DEFAULT_WEIGHTS = (-4.0, 1.0, 0.0, 2.5, 0.5, 0.3, 2.0, -1.0, 0.5, 0.5)


@lru_cache(maxsize=1)
def weights() -> tuple[float, ...]:
    if not CONFIDENCE_PATH.is_file():
        return _DEFAULT_WEIGHTS
    stored = json.loads(CONFIDENCE_PATH.read_text())
    if tuple(stored["features"]) != FEATURES:
        raise ValueError(f"{CONFIDENCE_PATH} was fitted for other features; rerun benchmarks/loinc_calibrate.py")
    return tuple(stored["weights"])


def probability(features: list[float]) -> float:
    z = sum(w * x for w, x in zip(weights(), features))
    return 1.0 / (1.0 + math.exp(-z))
