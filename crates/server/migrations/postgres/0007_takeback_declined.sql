-- See migrations/sqlite/0007_takeback_declined.sql.
ALTER TABLE games ADD COLUMN takeback_declined BIGINT;
