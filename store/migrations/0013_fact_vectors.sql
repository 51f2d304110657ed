-- Query-to-fact matching (app/search/fact_matching.py): each current fact's text, "subject
-- predicate object", embedded with its collection's model. NULL until the graph projector has
-- embedded it (app/knowledge/fact_vectors.py), which also fills in facts written before this.
ALTER TABLE facts ADD COLUMN embedding vector;
CREATE INDEX facts_unembedded ON facts (collection_id)
    WHERE embedding IS NULL AND invalidated_at IS NULL;
CREATE INDEX facts_embedding_384 ON facts
    USING hnsw ((embedding::vector(384)) vector_cosine_ops)
    WHERE invalidated_at IS NULL AND vector_dims(embedding) = 384;
