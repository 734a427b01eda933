-- Migration 10: a campaign shared through a league's server. One row says
-- where the server is and how far this file has replayed the server's
-- log: batches 1 to `synced` here are the server's, in its order and with
-- its numbers; those after are this laptop's, not yet sent. No password is
-- kept here: it stays in the player's password file.

CREATE TABLE league (
    one         INTEGER PRIMARY KEY CHECK (one = 1),
    host        TEXT NOT NULL,
    port        INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
    database    TEXT NOT NULL,
    login       TEXT NOT NULL,
    certificate TEXT NOT NULL,
    synced      INTEGER NOT NULL DEFAULT 0 CHECK (synced >= 0),
    last_sync   TEXT
);

-- Each batch's name on the server (made on the laptop that made the batch,
-- kept when a sync gives the batch a new number) and who made it; a batch
-- made here has this laptop's login until the server says otherwise.
CREATE TABLE league_batch (
    batch_id INTEGER PRIMARY KEY REFERENCES batch (id),
    uid      TEXT NOT NULL UNIQUE,
    author   TEXT NOT NULL
);
