"""The knowledge graph of the benchmark's corpus copies (see bench/search.py).

Each copy gets its own entities, mentions, co-occurrences and facts in Postgres, with ids
derived as the copies' chunk ids are. Entity keys of every copy but the first get a suffix
(keys are unique per collection), so a query links to the first copy's entities while the
walk runs inside a graph the size of the whole collection. Neo4j is then rebuilt from
Postgres, as `rebuildGraph` does.
"""

from __future__ import annotations

import time
from typing import Any

from app.services import Services
from bench._sql import COPY_ID, count
from store.pool import Conn
from store.tenants import Tenant

_NEW = COPY_ID
_MAYBE_NEW = "CASE WHEN {0} IS NULL THEN NULL ELSE " + _NEW.replace("{}", "{0}") + " END"
_SQL = (
    "INSERT INTO entities (id, tenant_id, collection_id, key, type, name, aliases)"
    f" SELECT {_NEW.format('e.id')}, e.tenant_id, %(target)s,"
    " CASE WHEN %(copy)s = '0' THEN e.key ELSE e.key || ' #' || %(copy)s END,"
    " e.type, e.name, e.aliases FROM entities e WHERE e.collection_id = %(source)s",
    "INSERT INTO mentions (entity_id, chunk_id, document_id, tenant_id, count, spans)"
    f" SELECT {_NEW.format('m.entity_id')}, {_NEW.format('m.chunk_id')},"
    f" {_NEW.format('m.document_id')}, m.tenant_id, m.count, m.spans FROM mentions m"
    " JOIN entities e ON e.id = m.entity_id WHERE e.collection_id = %(source)s",
    "INSERT INTO cooccurrences (document_id, entity_a, entity_b, tenant_id, weight)"
    f" SELECT {_NEW.format('c.document_id')}, {_NEW.format('c.entity_a')},"
    f" {_NEW.format('c.entity_b')}, c.tenant_id, c.weight FROM cooccurrences c"
    " JOIN entities e ON e.id = c.entity_a WHERE e.collection_id = %(source)s",
    "INSERT INTO facts (id, tenant_id, collection_id, document_id, document_version, chunk_id,"
    " subject_id, predicate, object_id, span_start, span_end, sentence, valid_from,"
    " valid_from_precision, valid_to, recorded_at, invalidated_at, superseded_by)"
    f" SELECT {_NEW.format('f.id')}, f.tenant_id, %(target)s, {_NEW.format('f.document_id')},"
    f" f.document_version, {_MAYBE_NEW.format('f.chunk_id')}, {_NEW.format('f.subject_id')},"
    f" f.predicate, {_NEW.format('f.object_id')}, f.span_start, f.span_end, f.sentence,"
    " f.valid_from, f.valid_from_precision, f.valid_to, f.recorded_at, f.invalidated_at,"
    f" {_MAYBE_NEW.format('f.superseded_by')} FROM facts f WHERE f.collection_id = %(source)s",
)


async def add_graph(
    services: Services, conn: Conn, tenant: Tenant, name: str, ids: tuple[Any, Any]
) -> None:
    """Give the copies in collection `name` (id ids[1]) the graph of the source (ids[0])."""
    source, target = ids
    if await count(conn, "SELECT count(*) FROM entities WHERE collection_id = %s", target):
        return
    copies = await count(
        conn, "SELECT count(*) FROM documents WHERE collection_id = %s", target
    ) // max(
        await count(conn, "SELECT count(*) FROM documents WHERE collection_id = %s", source), 1
    )
    started = time.perf_counter()
    for copy in range(copies):
        async with conn.transaction():
            for sql in _SQL:
                await conn.execute(sql, {"source": source, "target": target, "copy": str(copy)})
    await conn.execute(
        "UPDATE documents SET status = 'GRAPHED', graphed_version = version"
        " WHERE collection_id = %s",
        (target,),
    )
    await conn.execute("ANALYZE entities, mentions, cooccurrences, facts")
    documents = await services.graph_admin.rebuild(tenant, name)
    print(f"  {name}: graph of {documents} documents in {time.perf_counter() - started:.0f} s")
