-- Seeks and challenges (docs/api.md, "Seeks and challenges"): a game asked for, not made yet.
-- `settings` and `clock` as in `games`; `user_id`: the account that asks (NULL for an
-- anonymous seek); `target_id`: the account challenged (NULL for a seek in the lobby);
-- `rating_min`, `rating_max`: the ratings the other player may have; `token_hash`: the
-- SHA-256 of the token of the seat the seeker will hold. `state`: 'open', then 'accepted'
-- (`game_id` is the game made), 'cancelled' or 'declined'; it leaves 'open' once only.
CREATE TABLE seeks (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    clock TEXT,
    rated INTEGER NOT NULL,
    rating_min INTEGER,
    rating_max INTEGER,
    user_id TEXT REFERENCES users(id),
    target_id TEXT REFERENCES users(id),
    token_hash TEXT NOT NULL,
    state TEXT NOT NULL,
    game_id TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX seeks_state ON seeks(state, created_at);
