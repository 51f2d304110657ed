-- Search: an HNSW index over the local model's 384-dimension windows (other dimensions get
-- theirs when a collection first uses them), and a log of every search.
CREATE INDEX IF NOT EXISTS chunks_embedding_384 ON chunks
    USING hnsw ((embedding::vector(384)) vector_cosine_ops)
    WHERE kind = 'small' AND vector_dims(embedding) = 384;

CREATE TABLE search_logs (
    id              uuid PRIMARY KEY,
    tenant_id       uuid NOT NULL,
    collection_ids  uuid[] NOT NULL,
    query           text NOT NULL,
    mode            text NOT NULL,
    result_count    integer NOT NULL,
    top_score       double precision,
    latency_ms      double precision NOT NULL,
    degraded        boolean NOT NULL,
    missing_legs    text[] NOT NULL DEFAULT '{}',
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_logs_tenant_time ON search_logs (tenant_id, created_at);
