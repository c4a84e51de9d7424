"""Compare a parsed report with its expected output, field by field.

One module serves the accuracy benchmark and the fixture tests, so both measure the same thing.

- Rows are matched one-to-one: same page (when both sides know it) and a similar normalized test
  name (rapidfuzz, at least NAME_THRESHOLD); the value and the position in the list break ties
  between repeated names (WBC in the blood count and in the urinalysis).
- Row recall = matched / expected rows, precision = matched / predicted rows.
- Field accuracy is over matched rows: value (normalized string, see same_value), unit (normalized: case, µ/u,
  spaces), range (min and max both equal), interpretation; secondary fields are reported too.
- Metadata accuracy is over the fields that either side fills.
- fully_right = share of expected rows read with value, unit, range and interpretation right AND
  the predicted top LOINC code among the acceptable ones (benchmarks/loinc_truth.py, known for
  generated rows; a row whose analyte is unknown, as on real reports, is judged without the code).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field

from rapidfuzz import fuzz

NAME_THRESHOLD = 80.0
PRIMARY_FIELDS = ("value", "unit", "range", "interpretation")
SECONDARY_FIELDS = ("type", "source_flag", "is_above_max_range", "is_below_min_range",
                    "source_panel_name", "sample_type", "measurement_kind")
METADATA_FIELDS = ("patient_first_name", "patient_last_name", "dob", "gender", "lab_name",
                   "date_reported", "date_collected", "specimen_number")


# ---- normalization -------------------------------------------------------------------------

def normalize_name(name: str | None) -> str:
    """Lower case, accents and punctuation folded to spaces, footnote marks dropped."""
    text = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode()
    text = re.sub(r"[^a-z0-9%+]+", " ", text.lower())
    return " ".join(text.split())


_THOUSANDS = re.compile(r"^([<>]=?)?\d{1,3}(,\d{3})+$")  # 150,000 (also 1,005: ambiguous)
_DECIMAL_COMMA = re.compile(r"^([<>]=?)?\d+,\d+$")  # 4,2


def normalize_value(value: str | None) -> str:
    """Case and spacing folded, so "< 0.5" == "<0.5" and "NEGATIVE" == "Negative"."""
    text = (value or "").strip().casefold().replace("≤", "<=").replace("≥", ">=")
    return re.sub(r"\s+", "", text)


def same_value(expected: str | None, predicted: str | None) -> bool:
    """Equal as printed, or the same number with the printed comma read as the report meant it:
    "4,2" may come back as "4.2", "150,000" as "150000"; one 3-digit group after the comma
    ("1,005") may be either reading."""
    exp, pred = normalize_value(expected), normalize_value(predicted)
    if exp == pred:
        return True
    readings = set()
    if _THOUSANDS.match(exp):
        readings.add(exp.replace(",", ""))
    if _DECIMAL_COMMA.match(exp) and not re.search(r",\d{3}\d", exp) and len(exp.split(",")[-1]) <= 3:
        readings.add(exp.replace(",", "."))
    return pred in readings


def normalize_unit(unit: str | None) -> str | None:
    """Case, spaces, micro sign (µ/μ -> u), '^', superscript digits and '×' folded."""
    if unit is None or not unit.strip():
        return None
    text = unit.strip().replace("µ", "u").replace("μ", "u").replace("×", "x")
    text = text.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789"))
    text = re.sub(r"[\s^]+", "", text).casefold()
    return text


def same_number(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)


def _words(text: str | None) -> list[str]:
    return normalize_name(text).split()


def same_metadata(field_name: str, expected, predicted) -> bool:
    """Metadata equality, lenient only where printing varies harmlessly."""
    if expected is None or predicted is None:
        return expected is None and predicted is None
    exp, pred = _words(expected), _words(predicted)
    if field_name == "patient_first_name":  # "Yashvi" == "Yashvi M."
        return bool(pred) and bool(exp) and pred[0] == exp[0]
    if field_name == "lab_name":  # "Dr Lal PathLabs" == "Dr Lal PathLabs Ltd"
        shorter, longer = sorted((exp, pred), key=len)
        return bool(shorter) and " ".join(shorter) in " ".join(longer)
    if field_name == "specimen_number":
        return re.sub(r"[^0-9a-z]", "", str(expected).lower()) == re.sub(r"[^0-9a-z]", "", str(predicted).lower())
    return exp == pred


# ---- row matching --------------------------------------------------------------------------

def _as_dict(row) -> dict:
    return row if isinstance(row, dict) else row.model_dump()


def _short_tokens_conflict(na: str, nb: str) -> bool:
    """True for names that differ only in short tokens on both sides: different analytes that
    fuzzy ratios rate close ("HDL Cholesterol" / "LDL Cholesterol", "Free T3" / "Free T4")."""
    ta, tb = set(na.split()), set(nb.split())
    only_a, only_b = ta - tb, tb - ta
    return bool(only_a and only_b) and all(len(t) <= 4 for t in only_a | only_b)


def name_similarity(a: str, b: str) -> float:
    na, nb = normalize_name(a), normalize_name(b)
    if not na or not nb or _short_tokens_conflict(na, nb):
        return 0.0
    return max(fuzz.ratio(na, nb), fuzz.token_sort_ratio(na, nb))


def match_rows(expected: list[dict], predicted: list[dict]) -> list[tuple[int, int]]:
    """One-to-one (expected index, predicted index) pairs, best candidates first."""
    candidates = []
    n_exp, n_pred = max(len(expected), 1), max(len(predicted), 1)
    for i, exp in enumerate(expected):
        for j, pred in enumerate(predicted):
            if exp.get("page") and pred.get("page") and exp["page"] != pred["page"]:
                continue
            similarity = name_similarity(exp["test_name"], pred["test_name"])
            if similarity < NAME_THRESHOLD:
                continue
            bonus = 5.0 if same_value(exp["value"], pred["value"]) else 0.0
            order = abs(i / n_exp - j / n_pred)  # 0..1: where the row sits in its list
            candidates.append((similarity + bonus - order, i, j))
    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    used_exp, used_pred, pairs = set(), set(), []
    for _, i, j in candidates:
        if i not in used_exp and j not in used_pred:
            used_exp.add(i)
            used_pred.add(j)
            pairs.append((i, j))
    return sorted(pairs)


def field_matches(exp: dict, pred: dict) -> dict[str, bool]:
    """Which fields of a matched row agree."""
    result = {
        "value": same_value(exp.get("value"), pred.get("value")),
        "unit": normalize_unit(exp.get("units")) == normalize_unit(pred.get("units")),
        "range": same_number(exp.get("min_reference_range"), pred.get("min_reference_range"))
                 and same_number(exp.get("max_reference_range"), pred.get("max_reference_range")),
        "interpretation": exp.get("interpretation") == pred.get("interpretation"),
    }
    for name in SECONDARY_FIELDS:
        e, p = exp.get(name), pred.get(name)
        if name in ("source_flag", "source_panel_name"):
            e, p = normalize_name(e) or None, normalize_name(p) or None
        result[name] = e == p
    return result


# ---- scores --------------------------------------------------------------------------------

@dataclass
class Score:
    """Counts for one report or, added up, for many."""
    expected_rows: int = 0
    predicted_rows: int = 0
    matched_rows: int = 0
    field_hits: dict[str, int] = field(default_factory=dict)
    metadata_hits: int = 0
    metadata_total: int = 0
    failures_expected: int = 0  # reports that must be refused
    failures_right: int = 0
    fully_right_rows: int = 0  # expected rows read right in every primary field and the LOINC code
    loinc_known: int = 0  # matched rows whose acceptable LOINC codes are known
    loinc_hits: int = 0  # ... whose predicted top code is one of them
    rows_without_code: int = 0  # expected rows judged without a LOINC code (analyte unknown)
    differences: list[str] = field(default_factory=list)

    def add(self, other: "Score") -> "Score":
        self.expected_rows += other.expected_rows
        self.predicted_rows += other.predicted_rows
        self.matched_rows += other.matched_rows
        for key, hits in other.field_hits.items():
            self.field_hits[key] = self.field_hits.get(key, 0) + hits
        self.metadata_hits += other.metadata_hits
        self.metadata_total += other.metadata_total
        self.failures_expected += other.failures_expected
        self.failures_right += other.failures_right
        self.fully_right_rows += other.fully_right_rows
        self.loinc_known += other.loinc_known
        self.loinc_hits += other.loinc_hits
        self.rows_without_code += other.rows_without_code
        self.differences.extend(other.differences)
        return self

    @property
    def recall(self) -> float:
        return self.matched_rows / self.expected_rows if self.expected_rows else 1.0

    @property
    def precision(self) -> float:
        return self.matched_rows / self.predicted_rows if self.predicted_rows else float(self.expected_rows == 0)

    def accuracy(self, field_name: str) -> float:
        """Share of matched rows whose field agrees (1.0 when nothing matched to judge)."""
        return self.field_hits.get(field_name, 0) / self.matched_rows if self.matched_rows else 1.0

    @property
    def metadata_accuracy(self) -> float:
        return self.metadata_hits / self.metadata_total if self.metadata_total else 1.0

    @property
    def fully_right(self) -> float:
        return self.fully_right_rows / self.expected_rows if self.expected_rows else 1.0

    @property
    def loinc_accuracy(self) -> float:
        return self.loinc_hits / self.loinc_known if self.loinc_known else 1.0

    def summary(self) -> dict[str, float]:
        figures = {"recall": self.recall, "precision": self.precision}
        figures |= {name: self.accuracy(name) for name in PRIMARY_FIELDS + SECONDARY_FIELDS}
        figures["metadata"] = self.metadata_accuracy
        figures["loinc"] = self.loinc_accuracy
        figures["fully_right"] = self.fully_right
        return figures


def top_code(row: dict) -> str | None:
    """The predicted row's best LOINC code (the parse must have been annotated)."""
    matches = row.get("loinc_matches") or []
    return matches[0]["loinc_code"] if matches else None


def _row_label(row: dict) -> str:
    return f"p{row.get('page')} {row.get('test_name')!r}"


def score_report(expected: dict, predicted, *, label: str = "", loinc: bool = True, codes_from=None) -> Score:
    """Score one parse (`ReportData` or its dict) against the expected `data` object; with
    `loinc=False` (real reports: no drawn analyte) fully_right leaves the LOINC code out."""
    predicted = _as_dict(predicted)
    exp_rows = expected.get("results", [])
    pred_rows = [_as_dict(r) for r in predicted.get("results", [])]
    score = Score(expected_rows=len(exp_rows), predicted_rows=len(pred_rows))
    prefix = f"{label}: " if label else ""
    pairs = match_rows(exp_rows, pred_rows)
    score.matched_rows = len(pairs)
    shown = {
        "value": ("value",), "unit": ("units",), "range": ("min_reference_range", "max_reference_range"),
        "interpretation": ("interpretation",),
    }
    from benchmarks.loinc_truth import expected_codes  # here: loinc_truth uses this module's helpers

    def codes_of(row: dict) -> set[str] | None:  # `codes_from`: a fixture family's own LOINC truth
        return (codes_from or expected_codes)(row) if loinc else None

    score.rows_without_code = sum(codes_of(r) is None for r in exp_rows)
    for i, j in pairs:
        agreement = field_matches(exp_rows[i], pred_rows[j])
        for name, ok in agreement.items():
            score.field_hits[name] = score.field_hits.get(name, 0) + int(ok)
        codes = codes_of(exp_rows[i])
        code_ok = codes is None or top_code(pred_rows[j]) in codes
        if codes is not None:
            score.loinc_known += 1
            score.loinc_hits += int(code_ok)
        score.fully_right_rows += int(code_ok and all(agreement[name] for name in PRIMARY_FIELDS))
        if not code_ok:
            score.differences.append(f"{prefix}{_row_label(exp_rows[i])} loinc: expected one of "
                                     f"{sorted(codes)} got {top_code(pred_rows[j])}")
        for name, keys in shown.items():
            if not agreement[name]:
                want = tuple(exp_rows[i].get(k) for k in keys)
                got = tuple(pred_rows[j].get(k) for k in keys)
                score.differences.append(f"{prefix}{_row_label(exp_rows[i])} {name}: expected {want} got {got}")
    matched_exp = {i for i, _ in pairs}
    matched_pred = {j for _, j in pairs}
    score.differences += [f"{prefix}missing row {_row_label(r)} value {r.get('value')!r}"
                          for i, r in enumerate(exp_rows) if i not in matched_exp]
    score.differences += [f"{prefix}extra row {_row_label(r)} value {r.get('value')!r}"
                          for j, r in enumerate(pred_rows) if j not in matched_pred]

    exp_meta = expected.get("metadata", {})
    pred_meta = predicted.get("metadata", {}) or {}
    for name in METADATA_FIELDS:
        e, p = exp_meta.get(name), pred_meta.get(name)
        if e is None and p is None:
            continue
        score.metadata_total += 1
        if same_metadata(name, e, p):
            score.metadata_hits += 1
        else:
            score.differences.append(f"{prefix}metadata {name}: expected {e!r} got {p!r}")
    return score


def score_failure(expected_reason: str, actual_reason: str | None, *, label: str = "") -> Score:
    """Score a report that must be refused with `expected_reason`."""
    score = Score(failures_expected=1, failures_right=int(expected_reason == actual_reason))
    if not score.failures_right:
        score.differences.append(f"{label}: expected failure {expected_reason!r}, got {actual_reason!r}")
    return score
