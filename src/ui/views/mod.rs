//! The views: each a state of its own and a `ui` function that draws it
//! and returns what the player asked for, as [`Action`]s. A view imports
//! only the ground floor (`base`) and other views, never the runner or
//! the app.
//!
//! [`Action`]: crate::ui::base::action::Action

pub mod backups;
pub mod bundles;
pub mod chronicle;
pub mod dialogs;
pub mod fighter_editor;
pub mod gang_edit;
pub mod gang_list;
pub mod house_editor;
pub mod league;
pub mod log;
pub mod merge;
pub mod post_battle;
pub mod print_dialog;
pub mod record_footer;
pub mod record_shape;
pub mod roster;
pub mod season;
pub mod titles;
