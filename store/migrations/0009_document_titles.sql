-- Graph search seeds the passages of a document whose exact title a query quotes.
CREATE INDEX IF NOT EXISTS documents_title ON documents (collection_id, lower(title));
