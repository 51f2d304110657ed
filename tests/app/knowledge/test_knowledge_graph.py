"""The knowledge graph: spaCy extraction projected to Neo4j from Postgres rows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.localdb.stack import Stack
from tests.graph_helpers import (
    attendee_names,
    cypher,
    eventually,
    snapshot,
    wait_until_graphed,
)
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection, rows

pytestmark = pytest.mark.integration

STORY = (
    "International Business Machines (IBM) acquired Red Hat in July 2019. "
    "IBM is headquartered in Armonk. Arvind Krishna is the CEO of IBM."
)


def collection_id(gql: GraphQLClient, name: str) -> str:
    found = gql.data("query($n: String!) { collection(name: $n) { id } }", n=name)
    return str(found["collection"]["id"])


def test_aliases_merge_and_facts_carry_evidence(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    cid = collection_id(gql, name)
    ingest(gql, name, {"externalId": "ibm", "title": "IBM history", "text": STORY})
    wait_until_graphed(stack, name, 1)
    ibm = cypher(
        stack,
        "MATCH (e:Entity {collection_id: $c}) WHERE e.name = 'IBM'"
        " RETURN e.aliases AS aliases, e.mention_count AS mentions, e.type AS type",
        c=cid,
    )
    assert ibm == [{"aliases": ["International Business Machines"], "mentions": 4, "type": "ORG"}]
    facts = cypher(
        stack,
        "MATCH (s:Entity {collection_id: $c})-[r:RELATED]->(o:Entity)"
        " RETURN s.name AS s, r.predicate AS p, o.name AS o, r.sentence AS sentence,"
        " r.span_start AS start, r.span_end AS end, r.valid_from AS valid_from,"
        " r.valid_from_precision AS precision, r.chunk_id AS chunk",
        c=cid,
    )
    acquired = next(f for f in facts if f["p"] == "acquire")
    assert (acquired["s"], acquired["o"]) == ("IBM", "Red Hat")
    assert STORY[acquired["start"] : acquired["end"]].strip() == acquired["sentence"]
    assert (acquired["valid_from"], acquired["precision"]) == ("2019-07", "month")
    assert ("Arvind Krishna", "ceo of", "IBM") in {(f["s"], f["p"], f["o"]) for f in facts}
    chunk = cypher(
        stack,
        "MATCH (c:Chunk {id: $id})-[:PART_OF]->(d:Document) RETURN d.external_id AS doc",
        id=acquired["chunk"],
    )
    assert chunk == [{"doc": "ibm"}]
    mentioned = cypher(
        stack,
        "MATCH (e:Entity {name: 'Red Hat', collection_id: $c})"
        "-[m:MENTIONED_IN]->(:Chunk) RETURN m.count AS n, m.spans AS spans",
        c=cid,
    )
    start, end = mentioned[0]["spans"][:2]
    assert STORY[start:end] == "Red Hat"
    assert rows(
        stack,
        "SELECT status FROM documents d JOIN collections c ON c.id ="
        " d.collection_id WHERE c.name = %s",
        name,
    ) == [("GRAPHED",)]


def test_replacing_a_document_invalidates_its_old_facts(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    cid = collection_id(gql, name)
    v1 = "Northwind Analytics is headquartered in Lisbon."
    ingest(gql, name, {"externalId": "hq", "text": v1})
    wait_until_graphed(stack, name, 1)
    ingest(
        gql, name, {"externalId": "hq", "text": "Northwind Analytics is headquartered in Berlin."}
    )
    wait_until_graphed(stack, name, 1)
    facts = cypher(
        stack,
        "MATCH (:Entity {collection_id: $c})-[r:RELATED]->(o:Entity)"
        " RETURN o.name AS place, r.invalidated_at IS NOT NULL AS closed,"
        " r.recorded_at IS NOT NULL AS recorded ORDER BY place",
        c=cid,
    )
    assert facts == [
        {"place": "Berlin", "closed": False, "recorded": True},
        {"place": "Lisbon", "closed": True, "recorded": True},
    ]


def test_delete_leaves_no_orphans_in_the_graph(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    cid = collection_id(gql, name)
    ingest(gql, name, {"externalId": "base", "text": "Grace Hopper worked at Harvard."})
    wait_until_graphed(stack, name, 1)
    before = snapshot(stack, cid)
    ingest(gql, name, {"externalId": "extra", "text": STORY})
    wait_until_graphed(stack, name, 2)
    assert len(snapshot(stack, cid)["nodes"]) > len(before["nodes"])
    gql.data(
        'mutation($c: String!) { deleteDocument(collection: $c, externalId: "extra") { deleted } }',
        c=name,
    )
    eventually(lambda: snapshot(stack, cid) == before)
    assert rows(
        stack,
        "SELECT count(*) FROM entities e JOIN collections c ON c.id ="
        " e.collection_id WHERE c.name = %s",
        name,
    ) == [(2,)]
    assert rows(stack, "SELECT count(*) FROM facts WHERE collection_id = %s", cid) == [(1,)]


def test_rebuild_yields_the_same_graph(gql: GraphQLClient, stack: Stack, tenant_key: str) -> None:
    name = new_collection(gql)
    cid = collection_id(gql, name)
    ingest(
        gql,
        name,
        {"externalId": "ibm", "text": STORY},
        {"externalId": "hopper", "text": "Grace Hopper worked at Harvard in 1944."},
    )
    wait_until_graphed(stack, name, 2)
    before = snapshot(stack, cid)
    tenant = rows(
        stack,
        "SELECT t.name FROM tenants t JOIN collections c ON c.tenant_id = t.id WHERE c.id = %s",
        cid,
    )[0][0]
    command = [
        str(Path(sys.executable).parent / "trellis"),
        "graph",
        "rebuild",
        "--collection",
        name,
        "--tenant",
        tenant,
    ]
    result = subprocess.run(
        command,
        env={**os.environ, **stack.env()},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "rebuilt the graph of 2 document(s)"
    assert snapshot(stack, cid) == before


def test_uncovered_language_is_graphed_with_a_note(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    ingest(gql, name, {"externalId": "he", "text": "מאיה רוזן היא מנהלת משאבי האנוש."})
    wait_until_graphed(stack, name, 1)
    notes = rows(
        stack,
        "SELECT graph_notes FROM documents d JOIN collections c ON"
        " c.id = d.collection_id WHERE c.name = %s",
        name,
    )
    assert notes == [(["language not covered by the NER model"],)]
    listed = gql.data(
        "query($c: String!) { documents(collection: $c) { edges { node { status graphNotes } } } }",
        c=name,
    )["documents"]["edges"]
    assert listed == [
        {"node": {"status": "GRAPHED", "graphNotes": ["language not covered by the NER model"]}}
    ]


def test_job_reports_entities_and_facts(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    job = ingest(gql, name, {"externalId": "ibm", "text": STORY})["job"]["id"]
    wait_until_graphed(stack, name, 1)
    found = gql.data("query($j: ID!) { job(id: $j) { graphed entities facts } }", j=job)["job"]
    assert found["graphed"] == 1 and found["entities"] >= 4 and found["facts"] >= 3


def test_entity_flood_is_capped_and_reported_in_the_job(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    people = attendee_names()
    job = ingest(gql, name, {"externalId": "flood", "text": f"The attendees were {people}."})
    wait_until_graphed(stack, name, 1)
    outcome = gql.data(
        "query($j: ID!) { job(id: $j) { outcomes { status graphNotes } } }", j=job["job"]["id"]
    )["job"]["outcomes"][0]
    assert outcome["status"] == "INDEXED"
    assert any("cap" in note for note in outcome["graphNotes"])


def test_replaying_document_rows_changes_nothing(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    cid = collection_id(gql, name)
    ingest(gql, name, {"externalId": "ibm", "text": STORY})
    wait_until_graphed(stack, name, 1)
    before = snapshot(stack, cid)
    facts_before = rows(
        stack, "SELECT id, recorded_at FROM facts WHERE collection_id = %s ORDER BY id", cid
    )
    replay = (
        "INSERT INTO graph_outbox (tenant_id, collection_id, kind, payload) SELECT tenant_id,"
        " collection_id, kind, payload FROM graph_outbox WHERE kind = 'document.upsert'"
        " AND payload->>'collection_id' = %s"
    )
    for _ in range(2):
        rows(stack, replay + " RETURNING id", cid)
    pending = (
        "SELECT count(*) FROM graph_outbox WHERE done_at IS NULL AND payload->>'collection_id' = %s"
    )
    eventually(lambda: rows(stack, pending, cid) == [(0,)])
    assert snapshot(stack, cid) == before
    assert (
        rows(stack, "SELECT id, recorded_at FROM facts WHERE collection_id = %s ORDER BY id", cid)
        == facts_before
    )


def test_entity_names_and_aliases_are_full_text_searchable(
    gql: GraphQLClient, stack: Stack
) -> None:
    name = new_collection(gql)
    cid = collection_id(gql, name)
    ingest(gql, name, {"externalId": "ibm", "text": STORY})
    wait_until_graphed(stack, name, 1)
    found = cypher(
        stack,
        "CALL db.index.fulltext.queryNodes('entity_names', $q) YIELD node"
        " WHERE node.collection_id = $c RETURN node.name AS name",
        q="machines",
        c=cid,
    )
    assert [f["name"] for f in found] == ["IBM"]


def test_two_names_resolving_to_one_stored_entity_merge_their_mentions(
    gql: GraphQLClient, stack: Stack
) -> None:
    """The collection knows "Halcyon" only as a page title of unknown type. A later chunk
    names a person and a place "Halcyon": both resolve to that one stored entity, and their
    mentions of the chunk become one row (this once failed the whole projection batch)."""
    name = new_collection(gql)
    ingest(gql, name, {"externalId": "page", "title": "Halcyon", "text": "A quiet page."})
    wait_until_graphed(stack, name, 1)
    text = (
        "Mr. Halcyon said he was tired after the long match. "
        "Later they flew to Halcyon, Texas, for the final."
    )
    ingest(gql, name, {"externalId": "notes", "title": "Travel notes", "text": text})
    wait_until_graphed(stack, name, 2)
    found = rows(
        stack,
        "SELECT e.type, m.count, m.spans FROM mentions m JOIN entities e ON e.id = m.entity_id"
        " JOIN documents d ON d.id = m.document_id WHERE d.external_id = 'notes'"
        " AND e.key = 'halcyon' AND d.collection_id = e.collection_id"
        " AND e.collection_id = (SELECT id FROM collections WHERE name = %s)",
        name,
    )
    starts = [text.index("Halcyon"), text.index("Halcyon", 10)]
    assert found == [("TOPIC", 2, [starts[0], starts[0] + 7, starts[1], starts[1] + 7])]
