-- Accounts (docs/api.md, "Accounts"): a user name and an Argon2id password hash (a PHC
-- string). `name_key` is the name in lower case: two accounts' names never differ by case
-- alone.
CREATE TABLE users (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A logged-in browser: the SHA-256 (hex) of the session cookie's value (the value itself is
-- never stored), its account, and when it was made and last used (milliseconds since the
-- epoch).
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    used_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

-- The account holding each seat of a game, for the seats an account took: a deleted account's
-- rows go, and its games stay, anonymous. `result`: 'win', 'draw' or 'loss' once the game is
-- over (with three players, second place is a loss), NULL before.
CREATE TABLE game_players (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id),
    result TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_user ON game_players(user_id, created_at);

-- Each account's Glicko-2 rating per game id and speed (crates/server/src/rating.rs).
CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    speed TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game, speed)
);

-- The rating after each rated game, for the profile's graph.
CREATE TABLE rating_history (
    user_id TEXT NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    speed TEXT NOT NULL,
    game_id TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);

-- 1 for a rated game; `ratings_done` turns to 1 in the transaction that ends it and rates it
-- (so a game is rated once); `rating_change` is the JSON of each seat's rating before and
-- after it.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN ratings_done BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rating_change TEXT;
