-- Each computer level's Glicko-2 rating per game id, against the people who played it
-- (docs/api.md, "Ratings"): moved in the transaction that ends a game between an account and
-- the level (the game's `ratings_done` turns to 1 there), never the person's.
CREATE TABLE level_ratings (
    game TEXT NOT NULL,
    level INTEGER NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (game, level)
);
