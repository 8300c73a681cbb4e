-- A game's clock: JSON {"initial_ms", "increment_ms"}, or NULL for a game without one. The
-- clock's state is replayed from the steps' `created_at` (milliseconds since the epoch).
ALTER TABLE games ADD COLUMN clock TEXT;
