-- Migration 13: the keys of a league's members as this laptop has seen
-- them, pinned the first time: a key a login gains after is shown at the
-- sync that meets it (another laptop of theirs, or someone sending in
-- their name).

CREATE TABLE league_key (
    login      TEXT NOT NULL,
    public_key TEXT NOT NULL CHECK (length(public_key) = 64),
    made       TEXT NOT NULL,
    PRIMARY KEY (login, public_key)
);
