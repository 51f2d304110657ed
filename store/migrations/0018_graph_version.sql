-- A version on each collection's mentions, moved with graph_changed_at by every change to them
-- (store/themes.mark_graph_changed), so a process can tell whether the mentions it holds in
-- memory for the graph walk still match Postgres. A document's chunks deleted with their
-- mentions move the BM25 statistics' version instead; the walk's memory checks both.
ALTER TABLE collections ADD COLUMN IF NOT EXISTS graph_version bigint NOT NULL DEFAULT 0;
