-- Migration 4: a gang that declared no bounty after a battle (where the
-- pack's ruling allows it), so the record says so.

ALTER TABLE battle_gang ADD COLUMN declined INTEGER NOT NULL DEFAULT 0;
