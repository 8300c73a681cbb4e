-- See migrations/sqlite/0004_offers.sql.
ALTER TABLE games ADD COLUMN draw_offer BIGINT;
ALTER TABLE games ADD COLUMN rematch TEXT;
