"""The section map: headings and named units, each with its path and character range.

Recognised: Markdown and HTML headings; numbered clauses (4.2.1); Section, Article, Clause,
Chapter, Part, Appendix, Annex and Schedule; Hebrew סעיף, פרק and נספח; Japanese 第3条,
第2章 and 付録.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ingest.parsing import Heading

NUMERAL = r"[0-9０-９一二三四五六七八九十百千]+"
_NAMED = [
    # (kind, level, pattern on a heading line). Order matters: first match wins.
    ("chapter", 1, re.compile(r"^(chapter|part)\s+([\w.-]+)", re.I)),
    ("appendix", 1, re.compile(r"^(appendix|annex|schedule|exhibit)\s+([\w.-]+)", re.I)),
    ("article", 2, re.compile(r"^(article)\s+([\w.-]+)", re.I)),
    ("section", 2, re.compile(r"^(section|§)\s*([\d][\w.-]*)", re.I)),
    ("clause", 3, re.compile(r"^(clause)\s+([\d][\w.-]*)", re.I)),
    ("chapter", 1, re.compile(r"^(פרק)\s+(\S+)")),
    ("appendix", 1, re.compile(r"^(נספח)\s+(\S+)")),
    ("section", 2, re.compile(r"^(סעיף)\s+(\S+)")),
    ("chapter", 1, re.compile(rf"^(第)({NUMERAL})章")),
    ("article", 2, re.compile(rf"^(第)({NUMERAL})条")),
    ("appendix", 1, re.compile(r"^(付録)\s*(\S*)")),
]
_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+(\S.*)$")
_MAX_HEADING_CHARS = 120
_LINE = re.compile(r"[^\n]+")
_MD_MARKS = re.compile(r"^#{1,6}\s+")
_NUMBER_IN_LABEL = re.compile(r"(\d+(?:\.\d+)*)")


@dataclass(frozen=True)
class Section:
    ordinal: int
    level: int
    kind: str
    label: str
    title: str
    path: str
    start: int
    end: int


@dataclass(frozen=True)
class _Candidate:
    start: int
    level: int
    kind: str
    label: str
    title: str


def section_map(text: str, headings: list[Heading]) -> list[Section]:
    candidates = _merge(_structural(headings), _from_lines(text))
    return _with_paths_and_ranges(candidates, len(text))


def section_at(sections: list[Section], offset: int) -> Section | None:
    """The innermost section containing `offset`."""
    found = None
    for section in sections:
        if section.start <= offset < section.end and (
            found is None or section.level >= found.level
        ):
            found = section
    return found


def _structural(headings: list[Heading]) -> list[_Candidate]:
    found = []
    for heading in headings:
        named = _named_unit(heading.title)
        kind, label = (named[0], named[2]) if named else ("heading", "")
        found.append(_Candidate(heading.start, heading.level, kind, label, heading.title))
    return found


def _from_lines(text: str) -> list[_Candidate]:
    found = []
    for match in _LINE.finditer(text):
        line = _MD_MARKS.sub("", match.group().strip())
        if not line or len(line) > _MAX_HEADING_CHARS:
            continue
        start = match.start() + (len(match.group()) - len(match.group().lstrip()))
        named = _named_unit(line)
        if named:
            found.append(_Candidate(start, named[1], named[0], named[2], line))
        elif (numbered := _numbered_clause(line)) is not None:
            found.append(_Candidate(start, numbered[0], "clause", numbered[1], line))
    return found


def _named_unit(line: str) -> tuple[str, int, str] | None:
    for kind, level, pattern in _NAMED:
        match = pattern.match(line)
        if match and not _is_reference(line[match.end() :]):
            word, number = match.group(1), match.group(2).rstrip(".:")
            label = f"{word}{number}{line[match.end() - 1]}" if word == "第" else f"{word} {number}"
            depth = number.count(".")
            return kind, level + depth, label.strip()
    return None


def _is_reference(rest: str) -> bool:
    """ "Section 3.2 of the policy ..." at a line start cites a section; it does not open one."""
    words = rest.split()
    return bool(words) and words[0][0].isascii() and words[0][0].islower()


def _numbered_clause(line: str) -> tuple[int, str] | None:
    """4.2.1 Title -> level 3. A bare "3. Text" counts only when it reads like a heading."""
    match = _NUMBERED.match(line)
    if match is None:
        return None
    number, rest = match.group(1), match.group(2)
    depth = number.count(".") + 1
    reads_like_heading = len(rest.split()) <= 8 and not rest.endswith((".", ",", ";", ":"))
    return (depth, number) if depth > 1 or reads_like_heading else None


def _merge(structural: list[_Candidate], lines: list[_Candidate]) -> list[_Candidate]:
    """Structural headings win where both saw the same line."""
    by_start = {c.start: c for c in lines} | {h.start: h for h in structural}
    return sorted(by_start.values(), key=lambda c: c.start)


def _nest_numbered(candidates: list[_Candidate]) -> list[_Candidate]:
    """Put clause 2.1 one level below whatever open section is numbered 2."""
    nested: list[_Candidate] = []
    stack: list[_Candidate] = []
    for candidate in candidates:
        parent_number = candidate.label.rpartition(".")[0] if candidate.kind == "clause" else ""
        parent = next(
            (c for c in reversed(stack) if parent_number and _number(c) == parent_number), None
        )
        if parent is not None:
            candidate = replace(candidate, level=parent.level + 1)
        while stack and stack[-1].level >= candidate.level:
            stack.pop()
        stack.append(candidate)
        nested.append(candidate)
    return nested


def _number(candidate: _Candidate) -> str | None:
    match = _NUMBER_IN_LABEL.search(candidate.label or candidate.title)
    return match.group(1) if match else None


def _with_paths_and_ranges(candidates: list[_Candidate], length: int) -> list[Section]:
    candidates = _nest_numbered(candidates)
    sections: list[Section] = []
    stack: list[_Candidate] = []
    for ordinal, candidate in enumerate(candidates):
        while stack and stack[-1].level >= candidate.level:
            stack.pop()
        stack.append(candidate)
        end = next(
            (c.start for c in candidates[ordinal + 1 :] if c.level <= candidate.level), length
        )
        path = " > ".join(c.label or c.title for c in stack)
        sections.append(
            Section(
                ordinal,
                candidate.level,
                candidate.kind,
                candidate.label or candidate.title,
                candidate.title,
                path,
                candidate.start,
                end,
            )
        )
    return sections
