"""Edges between entities with their evidence: the building block of every path query.

A fact (RELATED) is one edge citing its sentence. Co-occurrence edges (CO_OCCURS, one per
document) are merged per entity pair; each cites the chunk of a document where the two are
mentioned closest together.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graph.driver import GraphStore
from graph.edges import Edge, Evidence
from graph.temporal import TimeFilter, edge_condition

SCAN_AMONG = 200  # per entity when collecting edges among known entities (see _AMONG)
EVIDENCE_PER_EDGE = 3


# Undirected, so an edge between a hub and a small node is found from the small side even
# when the hub's scan bound cut it off.
_AMONG = (
    "UNWIND $ids AS id MATCH (a:Entity {id: id, tenant_id: $tenant})"
    " CALL (a) { MATCH (a)-[r:RELATED|CO_OCCURS]-(b:Entity)"
    " WITH r, b LIMIT $scan WHERE b.id IN $ids AND "
)
_AMONG_END = (
    " RETURN r } WITH DISTINCT r ORDER BY coalesce(r.weight, 1) DESC LIMIT $limit"
    " RETURN startNode(r).id AS source, endNode(r).id AS target, type(r) AS type,"
    " properties(r) AS props"
)


async def edges_among(
    graph: GraphStore,
    tenant_id: str,
    ids: list[str],
    time: TimeFilter,
    predicates: list[str],
    limit: int,
) -> list[Edge]:
    """Edges whose two ends are both in `ids`, strongest first."""
    records = await graph.read(
        _AMONG + edge_condition(time) + _AMONG_END,
        ids=ids,
        tenant=tenant_id,
        predicates=predicates,
        scan=SCAN_AMONG,
        limit=limit,
        **time.params(),
    )
    return await with_cooccurrence_evidence(graph, tenant_id, edges_of(records))


def edges_of(records: list[dict[str, Any]]) -> list[Edge]:
    facts = [
        fact_edge(r["source"], r["target"], r["props"]) for r in records if r["type"] == "RELATED"
    ]
    return facts + merged_cooccurrences([r for r in records if r["type"] == "CO_OCCURS"])


def fact_edge(source: str, target: str, props: dict[str, Any]) -> Edge:
    return Edge(
        kind="FACT",
        source=source,
        target=target,
        weight=1.0,
        evidence=[
            Evidence(
                props["document_id"],
                props.get("chunk_id"),
                props.get("span_start"),
                props.get("span_end"),
                props.get("sentence"),
            )
        ],
        fact_id=props["fact_id"],
        predicate=props["predicate"],
        valid_from=props.get("valid_from"),
        valid_from_precision=props.get("valid_from_precision"),
        valid_to=props.get("valid_to"),
        recorded_at=_native(props.get("recorded_at")),
        invalidated_at=_native(props.get("invalidated_at")),
        superseded_by=props.get("superseded_by"),
    )


def merged_cooccurrences(records: list[dict[str, Any]]) -> list[Edge]:
    """One edge per entity pair; its evidence the documents where they co-occur most."""
    by_pair: dict[frozenset[str], list[dict[str, Any]]] = {}
    for record in records:
        by_pair.setdefault(frozenset((record["source"], record["target"])), []).append(record)
    edges = []
    for rows in by_pair.values():
        rows.sort(key=lambda r: (-r["props"]["weight"], r["props"]["document_id"]))
        edges.append(
            Edge(
                kind="CO_OCCURRENCE",
                source=rows[0]["source"],
                target=rows[0]["target"],
                weight=float(sum(r["props"]["weight"] for r in rows)),
                evidence=[
                    Evidence(r["props"]["document_id"], None, None, None)
                    for r in rows[:EVIDENCE_PER_EDGE]
                ],
            )
        )
    return edges


_CLOSEST_CHUNK = (
    "UNWIND $items AS item CALL (item) {"
    " MATCH (c:Chunk {document_id: item.document, tenant_id: $tenant})"
    " MATCH (:Entity {id: item.a})-[ma:MENTIONED_IN]->(c)<-[mb:MENTIONED_IN]-(:Entity {id: item.b})"
    " RETURN c, ma, mb ORDER BY ma.count + mb.count DESC, c.ordinal LIMIT 1 }"
    " RETURN item.a AS a, item.b AS b, item.document AS document, c.id AS chunk,"
    " ma.spans AS a_spans, mb.spans AS b_spans"
)


async def with_cooccurrence_evidence(
    graph: GraphStore, tenant_id: str, edges: list[Edge]
) -> list[Edge]:
    """Fill in the chunk and span behind each co-occurrence edge's documents."""
    items = [
        {"a": e.source, "b": e.target, "document": ev.document_id}
        for e in edges
        if e.kind == "CO_OCCURRENCE"
        for ev in e.evidence
    ]
    if not items:
        return edges
    rows = await graph.read(_CLOSEST_CHUNK, items=items, tenant=tenant_id)
    return _located_in(edges, rows)


def _located_in(edges: list[Edge], rows: list[dict[str, Any]]) -> list[Edge]:
    """Each co-occurrence edge's evidence located in the chunk its row gives for the pair
    and document (rows: a, b, document, chunk, a_spans, b_spans; a pair either way round,
    since the closest stretch is the same)."""
    found = {(frozenset((r["a"], r["b"])), r["document"]): r for r in rows if r["chunk"]}
    for edge in edges:
        if edge.kind == "CO_OCCURRENCE":
            edge.evidence = [
                _located(ev, found.get((edge.pair, ev.document_id))) for ev in edge.evidence
            ]
    return edges


def _located(evidence: Evidence, row: dict[str, Any] | None) -> Evidence:
    if row is None:
        return evidence
    start, end = closest_spans(row["a_spans"], row["b_spans"])
    return Evidence(evidence.document_id, row["chunk"], start, end)


def closest_spans(a: list[int], b: list[int]) -> tuple[int, int]:
    """The shortest stretch covering one mention of each (spans are flat start, end lists)."""
    pairs = [
        (min(a[i], b[j]), max(a[i + 1], b[j + 1]))
        for i in range(0, len(a), 2)
        for j in range(0, len(b), 2)
    ]
    return min(pairs, key=lambda p: (p[1] - p[0], p[0]))


def _native(value: Any) -> datetime | None:
    return value.to_native() if value is not None else None


_BETWEEN = (
    "UNWIND $pairs AS pair MATCH (a:Entity {id: pair[0], tenant_id: $tenant})"
    " CALL (a, pair) { MATCH (a)-[r:RELATED|CO_OCCURS]-(b:Entity {id: pair[1]}) WHERE "
)
# Each co-occurrence's closest chunk is found in the same query (one round trip, not two):
# the chunks of its document that mention both ends, most mentions first.
_BETWEEN_END = (
    " RETURN r ORDER BY coalesce(r.weight, 1) DESC LIMIT $per_pair }"
    " WITH r, startNode(r) AS s, endNode(r) AS t"
    " OPTIONAL CALL (r, s, t) { WITH r WHERE r:CO_OCCURS"
    " MATCH (c:Chunk {document_id: r.document_id, tenant_id: $tenant})"
    " MATCH (s)-[ma:MENTIONED_IN]->(c)<-[mb:MENTIONED_IN]-(t)"
    " RETURN c, ma, mb ORDER BY ma.count + mb.count DESC, c.ordinal LIMIT 1 }"
    " RETURN s.id AS source, t.id AS target, type(r) AS type, properties(r) AS props,"
    " c.id AS chunk, ma.spans AS a_spans, mb.spans AS b_spans"
)


async def edges_between(
    graph: GraphStore,
    tenant_id: str,
    pairs: list[tuple[str, str]],
    time: TimeFilter,
) -> dict[frozenset[str], list[Edge]]:
    """For each entity pair, its edges: facts first, then the merged co-occurrence."""
    records = await graph.read(
        _BETWEEN + edge_condition(time) + _BETWEEN_END,
        pairs=[list(p) for p in pairs],
        tenant=tenant_id,
        predicates=[],
        per_pair=20,
        **time.params(),
    )
    located = [
        {"a": r["source"], "b": r["target"], "document": r["props"].get("document_id")} | r
        for r in records
        if r["type"] == "CO_OCCURS"
    ]
    found: dict[frozenset[str], list[Edge]] = {}
    for edge in _located_in(edges_of(records), located):
        found.setdefault(edge.pair, []).append(edge)
    return found
