-- Migration 11: a league campaign's unsent changes are a draft until the
-- league's server orders them. A sync takes them out of the log and the
-- state (their events undone exactly, newest first) and makes them again
-- after the server's new changes, in one transaction. Only batches after
-- the last the server has, and only while a sync says so (a row in
-- `league_rewind` for the length of its transaction): otherwise the log
-- stays append-only.

CREATE TABLE league_rewind (
    one INTEGER PRIMARY KEY CHECK (one = 1)
);

DROP TRIGGER batch_append_only_delete;
CREATE TRIGGER batch_append_only_delete BEFORE DELETE ON batch
WHEN NOT (EXISTS (SELECT 1 FROM league_rewind)
          AND OLD.id > coalesce((SELECT synced FROM league), 9223372036854775807))
BEGIN SELECT RAISE(ABORT, 'the campaign log is append-only'); END;

DROP TRIGGER event_append_only_delete;
CREATE TRIGGER event_append_only_delete BEFORE DELETE ON event
WHEN NOT (EXISTS (SELECT 1 FROM league_rewind)
          AND OLD.batch_id > coalesce((SELECT synced FROM league), 9223372036854775807))
BEGIN SELECT RAISE(ABORT, 'the campaign log is append-only'); END;
