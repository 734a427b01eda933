-- Migration 5: indexes that keep a league-size campaign's reads as fast as
-- a small one's: the captives a gang holds, and the standings of a resource
-- (who leads it, for titles); and the batch that takes back another.

CREATE INDEX fighter_status_gang ON fighter (status_gang) WHERE status_gang IS NOT NULL;
CREATE INDEX gang_resource_standing ON gang_resource (resource, amount);
-- What undo and redo take back: the batch that takes back another.
CREATE INDEX batch_undoes ON batch (undoes) WHERE undoes IS NOT NULL;
