-- Themes: communities of a collection's entity graph with their digests, recomputed after
-- the graph changes. graph_changed_at marks when; themes_updated_at when they were computed.
ALTER TABLE collections ADD COLUMN graph_changed_at timestamptz;
ALTER TABLE collections ADD COLUMN themes_updated_at timestamptz;

CREATE TABLE themes (
    tenant_id      uuid NOT NULL,
    collection_id  uuid NOT NULL,
    ordinal        integer NOT NULL,
    label          text NOT NULL,
    size           integer NOT NULL,
    digest         jsonb NOT NULL,
    PRIMARY KEY (collection_id, ordinal),
    FOREIGN KEY (tenant_id, collection_id) REFERENCES collections (tenant_id, id) ON DELETE CASCADE
);
