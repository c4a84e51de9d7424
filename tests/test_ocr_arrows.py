"""Flag arrows (↑ ↓) tesseract reads as letters are told by their ink (parser.ocr)."""

import numpy as np

from parser.ocr import arrow_direction

# The stem both drawings share: four pixels wide, centred.
STEM = ".....####....."
UP = "\n".join([
    "......###.....",
    ".....#####....",
    "....#######...",
    "...#########..",
    "..###########.",
    ".#############",
    "##############",
    ".##..#####.###",
    ".....#####....",
    *[STEM] * 9,
    ".....#####....",  # a one-pixel bump on the stem, as scans have
    STEM,
    STEM,
    "......###.....",
])
T = "\n".join(["##############"] * 2 + [STEM] * 14)
# A long rule ending in a junction blob: no tapering head.
RULE = "\n".join(["..###..."] * 40 + ["#######.", "########", "########", "##.#...."])


def _ink(art: str) -> np.ndarray:
    return np.array([[c == "#" for c in row] for row in art.strip().splitlines()])


def test_arrows_are_told_with_their_direction():
    assert arrow_direction(_ink(UP)) == "↑"
    assert arrow_direction(_ink(UP)[::-1]) == "↓"


def test_letters_and_rules_are_no_arrows():
    assert arrow_direction(_ink(T)) is None
    assert arrow_direction(_ink(T)[::-1]) is None  # an upside-down T: the flat foot of an L or ⊥
    assert arrow_direction(_ink(UP)[:, 3:]) is None  # the head off the stem's centre (a 4, a 1's flag)
    assert arrow_direction(_ink(RULE)) is None


FOUR = """
............##.....
...........####....
..........#####....
.........######....
........#######....
.......########....
......####.####....
.....####..####....
....###....####....
...####....####....
..####.....####....
.####......####....
####.......#####...
##################.
###################
##################.
..........######...
...........####....
...........####....
...........####....
............###....
.............#.....
"""


def test_a_four_is_no_arrow():
    # Seen on a stored synthetic scan: its bar over a short stem looked like a down arrow's head.
    assert arrow_direction(_ink(FOUR)) is None
