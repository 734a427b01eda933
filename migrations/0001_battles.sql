-- Migration 1: battles, titles and pending effects of resource actions.

CREATE TABLE battle (
    id       INTEGER PRIMARY KEY,
    ruleset  TEXT    NOT NULL,
    scenario TEXT    NOT NULL,
    -- NULL only when both gangs Ran For It.
    winner   INTEGER REFERENCES gang (id),
    notes    TEXT    NOT NULL DEFAULT ''
);

CREATE TABLE battle_gang (
    battle_id  INTEGER NOT NULL REFERENCES battle (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    gang_id    INTEGER NOT NULL REFERENCES gang (id),
    role       TEXT,
    ran_for_it INTEGER NOT NULL CHECK (ran_for_it IN (0, 1)),
    PRIMARY KEY (battle_id, position),
    UNIQUE (battle_id, gang_id)
) WITHOUT ROWID;
CREATE INDEX battle_gang_gang ON battle_gang (gang_id);

CREATE TABLE battle_count (
    battle_id INTEGER NOT NULL REFERENCES battle (id) ON DELETE CASCADE,
    gang_id   INTEGER NOT NULL REFERENCES gang (id),
    count     TEXT    NOT NULL,
    value     INTEGER NOT NULL,
    PRIMARY KEY (battle_id, gang_id, count)
) WITHOUT ROWID;

CREATE TABLE battle_fighter (
    battle_id  INTEGER NOT NULL REFERENCES battle (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    fighter_id INTEGER NOT NULL REFERENCES fighter (id),
    gang_id    INTEGER NOT NULL REFERENCES gang (id),
    outcome    TEXT    NOT NULL,
    downed_by  INTEGER REFERENCES fighter (id),
    PRIMARY KEY (battle_id, position)
) WITHOUT ROWID;
CREATE INDEX battle_fighter_fighter ON battle_fighter (fighter_id);

CREATE TABLE title_holder (
    title   TEXT    PRIMARY KEY,
    gang_id INTEGER NOT NULL REFERENCES gang (id)
) WITHOUT ROWID;

CREATE TABLE pending_effect (
    id          INTEGER PRIMARY KEY,
    gang_id     INTEGER NOT NULL REFERENCES gang (id),
    action      TEXT    NOT NULL,
    action_name TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    used_in     INTEGER REFERENCES battle (id)
);
CREATE INDEX pending_effect_gang ON pending_effect (gang_id);

ALTER TABLE event ADD COLUMN battle_id INTEGER;
CREATE INDEX event_battle ON event (battle_id);
