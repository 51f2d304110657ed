-- How many chunks a collection held when the planner's statistics were last gathered after
-- one of its ingests (store/statistics.py): a collection that has grown or shrunk by a tenth
-- since then is analysed again when its next ingest job finishes.
ALTER TABLE collection_stats ADD COLUMN analyzed_chunk_count bigint NOT NULL DEFAULT 0;
