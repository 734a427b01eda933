-- Migration 14: what this laptop last saw of the league's batches it
-- holds, as a cheap print the server gives (how many, and the sum of the
-- transaction ids that wrote them): a sync whose print is the same needs
-- no batch worked through again; any change to a row (or a restore) gives
-- another print, and the whole history is checked before anything is
-- taken in.

ALTER TABLE league ADD COLUMN print_upto INTEGER;
ALTER TABLE league ADD COLUMN print TEXT;
