-- The knowledge graph's system of record: entities, mentions, co-occurrences and bi-temporal
-- facts extracted from main chunks. Neo4j is projected from these rows and rebuilt from them.

CREATE TABLE entities (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id      uuid NOT NULL,
    collection_id  uuid NOT NULL,
    key            text NOT NULL,
    type           text NOT NULL,
    name           text NOT NULL,
    aliases        text[] NOT NULL DEFAULT '{}',
    FOREIGN KEY (tenant_id, collection_id) REFERENCES collections (tenant_id, id) ON DELETE CASCADE,
    UNIQUE (collection_id, key, type)
);

CREATE TABLE mentions (
    entity_id    uuid NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    chunk_id     uuid NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    document_id  uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    tenant_id    uuid NOT NULL,
    count        integer NOT NULL,
    spans        integer[] NOT NULL,
    PRIMARY KEY (entity_id, chunk_id)
);
CREATE INDEX mentions_document ON mentions (document_id);
CREATE INDEX mentions_chunk ON mentions (chunk_id);

CREATE TABLE cooccurrences (
    document_id  uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    entity_a     uuid NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    entity_b     uuid NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    tenant_id    uuid NOT NULL,
    weight       integer NOT NULL,
    PRIMARY KEY (document_id, entity_a, entity_b)
);

-- No foreign key to documents: replacing a document closes its old facts (invalidated_at)
-- instead of deleting them. Deleting a document deletes its facts explicitly.
CREATE TABLE facts (
    id                    uuid PRIMARY KEY,
    tenant_id             uuid NOT NULL,
    collection_id         uuid NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    document_id           uuid NOT NULL,
    document_version      integer NOT NULL,
    chunk_id              uuid REFERENCES chunks (id) ON DELETE SET NULL,
    subject_id            uuid NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    predicate             text NOT NULL,
    object_id             uuid NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    span_start            integer NOT NULL,
    span_end              integer NOT NULL,
    sentence              text NOT NULL,
    valid_from            text,
    valid_from_precision  text,
    valid_to              text,
    recorded_at           timestamptz NOT NULL DEFAULT now(),
    invalidated_at        timestamptz
);
CREATE INDEX facts_document ON facts (document_id, document_version);
CREATE INDEX facts_subject ON facts (subject_id);
CREATE INDEX facts_object ON facts (object_id);

ALTER TABLE documents ADD COLUMN graph_notes jsonb;
ALTER TABLE documents ADD COLUMN graphed_version integer;
