-- Documents indexed before the knowledge graph existed get queued for it once.
INSERT INTO graph_outbox (tenant_id, kind, payload)
SELECT tenant_id, 'document.upsert', jsonb_build_object(
    'document_id', id::text, 'tenant_id', tenant_id::text,
    'collection_id', collection_id::text, 'external_id', external_id, 'title', title,
    'source_type', source_type)
FROM documents
WHERE graphed_version IS NULL
ORDER BY created_at;
