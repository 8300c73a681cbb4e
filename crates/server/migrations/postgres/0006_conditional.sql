-- See migrations/sqlite/0006_conditional.sql.
ALTER TABLE games ADD COLUMN takeback_offer BIGINT;
ALTER TABLE games ADD COLUMN takeback_yes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rematch_offers BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_base TEXT;
