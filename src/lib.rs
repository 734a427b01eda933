//! Rapsheet: a desktop campaign manager for gang-skirmish wargames.
//!
//! Layers, lowest first: [`dice`] and [`rules`] (pure), [`campaign`] (the
//! pure domain), [`store`] (the only SQL), [`session`] (commands committed
//! to a store), then the faces: [`ui`] (egui) and [`cli`].

pub mod campaign;
pub mod cli;
pub mod dice;
pub mod export;
pub mod fuzzing;
pub mod generator;
pub mod input;
pub mod output;
pub mod paths;
pub mod print;
pub mod rules;
pub mod session;
pub mod store;
pub mod text;
#[cfg(feature = "gui")]
pub mod ui;
