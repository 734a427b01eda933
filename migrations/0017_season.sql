-- Migration 17: a campaign season. Named holdings and who holds them; the
-- cycle the campaign is in and the cycle each record counted in; records
-- of a shape, with each side's place and the challenger; the holding at
-- stake; a gang's faction and the titles factions hold; lasting effects
-- that end with the cycle.

CREATE TABLE holding (
    holding TEXT    PRIMARY KEY,
    gang_id INTEGER NOT NULL REFERENCES gang (id)
) WITHOUT ROWID;
CREATE INDEX holding_gang ON holding (gang_id);

CREATE TABLE faction_title (
    title   TEXT PRIMARY KEY,
    faction TEXT NOT NULL
) WITHOUT ROWID;

ALTER TABLE campaign ADD COLUMN cycle INTEGER NOT NULL DEFAULT 1 CHECK (cycle >= 1);
ALTER TABLE gang ADD COLUMN faction TEXT;

ALTER TABLE battle ADD COLUMN shape TEXT;
ALTER TABLE battle ADD COLUMN stake TEXT;
ALTER TABLE battle ADD COLUMN cycle INTEGER;
CREATE INDEX battle_cycle ON battle (cycle);
ALTER TABLE battle_gang ADD COLUMN place INTEGER;
ALTER TABLE battle_gang ADD COLUMN challenger INTEGER NOT NULL DEFAULT 0
    CHECK (challenger IN (0, 1));

-- For a lasting effect that ends with the cycle: `cycle`.
ALTER TABLE lasting_effect ADD COLUMN until TEXT;
