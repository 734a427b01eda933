-- Migration 16: a member recruited in a group that shares one profile
-- (a pack's `[[groups]]`) keeps the group's kind and its name; both are
-- set, or neither.

ALTER TABLE fighter ADD COLUMN group_kind TEXT;
ALTER TABLE fighter ADD COLUMN group_name TEXT;
