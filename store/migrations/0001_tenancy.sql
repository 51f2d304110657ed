-- Tenancy from the first table: every row below carries its tenant, and foreign keys
-- include tenant_id so a row can never point into another tenant's data.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE tenants (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Keys are 256-bit random secrets, so a plain SHA-256 digest is a safe hash.
CREATE TABLE api_keys (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id   uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    key_hash    bytea NOT NULL UNIQUE,
    prefix      text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id);

-- Each collection is pinned to one embedding profile for its whole life.
CREATE TABLE collections (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    tenant_id        uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    name             text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    embedding_model  text NOT NULL,
    embedding_dim    integer NOT NULL CHECK (embedding_dim BETWEEN 1 AND 16000),
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, name),
    UNIQUE (tenant_id, id)
);

-- Changes the graph must apply, written in the same transaction as the change itself.
CREATE TABLE graph_outbox (
    id             bigserial PRIMARY KEY,
    tenant_id      uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    kind           text NOT NULL,
    payload        jsonb NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    attempts       integer NOT NULL DEFAULT 0,
    last_error     text,
    done_at        timestamptz
);
CREATE INDEX graph_outbox_pending ON graph_outbox (id) WHERE done_at IS NULL;
