-- A member (the organiser backing the league up with `pg_dump`) reads
-- every table of the league: the places the server derives from the
-- batches are the batches' own, read again.

SET ROLE @owner@;

GRANT SELECT ON league.fighter_gang, league.effect_fighter, league.pending_gang TO @players@;

INSERT INTO league.schema_version (version) VALUES (7);

RESET ROLE;
