-- What an answer does with a claim its passages do not support: REMOVE it, CAVEAT it, or
-- ABSTAIN from the whole answer.
ALTER TABLE collections
    ADD COLUMN answer_policy text NOT NULL DEFAULT 'REMOVE'
    CHECK (answer_policy IN ('REMOVE', 'CAVEAT', 'ABSTAIN'));
