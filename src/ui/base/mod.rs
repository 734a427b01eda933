//! The ground floor of the window: what every view needs and nothing that
//! draws a screen — what a player can ask for ([`action`]), the widgets
//! the views share, the words shown, where the keyboard's focus goes in a
//! form, and the campaign as the window shows it, read once per change.
//! Nothing here imports a view, the runner or the app.

pub mod action;
pub mod form_focus;
pub mod said;
pub mod state;
pub mod widgets;
