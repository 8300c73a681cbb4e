-- When each seat of a rated game was last seen (docs/api.md, "A player who left"): a
-- WebSocket that named the seat with its token refreshes `seen_at` (milliseconds since the
-- epoch) while it is open, and once more as it closes. Read by every server process.
CREATE TABLE presence (
    game_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    seen_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
