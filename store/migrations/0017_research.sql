-- Research runs (app/research/): a question answered over minutes, in retrieval rounds.
--
-- A run is a row; workers in any process claim one with FOR UPDATE SKIP LOCKED and hold it
-- by a lease they renew. A worker that dies stops renewing, and the next worker takes the
-- run over once the lease has lapsed. Each step the run takes is a row keyed by its number,
-- written only by the worker whose claim (token) is current, so a run taken over resumes
-- after its last step and never writes a step twice. A worker claims only runs whose model its
-- process can run: processes may be configured with different LLMs.
CREATE TABLE research_runs (
    id               uuid PRIMARY KEY,
    tenant_id        uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    key_id           uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    query            text NOT NULL,
    request          jsonb NOT NULL,
    model            text NOT NULL,
    status           text NOT NULL DEFAULT 'QUEUED'
                     CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED')),
    reason           text,
    budget_seconds   double precision NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    started_at       timestamptz,
    finished_at      timestamptz,
    claim_token      uuid,
    lease_until      timestamptz,
    claims           integer NOT NULL DEFAULT 0,
    answer           jsonb
);
CREATE INDEX research_runs_open ON research_runs (created_at)
    WHERE status IN ('QUEUED', 'RUNNING');
CREATE INDEX research_runs_tenant ON research_runs (tenant_id, created_at);

CREATE TABLE research_steps (
    run_id         uuid NOT NULL REFERENCES research_runs (id) ON DELETE CASCADE,
    number         integer NOT NULL,
    kind           text NOT NULL,
    message        text NOT NULL,
    passages_read  integer NOT NULL,
    detail         jsonb NOT NULL,
    brief          jsonb,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, number)
);
