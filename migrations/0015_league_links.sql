-- Migration 15: with each of the league's hashes this laptop keeps, the
-- digest of the batch's own fields it linked, and whether the batch is
-- kept here as the server holds it (its time was one): `verify` checks
-- every link of the chain, and that each batch kept as it came is still
-- the batch its digest says.

ALTER TABLE league_hash ADD COLUMN digest TEXT;
ALTER TABLE league_hash ADD COLUMN exact INTEGER NOT NULL DEFAULT 0;
