"""Turn indexed documents into knowledge graph rows (Postgres) and project them (Neo4j).

Extraction runs once per document version; its rows are the system of record, so the
graph can be rebuilt from Postgres without running spaCy again.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any
from uuid import UUID

from graph.documents import documents_statement
from graph.driver import GraphStore
from graph.knowledge import (
    drop_entities_statement,
    facts_statement,
    projection_statements,
    removal_statements,
)
from ingest import knowledge
from ingest.extraction import ChunkGraph, Extractor
from ingest.knowledge import DocumentGraph, MainChunk
from ingest.resolution import normalise
from ingest.titles import TitleSubject, subject_name, title_subject
from store import knowledge as rows
from store.knowledge import GraphDocument
from store.pool import Conn

log = logging.getLogger(__name__)


class DocumentGraphs:
    def __init__(self, graph: GraphStore, model: str) -> None:
        self._graph = graph
        self._model = model
        self._extractor: Extractor | None = None
        self._lock = threading.Lock()

    async def upsert(self, conn: Conn, payloads: list[dict[str, Any]]) -> None:
        """Extract, record and project the documents' current versions. A document deleted
        since its row was queued is skipped: its deletion has its own row."""
        found = [(await rows.load_document(conn, UUID(p["document_id"])), p) for p in payloads]
        present = [(loaded, payload) for loaded, payload in found if loaded is not None]
        loaded = [document for document, _ in present]
        graphs = await asyncio.to_thread(self._extract_all, loaded)
        orphans: list[UUID] = []
        for (doc, _), graph in zip(loaded, graphs, strict=True):
            orphans += await rows.write(conn, doc, graph)
        docs = [doc for doc, _ in loaded]
        await self.project(conn, docs, [p for _, p in present], [str(o) for o in orphans])

    async def project(
        self,
        conn: Conn,
        docs: list[GraphDocument],
        payloads: list[dict[str, Any]],
        orphans: list[str],
    ) -> None:
        """Write documents' graph rows to Neo4j in one transaction."""
        projections = [await rows.projection(conn, doc) for doc in docs]
        await self._graph.write_many(
            [
                documents_statement(payloads),
                *projection_statements(projections),
                drop_entities_statement(orphans),
            ]
        )

    async def remove(self, conn: Conn, payloads: list[dict[str, Any]]) -> None:
        """Take documents out; facts whose valid time their removal reopened are rewritten."""
        reopened = [UUID(f) for p in payloads for f in p.get("facts", [])]
        await self._graph.write_many(
            [
                *(
                    statement
                    for p in payloads
                    for statement in removal_statements(
                        p["document_id"], p.get("orphans", []), p.get("touched", [])
                    )
                ),
                facts_statement(await rows.fact_rows(conn, [], reopened)),
            ]
        )

    def _extract_all(
        self, loaded: list[tuple[GraphDocument, list[MainChunk]]]
    ) -> list[DocumentGraph]:
        """One nlp.pipe over every chunk of the batch; a failing batch is retried per document,
        so one bad document cannot block the others."""
        extractor = self.extractor()
        flat = [(c.start, c.content) for _, chunks in loaded for c in chunks]
        try:
            extracted = extractor.extract(flat)
            names = [subject_name(doc.title) for doc, _ in loaded]
            tagged = _tag_unmatched(extractor, names, loaded, extracted)
        except Exception:
            log.warning("batch extraction failed; retrying document by document", exc_info=True)
            return [_one(extractor, doc, chunks) for doc, chunks in loaded]
        graphs, base = [], 0
        for (doc, chunks), name, group in zip(loaded, names, tagged, strict=True):
            part = extracted[base : base + len(chunks)]
            graphs.append(knowledge.build(doc.body, chunks, part, _subject(name, group, part)))
            base += len(chunks)
        return graphs

    def extractor(self) -> Extractor:
        with self._lock:
            if self._extractor is None:
                self._extractor = Extractor(self._model)
            return self._extractor


def _tag_unmatched(
    extractor: Extractor,
    names: list[str | None],
    loaded: list[tuple[GraphDocument, list[MainChunk]]],
    extracted: list[ChunkGraph],
) -> list[str | None]:
    """The tagger's type for titles the document's own mentions do not name (most do)."""
    mentioned, base = [], 0
    for _, chunks in loaded:
        part = extracted[base : base + len(chunks)]
        mentioned.append({normalise(m.text) for g in part for m in g.mentions})
        base += len(chunks)
    wanted = [i for i, n in enumerate(names) if n and normalise(n) not in mentioned[i]]
    groups = extractor.whole_entity_groups([names[i] or "" for i in wanted])
    tagged: list[str | None] = [None] * len(names)
    for index, group in zip(wanted, groups, strict=True):
        tagged[index] = group
    return tagged


def _subject(name: str | None, group: str | None, graphs: list[ChunkGraph]) -> TitleSubject | None:
    if name is None:
        return None
    return title_subject(name, group, [m for g in graphs for m in g.mentions])


def _one(extractor: Extractor, doc: GraphDocument, chunks: list[MainChunk]) -> DocumentGraph:
    try:
        graphs = extractor.extract([(c.start, c.content) for c in chunks])
        name = subject_name(doc.title)
        group = extractor.whole_entity_groups([name])[0] if name else None
        return knowledge.build(doc.body, chunks, graphs, _subject(name, group, graphs))
    except Exception as error:
        note = f"extraction failed: {type(error).__name__}: {error}"
        return knowledge.build(doc.body, chunks, [ChunkGraph(notes=[note]) for _ in chunks])
