-- Who created the game: the SHA-256 (hex) of the client's address, for the limit on the
-- unfinished games one client may have made (NULL for games made by the server itself:
-- rematches, and games from before this column).
ALTER TABLE games ADD COLUMN creator TEXT;
CREATE INDEX games_creator ON games(creator, finished, created_at);
