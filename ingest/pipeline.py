"""From parsed text to everything the index stores: sections, chunks, terms and vectors.

Pure computation, no I/O: the worker runs it in a thread and writes the result in one
transaction.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from ingest import chunking
from ingest.analyzer import analyze
from ingest.chunking import Span
from ingest.embedder import Embedder
from ingest.parsing import ParsedText
from ingest.sections import Section, section_at, section_map

# [CLS] and [SEP], plus slack for the title line joining the window.
_SPECIAL_TOKENS = 3
_MAX_HEADER_TOKENS = 48


@dataclass
class PreparedChunk:
    kind: str
    ordinal: int
    span: Span
    content: str
    section: int | None
    terms: Counter[str] | None = None
    links: list[int] = field(default_factory=list)
    embedding: NDArray[np.float32] | None = None

    @property
    def term_count(self) -> int | None:
        return None if self.terms is None else sum(self.terms.values())


@dataclass
class PreparedDocument:
    title: str
    parsed: ParsedText
    sections: list[Section]
    chunks: list[PreparedChunk]
    embedding_inputs: list[str]

    def of_kind(self, kind: str) -> list[PreparedChunk]:
        return [c for c in self.chunks if c.kind == kind]


def content_hash(
    content_type: str, title: str, raw: bytes, access_scopes: list[str] | None = None
) -> bytes:
    """What decides whether a resubmitted document changed. Its content scopes count: the
    graph carries them on every edge, so a change re-projects the document."""
    digest = hashlib.sha256()
    scopes = "\0".join(sorted(access_scopes or [])).encode()
    for part in (content_type.encode(), b"\0", title.encode(), b"\0", scopes, b"\0", raw):
        digest.update(part)
    return digest.digest()


def prepare(parsed: ParsedText, title: str, embedder: Embedder) -> PreparedDocument:
    text = parsed.text
    sections = section_map(text, parsed.headings)
    units = chunking.sentence_units(text)
    mains = chunking.main_chunks(text, units, [s.start for s in sections])
    header, budget = _header_and_budget(title, embedder)
    counter = _body_token_counter(embedder) if budget else None
    smalls = chunking.small_windows(text, units, counter, budget)
    larges = chunking.large_windows(text, units)
    title_terms = Counter(analyze(title))
    chunks = _chunks(text, sections, "main", mains)
    for chunk in chunks:
        chunk.terms = title_terms + Counter(analyze(chunk.content))
    for kind, spans in (("small", smalls), ("large", larges)):
        windows = _chunks(text, sections, kind, spans)
        for window, linked in zip(windows, chunking.link(spans, mains), strict=True):
            window.links = linked
        chunks.extend(windows)
    inputs = [header + c.content for c in chunks if c.kind == "small"]
    return PreparedDocument(title, parsed, sections, chunks, inputs)


def embed_all(documents: list[PreparedDocument], embedder: Embedder) -> None:
    """One embedding call for the whole batch: sorting by length pads less across documents."""
    inputs = [text for doc in documents for text in doc.embedding_inputs]
    vectors = embedder.embed(inputs) if inputs else np.empty((0, embedder.dimension), np.float32)
    row = 0
    for doc in documents:
        for chunk in doc.of_kind("small"):
            chunk.embedding = vectors[row]
            row += 1


def _chunks(
    text: str, sections: list[Section], kind: str, spans: list[Span]
) -> list[PreparedChunk]:
    prepared = []
    for ordinal, span in enumerate(spans):
        section = section_at(sections, span.start)
        prepared.append(
            PreparedChunk(
                kind,
                ordinal,
                span,
                text[span.start : span.end],
                None if section is None else section.ordinal,
            )
        )
    return prepared


def _header_and_budget(title: str, embedder: Embedder) -> tuple[str, int]:
    """The title line prepended to each dense window, and the tokens left for the window."""
    if embedder.max_tokens is None:
        return (f"{title}\n" if title else ""), 0
    title_tokens = embedder.token_counts([title])[0] - 2 if title else 0
    if not title or title_tokens > _MAX_HEADER_TOKENS:
        return "", embedder.max_tokens - _SPECIAL_TOKENS
    return f"{title}\n", embedder.max_tokens - _SPECIAL_TOKENS - title_tokens


def _body_token_counter(embedder: Embedder) -> chunking.TokenCounter:
    def count(texts: list[str]) -> list[int]:
        return [n - 2 for n in embedder.token_counts(texts)]

    return count
