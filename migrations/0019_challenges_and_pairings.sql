-- Migration 19: a club's season. Challenges one gang issues another, with
-- the holding at stake, where each stands (issued, accepted, declined or
-- lapsed; whether it had been accepted is kept through a lapse), and the
-- record that played one; each cycle's pairings, as made; and what the
-- league's server last said of its members (their gangs, and when each
-- last synced), for the arbitrator's table when offline.

CREATE TABLE challenge (
    id         INTEGER PRIMARY KEY,
    cycle      INTEGER NOT NULL CHECK (cycle >= 1),
    challenger INTEGER NOT NULL,
    defender   INTEGER NOT NULL,
    stake      TEXT,
    status     TEXT    NOT NULL DEFAULT 'issued'
        CHECK (status IN ('issued', 'accepted', 'declined', 'lapsed')),
    accepted   INTEGER NOT NULL DEFAULT 0 CHECK (accepted IN (0, 1))
);
CREATE INDEX challenge_cycle ON challenge (cycle);

ALTER TABLE battle ADD COLUMN challenge INTEGER;
CREATE UNIQUE INDEX battle_challenge ON battle (challenge) WHERE challenge IS NOT NULL;

-- A cycle's pairings, as the event that made them holds them (JSON).
CREATE TABLE pairings (
    cycle INTEGER PRIMARY KEY CHECK (cycle >= 1),
    made  TEXT    NOT NULL
);

-- The league's members as the server last said, with when each last
-- synced there (none where they never did since the server kept it).
CREATE TABLE league_member (
    login     TEXT    PRIMARY KEY,
    organiser INTEGER NOT NULL DEFAULT 0 CHECK (organiser IN (0, 1)),
    gangs     TEXT    NOT NULL DEFAULT '[]',
    synced_at TEXT,
    synced_to INTEGER
);
