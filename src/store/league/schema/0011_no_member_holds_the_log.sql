-- No member's open transaction holds another member's send. A member can
-- open a transaction by hand (`BEGIN; INSERT …` and a sleep after it):
-- their uncommitted batch holds the league's next place, and every other
-- member's send waits on it, for as long as they like (the server's
-- timeouts are theirs to turn off). The usher, a role no one logs in as,
-- ends such a transaction: a member whose send waited on a lock calls
-- `league.end_held_sends`, which ends the transactions of the league's
-- members in this database that hold rows of the league's tables and
-- have been open longer than 5 seconds (`HELD_AT_MOST` in the program),
-- then sends again. A sync's own send is one statement, open for one
-- round trip. The superuser's transactions are never ended (the server's
-- administrator is trusted with the server).

CREATE ROLE @usher@ NOLOGIN;
-- An organiser who sets the league up without the administrator (a login
-- with CREATEROLE) may not be able to grant these (PostgreSQL 16 on asks
-- for the ADMIN option): the league is made all the same, and a send
-- then waits on a held transaction until the server ends it.
DO $$
BEGIN
    GRANT pg_signal_backend, pg_read_all_stats TO @usher@;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'the usher cannot end a member''s transaction here: the administrator grants it pg_signal_backend and pg_read_all_stats';
END $$;
GRANT @usher@ TO CURRENT_USER;

SET ROLE @owner@;
GRANT USAGE, CREATE ON SCHEMA league TO @usher@;
GRANT SELECT ON league.member TO @usher@;
RESET ROLE;

SET ROLE @usher@;

CREATE FUNCTION league.end_held_sends() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    held integer;
    ended integer := 0;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM league.member m WHERE m.login = session_user) THEN
        RAISE EXCEPTION '% is not a member of this league', session_user USING ERRCODE = '42501';
    END IF;
    FOR held IN
        SELECT a.pid FROM pg_stat_activity a
        WHERE a.datname = current_database()
          AND a.pid <> pg_backend_pid()
          AND a.xact_start < clock_timestamp() - interval '5 seconds'
          AND a.usename IN (SELECT m.login FROM league.member m)
          AND EXISTS (
              SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
              WHERE l.pid = a.pid AND l.granted AND l.mode = 'RowExclusiveLock'
                AND c.relnamespace = 'league'::regnamespace)
    LOOP
        IF pg_terminate_backend(held) THEN
            ended := ended + 1;
        END IF;
    END LOOP;
    RETURN ended;
END $$;

RESET ROLE;

REVOKE ALL ON FUNCTION league.end_held_sends() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.end_held_sends() TO @players@;

SET ROLE @owner@;
REVOKE CREATE ON SCHEMA league FROM @usher@;
INSERT INTO league.schema_version (version) VALUES (11);
RESET ROLE;

REVOKE @usher@ FROM CURRENT_USER;
