-- A functional fact (one headquarters at a time) closed by a later one records which fact
-- replaced it. valid_to holds the successor's valid_from.
ALTER TABLE facts ADD COLUMN superseded_by uuid;
CREATE INDEX facts_collection_predicate ON facts (collection_id, predicate)
    WHERE invalidated_at IS NULL;
