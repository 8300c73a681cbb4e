-- The seat a seek's seeker takes (docs/api.md, "Seeks and challenges"): NULL while it is to
-- be drawn at random, set when the seek is accepted; 0 for the seeks made before the choice.
ALTER TABLE seeks ADD COLUMN seat BIGINT DEFAULT 0;
