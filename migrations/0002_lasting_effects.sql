-- Migration 2: a fighter's own base stats, where they stand (wounded,
-- captured, gone), and lasting effects (injuries, advancements).

ALTER TABLE fighter ADD COLUMN status TEXT NOT NULL DEFAULT 'active'
    CHECK (status IN ('active', 'wounded', 'captured', 'gone'));
-- For 'gone': what became of them (dead, deserted…).
ALTER TABLE fighter ADD COLUMN status_name TEXT;
-- For 'captured': the gang holding them.
ALTER TABLE fighter ADD COLUMN status_gang INTEGER REFERENCES gang (id);
-- The battle the status came from.
ALTER TABLE fighter ADD COLUMN status_battle INTEGER;

CREATE TABLE fighter_stat (
    fighter_id INTEGER NOT NULL REFERENCES fighter (id) ON DELETE CASCADE,
    stat       TEXT    NOT NULL,
    value      INTEGER NOT NULL,
    PRIMARY KEY (fighter_id, stat)
) WITHOUT ROWID;

CREATE TABLE lasting_effect (
    id         INTEGER PRIMARY KEY,
    fighter_id INTEGER NOT NULL REFERENCES fighter (id),
    tbl        TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    detail     TEXT    NOT NULL,
    quirk      TEXT,
    lost_quirk TEXT,
    battle_id  INTEGER,
    -- The roll record as stored when it was made (never queried by field).
    roll       TEXT,
    removed    TEXT
);
CREATE INDEX lasting_effect_fighter ON lasting_effect (fighter_id);

CREATE TABLE lasting_effect_stat (
    effect_id INTEGER NOT NULL REFERENCES lasting_effect (id) ON DELETE CASCADE,
    stat      TEXT    NOT NULL,
    amount    INTEGER NOT NULL,
    PRIMARY KEY (effect_id, stat)
) WITHOUT ROWID;
