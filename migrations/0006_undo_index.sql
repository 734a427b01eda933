-- Migration 6: what undo and redo take back, found by index: the batch
-- that takes back another.

CREATE INDEX batch_undoes ON batch (undoes) WHERE undoes IS NOT NULL;
