-- The entities spaCy found in each main chunk when the graph was extracted, dates and numbers
-- included, as [start, end, label] in document offsets: an answer reads them here instead of
-- running the model again. NULL until extraction has read the chunk.
ALTER TABLE chunks ADD COLUMN named jsonb;
-- Chunks graphed before entities were kept are read at the end of each projection drain;
-- this keeps finding them cheap (most rows are read, or are not main chunks).
CREATE INDEX chunks_unread ON chunks (id) WHERE kind = 'main' AND named IS NULL;
