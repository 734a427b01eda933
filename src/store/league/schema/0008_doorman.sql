-- Members are let in by a role no one logs in as: the doorman, which may
-- make logins and does only what `league.admit` says. The organiser needs
-- no CREATEROLE of their own (a login with CREATEROLE can grant itself
-- the owner's role, and with it every batch): they call `league.admit`,
-- which makes a new member's login, never touches one that exists, and
-- lets it into the league.

CREATE ROLE @doorman@ NOLOGIN CREATEROLE;
GRANT @doorman@ TO CURRENT_USER;

SET ROLE @owner@;
GRANT USAGE, CREATE ON SCHEMA league TO @doorman@;
GRANT SELECT, INSERT ON league.member TO @doorman@;
RESET ROLE;

SET ROLE @doorman@;

-- Makes `login` with the SCRAM verifier `verifier` (the password itself
-- never reaches the server) and lets it into the league. The organiser's.
CREATE FUNCTION league.admit(login text, verifier text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM league.member m WHERE m.login = session_user AND m.organiser) THEN
        RAISE EXCEPTION 'only the organiser lets members in' USING ERRCODE = '42501';
    END IF;
    IF login IS NULL OR length(login) = 0 OR octet_length(login) > 63 OR login ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION '“%” cannot be a login: 1 to 63 bytes, no control characters', login
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

REVOKE ALL ON FUNCTION league.admit(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.admit(text, text) TO @players@;

RESET ROLE;

SET ROLE @owner@;
REVOKE CREATE ON SCHEMA league FROM @doorman@;
INSERT INTO league.schema_version (version) VALUES (8);
RESET ROLE;

REVOKE @doorman@ FROM CURRENT_USER;
