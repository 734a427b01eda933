-- The organiser's logins stay in the league's own namespace: `admit`
-- refuses a name a league's roles take on this server (`X_owner`,
-- `X_players`, `X_doorman`, `X_usher` for a league in database X), which
-- would otherwise let an organiser take, ahead of time, the roles of a
-- league not yet made (its `prepare` then fails), and names PostgreSQL
-- keeps for itself.

GRANT @doorman@ TO CURRENT_USER;
SET ROLE @owner@;
GRANT CREATE ON SCHEMA league TO @doorman@;
RESET ROLE;

SET ROLE @doorman@;

CREATE OR REPLACE FUNCTION league.admit(login text, verifier text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM league.member m WHERE m.login = session_user AND m.organiser) THEN
        RAISE EXCEPTION 'only the organiser lets members in' USING ERRCODE = '42501';
    END IF;
    IF login IS NULL OR length(login) = 0 OR octet_length(login) > 63 OR login ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION '“%” cannot be a login: 1 to 63 bytes, no control characters', login
            USING ERRCODE = '22023';
    END IF;
    IF login ~ '_(owner|players|doorman|usher)$' OR login LIKE 'pg\_%' THEN
        RAISE EXCEPTION '“%” cannot be a member''s login: a name ending in _owner, _players, _doorman or _usher is one a league''s roles take on this server', login
            USING ERRCODE = '22023';
    END IF;
    IF EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = login) THEN
        RAISE EXCEPTION 'a login named % already exists on this server', login
            USING ERRCODE = '42710';
    END IF;
    IF verifier IS NULL OR verifier !~ '^SCRAM-SHA-256\$' THEN
        RAISE EXCEPTION 'a member''s password reaches the server only as a SCRAM verifier'
            USING ERRCODE = '22023';
    END IF;
    EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L IN ROLE %I', login, verifier, @players_literal@);
    INSERT INTO league.member (login) VALUES (login);
END $$;

RESET ROLE;

SET ROLE @owner@;
REVOKE CREATE ON SCHEMA league FROM @doorman@;
INSERT INTO league.schema_version (version) VALUES (12);
RESET ROLE;

REVOKE @doorman@ FROM CURRENT_USER;
