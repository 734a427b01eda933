-- Migration 9: a fighter dismissed after taking part in the campaign's
-- history (a record, a lasting effect) stays as a row, marked dismissed,
-- so that history keeps its name; one who never took part is removed.
-- A dismissed fighter is on no roster and is found by no command.

ALTER TABLE fighter ADD COLUMN dismissed INTEGER NOT NULL DEFAULT 0
    CHECK (dismissed IN (0, 1));
