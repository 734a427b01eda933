-- Format 6: a club's season. A gang challenges another over a holding at
-- stake, the defender accepts or declines, a challenge unplayed at the
-- cycle's end lapses, and the organiser makes each cycle's pairings.
--
-- - A challenge is issued only from a gang of the issuing member's (it
--   touches its challenger), and answered only by the defender's owner
--   (an answer touches the challenge's defender, placed when the
--   challenge was issued, in `league.challenge_gangs`). Within an answer a
--   holding changing hands touches no gang, as within a record: every
--   laptop works the answer out again, and leaves out alike one that
--   carries what answering does not give.
-- - A lapse is a cycle's end's: nothing within the record that ends the
--   cycle, the organiser's outside one (as ending a cycle by hand is).
-- - Pairings are the organiser's alone.
-- - Each member's last sync is kept (`league.member_sync`), stamped by
--   the server when the member's laptop says it synced
--   (`league.synced()`), and read by every member: who has not synced
--   since when.

SET ROLE @owner@;

INSERT INTO league.event_kind (kind, campaign_wide, in_record, since_format) VALUES
    ('challenge_issued', false, false, 6),
    ('challenge_withdrawn', false, false, 6),
    ('challenge_answered', false, false, 6),
    ('challenge_answer_taken_back', false, false, 6),
    ('challenge_lapsed', false, true, 6),
    ('challenge_renewed', false, true, 6),
    ('pairings_made', true, false, 6),
    ('pairings_taken_back', true, false, 6);

INSERT INTO league.event_field (kind, field, json_type, may_lack) VALUES
    ('challenge_issued', 'challenge', 'object', false),
    ('challenge_withdrawn', 'challenge', 'object', false),
    ('challenge_answered', 'challenge', 'number', false),
    ('challenge_answered', 'accepted', 'boolean', false),
    ('challenge_answer_taken_back', 'challenge', 'number', false),
    ('challenge_answer_taken_back', 'accepted', 'boolean', false),
    ('challenge_lapsed', 'challenge', 'number', false),
    ('challenge_lapsed', 'accepted', 'boolean', false),
    ('challenge_renewed', 'challenge', 'number', false),
    ('challenge_renewed', 'accepted', 'boolean', false),
    ('pairings_made', 'pairings', 'object', false),
    ('pairings_taken_back', 'pairings', 'object', false);

-- Each challenge's challenger and defender, as the batch that issued it
-- said (the same as `campaign::league::Places`).
CREATE TABLE league.challenge_gangs (
    challenge bigint PRIMARY KEY,
    challenger bigint NOT NULL,
    defender bigint NOT NULL
);

CREATE FUNCTION league.take_event(e json, author text, in_record boolean, in_answer boolean) RETURNS league.reach
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
         'action_taken', 'action_taken_back', 'gang_faction_changed' THEN
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
    WHEN 'holding_changed' THEN
        -- As a title: within a record, or an answer to a challenge, the
        -- rules put it where it goes.
        IF NOT (in_record OR in_answer) THEN
            r := league.touch_placed(r, (e ->> 'from')::bigint);
            r := league.touch_placed(r, (e ->> 'to')::bigint);
        END IF;
    WHEN 'cycle_ended', 'cycle_reopened', 'faction_title_changed',
         'challenge_lapsed', 'challenge_renewed' THEN
        -- The end of a cycle and a faction's title are the campaign's, but
        -- for the record whose rules end the cycle.
        IF NOT in_record THEN
            r.wide := true;
        END IF;
    WHEN 'challenge_issued', 'challenge_withdrawn' THEN
        -- Issued from the challenger: its owner's (or the organiser's).
        g := league.id_of(e -> 'challenge', 'challenger');
        x := league.id_of(e -> 'challenge', 'id');
        r := league.touch(r, g);
        INSERT INTO league.challenge_gangs VALUES (x, g, league.id_of(e -> 'challenge', 'defender'))
            ON CONFLICT (challenge) DO UPDATE
            SET challenger = excluded.challenger, defender = excluded.defender;
    WHEN 'challenge_answered', 'challenge_answer_taken_back' THEN
        -- Answered by the defender: its owner's (or the organiser's). A
        -- challenge no batch placed makes the batch campaign-wide.
        r := league.touch(r, (SELECT c.defender FROM league.challenge_gangs c
                              WHERE c.challenge = league.id_of(e, 'challenge')));
    END CASE;
    RETURN r;
END $$;

DROP FUNCTION league.take_event(json, text, boolean);

-- As before, with the batch's answers to challenges known to each event.
CREATE OR REPLACE FUNCTION league.batch_arrives() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    e json;
    r league.reach;
    touched bigint[] := ARRAY[]::bigint[];
    named bigint[] := NULL;
    wide boolean := false;
    in_record boolean;
    in_answer boolean;
BEGIN
    NEW.author := session_user;
    NEW.received := now();
    PERFORM league.check_order(NEW);
    in_record := EXISTS (
        SELECT 1 FROM json_array_elements(NEW.events) x
        WHERE json_typeof(x) = 'object'
          AND x ->> 'type' IN ('battle_recorded', 'battle_unrecorded'));
    in_answer := EXISTS (
        SELECT 1 FROM json_array_elements(NEW.events) x
        WHERE json_typeof(x) = 'object'
          AND x ->> 'type' IN ('challenge_answered', 'challenge_answer_taken_back'));
    FOR e IN SELECT x FROM json_array_elements(NEW.events) x LOOP
        IF json_typeof(e) IS DISTINCT FROM 'object' THEN
            RAISE EXCEPTION 'an event of a batch is an object with a type' USING ERRCODE = '22023';
        END IF;
        r := league.take_event(e, NEW.author, in_record, in_answer);
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

-- When each member last said their laptop synced, and the league's head
-- then.
CREATE TABLE league.member_sync (
    login text PRIMARY KEY REFERENCES league.member (login),
    at timestamptz NOT NULL,
    head bigint NOT NULL
);

-- Notes that the session's member synced: now, at the league's head.
CREATE FUNCTION league.synced() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM league.member m WHERE m.login = session_user) THEN
        RAISE EXCEPTION '% is not a member of this league', session_user USING ERRCODE = '42501';
    END IF;
    INSERT INTO league.member_sync (login, at, head)
    VALUES (session_user, now(), (SELECT coalesce(max(b.seq), 0) FROM league.batch b))
    ON CONFLICT (login) DO UPDATE SET at = excluded.at, head = excluded.head;
END $$;

-- The server knows format 6 from now on.
UPDATE league.format SET newest = 6;

REVOKE ALL ON league.challenge_gangs, league.member_sync FROM PUBLIC;
GRANT SELECT ON league.challenge_gangs, league.member_sync TO @players@;
REVOKE ALL ON FUNCTION league.take_event(json, text, boolean, boolean), league.synced() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.synced() TO @players@;

INSERT INTO league.schema_version (version) VALUES (14);

RESET ROLE;
