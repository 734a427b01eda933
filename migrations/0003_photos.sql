-- Migration 3: fighters' photos. Photos are stored once by content and
-- never deleted, so setting and clearing a photo can be undone.

CREATE TABLE photo (
    hash  TEXT PRIMARY KEY,
    mime  TEXT NOT NULL,
    bytes BLOB NOT NULL
) WITHOUT ROWID;

ALTER TABLE fighter ADD COLUMN photo TEXT REFERENCES photo (hash);
