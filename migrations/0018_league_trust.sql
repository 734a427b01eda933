-- Migration 17: what the league's chain says, as this laptop took it in.
-- With each of the league's batches it holds, the format the batch was
-- held to (none where it was left out for the format it claims or its
-- signature) and its author's signature: once the league has reached a
-- format, a later batch claiming an older one is left out, and `verify`
-- checks every batch again. And the key the chain trusts for each
-- member, from the batch that made it theirs (their first signed batch,
-- or the organiser's word for a new key): a batch signed by another key
-- is left out, alike on every laptop.

ALTER TABLE league_hash ADD COLUMN format INTEGER;
ALTER TABLE league_hash ADD COLUMN signature TEXT;

CREATE TABLE league_trust (
    login      TEXT NOT NULL,
    public_key TEXT NOT NULL CHECK (length(public_key) = 64),
    since      INTEGER NOT NULL CHECK (since >= 1),
    PRIMARY KEY (login, since)
);
