//! The campaign domain: gangs, fighters, their derived stats, the rule
//! problems a gang has, and the events that change a campaign.
//!
//! Pure: `(state, inputs, pack) → events`. No I/O, no SQL, no egui. The
//! store applies events; the UI and the CLI build them through
//! [`commands`].

pub mod actions;
pub mod battle;
pub mod bundle;
pub mod checks;
pub mod chronicle;
pub mod commands;
pub mod demo;
mod derive;
mod event;
pub mod gate;
pub mod groups;
pub mod league;
pub mod merge;
mod model;
pub mod photo;
mod problems;
pub mod rating;
pub mod season;
pub mod succession;
pub mod titles;
pub mod valuation;
pub mod wire;

pub use derive::{DerivedStat, StatPart, derive_stats};
pub use event::{Event, FighterSnapshot, GangSnapshot, Names};
pub use model::*;
pub use problems::{
    Problem, ProblemScope, Reliance, breaks_a_stated_rule, fighter_problems, gang_problems,
    gang_problems_after, new_breaks, problems_if_given, quirk_breaks_a_rule, rulings_relied_on,
};
