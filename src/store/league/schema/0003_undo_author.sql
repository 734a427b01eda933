-- Only a change's author, or the organiser, takes it back: an undo that
-- names another member's batch is refused at insert, whatever a laptop
-- sends.

SET ROLE @owner@;

CREATE OR REPLACE FUNCTION league.check_order(b league.batch) RETURNS void
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
END $$;

INSERT INTO league.schema_version (version) VALUES (3);

RESET ROLE;
