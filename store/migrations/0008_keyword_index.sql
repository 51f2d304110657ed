-- A version on each collection's BM25 statistics, moved by every change to its postings, so a
-- process can tell whether its in-memory keyword index still matches Postgres.
ALTER TABLE collection_stats ADD COLUMN IF NOT EXISTS version bigint NOT NULL DEFAULT 0;
