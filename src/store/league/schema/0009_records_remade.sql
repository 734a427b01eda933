-- Format 4: a record carries the report and dice it was made from, in its
-- battle's `played.made`, and every laptop makes it again before taking it
-- in (the server cannot: it holds no rules). The server refuses, as a
-- first line, a format-4 record that does not carry them.

SET ROLE @owner@;

CREATE FUNCTION league.record_says_how_made() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF NEW.format < 4 OR NEW.undoes IS NOT NULL OR json_typeof(NEW.events) IS DISTINCT FROM 'array' THEN
        RETURN NEW;
    END IF;
    IF EXISTS (
        SELECT 1 FROM json_array_elements(NEW.events) x
        WHERE json_typeof(x) = 'object' AND x ->> 'type' = 'battle_recorded'
          AND json_typeof(x -> 'battle' -> 'played' -> 'made') IS DISTINCT FROM 'object')
    THEN
        RAISE EXCEPTION 'a record of format % carries the report and dice it was made from', NEW.format
            USING ERRCODE = '22023';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER batch_record_made BEFORE INSERT ON league.batch
    FOR EACH ROW EXECUTE FUNCTION league.record_says_how_made();

-- The server knows format 4 from now on.
UPDATE league.format SET newest = 4;

REVOKE ALL ON FUNCTION league.record_says_how_made() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION league.record_says_how_made() TO @players@;

INSERT INTO league.schema_version (version) VALUES (9);

RESET ROLE;
