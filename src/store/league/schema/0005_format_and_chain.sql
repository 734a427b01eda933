-- The league's format and its chain of batches.
--
-- Format: the shape the league's batches are written in. A batch says its
-- format; the server refuses one newer than the league's (its writer is
-- ahead of the league: the organiser raises the format once every member
-- has updated) and one older (its writer is behind: they update Rapsheet).
-- Format 1: batches as schema 1 made them. Format 2: each batch carries the
-- hash that chains it to the one before.
--
-- Chain: every batch's hash is the SHA-256 of the hash before it and the
-- digest of its own fields (see `league.digest`); the server works it out
-- at insert, checks it against the one a format-2 batch carries, and keeps
-- it. A laptop keeps the hashes of the batches it holds and asks the
-- server, at each sync, whether the batches it holds are still those: a
-- batch changed or deleted on the server shows there.
--
-- Events: each event's type must be one the league's format knows, with
-- the fields of its kind present and of the right JSON type, no field
-- twice and none its kind does not have (`league.event_field`).

SET ROLE @owner@;

CREATE TABLE league.format (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    format bigint NOT NULL CHECK (format >= 1),
    -- The newest format the server's schema knows (a later schema that
    -- knows more raises it).
    newest bigint NOT NULL CHECK (newest >= format)
);
INSERT INTO league.format (format, newest) VALUES (1, 2);

ALTER TABLE league.event_kind ADD COLUMN since_format bigint NOT NULL DEFAULT 1;

-- The fields of each event kind besides its type, as the program writes
-- them: the JSON type, and whether the field may be missing or null.
CREATE TABLE league.event_field (
    kind text NOT NULL REFERENCES league.event_kind (kind),
    field text NOT NULL,
    json_type text NOT NULL CHECK (json_type IN ('string', 'number', 'boolean', 'object', 'array')),
    may_lack boolean NOT NULL DEFAULT false,
    PRIMARY KEY (kind, field)
);
INSERT INTO league.event_field (kind, field, json_type, may_lack) VALUES
    ('campaign_created', 'name', 'string', false),
    ('campaign_created', 'default_ruleset', 'string', false),
    ('campaign_renamed', 'from', 'string', false),
    ('campaign_renamed', 'to', 'string', false),
    ('gang_founded', 'gang', 'object', false),
    ('gang_disbanded', 'gang', 'object', false),
    ('gang_renamed', 'gang', 'number', false),
    ('gang_renamed', 'from', 'string', false),
    ('gang_renamed', 'to', 'string', false),
    ('gang_notes_changed', 'gang', 'number', false),
    ('gang_notes_changed', 'from', 'string', false),
    ('gang_notes_changed', 'to', 'string', false),
    ('resource_adjusted', 'gang', 'number', false),
    ('resource_adjusted', 'resource', 'string', false),
    ('resource_adjusted', 'from', 'number', false),
    ('resource_adjusted', 'to', 'number', false),
    ('resource_adjusted', 'reason', 'string', false),
    ('fighter_recruited', 'fighter', 'object', false),
    ('fighter_dismissed', 'fighter', 'object', false),
    ('fighter_renamed', 'fighter', 'number', false),
    ('fighter_renamed', 'from', 'string', false),
    ('fighter_renamed', 'to', 'string', false),
    ('leader_changed', 'fighter', 'number', false),
    ('leader_changed', 'from', 'boolean', false),
    ('leader_changed', 'to', 'boolean', false),
    ('quirks_changed', 'fighter', 'number', false),
    ('quirks_changed', 'from', 'array', false),
    ('quirks_changed', 'to', 'array', false),
    ('counter_changed', 'fighter', 'number', false),
    ('counter_changed', 'counter', 'string', false),
    ('counter_changed', 'from', 'number', false),
    ('counter_changed', 'to', 'number', false),
    ('counter_changed', 'reason', 'string', false),
    ('fighter_notes_changed', 'fighter', 'number', false),
    ('fighter_notes_changed', 'from', 'string', false),
    ('fighter_notes_changed', 'to', 'string', false),
    ('battle_recorded', 'battle', 'object', false),
    ('battle_unrecorded', 'battle', 'object', false),
    ('title_changed', 'title', 'string', false),
    ('title_changed', 'from', 'number', true),
    ('title_changed', 'to', 'number', true),
    ('action_taken', 'gang', 'number', false),
    ('action_taken', 'action', 'string', false),
    ('action_taken', 'target', 'number', true),
    ('action_taken', 'choice', 'string', true),
    ('action_taken_back', 'gang', 'number', false),
    ('action_taken_back', 'action', 'string', false),
    ('action_taken_back', 'target', 'number', true),
    ('action_taken_back', 'choice', 'string', true),
    ('pending_effect_added', 'effect', 'object', false),
    ('pending_effect_removed', 'effect', 'object', false),
    ('pending_effect_used', 'effect', 'number', false),
    ('pending_effect_used', 'battle', 'number', false),
    ('pending_effect_used', 'fighters', 'array', true),
    ('pending_effect_unused', 'effect', 'number', false),
    ('pending_effect_unused', 'battle', 'number', false),
    ('pending_effect_unused', 'fighters', 'array', true),
    ('fighter_status_changed', 'fighter', 'number', false),
    ('fighter_status_changed', 'from', 'object', false),
    ('fighter_status_changed', 'to', 'object', false),
    ('fighter_status_changed', 'reason', 'string', false),
    ('fighter_transferred', 'fighter', 'number', false),
    ('fighter_transferred', 'from', 'number', false),
    ('fighter_transferred', 'to', 'number', false),
    ('fighter_transferred', 'leader_from', 'boolean', false),
    ('fighter_transferred', 'leader_to', 'boolean', false),
    ('base_stat_set', 'fighter', 'number', false),
    ('base_stat_set', 'stat', 'string', false),
    ('base_stat_set', 'from', 'number', true),
    ('base_stat_set', 'to', 'number', true),
    ('lasting_effect_added', 'effect', 'object', false),
    ('lasting_effect_deleted', 'effect', 'object', false),
    ('lasting_effect_removed', 'effect', 'number', false),
    ('lasting_effect_removed', 'reason', 'string', false),
    ('lasting_effect_restored', 'effect', 'number', false),
    ('lasting_effect_restored', 'reason', 'string', false),
    ('table_rolled', 'battle', 'number', true),
    ('table_rolled', 'fighter', 'number', true),
    ('table_rolled', 'table', 'string', false),
    ('table_rolled', 'roll', 'object', false),
    ('table_rolled', 'modifier', 'number', false),
    ('table_rolled', 'total', 'number', false),
    ('table_rolled', 'row', 'string', false),
    ('table_rolled', 'result', 'string', false),
    ('table_roll_taken_back', 'battle', 'number', true),
    ('table_roll_taken_back', 'fighter', 'number', true),
    ('table_roll_taken_back', 'table', 'string', false),
    ('table_roll_taken_back', 'roll', 'object', false),
    ('table_roll_taken_back', 'modifier', 'number', false),
    ('table_roll_taken_back', 'total', 'number', false),
    ('table_roll_taken_back', 'row', 'string', false),
    ('table_roll_taken_back', 'result', 'string', false),
    ('campaign_ruleset_changed', 'from', 'string', false),
    ('campaign_ruleset_changed', 'to', 'string', false),
    ('house_pack_set', 'id', 'string', false),
    ('house_pack_set', 'from', 'string', true),
    ('house_pack_set', 'to', 'string', true),
    ('setting_changed', 'setting', 'string', false),
    ('setting_changed', 'from', 'string', true),
    ('setting_changed', 'to', 'string', true),
    ('arc_closed', 'gangs', 'array', false),
    ('arc_closed', 'reason', 'string', false),
    ('arc_reopened', 'gangs', 'array', false),
    ('arc_reopened', 'reason', 'string', false),
    ('scenario_rolled', 'gangs', 'array', false),
    ('scenario_rolled', 'options', 'array', false),
    ('scenario_rolled', 'roll', 'object', false),
    ('scenario_rolled', 'scenario', 'string', false),
    ('scenario_roll_taken_back', 'gangs', 'array', false),
    ('scenario_roll_taken_back', 'options', 'array', false),
    ('scenario_roll_taken_back', 'roll', 'object', false),
    ('scenario_roll_taken_back', 'scenario', 'string', false),
    ('photo_changed', 'fighter', 'number', false),
    ('photo_changed', 'from', 'string', true),
    ('photo_changed', 'to', 'string', true),
    ('gang_ruleset_changed', 'gang', 'number', false),
    ('gang_ruleset_changed', 'from', 'string', false),
    ('gang_ruleset_changed', 'to', 'string', false);

ALTER TABLE league.batch ADD COLUMN format bigint NOT NULL DEFAULT 1;
ALTER TABLE league.batch ADD COLUMN hash text NULL;

-- One field of a digest: its length in bytes, a colon, the field, a
-- semicolon (no field can run into the next).
CREATE FUNCTION league.field(t text) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT octet_length(t)::text || ':' || t || ';'
$$;

-- The digest of a batch's own fields, as a laptop works it out
-- (`store::league::chain`): SHA-256, in hex.
CREATE FUNCTION league.digest(seq bigint, uid text, author text, at text, label text,
                              undoes bigint, events text) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT encode(sha256(convert_to(
        league.field(seq::text) || league.field(uid) || league.field(author)
        || league.field(at) || league.field(label)
        || league.field(coalesce(undoes::text, '')) || league.field(events), 'UTF8')), 'hex')
$$;

-- A batch's hash: the hash before it ('' for the first) and its digest.
CREATE FUNCTION league.link(before text, digest text) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT encode(sha256(convert_to(coalesce(before, '') || ':' || digest, 'UTF8')), 'hex')
$$;

-- The fields of one event: a type the league's format knows, every field
-- of its kind present and of its JSON type, none twice, none unknown.
CREATE FUNCTION league.check_event(e json) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    ekind text;
    f record;
    t text;
    stray text;
BEGIN
    IF json_typeof(e) IS DISTINCT FROM 'object' OR json_typeof(e -> 'type') IS DISTINCT FROM 'string' THEN
        RAISE EXCEPTION 'an event of a batch is an object with a type' USING ERRCODE = '22023';
    END IF;
    ekind := e ->> 'type';
    IF NOT EXISTS (SELECT 1 FROM league.event_kind k, league.format l
                   WHERE k.kind = ekind AND k.since_format <= l.format) THEN
        RAISE EXCEPTION 'the league does not know the event kind "%"; update Rapsheet', left(ekind, 80)
            USING ERRCODE = '22023';
    END IF;
    SELECT k INTO stray FROM json_object_keys(e) k GROUP BY k HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'a % event gives its "%" twice', ekind, left(stray, 80) USING ERRCODE = '22023';
    END IF;
    SELECT k INTO stray FROM json_object_keys(e) k
    WHERE k <> 'type'
      AND NOT EXISTS (SELECT 1 FROM league.event_field x WHERE x.kind = ekind AND x.field = k)
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'a % event has no field "%"', ekind, left(stray, 80) USING ERRCODE = '22023';
    END IF;
    FOR f IN SELECT x.field, x.json_type, x.may_lack FROM league.event_field x WHERE x.kind = ekind LOOP
        t := json_typeof(e -> f.field);
        IF t IS NULL OR t = 'null' THEN
            IF NOT f.may_lack THEN
                RAISE EXCEPTION 'a % event lacks its %', ekind, f.field USING ERRCODE = '22023';
            END IF;
        ELSIF t <> f.json_type THEN
            RAISE EXCEPTION 'a % event''s % is a %, not a %', ekind, f.field, t, f.json_type
                USING ERRCODE = '22023';
        END IF;
    END LOOP;
END $$;

-- An id the event must carry, as a JSON number.
CREATE OR REPLACE FUNCTION league.id_of(e json, key text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF json_typeof(e -> key) IS DISTINCT FROM 'number' THEN
        RAISE EXCEPTION 'a % event lacks its % as a number', e ->> 'type', key USING ERRCODE = '22023';
    END IF;
    RETURN (e ->> key)::bigint;
END $$;

-- The refusals of a batch that is not whole: its format, its sequence
-- number, its undo reference and the shape of its events.
CREATE OR REPLACE FUNCTION league.check_order(b league.batch) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    head bigint := (SELECT coalesce(max(seq), 0) FROM league.batch);
    format bigint := (SELECT l.format FROM league.format l);
    e json;
BEGIN
    IF b.format > format THEN
        RAISE EXCEPTION 'batch % is written in format %, newer than the league''s format %: the organiser raises it with `rapsheet league upgrade` once every member has updated Rapsheet', b.seq, b.format, format
            USING ERRCODE = '22023';
    END IF;
    IF b.format < format THEN
        RAISE EXCEPTION 'batch % is written in format %, and the league is at format %: update Rapsheet to send changes', b.seq, b.format, format
            USING ERRCODE = '22023';
    END IF;
    -- A number at or below the head collides with the batch already there
    -- (unique violation: someone pushed first); above head + 1 is a gap.
    IF b.seq IS NULL OR b.seq < 1 OR b.seq > head + 1 THEN
        RAISE EXCEPTION 'batch % would leave a gap: the league is at batch %', b.seq, head
            USING ERRCODE = '22023';
    END IF;
    IF b.undoes IS NOT NULL AND (b.undoes < 1 OR b.undoes >= b.seq) THEN
        RAISE EXCEPTION 'batch % takes back batch %, which is not an earlier batch', b.seq, b.undoes
            USING ERRCODE = '22023';
    END IF;
    -- Only a change's author, or the organiser, takes it back (b.author is
    -- the session's login, stamped before this check).
    IF b.undoes IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM league.member m WHERE m.login = b.author AND m.organiser)
       AND (SELECT a.author FROM league.batch a WHERE a.seq = b.undoes) IS DISTINCT FROM b.author THEN
        RAISE EXCEPTION 'batch % takes back batch %, which is another member''s: only its author or the organiser takes a change back', b.seq, b.undoes
            USING ERRCODE = '42501';
    END IF;
    IF json_typeof(b.events) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'the events of a batch are a list' USING ERRCODE = '22023';
    END IF;
    FOR e IN SELECT x FROM json_array_elements(b.events) x LOOP
        PERFORM league.check_event(e);
    END LOOP;
END $$;

-- Works out a new batch's hash (after `batch_arrives` stamped its author
-- and checked its order), checks the one a format-2 batch carries, and
-- keeps it.
CREATE FUNCTION league.batch_chained() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    expected text := league.link(
        (SELECT b.hash FROM league.batch b WHERE b.seq = NEW.seq - 1),
        league.digest(NEW.seq, NEW.uid, NEW.author, NEW.at, NEW.label, NEW.undoes, NEW.events::text));
BEGIN
    IF NEW.format >= 2 AND NEW.hash IS DISTINCT FROM expected THEN
        RAISE EXCEPTION 'batch % does not follow the league''s batch %: its hash is not the chain''s (sync again)', NEW.seq, NEW.seq - 1
            USING ERRCODE = '22023';
    END IF;
    NEW.hash := expected;
    RETURN NEW;
END $$;

CREATE TRIGGER batch_chained BEFORE INSERT ON league.batch
    FOR EACH ROW EXECUTE FUNCTION league.batch_chained();

-- The batches already here are chained as they stand, in order.
ALTER TABLE league.batch DISABLE TRIGGER batch_not_changed;
ALTER TABLE league.batch NO FORCE ROW LEVEL SECURITY;
DO $$
DECLARE
    b record;
    before text := NULL;
BEGIN
    FOR b IN SELECT * FROM league.batch ORDER BY seq LOOP
        before := league.link(before,
            league.digest(b.seq, b.uid, b.author, b.at, b.label, b.undoes, b.events::text));
        UPDATE league.batch SET hash = before WHERE seq = b.seq;
    END LOOP;
END $$;
ALTER TABLE league.batch FORCE ROW LEVEL SECURITY;
ALTER TABLE league.batch ENABLE TRIGGER batch_not_changed;
ALTER TABLE league.batch ALTER COLUMN hash SET NOT NULL;

-- Raises the league's format: the organiser's, once every member has
-- updated Rapsheet. Never lowers it.
CREATE FUNCTION league.raise_format(wanted bigint) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    newest bigint := (SELECT l.newest FROM league.format l);
BEGIN
    IF NOT EXISTS (SELECT 1 FROM league.member m WHERE m.login = session_user AND m.organiser) THEN
        RAISE EXCEPTION 'only the organiser raises the league''s format' USING ERRCODE = '42501';
    END IF;
    IF wanted > newest THEN
        RAISE EXCEPTION 'this league''s server knows formats up to %', newest USING ERRCODE = '22023';
    END IF;
    UPDATE league.format SET format = greatest(format, wanted);
    RETURN (SELECT format FROM league.format);
END $$;

REVOKE ALL ON FUNCTION league.field(text), league.digest(bigint, text, text, text, text, bigint, text),
    league.link(text, text), league.check_event(json), league.batch_chained(),
    league.raise_format(bigint) FROM PUBLIC;
GRANT SELECT ON league.format, league.event_field TO @players@;
GRANT EXECUTE ON FUNCTION league.field(text),
    league.digest(bigint, text, text, text, text, bigint, text), league.link(text, text),
    league.batch_chained() TO @players@;
GRANT EXECUTE ON FUNCTION league.raise_format(bigint) TO @players@;

INSERT INTO league.schema_version (version) VALUES (5);

RESET ROLE;
