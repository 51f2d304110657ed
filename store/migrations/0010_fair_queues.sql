-- Queues shared fairly and safely by any number of workers.
--
-- The graph outbox names each row's collection, so one projector at a time owns a collection
-- (an advisory lock) and collections are served in turn. A failed row waits before its next
-- attempt (next_attempt_at), so a bad document is retried alone and later, never in a loop.
ALTER TABLE graph_outbox ADD COLUMN IF NOT EXISTS collection_id uuid;
ALTER TABLE graph_outbox ADD COLUMN IF NOT EXISTS next_attempt_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE graph_outbox ADD COLUMN IF NOT EXISTS parked_at timestamptz;
-- Deletions queued before this migration did not name their collection: they share one lane.
UPDATE graph_outbox SET collection_id = coalesce(
    payload->>'collection_id', payload->>'id', '00000000-0000-0000-0000-000000000000')::uuid
    WHERE collection_id IS NULL;
UPDATE graph_outbox SET parked_at = now() WHERE done_at IS NULL AND attempts >= 10;
ALTER TABLE graph_outbox ALTER COLUMN collection_id SET NOT NULL;
CREATE INDEX IF NOT EXISTS graph_outbox_waiting ON graph_outbox (collection_id, id)
    WHERE done_at IS NULL AND parked_at IS NULL;

-- A document whose graph projection was given up on, at this version.
ALTER TABLE documents ADD COLUMN IF NOT EXISTS graph_failed_version integer;

-- Each item's size, so batches are bounded by bytes as well as by count and progress can
-- report megabytes after the payload is dropped.
ALTER TABLE ingest_items ADD COLUMN IF NOT EXISTS bytes bigint NOT NULL DEFAULT 0;
UPDATE ingest_items SET bytes = octet_length(payload) WHERE payload IS NOT NULL;
CREATE INDEX IF NOT EXISTS ingest_items_waiting ON ingest_items (job_id, id)
    WHERE status = 'PENDING';
CREATE INDEX IF NOT EXISTS ingest_jobs_open ON ingest_jobs (created_at) WHERE finished_at IS NULL;
UPDATE documents d SET graph_failed_version = d.version FROM graph_outbox o
    WHERE o.parked_at IS NOT NULL AND o.kind = 'document.upsert'
    AND d.id = (o.payload->>'document_id')::uuid AND d.graphed_version IS DISTINCT FROM d.version;
