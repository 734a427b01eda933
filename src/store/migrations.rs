//! The schema's migrations: an append-only list keyed by
//! `PRAGMA user_version`. Entry `i` takes a file from version `i` to `i + 1`.
//! Never reorder, never edit a shipped entry; add a new one.

/// Migration 0 is the whole first schema.
pub(super) const MIGRATIONS: &[&str] = &[
    include_str!("../../schema.sql"),
    include_str!("../../migrations/0001_battles.sql"),
    include_str!("../../migrations/0002_lasting_effects.sql"),
    include_str!("../../migrations/0003_photos.sql"),
    include_str!("../../migrations/0004_declined_bounties_and_quirk_selections.sql"),
    include_str!("../../migrations/0005_indexes_for_large_campaigns.sql"),
    include_str!("../../migrations/0006_undo_index.sql"),
    include_str!("../../migrations/0007_house_packs.sql"),
    include_str!("../../migrations/0008_party_play.sql"),
    include_str!("../../migrations/0009_dismissed_fighters.sql"),
    include_str!("../../migrations/0010_league.sql"),
    include_str!("../../migrations/0011_league_rewind.sql"),
    include_str!("../../migrations/0012_league_chain.sql"),
    include_str!("../../migrations/0013_league_keys.sql"),
    include_str!("../../migrations/0014_league_print.sql"),
    include_str!("../../migrations/0015_league_links.sql"),
    include_str!("../../migrations/0016_member_groups.sql"),
    include_str!("../../migrations/0017_season.sql"),
    include_str!("../../migrations/0018_league_trust.sql"),
    include_str!("../../migrations/0019_challenges_and_pairings.sql"),
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;
