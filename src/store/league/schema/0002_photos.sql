-- Fighters' photos, shared: insert-only, keyed by the key the campaign
-- file stores a photo under (the BLAKE3 hash of its bytes in hex, a dash,
-- its length; files from before keep shorter keys). The server cannot
-- work out BLAKE3: it checks the length a key names, and the laptop that
-- fetches a photo checks its hash. The first photo under a key stays.

SET ROLE @owner@;

CREATE TABLE league.photo (
    key text PRIMARY KEY CHECK (key ~ '^[0-9a-f]{16,64}(-[0-9]{1,9})?$'),
    bytes bytea NOT NULL CHECK (octet_length(bytes) BETWEEN 1 AND 8388608),
    author text NOT NULL,
    received timestamptz NOT NULL
);

-- Stamps a new photo with its author and time, and refuses one whose key
-- names another length.
CREATE FUNCTION league.photo_arrives() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    NEW.author := session_user;
    NEW.received := now();
    IF NEW.key LIKE '%-%'
       AND split_part(NEW.key, '-', 2)::bigint <> octet_length(NEW.bytes) THEN
        RAISE EXCEPTION 'the photo is % bytes; its key says %',
            octet_length(NEW.bytes), split_part(NEW.key, '-', 2) USING ERRCODE = '22023';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER photo_arrives BEFORE INSERT ON league.photo
    FOR EACH ROW EXECUTE FUNCTION league.photo_arrives();

CREATE FUNCTION league.photo_stays() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RAISE EXCEPTION 'the league''s photos are never changed or deleted' USING ERRCODE = '42501';
END $$;

CREATE TRIGGER photo_not_changed BEFORE UPDATE OR DELETE ON league.photo
    FOR EACH ROW EXECUTE FUNCTION league.photo_stays();
CREATE TRIGGER photo_not_truncated BEFORE TRUNCATE ON league.photo
    FOR EACH STATEMENT EXECUTE FUNCTION league.photo_stays();

-- Whether the session's login is a member: any member shares a photo.
CREATE FUNCTION league.is_member() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM league.member WHERE login = session_user)
$$;

ALTER TABLE league.photo ENABLE ROW LEVEL SECURITY;
ALTER TABLE league.photo FORCE ROW LEVEL SECURITY;
CREATE POLICY everyone_reads ON league.photo FOR SELECT USING (true);
CREATE POLICY members_share ON league.photo FOR INSERT WITH CHECK (league.is_member());

REVOKE ALL ON league.photo FROM PUBLIC;
REVOKE ALL ON FUNCTION league.photo_arrives(), league.photo_stays(), league.is_member()
    FROM PUBLIC;
GRANT SELECT, INSERT ON league.photo TO @players@;
GRANT EXECUTE ON FUNCTION league.is_member() TO @players@;

INSERT INTO league.schema_version (version) VALUES (2);

RESET ROLE;
