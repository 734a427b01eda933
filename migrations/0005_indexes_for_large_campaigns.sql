-- Migration 5: indexes that keep a league-size campaign's reads as fast as
-- a small one's: the captives a gang holds, and the standings of a resource
-- (who leads it, for titles).

CREATE INDEX fighter_status_gang ON fighter (status_gang) WHERE status_gang IS NOT NULL;
CREATE INDEX gang_resource_standing ON gang_resource (resource, amount);
