-- 1 for a game listed in the lobby while it has open seats (seats "open" in `seats`).
ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
