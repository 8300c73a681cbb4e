-- A game: what was chosen when it was created. Its moves are the rows of `steps`.
CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    -- The game kind's id in the registry (`ackenhead`).
    kind TEXT NOT NULL,
    -- JSON object of settings by name.
    settings TEXT NOT NULL,
    -- The position string it started from, or NULL for the start position.
    start TEXT,
    -- JSON array: "human" or "computer:<level>" per seat.
    seats TEXT NOT NULL,
    -- JSON array: the SHA-256 (hex) of each human seat's token, NULL for a computer seat.
    token_hashes TEXT NOT NULL,
    -- 0 while the game goes on, 1 once it has a result.
    finished INTEGER NOT NULL DEFAULT 0,
    -- Counts every change (a step stored, a takeback): it only grows.
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);

-- Every step of a game, in order: a move, a seat leaving the game, or a result declared.
-- `seq` counts from 0; the primary key lets only one step take each place, so two racing
-- writers cannot both win. A takeback deletes the last steps.
CREATE TABLE steps (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    -- 'move' (body: the move text), 'out' (the seat leaves; body: the reason id, as
    -- `resignation`) or 'declare' (the game ends off the board; seat: the winner or NULL for a
    -- draw; body: the reason id).
    kind TEXT NOT NULL,
    seat INTEGER,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE INDEX games_unfinished ON games(finished) WHERE finished = 0;
