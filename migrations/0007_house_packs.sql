-- Migration 7: a group's own ruleset packs (house rules: the entries a
-- rule text lost, their own occupations), kept in the campaign so that
-- every laptop that opens it plays them. Written only through the log.

CREATE TABLE house_pack (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL
);
