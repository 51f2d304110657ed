-- Documents and records, their sections, chunks, BM25 postings and vectors; ingest jobs;
-- record schemas and vocabulary rules. Every row carries tenant_id.

CREATE TABLE documents (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id      uuid NOT NULL,
    collection_id  uuid NOT NULL,
    external_id    text NOT NULL,
    source_type    text NOT NULL DEFAULT 'DOCUMENT' CHECK (source_type IN ('DOCUMENT', 'RECORD')),
    title          text NOT NULL DEFAULT '',
    content_type   text NOT NULL,
    metadata       jsonb NOT NULL DEFAULT '{}',
    content_hash   bytea NOT NULL,
    body           text NOT NULL,
    pages          jsonb,
    status         text NOT NULL CHECK (status IN ('INDEXED', 'GRAPHED')),
    version        integer NOT NULL DEFAULT 1,
    chunk_count    integer NOT NULL DEFAULT 0,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (tenant_id, collection_id) REFERENCES collections (tenant_id, id) ON DELETE CASCADE,
    UNIQUE (collection_id, external_id)
);
CREATE INDEX documents_listing ON documents (collection_id, status, created_at, id);

CREATE TABLE sections (
    id           uuid PRIMARY KEY,
    tenant_id    uuid NOT NULL,
    document_id  uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    ordinal      integer NOT NULL,
    level        integer NOT NULL,
    kind         text NOT NULL,
    label        text NOT NULL,
    title        text NOT NULL,
    path         text NOT NULL,
    char_start   integer NOT NULL,
    char_end     integer NOT NULL,
    UNIQUE (document_id, ordinal)
);

-- kind: 'main' chunks (~1,500 chars) carry BM25 postings; 'small' windows (~500 chars,
-- within the embedder's token limit) carry vectors; 'large' windows (~4,500) give context.
CREATE TABLE chunks (
    id             uuid PRIMARY KEY,
    tenant_id      uuid NOT NULL,
    collection_id  uuid NOT NULL,
    document_id    uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    kind           text NOT NULL CHECK (kind IN ('main', 'small', 'large')),
    ordinal        integer NOT NULL,
    char_start     integer NOT NULL,
    char_end       integer NOT NULL,
    section_id     uuid REFERENCES sections (id) ON DELETE SET NULL,
    content        text NOT NULL,
    term_count     integer,
    embedding      vector,
    UNIQUE (document_id, kind, ordinal)
);
CREATE INDEX chunks_collection_kind ON chunks (collection_id, kind);

-- Which main chunks each extra window overlaps, to project window hits onto main chunks.
CREATE TABLE chunk_links (
    window_id  uuid NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    main_id    uuid NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    tenant_id  uuid NOT NULL,
    PRIMARY KEY (window_id, main_id)
);
CREATE INDEX chunk_links_main ON chunk_links (main_id);

CREATE TABLE postings (
    collection_id  uuid NOT NULL,
    term           text NOT NULL,
    chunk_id       uuid NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    tenant_id      uuid NOT NULL,
    tf             integer NOT NULL CHECK (tf > 0),
    PRIMARY KEY (collection_id, term, chunk_id)
);
CREATE INDEX postings_chunk ON postings (chunk_id);

-- BM25 collection statistics over main chunks, kept in the indexing transaction.
CREATE TABLE collection_stats (
    collection_id  uuid PRIMARY KEY REFERENCES collections (id) ON DELETE CASCADE,
    tenant_id      uuid NOT NULL,
    chunk_count    bigint NOT NULL DEFAULT 0,
    term_total     bigint NOT NULL DEFAULT 0
);

CREATE TABLE ingest_jobs (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id      uuid NOT NULL,
    collection_id  uuid NOT NULL,
    total          integer NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz,
    FOREIGN KEY (tenant_id, collection_id) REFERENCES collections (tenant_id, id) ON DELETE CASCADE
);

-- One row per submitted document; the raw payload waits here until a worker indexes it,
-- so a killed process resumes where it stopped.
CREATE TABLE ingest_items (
    id             bigserial PRIMARY KEY,
    job_id         uuid NOT NULL REFERENCES ingest_jobs (id) ON DELETE CASCADE,
    tenant_id      uuid NOT NULL,
    ordinal        integer NOT NULL,
    external_id    text NOT NULL,
    status         text NOT NULL CHECK (status IN ('PENDING', 'INDEXED', 'UNCHANGED', 'FAILED')),
    request        jsonb,
    payload        bytea,
    document_id    uuid,
    chunk_count    integer NOT NULL DEFAULT 0,
    error_code     text,
    error_message  text,
    processed_at   timestamptz,
    UNIQUE (job_id, ordinal)
);
CREATE INDEX ingest_items_pending ON ingest_items (id) WHERE status = 'PENDING';

CREATE TABLE record_schemas (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id      uuid NOT NULL,
    collection_id  uuid NOT NULL,
    name           text NOT NULL,
    fields         jsonb NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (tenant_id, collection_id) REFERENCES collections (tenant_id, id) ON DELETE CASCADE,
    UNIQUE (collection_id, name)
);

-- The full record, sensitive fields included, for its owner only; never indexed.
CREATE TABLE records (
    document_id  uuid PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
    tenant_id    uuid NOT NULL,
    schema_id    uuid NOT NULL REFERENCES record_schemas (id) ON DELETE CASCADE,
    fields       jsonb NOT NULL
);

CREATE TABLE vocabulary_rules (
    id             bigserial PRIMARY KEY,
    tenant_id      uuid NOT NULL,
    collection_id  uuid NOT NULL,
    kind           text NOT NULL CHECK (kind IN ('SYNONYMS', 'EXPANSION')),
    term           text,
    terms          text[] NOT NULL,
    FOREIGN KEY (tenant_id, collection_id) REFERENCES collections (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX vocabulary_rules_collection ON vocabulary_rules (collection_id);
