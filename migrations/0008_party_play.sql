-- Migration 8: party play. What a record was played with (the boxes it
-- ticked, the campaign's settings then, the versions of its packs, as
-- JSON; empty for a record that has none), the campaign's settings (the
-- choices a text leaves to the group), and, on a lasting effect, the
-- records after which it heals and the group whose table gave it.

ALTER TABLE battle ADD COLUMN played TEXT NOT NULL DEFAULT '';

CREATE TABLE campaign_setting (
    id    TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

ALTER TABLE lasting_effect ADD COLUMN heals_after INTEGER;
ALTER TABLE lasting_effect ADD COLUMN by_group TEXT;
