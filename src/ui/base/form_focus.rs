//! Keyboard focus that stays with a form: it starts on the form's first
//! field when the form's screen is shown, and Tab after Escape (which
//! lets go of every field) goes on from the field the player was in, not
//! to the menu bar. A menu is reached from the keyboard only when the
//! player goes there on purpose (Shift+Tab out of the form, or its
//! shortcut).

use egui::{FocusDirection, Id, Key, Modifiers, Ui};

/// Where the keyboard is in one form.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FormFocus {
    /// Set when the form's screen is shown: the first field takes focus.
    pub start: bool,
    /// The field of this form that last had focus.
    pub last: Option<Id>,
    /// The field last brought into view: a field newly focused is
    /// scrolled to once, and the player's own scrolling is left alone.
    pub shown: Option<Id>,
}

impl FormFocus {
    /// Before anything is drawn: a Tab pressed while no field has focus
    /// goes on from the form's last field.
    pub fn before_frame(&self, ctx: &egui::Context) {
        let Some(last) = self.last else {
            return;
        };
        let tab = ctx.input(|i| {
            i.events.iter().any(|e| {
                matches!(e, egui::Event::Key { key: Key::Tab, pressed: true, modifiers, .. }
                    if *modifiers == Modifiers::NONE)
            })
        });
        if tab && ctx.memory(|m| m.focused()).is_none() && ctx.read_response(last).is_some() {
            // Focus on the last field with Tab's direction left as it is:
            // the field after it takes focus as the form is drawn.
            ctx.memory_mut(|m| m.request_focus(last));
        }
    }

    /// At the top of the form: where the form starts, the first field
    /// after this point takes focus.
    pub fn top_of_form(&mut self, ui: &mut Ui) {
        if !std::mem::take(&mut self.start) {
            return;
        }
        let anchor = Id::unique("form-focus-start");
        ui.memory_mut(|m| {
            m.request_focus(anchor);
            m.move_focus(FocusDirection::Next);
        });
        // Focusable this frame only: Tab passes it on to the next field.
        ui.interact(
            egui::Rect::from_min_size(ui.cursor().min, egui::Vec2::ZERO),
            anchor,
            egui::Sense::FOCUSABLE,
        );
    }

    /// At the end of the form, inside its scroll area: the field that has
    /// just taken the keyboard (by Tab or a jump) is scrolled into view.
    /// A field drawn in `fixed` (a footer beside the scroll area) is
    /// always in view.
    pub fn keep_in_view(&mut self, ui: &Ui, fixed: egui::Rect) {
        let Some(id) = ui.memory(|m| m.focused()) else {
            self.shown = None;
            return;
        };
        if self.shown == Some(id) {
            return;
        }
        if let Some(field) = ui.ctx().read_response(id)
            && field.layer_id == ui.layer_id()
            && !fixed.intersects(field.rect)
        {
            ui.scroll_to_rect(field.rect, None);
            self.shown = Some(id);
        }
    }

    /// After the form is drawn in `area`: remembers the field of the form
    /// that has focus.
    pub fn after_form(&mut self, ui: &Ui, area: egui::Rect) {
        let Some(id) = ui.memory(|m| m.focused()) else {
            return;
        };
        if ui
            .ctx()
            .read_response(id)
            .is_some_and(|r| r.layer_id == ui.layer_id() && area.contains(r.rect.center()))
        {
            self.last = Some(id);
        }
    }
}
