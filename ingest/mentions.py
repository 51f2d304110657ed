"""A name found in text: a type of its own, so that code reading names (titles, resolution)
need not load the spaCy pipeline that finds them (ingest/extraction.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mention:
    text: str
    label: str
    group: str
    start: int  # offsets into the document's text
    end: int
    sentence: int
