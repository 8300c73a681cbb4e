-- What a change of a game needs to be decided by the database alone (every change is an
-- update of this row conditional on `version`): the pending takeback proposal (the seat
-- that proposed it, NULL for none, and the seats that agreed, as a bit mask), the seats that
-- asked for a rematch (a bit mask), and the clock as a takeback left it (JSON
-- {"steps", "remaining_ms", "moved", "at_ms"}: the clock after that many steps, replayed
-- from there on; NULL: replayed from the start). Time used before a takeback stays used.
ALTER TABLE games ADD COLUMN takeback_offer INTEGER;
ALTER TABLE games ADD COLUMN takeback_yes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rematch_offers INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_base TEXT;
