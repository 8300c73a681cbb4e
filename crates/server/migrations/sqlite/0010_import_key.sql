-- A game saved from a browser that played it (an imported record, docs/api.md): the SHA-256
-- (hex) of the `key` the browser sent with it, so that the same game sent twice (two tabs, an
-- answer lost on the way) is stored once. NULL for every other game.
ALTER TABLE games ADD COLUMN import_key TEXT;
CREATE UNIQUE INDEX games_import_key ON games(import_key);
