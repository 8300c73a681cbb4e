-- The seat that declined (or, its proposer, withdrew) the last takeback proposal, until the
-- game's next change: NULL for none.
ALTER TABLE games ADD COLUMN takeback_declined INTEGER;
