"""Level the words of a photographed page whose text lines slope.

A phone photo is rarely square to the page: a text line drifts up or down across the
page, so its right-hand cells would land on the line above or below. The slope is found
by trying small shears and keeping the one under which words pack into the fewest, fullest
lines; words are then sheared by it. Text-layer pages are already level.
"""

from __future__ import annotations

import math
from dataclasses import replace

from parser.page import Word

# Slopes tried, as dy/dx: about +-4 degrees in steps of 0.2 degrees.
_SLOPES = [math.tan(math.radians(d / 5)) for d in range(-20, 21)]


def estimate_slope(words: list[Word]) -> float:
    """dy/dx of the text lines (0.0 when level or when there are too few words to tell)."""
    if len(words) < 12:
        return 0.0
    level_score = _packing(words, 0.0)
    scored = [(_packing(words, slope), slope) for slope in _SLOPES]
    best_score, best_slope = max(scored)
    if best_score[0] <= level_score[0] * 1.02:
        return 0.0  # prefer level unless a slope packs the words clearly better
    # Refine around the best coarse slope.
    step = math.tan(math.radians(0.05))
    for k in (-2, -1, 1, 2):
        slope = best_slope + k * step
        score = _packing(words, slope)
        if score > best_score:
            best_slope, best_score = slope, score
    return best_slope


Slopes = list[tuple[float, float]]  # (y, slope) at band centres, top to bottom


def estimate_slopes(words: list[Word], bands: int = 4) -> Slopes:
    """Slopes down the page: a photo taken at an angle slopes more at one end than the other."""
    if len(words) < 12 * bands:
        return [(0.0, estimate_slope(words))]
    ordered = sorted(words, key=lambda w: w.top)
    size = len(ordered) // bands
    found = []
    for i in range(bands):
        band = ordered[i * size:(i + 1) * size if i < bands - 1 else len(ordered)]
        centre = sum((w.top + w.bottom) / 2 for w in band) / len(band)
        found.append((centre, estimate_slope(band)))
    return found


def slope_at(slopes: Slopes, y: float) -> float:
    """The slope at height y, interpolated between band centres."""
    if len(slopes) == 1 or y <= slopes[0][0]:
        return slopes[0][1]
    for (y0, s0), (y1, s1) in zip(slopes, slopes[1:]):
        if y <= y1:
            return s0 + (s1 - s0) * (y - y0) / max(y1 - y0, 1e-6)
    return slopes[-1][1]


def level(words: list[Word], slopes: Slopes) -> list[Word]:
    """The words sheared so that sloping lines become horizontal. Words boxed as one OCR text
    line (tesseract's line: one top and bottom, parser.tesseract) move together, by the shear at
    their middle: tesseract has followed that line's slope already, and shearing its words
    apart put a value on the line below its name where a slope was estimated wrongly (a scan's
    name lines interleaved with small range lines)."""
    if all(not s for _, s in slopes):
        return words
    middles: dict[tuple[float, float], list[float]] = {}
    for w in words:
        middles.setdefault((w.top, w.bottom), []).append((w.x0 + w.x1) / 2)
    out = []
    for w in words:
        slope = slope_at(slopes, (w.top + w.bottom) / 2)
        centres = middles[(w.top, w.bottom)]
        shift = slope * (min(centres) + max(centres)) / 2
        out.append(replace(w, top=w.top - shift, bottom=w.bottom - shift))
    return out


def _packing(words: list[Word], slope: float) -> tuple[float, float]:
    """(sum of squared line lengths, minus the spread of centres within lines) when words
    are grouped by their sheared centre line: full, tight lines score best."""
    items = sorted(
        ((w.top + w.bottom) / 2 - slope * (w.x0 + w.x1) / 2, max(w.bottom - w.top, 1.0))
        for w in words
    )
    score = spread = 0.0
    members: list[float] = []
    line_height = 0.0
    for centre, height in items:
        if members and abs(centre - members[0]) <= 0.35 * max(height, line_height):
            members.append(centre)
            continue
        score, spread = score + len(members) ** 2, spread + _spread(members)
        members, line_height = [centre], height
    return score + len(members) ** 2, -(spread + _spread(members))


def _spread(values: list[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values)
