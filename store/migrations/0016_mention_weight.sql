-- A mention's weight on its entity-chunk edge, kept on the row: each text mention counts 1,
-- the title's (an empty span) SUBJECT_WEIGHT = 3 (store/knowledge.mention_weight). The walk's
-- subgraph reads thousands of mentions a search, and weighing each row's span array in every
-- such read was about a third of those statements' time. Adding the column rewrites the
-- table once.
CREATE FUNCTION trellis_mention_weight(spans int[]) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (cardinality(spans) / 2 + 2 * (
    SELECT count(*) FROM generate_series(1, cardinality(spans), 2) AS i
    WHERE spans[i] = spans[i + 1]
))::int;

ALTER TABLE mentions
    ADD COLUMN weight int NOT NULL GENERATED ALWAYS AS (trellis_mention_weight(spans)) STORED;
