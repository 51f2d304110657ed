"""Retrieved passages built in memory, for the engine's tests: the engine reads values,
never the databases, so these need no store."""

from __future__ import annotations

from uuid import NAMESPACE_URL, uuid5

from app.answers.results import Source
from app.search.results import HitDocument, SearchHit, Span
from retrieval.request import Leg


def source(title: str, text: str, rank: int = 1, start: int = 0) -> Source:
    document = HitDocument(
        id=uuid5(NAMESPACE_URL, title),
        collection_id=uuid5(NAMESPACE_URL, "collection"),
        title=title,
        external_id=title,
        content_type="text/plain",
        metadata={},
        source_type="DOCUMENT",
    )
    hit = SearchHit(
        chunk_id=uuid5(NAMESPACE_URL, f"{title}#{start}"),
        score=1.0 / rank,
        methods=[Leg.KEYWORD],
        document=document,
        section=None,
        spans=[Span("CHARS", start, start + len(text))],
        text=text,
        context=text,
        highlights=[],
        path=None,
    )
    return Source(f"SRC:{rank:04d}", hit)


def sources(*pages: tuple[str, str]) -> list[Source]:
    return [source(title, text, rank) for rank, (title, text) in enumerate(pages, 1)]
