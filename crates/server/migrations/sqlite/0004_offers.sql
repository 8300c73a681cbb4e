-- What was kept in one process's memory, stored so that every server process on the
-- database sees it: the seat whose draw offer is pending (NULL: none; any step or takeback
-- clears it), and the id of the game a rematch of this one created.
ALTER TABLE games ADD COLUMN draw_offer INTEGER;
ALTER TABLE games ADD COLUMN rematch TEXT;
