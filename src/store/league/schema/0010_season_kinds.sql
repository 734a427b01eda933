-- Format 5: a season. Named holdings change hands, a cycle ends for every
-- gang, a gang belongs to a faction and factions hold titles. The kinds
-- are the league's from format 5; a record that ends the cycle (the last
-- record of it) changes every gang the end does, and names them all:
-- every laptop works the end out again from the record's report and dice,
-- as it does the record's own effects.

SET ROLE @owner@;

INSERT INTO league.event_kind (kind, campaign_wide, in_record, since_format) VALUES
    ('holding_changed', false, true, 5),
    ('cycle_ended', false, true, 5),
    ('cycle_reopened', false, true, 5),
    ('gang_faction_changed', false, false, 5),
    ('faction_title_changed', false, true, 5);

INSERT INTO league.event_field (kind, field, json_type, may_lack) VALUES
    ('holding_changed', 'holding', 'string', false),
    ('holding_changed', 'from', 'number', true),
    ('holding_changed', 'to', 'number', true),
    ('holding_changed', 'reason', 'string', false),
    ('cycle_ended', 'cycle', 'number', false),
    ('cycle_reopened', 'cycle', 'number', false),
    ('gang_faction_changed', 'gang', 'number', false),
    ('gang_faction_changed', 'from', 'string', true),
    ('gang_faction_changed', 'to', 'string', true),
    ('faction_title_changed', 'title', 'string', false),
    ('faction_title_changed', 'from', 'string', true),
    ('faction_title_changed', 'to', 'string', true);

CREATE OR REPLACE FUNCTION league.take_event(e json, author text, in_record boolean) RETURNS league.reach
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
        -- As a title: within a record the rules put it where it goes.
        IF NOT in_record THEN
            r := league.touch_placed(r, (e ->> 'from')::bigint);
            r := league.touch_placed(r, (e ->> 'to')::bigint);
        END IF;
    WHEN 'cycle_ended', 'cycle_reopened', 'faction_title_changed' THEN
        -- The end of a cycle and a faction's title are the campaign's, but
        -- for the record whose rules end the cycle.
        IF NOT in_record THEN
            r.wide := true;
        END IF;
    END CASE;
    RETURN r;
END $$;

-- A record that ends the cycle (or takes such a record back) names every
-- gang it touches. Runs after `batch_arrives` has worked the reach out.
CREATE FUNCTION league.record_ends_cycle() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NEW.record_gangs IS NOT NULL AND EXISTS (
        SELECT 1 FROM json_array_elements(NEW.events) x
        WHERE json_typeof(x) = 'object' AND x ->> 'type' IN ('cycle_ended', 'cycle_reopened'))
    THEN
        NEW.record_gangs := ARRAY(
            SELECT DISTINCT g FROM unnest(NEW.record_gangs || NEW.touched_gangs) g ORDER BY 1);
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER batch_record_ends_cycle BEFORE INSERT ON league.batch
    FOR EACH ROW EXECUTE FUNCTION league.record_ends_cycle();

-- The server knows format 5 from now on.
UPDATE league.format SET newest = 5;

REVOKE ALL ON FUNCTION league.record_ends_cycle() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.record_ends_cycle() TO @players@;

INSERT INTO league.schema_version (version) VALUES (10);

RESET ROLE;
