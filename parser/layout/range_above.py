"""Range tiers printed above their value's line.

A range cell of several lines set in the middle (or at the bottom) of its row puts its first
tiers above the line of the row's value:

    Glycémie       0,95  g/l     0,70 - 1,10
                                 18-59 ans : 40 - 130         <- Phosphatases' first tier
    Phosphatases   88    UI/l    60 ans et plus : 50 - 150
                                 Enfants : 100 - 400

Read top to bottom, such a line would join the row above. The rows' padding tells the cells
apart: the lines of one cell are set closer together than the last line of one row and the
first of the next. Range-only lines past the widest gap between two value lines are moved
under the lower value line (the table reader then reads them as its continuation), and the
order of that row's range text is put back as printed afterwards. Where no gap stands out
nothing moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from parser import columns as cols
from parser.columns import Header
from parser.layout.cells import Cells, is_tier, place
from parser.layout.rows import RawRow
from parser.lines import Line

# The widest gap must beat every other gap of the run by this share of the line size: the
# rows' padding, not the jitter of baselines.
_PADDING_SHARE = 0.15
# Lines of one cell are set with at most this share of their size between them.
_LINE_GAP_SHARE = 0.2


@dataclass(slots=True)
class MovedTiers:
    """Range lines moved under the value line below them, with their range text in order."""

    lines: list[Line]
    texts: list[str]


def tiers_to_their_rows(lines: list[Line], header: Header
                        ) -> tuple[list[Line], list[MovedTiers], dict[int, Cells]]:
    """The region's lines with range-only lines that belong to the value line below them moved
    after that row's own continuation lines; what was moved; and each line's cells in `header`
    by the line's id (the table reader places the same lines again: it takes them from here)."""
    if cols.RANGE not in header.kinds:
        return lines, [], {}
    placed = [place(line, header) for line in lines]
    by_line = {id(c.line): c for c in placed}
    order = list(range(len(lines)))
    moves: list[MovedTiers] = []
    i = -1  # the line above the run of range-only lines: a value line, or none
    while i < len(placed):
        run_end = i + 1
        while run_end < len(placed) and is_tier(placed[run_end]):
            run_end += 1
        below = run_end if run_end < len(placed) else None
        if below is None or placed[below].value_kind() is None or run_end == i + 1:
            i = max(run_end, i + 1)
            continue
        if i < 0:
            # Right under the header no row above can own them: the row below does, when
            # they are set as close to it as the lines of one cell.
            first = _close_above(placed, 0, below)
            cut = None if first is None else first - i
        elif placed[i].value_kind() is None:
            i = below  # under a name line (a heading, or a wrapped name beside its tiers)
            continue
        else:
            cut = _row_boundary([p.line for p in placed[i:below + 1]])
        if cut is not None and cut < below - i and \
                all(_range_line(placed[k]) for k in range(i + cut, below)):
            moved = list(range(i + cut, below))  # offsets into placed: the lower row's tiers
            after = below + 1
            while after < len(placed) and is_tier(placed[after]) and \
                    placed[after].line.top - placed[after - 1].line.bottom < _cell_gap(placed, below):
                after += 1
            order = _move(order, moved, after)
            moves.append(MovedTiers([placed[k].line for k in moved],
                                    [placed[k].text(cols.RANGE).strip() for k in moved]))
        i = below
    return [lines[k] for k in order], moves, by_line


def _row_boundary(run: list[Line]) -> int | None:
    """In a value line, the range-only lines under it and the next value line, the index of
    the first line past the clearly widest gap; None when no gap stands out."""
    gaps = [run[k + 1].top - run[k].bottom for k in range(len(run) - 1)]
    widest = max(range(len(gaps)), key=gaps.__getitem__)
    size = max(line.size for line in run)
    others = [g for k, g in enumerate(gaps) if k != widest]
    if not others or gaps[widest] - max(others) < _PADDING_SHARE * size:
        return None
    return widest + 1


def _range_line(c: Cells) -> bool:
    """A line holding a range (a tier with its bounds), not only a unit or a flag."""
    return any(ch.isdigit() for ch in c.text(cols.RANGE))


def _close_above(placed: list[Cells], start: int, below: int) -> int | None:
    """The first of the range-only lines start..below-1 from which each line sits as close to
    the next as the lines of one cell, down to the value line `below`; None if the last does
    not."""
    first = None
    for k in range(below - 1, start - 1, -1):
        if placed[k + 1].line.top - placed[k].line.bottom >= _LINE_GAP_SHARE * placed[below].line.size:
            break
        first = k
    return first


def _cell_gap(placed: list[Cells], value_index: int) -> float:
    """A gap below a value line still within its cell: under a line's height."""
    return placed[value_index].line.size


def _move(order: list[int], moved: list[int], after: int) -> list[int]:
    """`order` with the lines at positions `moved` (of the original lines) put before the
    original line `after` (or last)."""
    kept = [k for k in order if k not in moved]
    at = kept.index(after) if after in kept else len(kept)
    return kept[:at] + moved + kept[at:]


def restore_printed_order(rows: list[RawRow], moves: list[MovedTiers]) -> None:
    """Put the moved tiers back first in their row's range text, as printed (the reader
    appended them after the row's own lines)."""
    for move in moves:
        ids = {id(w) for line in move.lines for w in line.words}
        row = next((r for r in rows if any(id(w) in ids for w in r.words)), None)
        if row is None or not row.range_text:
            continue
        rest = row.range_text
        for piece in move.texts:
            at = rest.rfind(piece)
            if not piece or at <= 0:
                break  # not where the reader puts it: leave the text as read
            rest = " ".join((rest[:at] + rest[at + len(piece):]).split())
        else:
            row.range_text = " ".join([*move.texts, rest])
