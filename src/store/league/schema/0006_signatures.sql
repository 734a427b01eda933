-- Each member signs their batches. A laptop makes a key when it joins (or
-- first meets a league of this schema) and publishes its public half
-- here; every laptop pins the keys it has seen, checks each batch of
-- format 3 against its author's keys, and shows a key a login gains
-- later (another laptop of theirs, or someone sending in their name).
-- The server cannot check Ed25519 itself: it keeps the keys, stamps who
-- published each, never lets one change, and refuses a batch of format 3
-- that carries no signature.

SET ROLE @owner@;

CREATE TABLE league.member_key (
    login text NOT NULL,
    public_key text NOT NULL CHECK (public_key ~ '^[0-9a-f]{64}$'),
    made timestamptz NOT NULL,
    PRIMARY KEY (login, public_key)
);

-- A key is the publishing login's, stamped by the server.
CREATE FUNCTION league.key_arrives() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    NEW.login := session_user;
    NEW.made := now();
    IF NOT EXISTS (SELECT 1 FROM league.member m WHERE m.login = NEW.login) THEN
        RAISE EXCEPTION '% is not a member of this league', NEW.login USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END $$;

CREATE FUNCTION league.key_stays() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RAISE EXCEPTION 'a member''s key is never changed or deleted' USING ERRCODE = '42501';
END $$;

CREATE TRIGGER key_arrives BEFORE INSERT ON league.member_key
    FOR EACH ROW EXECUTE FUNCTION league.key_arrives();
CREATE TRIGGER key_stays BEFORE UPDATE OR DELETE ON league.member_key
    FOR EACH ROW EXECUTE FUNCTION league.key_stays();
CREATE TRIGGER key_not_truncated BEFORE TRUNCATE ON league.member_key
    FOR EACH STATEMENT EXECUTE FUNCTION league.key_stays();

ALTER TABLE league.batch ADD COLUMN signature text NULL
    CHECK (signature IS NULL OR signature ~ '^[0-9a-f]{128}$');

-- A batch of format 3 on carries its author's signature of its hash.
CREATE FUNCTION league.batch_signed() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NEW.format >= 3 AND NEW.signature IS NULL THEN
        RAISE EXCEPTION 'batch % is not signed: the league is at format %, whose batches are signed by their author',
            NEW.seq, NEW.format USING ERRCODE = '22023';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER batch_signed BEFORE INSERT ON league.batch
    FOR EACH ROW EXECUTE FUNCTION league.batch_signed();

-- The server knows format 3 from now on.
UPDATE league.format SET newest = 3;

REVOKE ALL ON FUNCTION league.key_arrives(), league.key_stays(), league.batch_signed() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.key_arrives(), league.key_stays(), league.batch_signed()
    TO @players@;
GRANT SELECT, INSERT ON league.member_key TO @players@;

INSERT INTO league.schema_version (version) VALUES (6);

RESET ROLE;
