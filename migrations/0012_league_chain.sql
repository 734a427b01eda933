-- Migration 12: the league's chain as this laptop has seen it: the hash of
-- each of the server's batches, by the server's number. A sync checks
-- that the batches this file holds are still those on the server (a
-- batch changed or deleted there shows as another hash), and that each
-- new batch follows the one before.

CREATE TABLE league_hash (
    seq  INTEGER PRIMARY KEY CHECK (seq >= 1),
    hash TEXT NOT NULL CHECK (length(hash) = 64)
);
