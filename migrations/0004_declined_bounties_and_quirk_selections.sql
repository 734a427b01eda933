-- Migration 4: a gang that declared no bounty after a battle (where the
-- pack's ruling allows it), so the record says so; and the other quirk a
-- player selects for a quirk that asks for one (the weapon an Akimbo
-- Holster dual-wields).

ALTER TABLE battle_gang ADD COLUMN declined INTEGER NOT NULL DEFAULT 0;
ALTER TABLE fighter_quirk ADD COLUMN with_quirk TEXT;
