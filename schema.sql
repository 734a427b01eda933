-- Rapsheet campaign file, schema version 1 (migration 0).
-- Later changes are appended to the migration list in src/store/migrations.rs;
-- this file is never edited once shipped.

PRAGMA application_id = 1380012115; -- 'RAPS'

CREATE TABLE campaign (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    name            TEXT    NOT NULL,
    default_ruleset TEXT    NOT NULL,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE gang (
    id      INTEGER PRIMARY KEY,
    name    TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    ruleset TEXT    NOT NULL,
    notes   TEXT    NOT NULL DEFAULT ''
);

CREATE TABLE gang_resource (
    gang_id  INTEGER NOT NULL REFERENCES gang (id) ON DELETE CASCADE,
    resource TEXT    NOT NULL,
    amount   INTEGER NOT NULL,
    PRIMARY KEY (gang_id, resource)
) WITHOUT ROWID;

CREATE TABLE fighter (
    id        INTEGER PRIMARY KEY,
    gang_id   INTEGER NOT NULL REFERENCES gang (id),
    name      TEXT    NOT NULL,
    is_leader INTEGER NOT NULL DEFAULT 0 CHECK (is_leader IN (0, 1)),
    notes     TEXT    NOT NULL DEFAULT '',
    UNIQUE (gang_id, name)
);
CREATE INDEX fighter_gang ON fighter (gang_id);

CREATE TABLE fighter_quirk (
    fighter_id INTEGER NOT NULL REFERENCES fighter (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    quirk      TEXT    NOT NULL,
    alt_name   TEXT,
    PRIMARY KEY (fighter_id, position)
) WITHOUT ROWID;

CREATE TABLE fighter_counter (
    fighter_id INTEGER NOT NULL REFERENCES fighter (id) ON DELETE CASCADE,
    counter    TEXT    NOT NULL,
    value      INTEGER NOT NULL,
    PRIMARY KEY (fighter_id, counter)
) WITHOUT ROWID;

-- The log. One batch per user action; undo writes a new batch that names
-- the batch it takes back. Both tables only ever grow.
CREATE TABLE batch (
    id     INTEGER PRIMARY KEY,
    at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    label  TEXT    NOT NULL,
    undoes INTEGER REFERENCES batch (id)
);

CREATE TABLE event (
    id         INTEGER PRIMARY KEY,
    batch_id   INTEGER NOT NULL REFERENCES batch (id),
    kind       TEXT    NOT NULL,
    gang_id    INTEGER,
    fighter_id INTEGER,
    payload    TEXT    NOT NULL
);
CREATE INDEX event_batch ON event (batch_id);
CREATE INDEX event_gang ON event (gang_id);
CREATE INDEX event_fighter ON event (fighter_id);

CREATE TRIGGER batch_append_only_update BEFORE UPDATE ON batch
BEGIN SELECT RAISE(ABORT, 'the campaign log is append-only'); END;
CREATE TRIGGER batch_append_only_delete BEFORE DELETE ON batch
BEGIN SELECT RAISE(ABORT, 'the campaign log is append-only'); END;
CREATE TRIGGER event_append_only_update BEFORE UPDATE ON event
BEGIN SELECT RAISE(ABORT, 'the campaign log is append-only'); END;
CREATE TRIGGER event_append_only_delete BEFORE DELETE ON event
BEGIN SELECT RAISE(ABORT, 'the campaign log is append-only'); END;
