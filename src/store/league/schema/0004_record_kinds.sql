-- A record carries only what a record's procedure writes. A batch that
-- records a game (or takes one back) and also renames a gang or a
-- fighter, writes notes, founds, disbands, recruits or dismisses, changes
-- a photo, a setting, a ruleset or the campaign is refused at insert: the
-- first line against a fake record. What the server cannot judge (a game
-- that was not played, a result made up) docs/league.md leaves to the
-- organiser.

SET ROLE @owner@;

ALTER TABLE league.event_kind ADD COLUMN in_record boolean NOT NULL DEFAULT true;
UPDATE league.event_kind SET in_record = false WHERE kind IN (
    'campaign_created', 'campaign_renamed', 'gang_founded', 'gang_disbanded',
    'gang_renamed', 'gang_notes_changed', 'fighter_recruited', 'fighter_dismissed',
    'fighter_renamed', 'fighter_notes_changed', 'photo_changed',
    'campaign_ruleset_changed', 'gang_ruleset_changed', 'house_pack_set',
    'setting_changed', 'arc_closed', 'arc_reopened', 'action_taken',
    'action_taken_back', 'scenario_rolled', 'scenario_roll_taken_back');

CREATE FUNCTION league.record_holds_its_own() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    kinds text[];
    stray text;
BEGIN
    IF json_typeof(NEW.events) IS DISTINCT FROM 'array' THEN
        RETURN NEW;
    END IF;
    kinds := ARRAY(
        SELECT CASE WHEN json_typeof(x) = 'object' THEN x ->> 'type' END
        FROM json_array_elements(NEW.events) x);
    IF NOT kinds && ARRAY['battle_recorded', 'battle_unrecorded'] THEN
        RETURN NEW;
    END IF;
    SELECT k.kind INTO stray FROM league.event_kind k
    WHERE k.kind = ANY (kinds) AND NOT k.in_record
    ORDER BY k.kind LIMIT 1;
    IF stray IS NOT NULL THEN
        RAISE EXCEPTION 'a record does not carry "%": only what its rules give goes with it', stray
            USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER batch_record_kinds BEFORE INSERT ON league.batch
    FOR EACH ROW EXECUTE FUNCTION league.record_holds_its_own();

REVOKE ALL ON FUNCTION league.record_holds_its_own() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.record_holds_its_own() TO @players@;

INSERT INTO league.schema_version (version) VALUES (4);

RESET ROLE;
