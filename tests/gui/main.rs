//! The tests that open the app's window (egui_kittest), as one test
//! binary: each links the whole window and its renderer, about 200 MB
//! apiece unoptimised, so twenty binaries of them filled a build
//! machine's disk. One module per file, as they were apart.
//!
//! `league_frozen` stays a binary of its own: it freezes the test
//! PostgreSQL server its process shares, which would stall the league
//! tests here running beside it.
//!
//! The lints allowed here (`unwrap`, `expect`) hold for every module.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../util/mod.rs"]
mod util;

#[path = "../util/laptops.rs"]
mod laptops;

mod app;
mod backups;
mod backups_and_outputs;
mod bundle;
mod by_the_book;
mod chronicle;
mod dismiss;
mod hardwired28;
mod history;
mod layout;
mod league_sync;
mod league_window;
mod long_campaign;
mod made_up_game;
mod merge;
mod one_gate;
mod own_game;
mod party;
mod record_at_the_table;
mod season;
