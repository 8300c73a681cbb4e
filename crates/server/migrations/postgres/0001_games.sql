-- The same tables as migrations/sqlite (see there for what each column means), in
-- PostgreSQL's types: every integer is BIGINT (times are milliseconds since the epoch).
CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    start TEXT,
    seats TEXT NOT NULL,
    token_hashes TEXT NOT NULL,
    finished BIGINT NOT NULL DEFAULT 0,
    version BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

CREATE TABLE steps (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    seat BIGINT,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE INDEX games_unfinished ON games(finished) WHERE finished = 0;
