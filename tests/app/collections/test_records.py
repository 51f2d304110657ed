"""Typed records: validated against their schema; sensitive fields never reach an index."""

from __future__ import annotations

import pytest

from app.localdb.stack import Stack, make_key
from app.tenancy.keys import KeyRequest
from ingest.analyzer import analyze
from tests.graphql_client import GraphQLClient
from tests.helpers import new_collection, rows

pytestmark = pytest.mark.integration

SCHEMA = """mutation($c: String!) { defineRecordSchema(collection: $c, name: "employee", fields: [
  {name: "name", type: STRING, required: true},
  {name: "role", type: TEXT},
  {name: "salary", type: NUMBER, searchable: false, sensitive: true},
  {name: "ssn", type: STRING, searchable: false, sensitive: true},
  {name: "started", type: DATE}
]) { name fields { name type sensitive } } }"""
INGEST = """mutation($c: String!, $r: [RecordInput!]!) {
  ingestRecords(collection: $c, schema: "employee", records: $r, wait: true) {
    outcomes { externalId status code message documentId } } }"""
SECRET = "987-65-4321"


def test_sensitive_values_never_enter_any_index(gql: GraphQLClient, stack: Stack) -> None:
    name = new_collection(gql)
    gql.data(SCHEMA, c=name)
    outcome = gql.data(
        INGEST,
        c=name,
        r=[
            {
                "id": "e1",
                "fields": {
                    "name": "Dana Levi",
                    "role": "Head of incident response",
                    "salary": 181234.5,
                    "ssn": SECRET,
                    "started": "2021-03-01",
                },
            }
        ],
    )["ingestRecords"]["outcomes"][0]
    assert outcome["status"] == "INDEXED"
    doc_id = outcome["documentId"]
    for sql in (
        "SELECT count(*) FROM chunks WHERE content LIKE %s OR content LIKE %s",
        "SELECT count(*) FROM documents WHERE body LIKE %s OR body LIKE %s",
        "SELECT count(*) FROM graph_outbox WHERE payload::text LIKE %s OR payload::text LIKE %s",
        "SELECT count(*) FROM ingest_items WHERE request::text LIKE %s OR request::text LIKE %s",
    ):
        assert rows(stack, sql, f"%{SECRET}%", "%181234%") == [(0,)], sql
    secret_terms = analyze(f"{SECRET} 181234.5")
    leaked = rows(
        stack,
        "SELECT count(*) FROM postings p JOIN chunks c ON c.id = p.chunk_id"
        " WHERE c.document_id = %s AND p.term = ANY(%s)",
        doc_id,
        secret_terms,
    )
    assert secret_terms and leaked == [(0,)]
    held = "SELECT count(*) FROM ingest_items WHERE document_id = %s AND payload IS NOT NULL"
    assert rows(stack, held, doc_id) == [(0,)]  # the raw submission is dropped once indexed
    assert rows(
        stack,
        "SELECT count(*) FROM postings p JOIN chunks c ON c.id = p.chunk_id"
        " WHERE c.document_id = %s AND p.term = 'incid'",
        doc_id,
    ) == [(1,)]
    record = gql.data(
        "query($id: ID!) { document(id: $id) { sourceType record { schema fields } } }", id=doc_id
    )["document"]
    assert record["sourceType"] == "RECORD"
    assert record["record"]["fields"]["ssn"] == "••••"
    assert record["record"]["fields"]["name"] == "Dana Levi"
    assert rows(stack, "SELECT fields->>'ssn' FROM records WHERE document_id = %s", doc_id) == [
        (SECRET,)
    ]


def test_sensitive_vectors_differ_from_the_secret(gql: GraphQLClient, stack: Stack) -> None:
    """The vectors embed only the visible text: compare with an embedding of that text."""
    import numpy as np

    from app.models.minilm import MiniLM

    name = new_collection(gql)
    gql.data(SCHEMA, c=name)
    outcome = gql.data(
        INGEST,
        c=name,
        r=[{"id": "e2", "fields": {"name": "Omer", "role": "Engineer", "ssn": SECRET}}],
    )["ingestRecords"]["outcomes"][0]
    ((vector,),) = rows(
        stack,
        "SELECT embedding FROM chunks WHERE document_id = %s AND kind = 'small'",
        outcome["documentId"],
    )
    stored = np.array([float(x) for x in str(vector).strip("[]").split(",")], dtype=np.float32)
    expected = MiniLM().embed(["Omer\nname: Omer\nrole: Engineer"])[0]
    assert float(stored @ expected) > 0.9999


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"role": "no name"}, "'name' is required"),
        ({"name": "A", "salary": "lots"}, "'salary' must be NUMBER"),
        ({"name": "A", "started": "yesterday"}, "'started' must be DATE"),
        ({"name": "A", "shoe": 42}, "'shoe' is not in the schema"),
        ({"name": 7}, "'name' must be STRING"),
    ],
)
def test_invalid_record_names_the_field(
    gql: GraphQLClient, fields: dict[str, object], named: str
) -> None:
    name = new_collection(gql)
    gql.data(SCHEMA, c=name)
    outcomes = gql.data(
        INGEST,
        c=name,
        r=[{"id": "bad", "fields": fields}, {"id": "ok", "fields": {"name": "Fine"}}],
    )["ingestRecords"]["outcomes"]
    assert outcomes[0]["status"] == "FAILED" and outcomes[0]["code"] == "INVALID_RECORD"
    assert named in outcomes[0]["message"]
    assert outcomes[1]["status"] == "INDEXED"


def test_schema_rules(gql: GraphQLClient) -> None:
    name = new_collection(gql)
    bad = """mutation($c: String!) { defineRecordSchema(collection: $c, name: "x", fields: [
      {name: "secret", type: STRING, sensitive: true}]) { name } }"""
    body = gql.post(bad, c=name)
    assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    assert "cannot be sensitive and searchable" in body["errors"][0]["message"]
    missing = gql.post(INGEST.replace("employee", "nobody"), c=name, r=[{"id": "1", "fields": {}}])
    assert missing["errors"][0]["extensions"]["code"] == "NOT_FOUND"


def test_records_reach_the_graph_without_sensitive_values(gql: GraphQLClient, stack: Stack) -> None:
    from tests.graph_helpers import cypher, wait_until_graphed

    name = new_collection(gql)
    gql.data(SCHEMA, c=name)
    gql.data(
        INGEST,
        c=name,
        r=[
            {
                "id": "e9",
                "fields": {
                    "name": "Dana Levi",
                    "role": "Head of incident response at Larkspur Systems in London",
                    "salary": 181234.5,
                    "ssn": SECRET,
                },
            }
        ],
    )
    wait_until_graphed(stack, name, 1)
    linked = cypher(
        stack,
        "MATCH (r:Record {external_id: 'e9'})<-[:PART_OF]-(:Chunk)"
        "<-[:MENTIONED_IN]-(e:Entity) RETURN collect(e.name) AS names",
    )
    assert "Dana Levi" in linked[0]["names"]
    everything = cypher(
        stack,
        "MATCH (n) OPTIONAL MATCH (n)-[r]-() RETURN"
        " collect(DISTINCT properties(n)) AS nodes, collect(DISTINCT properties(r))"
        " AS rels",
    )
    dumped = repr(everything)
    assert SECRET not in dumped and "181234" not in dumped


RECORD = (
    """query($id: ID!, $u: Boolean!) { document(id: $id) { record(unmasked: $u) { fields } } }"""
)


def test_unmasked_values_need_sensitive_read_and_scoped_records_stay_hidden(
    gql: GraphQLClient, stack: Stack
) -> None:
    name = new_collection(gql)
    gql.data(SCHEMA, c=name)
    record = {"name": "Dana Levi", "salary": 181234.5, "ssn": SECRET}
    [outcome] = gql.data(
        INGEST, c=name, r=[{"id": "e2", "fields": record, "accessScopes": ["org:hr"]}]
    )["ingestRecords"]["outcomes"]
    doc_id = outcome["documentId"]
    unmasked = gql.data(RECORD, id=doc_id, u=True)["document"]["record"]["fields"]
    assert unmasked["ssn"] == SECRET
    assert gql.data(RECORD, id=doc_id, u=False)["document"]["record"]["fields"]["ssn"] != SECRET
    tenant = rows(stack, "SELECT t.name FROM tenants t JOIN collections c ON c.tenant_id = t.id"
                  " WHERE c.name = %s", name)[0][0]  # fmt: skip
    reader = GraphQLClient(gql.http, make_key(stack, tenant, KeyRequest(("search",))))
    body = reader.post(RECORD, id=doc_id, u=True)
    assert body["errors"][0]["extensions"] == {
        **body["errors"][0]["extensions"],
        "code": "FORBIDDEN",
        "scope": "sensitive:read",
    }
    assert SECRET not in str(body)
    assert reader.data(RECORD, id=doc_id, u=False)["document"]["record"]["fields"]["ssn"] != SECRET
    other = GraphQLClient(
        gql.http, make_key(stack, tenant, KeyRequest(content_scopes=("org:sales",)))
    )
    assert other.error_code(RECORD, id=doc_id, u=False) == "NOT_FOUND"
