-- Access control, plans and usage. A key names what it may do (scopes) and what content it
-- may see (content scopes); a tenant has a plan and a credit balance; every run of a model
-- leaves one usage row.
CREATE TABLE plans (
    name                   text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_-]{0,39}$'),
    monthly_answers        integer CHECK (monthly_answers >= 0),   -- NULL: no allowance cap
    requests_per_minute    integer NOT NULL CHECK (requests_per_minute > 0),
    models                 text[] NOT NULL,                        -- '*' reaches every model
    credits_per_answer     numeric(12, 4) NOT NULL DEFAULT 0 CHECK (credits_per_answer >= 0),
    credits_per_1k_tokens  numeric(12, 4) NOT NULL DEFAULT 0 CHECK (credits_per_1k_tokens >= 0),
    description            text NOT NULL DEFAULT ''
);

INSERT INTO plans VALUES
    ('developer', NULL, 6000, '{*}', 0, 0,
     'The default: no allowance cap and no charge. For development and self-hosting.'),
    ('starter', 1000, 60, '{}', 1, 0,
     'The local extractive composer only, 1,000 answers a month, 1 credit each.'),
    ('team', 20000, 600, '{*}', 1, 2,
     'Every model, 20,000 answers a month, 1 credit an answer plus 2 per 1,000 LLM tokens.'),
    ('enterprise', NULL, 6000, '{*}', 0.5, 1,
     'Every model, no allowance cap, 0.5 credit an answer plus 1 per 1,000 LLM tokens.');

ALTER TABLE tenants
    ADD COLUMN plan text NOT NULL DEFAULT 'developer' REFERENCES plans (name),
    ADD COLUMN credits numeric(14, 4) NOT NULL DEFAULT 0;

-- Keys made before this migration keep doing everything they did.
ALTER TABLE api_keys
    ADD COLUMN name text NOT NULL DEFAULT '' CHECK (length(name) <= 200),
    ADD COLUMN scopes text[] NOT NULL
        DEFAULT '{search,answer,ingest,admin,sensitive:read}',
    ADD COLUMN content_scopes text[] NOT NULL DEFAULT '{}',
    ADD COLUMN expires_at timestamptz;

-- Content carrying none of a scoped key's content scopes is invisible to that key.
ALTER TABLE documents ADD COLUMN access_scopes text[] NOT NULL DEFAULT '{}';
CREATE INDEX documents_access_scopes ON documents USING gin (access_scopes);

-- One fixed one-minute window per key, shared by every server process. Unlogged: losing the
-- current minute's count in a crash is harmless, and writes skip the WAL.
CREATE UNLOGGED TABLE rate_windows (
    key_id        uuid PRIMARY KEY REFERENCES api_keys (id) ON DELETE CASCADE,
    window_start  timestamptz NOT NULL,
    requests      integer NOT NULL
);

CREATE TABLE usage_events (
    id                 bigserial PRIMARY KEY,
    tenant_id          uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    key_id             uuid REFERENCES api_keys (id) ON DELETE SET NULL,
    surface            text NOT NULL,
    model              text NOT NULL,
    prompt_tokens      integer NOT NULL CHECK (prompt_tokens >= 0),
    completion_tokens  integer NOT NULL CHECK (completion_tokens >= 0),
    passages_read      integer NOT NULL CHECK (passages_read >= 0),
    credits            numeric(14, 4) NOT NULL CHECK (credits >= 0),
    complete           boolean NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_events_tenant_time ON usage_events (tenant_id, created_at);
