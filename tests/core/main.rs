//! The tests that need neither the app's window nor the test PostgreSQL
//! server, as one test binary: one module per file, as they were apart.
//! Each binary links the whole app, so one binary rather than thirty-two
//! keeps a fresh build inside a build machine's disk, and its link time
//! with it.
//!
//! Apart, each in a binary of its own: the window's tests (`gui`), and
//! what a binary of its own is for: `bundle_memory` counts its process's
//! allocations, `crash` kills its children, `league_restart` and
//! `league_frozen` stop and freeze the server their process shares (the
//! league's other tests, sharing one server a process, stay apart with
//! them), and `docs` and `fuzz_corpus` are named by the README's commands.
//!
//! The lints allowed here (`unwrap`, `expect`) hold for every module.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../util/mod.rs"]
mod util;

mod battle;
mod cards_at_the_table;
mod cli;
mod cli_twin;
mod escalation;
mod escape;
mod faces;
mod file_arguments;
mod game_words;
mod golden_campaign;
mod hostile_input;
mod hostile_numbers;
mod house;
mod injury;
mod league;
mod merge_property;
mod messages;
mod own_game_travels;
mod pack;
mod pack_bounds;
mod pack_docs_author;
mod pack_kinds;
mod pack_schema;
mod paper_qpdf;
mod print;
mod print_scripts;
mod refused_before_paid;
mod standard_output;
mod three_doors;
mod ui_floors;
mod valuation;
mod wayfarer_restrictions;
