"""Cumulative grids printed transposed: one column per test, one line per collection date.

    Renal Profile / Electrolytes
    Collected           Sodium    Potassium   Chloride   Creatinine
    Units               mmol/L    mmol/L      mmol/L     mg/dL
    Ref. range          135-145   3.5-5.1     98-107     0.5-1.1
    02/12/2024 09:10    139       4.4         103        1.4 H
    20/01/2025 08:55    137       5.3 H       101        1.6 H
    11/03/2025          136       5.6 H       102        1.8 H
    08:20 THIS EPISODE

Hospital systems print a chemistry panel's history this way: the tests across as column
headings, a line per earlier episode, this episode's line last (often shaded). The line of the
latest date is the result; the others are previous results, never read. The tests' unit and
range stand on lines opened by their heading ("Units", "Ref. range"), above or below the dates.
A date's cell may wrap (its time, or a note such as "THIS EPISODE", on the lines under it):
those lines belong to the date above them; a test's heading may wrap onto a line under the
names. An episode labelled as this one ("THIS EPISODE", "Current") is the result, and must not
be older than another by its dates. Where the dates do not settle one latest episode (the same
date, no time to tell them apart; day and month readings disagreeing), nothing is read: the
lines are left for a reviewer rather than a previous result taken for the result.
Only word boxes are used, so a page OCR read is read the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from parser import columns as cols
from parser import vocabulary
from parser.layout.blocks import blocks_apart
from parser.layout.cumulative import is_date
from parser.layout.content import result_cell
from parser.layout.rows import RawRow, has_name_letters, short_title
from parser.lines import Line, Phrase
from parser.metadata_dates import read_date
from parser.units import is_unit

# A grid prints at least this many tests across (fewer could be a table's header and its row).
_MIN_TESTS = 3
# The lines of one grid sit at most this many line heights apart.
_MAX_LINE_GAP = 1.0
# A wrapped date cell's next line sits within this share of a line height of the line above
# (the lines of one cell; episodes are set a row's padding apart).
_CELL_GAP_SHARE = 0.2
# The field lines a grid prints beside its dates, each once.
_FIELD_KINDS = (cols.UNITS, cols.RANGE)
# The dates' column is set flush left: its cells start within this share of a line height of
# the first date's start (a wider date cell or a note runs further right).
_FLUSH_SHARE = 0.5
# Lines between the names' line and the first episode's: a wrapped heading line and the fields.
_MAX_LINES_OVER_DATES = 1 + len(_FIELD_KINDS) + 1
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\b")


@dataclass
class _Episode:
    """One collection date's line(s): its date cell's text and its cells by test column."""

    date_text: str
    cells: dict[int, Phrase] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)


@dataclass
class _Grid:
    names: list[Phrase]
    wrapped: dict[int, list[Phrase]]  # a test heading's further lines, by column
    bounds: list[tuple[float, float]]  # each test column's extent
    lead_x: float  # a phrase starting left of this is the dates' column's (they are set flush left)
    fields: dict[str, dict[int, Phrase]] = field(default_factory=dict)
    episodes: list[_Episode] = field(default_factory=list)
    used: int = 1  # lines of the grid from its names' line


def transposed_rows(lines: list[Line]) -> tuple[list[Line], list[RawRow]]:
    """The page's lines less those of transposed grids (and their titles), and the grids'
    rows: this episode's value of each test, left to right."""
    return blocks_apart(lines, _grid_rows)


def _grid_rows(lines: list[Line], i: int, kept: list[Line]) -> tuple[int, list[RawRow]] | None:
    """The lines the grid named on line i uses and its rows (its title taken off `kept`);
    None if no grid is named there."""
    grid = _grid_at(lines, i)
    if grid is None:
        return None
    latest = _latest(grid.episodes)
    if latest is None:
        kept.extend(lines[i:i + grid.used])  # unsure which episode is this one: left unread,
        return grid.used, []  # none of its lines read as another grid's either
    title = _title(kept[-1], lines[i]) if kept else None
    if title is not None:
        kept.pop()
    return grid.used, _rows(grid, grid.episodes[latest], lines[i], title)


def _grid_at(lines: list[Line], i: int) -> _Grid | None:
    """The grid whose names' line is line i (None if it is not one): the names, then field
    lines and episodes' lines, every cell under one name, at least one episode."""
    grid = _columns(lines, i)
    if grid is None:
        return None
    while i + grid.used < len(lines) and _heading_wrapped(grid, lines[i + grid.used - 1], lines[i + grid.used]):
        grid.used += 1
    for line in lines[i + grid.used:]:
        if line.top - lines[i + grid.used - 1].bottom > _MAX_LINE_GAP * line.size or not _take(grid, line):
            break
        grid.used += 1
    if not grid.episodes or any(not result_cell(p.text) for e in grid.episodes for p in e.cells.values()):
        return None
    return grid


def _columns(lines: list[Line], i: int) -> _Grid | None:
    """The test columns named on line i, placed by the first date under it (the names stand
    right of the dates' column; a corner label, "Collected", over it)."""
    dated = next((line for line in lines[i + 1:i + 1 + _MAX_LINES_OVER_DATES]
                  if line.phrases() and _episode_lead(line.phrases()[0].text)), None)
    if dated is None:
        return None
    lead_x = dated.phrases()[0].x0 + _FLUSH_SHARE * dated.size
    phrases = lines[i].phrases()
    names = [p for p in phrases if p.x0 > lead_x]
    if len(names) < _MIN_TESTS or len(phrases) - len(names) > 1 or not all(_name(p.text) for p in names):
        return None
    edges = [(a.x1 + b.x0) / 2 for a, b in zip(names, names[1:])]
    bounds = list(zip([lead_x, *edges], [*edges, float("inf")]))
    return _Grid(names, {}, bounds, lead_x)


def _heading_wrapped(grid: _Grid, above: Line, line: Line) -> bool:
    """Add the line to the test headings if it is their wrapped part: set as close under them
    as the lines of one cell, nothing in the dates' column, each phrase a name's word under one
    test."""
    phrases = line.phrases()
    if line.top - above.bottom > _CELL_GAP_SHARE * line.size or any(p.x0 <= grid.lead_x for p in phrases):
        return False
    cells = _placed(grid, phrases)
    if not cells or not all(_name(p.text) for p in cells.values()):
        return False
    for column, phrase in cells.items():
        grid.wrapped.setdefault(column, []).append(phrase)
    return True


def _name(text: str) -> bool:
    return has_name_letters(text) and not result_cell(text) and not _date_cell(text) and not is_unit(text) \
        and cols.label_kind(cols.label_key(text)) is None


def _take(grid: _Grid, line: Line) -> bool:
    """Add the line to the grid: a field line, an episode's first line or its date's wrapped
    lines; False (the grid ends) for any other line."""
    phrases = line.phrases()
    lead = [p for p in phrases if p.x0 <= grid.lead_x]
    cells = _placed(grid, [p for p in phrases if p.x0 > grid.lead_x])
    if cells is None:
        return False
    lead_text = " ".join(p.text for p in lead).strip()
    kind = cols.label_kind(cols.label_key(lead_text)) if lead_text else None
    if kind in _FIELD_KINDS and kind not in grid.fields and not re.search(r"\d", lead_text):
        grid.fields[kind] = cells
        return True
    if lead_text and _date_cell(lead_text):
        grid.episodes.append(_Episode(lead_text, cells, [line]))
        return True
    episode = grid.episodes[-1] if grid.episodes else None
    if episode is not None and not set(cells) & set(episode.cells) and (
            _TIME.fullmatch(lead_text) is not None or
            line.top - episode.lines[-1].bottom <= _CELL_GAP_SHARE * line.size):
        episode.date_text = f"{episode.date_text} {lead_text}".strip()  # the date's cell wrapped
        episode.cells.update(cells)
        episode.lines.append(line)
        return True
    if lead_text and _current(lead_text):
        grid.episodes.append(_Episode(lead_text, cells, [line]))  # "Current" without a date
        return True
    return False


def _placed(grid: _Grid, phrases: list[Phrase]) -> dict[int, Phrase] | None:
    """The cells by test column; None when one spans two columns or two share one."""
    cells: dict[int, Phrase] = {}
    for phrase in phrases:
        column = next((k for k, (x0, x1) in enumerate(grid.bounds) if phrase.x0 >= x0 and phrase.x1 <= x1), None)
        if column is None or column in cells:
            return None
        cells[column] = phrase
    return cells


def _episode_lead(text: str) -> bool:
    """An episode's date cell: a date, or a label naming this report's episode."""
    return _date_cell(text) or _current(text)


def _date_cell(text: str) -> bool:
    """A date cell: a date first ("11/03/2025", "02/12/2024 09:10")."""
    tokens = text.split()
    return any(is_date(" ".join(tokens[:n])) for n in range(1, min(3, len(tokens)) + 1))


def _latest(episodes: list[_Episode]) -> int | None:
    """This report's episode: the one labelled so, which must not be older than another by the
    dates, else the latest by date."""
    current = [k for k, e in enumerate(episodes) if _current(e.date_text)]
    if len(current) > 1:
        return None
    by_date = _latest_dated(episodes)
    if not current:
        return by_date
    if by_date == current[0] or _when(episodes[current[0]].date_text, "dmy") is None and \
            _when(episodes[current[0]].date_text, "mdy") is None:
        return current[0]  # the labelled episode, the latest or printing no date
    return None


def _current(text: str) -> bool:
    """A date cell labelled as this report's episode ("11/03/2025 08:20 THIS EPISODE", "Current")."""
    words = [t for t in text.split() if not _date_cell(t) and not _TIME.fullmatch(t)]
    return bool(words) and cols.label_key(" ".join(words)) in _current_labels()


@lru_cache(maxsize=1)
def _current_labels() -> frozenset[str]:
    return frozenset(cols.label_key(label) for label in vocabulary.words(vocabulary.CURRENT_COLUMN_LABELS))


def _latest_dated(episodes: list[_Episode]) -> int | None:
    """The index of the latest episode, the same read day first and month first (the time
    tells episodes of one day apart); None when a date reads no way or two tie; the episodes
    printing no date (one labelled current) are left out."""
    episodes = [e if _when(e.date_text, "dmy") or _when(e.date_text, "mdy") else None for e in episodes]
    picks = set()
    for way in ("dmy", "mdy"):
        keys = [_when(e.date_text, way) if e is not None else () for e in episodes]
        if any(k is None for k in keys):
            continue
        best = max(keys)
        if keys.count(best) > 1:
            return None
        picks.add(keys.index(best))
    return picks.pop() if len(picks) == 1 else None


def _when(text: str, way: str) -> tuple[str, int, int] | None:
    tokens = text.split()
    n = next((n for n in range(min(3, len(tokens)), 0, -1) if is_date(" ".join(tokens[:n]))), 0)
    date = read_date(_TIME.sub("", " ".join(tokens[:n])).strip(), way, recent=True) if n else None
    if date is None:
        return None
    time = _TIME.search(text)
    return (date, int(time.group(1)), int(time.group(2))) if time else (date, -1, -1)


def _title(line: Line, names_line: Line) -> str | None:
    """The grid's panel: a short title of one phrase right above its names' line."""
    if names_line.top - line.bottom > _MAX_LINE_GAP * names_line.size:
        return None
    return short_title(line)


def _rows(grid: _Grid, episode: _Episode, names_line: Line, title: str | None) -> list[RawRow]:
    rows = []
    for k, first in enumerate(grid.names):
        value = episode.cells.get(k)
        if value is None:
            continue  # not tested in this episode
        name = Phrase([*first.words, *(w for p in grid.wrapped.get(k, []) for w in p.words)])
        unit, range_cell = grid.fields.get(cols.UNITS, {}).get(k), grid.fields.get(cols.RANGE, {}).get(k)
        words = [*name.words, *value.words, *(unit.words if unit else []), *(range_cell.words if range_cell else [])]
        rows.append(RawRow(page=names_line.page, name=name.text.strip(), value=value.text.strip(),
                           units=unit.text.strip() if unit else None,
                           range_text=range_cell.text.strip() if range_cell else None, panel=title,
                           words=words, unit_column=cols.UNITS in grid.fields, ocr=names_line.ocr))
    return rows
