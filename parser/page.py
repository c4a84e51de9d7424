"""Plain data passed between the extraction stages and the layout stage.

Coordinates are in the page's own units (PDF points or image pixels), origin at
the top-left corner, y growing downwards, so text-layer and OCR pages look the
same to the layout code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    conf: float = 1.0  # 0..1; 1.0 for a PDF text layer, tesseract's confidence for OCR
    size: float = 0.0  # font size where known (text layer), else the box height
    bold: bool = False


@dataclass(slots=True)
class Page:
    number: int  # 1-based
    width: float
    height: float
    words: list[Word] = field(default_factory=list)
    source: Literal["text", "ocr"] = "text"
    # Ruling lines and rectangles of the text layer (x0, top, x1, bottom), for ruled tables.
    rules: list[tuple[float, float, float, float]] = field(default_factory=list)
    rotation: int = 0  # degrees the page image was turned to read it upright (OCR only)


@dataclass(slots=True)
class Document:
    kind: Literal["pdf", "png", "jpeg"]
    pages: list[Page] = field(default_factory=list)
