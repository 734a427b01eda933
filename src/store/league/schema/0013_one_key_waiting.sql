-- One current key a member, and at most one waiting. Every laptop trusts
-- a member's first key (the key of their first signed batch) and,
-- after that, only a key the organiser vouched for with a signed batch
-- of their own, labelled `Vouched for LOGIN's new key HEX`
-- (`session::league::keys`). The server keeps the keys published and
-- refuses a member a new key while one of theirs waits for the
-- organiser's word: a member (or someone with their password) cannot
-- bury the league in keys. A key published again is no new key.

SET ROLE @owner@;

-- The key the league holds `who` to, as the chain says: the newest the
-- organiser (the author of the league's first batch) vouched for, else
-- the first they published.
CREATE FUNCTION league.current_key(who text) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT coalesce(
        (SELECT right(b.label, 64) FROM league.batch b
         WHERE b.author = (SELECT f.author FROM league.batch f WHERE f.seq = 1)
           AND b.events::text = '[]'
           AND b.label = 'Vouched for ' || who || '''s new key ' || right(b.label, 64)
         ORDER BY b.seq DESC LIMIT 1),
        (SELECT k.public_key FROM league.member_key k WHERE k.login = who
         ORDER BY k.made, k.public_key LIMIT 1))
$$;

CREATE OR REPLACE FUNCTION league.key_arrives() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    newest text;
BEGIN
    NEW.login := session_user;
    NEW.made := now();
    IF NOT EXISTS (SELECT 1 FROM league.member m WHERE m.login = NEW.login) THEN
        RAISE EXCEPTION '% is not a member of this league', NEW.login USING ERRCODE = '42501';
    END IF;
    IF EXISTS (SELECT 1 FROM league.member_key k
               WHERE k.login = NEW.login AND k.public_key = NEW.public_key) THEN
        RETURN NEW;
    END IF;
    SELECT k.public_key INTO newest FROM league.member_key k WHERE k.login = NEW.login
    ORDER BY k.made DESC, k.public_key DESC LIMIT 1;
    IF FOUND AND newest IS DISTINCT FROM league.current_key(NEW.login) THEN
        RAISE EXCEPTION '% has a new key waiting for the organiser''s word already', NEW.login
            USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END $$;

REVOKE ALL ON FUNCTION league.current_key(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.current_key(text) TO @players@;

INSERT INTO league.schema_version (version) VALUES (13);

RESET ROLE;
