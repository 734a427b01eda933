-- A league's shared log: one append-only table of batches in the server's
-- order, who may append what, and what the server derives from a batch.
--
-- Applied by `League::init` as the organiser, inside one transaction, with
-- these names put in (quoted identifiers or literals):
--   @owner@       NOLOGIN role that owns every object below
--   @players@     NOLOGIN group role of every member (organiser included)
--   @organiser@   the login running init
--   @database@    this database
--   @organiser_literal@  the organiser's login as a string literal
-- Role names are cluster-wide, so the group roles carry the database's
-- name: several leagues (and parallel tests) share one cluster.

CREATE SCHEMA league AUTHORIZATION @owner@;
GRANT USAGE ON SCHEMA league TO @players@;
REVOKE CONNECT, TEMPORARY ON DATABASE @database@ FROM PUBLIC;
GRANT CONNECT ON DATABASE @database@ TO @players@;

SET ROLE @owner@;

CREATE TABLE league.schema_version (
    version bigint PRIMARY KEY,
    applied timestamptz NOT NULL DEFAULT now()
);

-- The event kinds the server accepts (`Event::kind` in the program), and
-- which of them only the organiser appends.
CREATE TABLE league.event_kind (
    kind text PRIMARY KEY,
    campaign_wide boolean NOT NULL DEFAULT false
);
INSERT INTO league.event_kind (kind, campaign_wide) VALUES
    ('campaign_created', true),
    ('campaign_renamed', true),
    ('gang_founded', false),
    ('gang_disbanded', false),
    ('gang_renamed', false),
    ('gang_notes_changed', false),
    ('resource_adjusted', false),
    ('fighter_recruited', false),
    ('fighter_dismissed', false),
    ('fighter_renamed', false),
    ('leader_changed', false),
    ('quirks_changed', false),
    ('counter_changed', false),
    ('fighter_notes_changed', false),
    ('battle_recorded', false),
    ('battle_unrecorded', false),
    ('title_changed', false),
    ('action_taken', false),
    ('action_taken_back', false),
    ('pending_effect_added', false),
    ('pending_effect_removed', false),
    ('pending_effect_used', false),
    ('pending_effect_unused', false),
    ('fighter_status_changed', false),
    ('fighter_transferred', false),
    ('base_stat_set', false),
    ('lasting_effect_added', false),
    ('lasting_effect_deleted', false),
    ('lasting_effect_removed', false),
    ('lasting_effect_restored', false),
    ('table_rolled', false),
    ('table_roll_taken_back', false),
    ('campaign_ruleset_changed', true),
    ('house_pack_set', true),
    ('setting_changed', true),
    ('photo_changed', false),
    ('arc_closed', true),
    ('arc_reopened', true),
    ('scenario_rolled', false),
    ('scenario_roll_taken_back', false),
    ('gang_ruleset_changed', false);

-- Who is in the league. The organiser assigns gangs; a gang a player's
-- batch founds, while no one owns it, becomes that player's.
CREATE TABLE league.member (
    login text PRIMARY KEY,
    organiser boolean NOT NULL DEFAULT false
);
CREATE TABLE league.gang_owner (
    gang bigint PRIMARY KEY,
    login text NOT NULL REFERENCES league.member (login)
);

-- Where the ids events name belong, kept by the batch trigger as batches
-- arrive (the same as `campaign::league::Places`).
CREATE TABLE league.fighter_gang (fighter bigint PRIMARY KEY, gang bigint NOT NULL);
CREATE TABLE league.effect_fighter (effect bigint PRIMARY KEY, fighter bigint NOT NULL);
CREATE TABLE league.pending_gang (pending bigint PRIMARY KEY, gang bigint NOT NULL);

CREATE TABLE league.batch (
    seq bigint PRIMARY KEY,
    uid text UNIQUE NOT NULL CHECK (length(uid) BETWEEN 1 AND 200),
    author text NOT NULL,
    received timestamptz NOT NULL,
    at text NOT NULL,
    label text NOT NULL,
    undoes bigint NULL,
    events json NOT NULL,
    touched_gangs bigint[] NOT NULL,
    record_gangs bigint[] NULL,
    campaign_wide boolean NOT NULL
);

-- What one event reaches: the gangs it touches and whether it is
-- campaign-wide, placing and unplacing the ids it names on the way.
CREATE TYPE league.reach AS (touched bigint[], named bigint[], record boolean, wide boolean);

-- An id the event must carry, as a number.
CREATE FUNCTION league.id_of(e json, key text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v text := e ->> key;
BEGIN
    IF v IS NULL THEN
        RAISE EXCEPTION 'a % event lacks its %', e ->> 'type', key USING ERRCODE = '22023';
    END IF;
    RETURN v::bigint;
END $$;

-- The gang of a fighter, or NULL where no batch placed them.
CREATE FUNCTION league.gang_of(f bigint) RETURNS bigint
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT gang FROM league.fighter_gang WHERE fighter = f
$$;

-- The gang of a lasting effect's fighter, or NULL.
CREATE FUNCTION league.gang_of_effect(x bigint) RETURNS bigint
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT league.gang_of(fighter) FROM league.effect_fighter WHERE effect = x
$$;

-- The gang of a pending effect, or NULL.
CREATE FUNCTION league.gang_of_pending(p bigint) RETURNS bigint
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT gang FROM league.pending_gang WHERE pending = p
$$;

-- The captors a status names, where it is a capture.
CREATE FUNCTION league.captors(status json) RETURNS bigint[]
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT CASE WHEN status ->> 'state' = 'captured' AND status ->> 'by' IS NOT NULL
        THEN ARRAY[(status ->> 'by')::bigint] ELSE ARRAY[]::bigint[] END
$$;

-- The ids of a JSON array of numbers (or of objects, by `key`).
CREATE FUNCTION league.ids(list json, key text DEFAULT NULL) RETURNS bigint[]
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT coalesce(array_agg(CASE WHEN key IS NULL THEN (x #>> '{}')::bigint
                                   ELSE (x ->> key)::bigint END), ARRAY[]::bigint[])
    FROM json_array_elements(CASE WHEN json_typeof(list) = 'array' THEN list ELSE '[]'::json END) x
$$;

-- Adds a gang to a reach; a NULL gang (an id no batch placed) makes the
-- event campaign-wide: only the organiser can vouch for it.
CREATE FUNCTION league.touch(r league.reach, g bigint) RETURNS league.reach
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF g IS NULL THEN
        r.wide := true;
    ELSIF NOT g = ANY (r.touched) THEN
        r.touched := r.touched || g;
    END IF;
    RETURN r;
END $$;

-- As `touch` for a gang an id was placed in before, where it was.
CREATE FUNCTION league.touch_placed(r league.reach, g bigint) RETURNS league.reach
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT CASE WHEN g IS NULL THEN r ELSE league.touch(r, g) END
$$;

CREATE FUNCTION league.touch_all(r league.reach, gs bigint[]) RETURNS league.reach
LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    g bigint;
BEGIN
    FOREACH g IN ARRAY gs LOOP
        r := league.touch(r, g);
    END LOOP;
    RETURN r;
END $$;

-- The reach of one event; places the ids it names for the events after it.
-- Runs only inside the batch trigger (its owner's rights).
CREATE FUNCTION league.take_event(e json, author text, in_record boolean) RETURNS league.reach
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    r league.reach := ROW(ARRAY[]::bigint[], ARRAY[]::bigint[], false, false);
    ekind text := e ->> 'type';
    wide boolean;
    f bigint;
    g bigint;
    x bigint;
BEGIN
    SELECT k.campaign_wide INTO wide FROM league.event_kind k WHERE k.kind = ekind;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the league does not know the event kind "%"; update Rapsheet', coalesce(ekind, '')
            USING ERRCODE = '22023';
    END IF;
    IF wide THEN
        r.wide := true;
        RETURN r;
    END IF;
    CASE ekind
    WHEN 'gang_founded', 'gang_disbanded' THEN
        g := league.id_of(e -> 'gang', 'id');
        r := league.touch(r, g);
        IF ekind = 'gang_founded' THEN
            PERFORM league.found(g, author);
        END IF;
    WHEN 'gang_renamed', 'gang_notes_changed', 'resource_adjusted', 'gang_ruleset_changed',
         'action_taken', 'action_taken_back' THEN
        r := league.touch(r, league.id_of(e, 'gang'));
    WHEN 'fighter_recruited', 'fighter_dismissed' THEN
        f := league.id_of(e -> 'fighter', 'id');
        g := league.id_of(e -> 'fighter', 'gang');
        r := league.touch_placed(r, league.gang_of(f));
        r := league.touch(r, g);
        IF ekind = 'fighter_recruited' THEN
            INSERT INTO league.fighter_gang VALUES (f, g)
                ON CONFLICT (fighter) DO UPDATE SET gang = excluded.gang;
        ELSE
            DELETE FROM league.fighter_gang WHERE fighter = f;
        END IF;
    WHEN 'fighter_renamed', 'leader_changed', 'quirks_changed', 'counter_changed',
         'fighter_notes_changed', 'base_stat_set', 'photo_changed' THEN
        r := league.touch(r, league.gang_of(league.id_of(e, 'fighter')));
    WHEN 'fighter_status_changed' THEN
        r := league.touch(r, league.gang_of(league.id_of(e, 'fighter')));
        r := league.touch_all(r, league.captors(e -> 'from') || league.captors(e -> 'to'));
    WHEN 'fighter_transferred' THEN
        f := league.id_of(e, 'fighter');
        g := league.id_of(e, 'to');
        r := league.touch(r, league.gang_of(f));
        r := league.touch(r, league.id_of(e, 'from'));
        r := league.touch(r, g);
        INSERT INTO league.fighter_gang VALUES (f, g)
            ON CONFLICT (fighter) DO UPDATE SET gang = excluded.gang;
    WHEN 'battle_recorded', 'battle_unrecorded' THEN
        r.record := true;
        r.named := league.ids(e -> 'battle' -> 'gangs', 'gang');
        r := league.touch_all(r, r.named);
        r := league.touch_all(r, league.ids(e -> 'battle' -> 'fighters', 'gang'));
        IF e -> 'battle' ->> 'winner' IS NOT NULL THEN
            r := league.touch(r, (e -> 'battle' ->> 'winner')::bigint);
        END IF;
    WHEN 'title_changed' THEN
        -- A record moves a title where the rules put it, from whichever
        -- gang held it (and its undo moves it back): within a record a
        -- title touches no gang. Outside one it touches both.
        IF NOT in_record THEN
            r := league.touch_placed(r, (e ->> 'from')::bigint);
            r := league.touch_placed(r, (e ->> 'to')::bigint);
        END IF;
    WHEN 'pending_effect_added', 'pending_effect_removed' THEN
        x := league.id_of(e -> 'effect', 'id');
        g := league.id_of(e -> 'effect', 'gang');
        r := league.touch_placed(r, league.gang_of_pending(x));
        r := league.touch(r, g);
        IF ekind = 'pending_effect_added' THEN
            INSERT INTO league.pending_gang VALUES (x, g)
                ON CONFLICT (pending) DO UPDATE SET gang = excluded.gang;
        ELSE
            DELETE FROM league.pending_gang WHERE pending = x;
        END IF;
    WHEN 'pending_effect_used', 'pending_effect_unused' THEN
        r := league.touch(r, league.gang_of_pending(league.id_of(e, 'effect')));
        FOREACH f IN ARRAY league.ids(e -> 'fighters') LOOP
            r := league.touch(r, league.gang_of(f));
        END LOOP;
    WHEN 'lasting_effect_added', 'lasting_effect_deleted' THEN
        x := league.id_of(e -> 'effect', 'id');
        f := league.id_of(e -> 'effect', 'fighter');
        IF EXISTS (SELECT 1 FROM league.effect_fighter WHERE effect = x) THEN
            r := league.touch(r, league.gang_of_effect(x));
        END IF;
        r := league.touch(r, league.gang_of(f));
        IF ekind = 'lasting_effect_added' THEN
            INSERT INTO league.effect_fighter VALUES (x, f)
                ON CONFLICT (effect) DO UPDATE SET fighter = excluded.fighter;
        ELSE
            DELETE FROM league.effect_fighter WHERE effect = x;
        END IF;
    WHEN 'lasting_effect_removed', 'lasting_effect_restored' THEN
        r := league.touch(r, league.gang_of_effect(league.id_of(e, 'effect')));
    WHEN 'table_rolled', 'table_roll_taken_back' THEN
        IF e ->> 'fighter' IS NOT NULL THEN
            r := league.touch(r, league.gang_of((e ->> 'fighter')::bigint));
        END IF;
    WHEN 'scenario_rolled', 'scenario_roll_taken_back' THEN
        r := league.touch_all(r, league.ids(e -> 'gangs'));
    END CASE;
    RETURN r;
END $$;

-- A gang a player's batch founds becomes theirs where no one owns it and
-- no earlier batch touched it (a new gang, not one founded again).
CREATE FUNCTION league.found(g bigint, author text) RETURNS void
LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
    INSERT INTO league.gang_owner (gang, login)
    SELECT g, m.login FROM league.member m
    WHERE m.login = author AND NOT m.organiser
      AND NOT EXISTS (SELECT 1 FROM league.batch b WHERE g = ANY (b.touched_gangs))
    ON CONFLICT (gang) DO NOTHING
$$;

-- The refusals of a batch that is not whole: its sequence number, its
-- undo reference and the shape of its events.
CREATE FUNCTION league.check_order(b league.batch) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    head bigint := (SELECT coalesce(max(seq), 0) FROM league.batch);
BEGIN
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
    IF json_typeof(b.events) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'the events of a batch are a list' USING ERRCODE = '22023';
    END IF;
END $$;

-- Stamps, checks and derives a new batch. SECURITY DEFINER: runs with the
-- owner's rights to keep the places; the author is the session's login,
-- whatever the batch said.
CREATE FUNCTION league.batch_arrives() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    e json;
    r league.reach;
    touched bigint[] := ARRAY[]::bigint[];
    named bigint[] := NULL;
    wide boolean := false;
    in_record boolean;
BEGIN
    NEW.author := session_user;
    NEW.received := now();
    PERFORM league.check_order(NEW);
    in_record := EXISTS (
        SELECT 1 FROM json_array_elements(NEW.events) x
        WHERE json_typeof(x) = 'object'
          AND x ->> 'type' IN ('battle_recorded', 'battle_unrecorded'));
    FOR e IN SELECT x FROM json_array_elements(NEW.events) x LOOP
        IF json_typeof(e) IS DISTINCT FROM 'object' THEN
            RAISE EXCEPTION 'an event of a batch is an object with a type' USING ERRCODE = '22023';
        END IF;
        r := league.take_event(e, NEW.author, in_record);
        touched := touched || ARRAY(SELECT unnest(r.touched) EXCEPT SELECT unnest(touched));
        IF r.record THEN
            named := coalesce(named, ARRAY[]::bigint[])
                || ARRAY(SELECT unnest(r.named) EXCEPT SELECT unnest(coalesce(named, ARRAY[]::bigint[])));
        END IF;
        wide := wide OR r.wide;
    END LOOP;
    NEW.touched_gangs := ARRAY(SELECT DISTINCT unnest(touched) ORDER BY 1);
    NEW.record_gangs := CASE WHEN named IS NULL THEN NULL
        ELSE ARRAY(SELECT DISTINCT unnest(named) ORDER BY 1) END;
    NEW.campaign_wide := wide;
    RETURN NEW;
END $$;

CREATE TRIGGER batch_arrives BEFORE INSERT ON league.batch
    FOR EACH ROW EXECUTE FUNCTION league.batch_arrives();

-- No one changes or deletes a batch, the organiser and the owner included.
CREATE FUNCTION league.batch_stays() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RAISE EXCEPTION 'the league''s batches are never changed or deleted; push a batch that takes one back'
        USING ERRCODE = '42501';
END $$;

CREATE TRIGGER batch_not_changed BEFORE UPDATE OR DELETE ON league.batch
    FOR EACH ROW EXECUTE FUNCTION league.batch_stays();
CREATE TRIGGER batch_not_truncated BEFORE TRUNCATE ON league.batch
    FOR EACH STATEMENT EXECUTE FUNCTION league.batch_stays();

-- Whether the session's login may append a batch of this reach; refuses
-- with the reason where not (the same rule as `campaign::league::may_append`).
-- VOLATILE: it must see the gang the batch's own trigger just gave a
-- player who founded it.
CREATE FUNCTION league.may_append(touched bigint[], named bigint[], wide boolean) RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    me text := session_user;
    organiser boolean;
    mine bigint[];
    beyond bigint;
BEGIN
    SELECT m.organiser INTO organiser FROM league.member m WHERE m.login = me;
    IF NOT FOUND THEN
        RAISE EXCEPTION '% is not a member of this league', me USING ERRCODE = '42501';
    END IF;
    IF organiser THEN
        RETURN true;
    END IF;
    IF wide THEN
        RAISE EXCEPTION 'it changes the whole campaign, which only the organiser does'
            USING ERRCODE = '42501';
    END IF;
    mine := ARRAY(SELECT gang FROM league.gang_owner WHERE login = me);
    IF named IS NOT NULL THEN
        IF NOT named && mine THEN
            RAISE EXCEPTION 'it records a game none of whose gangs is yours' USING ERRCODE = '42501';
        END IF;
        SELECT g INTO beyond FROM unnest(touched) g WHERE NOT g = ANY (named) ORDER BY g LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'it changes gang #%, which the record does not name', beyond
                USING ERRCODE = '42501';
        END IF;
        RETURN true;
    END IF;
    SELECT g INTO beyond FROM unnest(touched) g WHERE NOT g = ANY (mine) ORDER BY g LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'it changes gang #%, which is not yours', beyond USING ERRCODE = '42501';
    END IF;
    RETURN true;
END $$;

ALTER TABLE league.batch ENABLE ROW LEVEL SECURITY;
ALTER TABLE league.batch FORCE ROW LEVEL SECURITY;
CREATE POLICY everyone_reads ON league.batch FOR SELECT USING (true);
CREATE POLICY members_append ON league.batch FOR INSERT
    WITH CHECK (league.may_append(touched_gangs, record_gangs, campaign_wide));

REVOKE ALL ON ALL TABLES IN SCHEMA league FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA league FROM PUBLIC;
GRANT SELECT, INSERT ON league.batch TO @players@;
GRANT SELECT ON league.schema_version, league.event_kind, league.member, league.gang_owner
    TO @players@;
GRANT EXECUTE ON FUNCTION league.batch_arrives(), league.batch_stays(),
    league.may_append(bigint[], bigint[], boolean) TO @players@;

-- The organiser's own rights: to keep the list of members and their gangs.
INSERT INTO league.member (login, organiser) VALUES (@organiser_literal@, true);
GRANT INSERT, UPDATE, DELETE ON league.member, league.gang_owner TO @organiser@;

INSERT INTO league.schema_version (version) VALUES (1);

RESET ROLE;

GRANT @players@ TO @organiser@;
