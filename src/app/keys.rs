//! The keyboard: each key with the modifiers it was pressed with becomes a command, whatever
//! widget has the focus (except while a text field is being edited).

use eframe::egui;

use super::command::{self, Command};
use super::{LifelabApp, help};
use crate::pattern::Format;

impl LifelabApp {
    /// The commands one frame of keyboard input makes, as the window reads it (the Tab
    /// taken from egui first): tests drive the keys through here.
    pub fn keyboard(&mut self, ctx: &egui::Context, mut raw: egui::RawInput) -> Vec<Command> {
        self.take_tab(ctx, &mut raw);
        let mut out = Vec::new();
        let _ = ctx.run_ui(raw, |ui| self.shortcuts(ui.ctx(), &mut out));
        out
    }

    /// Keys that act on the simulation, whatever widget has the focus, except while a text
    /// field is being edited.
    pub(super) fn shortcuts(&mut self, ctx: &egui::Context, out: &mut Vec<Command>) {
        // Several presses in one frame make one step job (a second would find the first busy):
        // Tab's steps of 2^k, and Space's and N's generations.
        let tabs = std::mem::take(&mut self.tab_steps) as u64;
        if tabs > 0 {
            out.push(Command::NextStep(tabs));
        }
        if ctx.text_edit_focused() {
            return;
        }
        let mut steps = 0;
        let pasting = self.paste.is_some();
        let busy = self.life.busy().is_some();
        ctx.input(|i| {
            // Each key with the modifiers it was pressed with: a quick Ctrl+I can be over
            // (Ctrl released) before the frame ends.
            for e in &i.events {
                match e {
                    egui::Event::Key {
                        key,
                        pressed: true,
                        modifiers,
                        ..
                    } => {
                        let (cmd, shift) = (modifiers.command, modifiers.shift);
                        let plain = !cmd && !modifiers.alt;
                        self.key(*key, plain, cmd, shift, pasting, busy, &mut steps, out);
                    }
                    // Turns of a floating paste, in the order pressed (they do not commute).
                    egui::Event::Text(t) if pasting && (t == ">" || t == ".") => {
                        out.push(Command::TransformPaste(command::Transform::RotateClockwise))
                    }
                    egui::Event::Text(t) if pasting && (t == "<" || t == ",") => out.push(
                        Command::TransformPaste(command::Transform::RotateAnticlockwise),
                    ),
                    egui::Event::Paste(_) => out.push(Command::Paste),
                    egui::Event::Copy => out.push(Command::CopySelection),
                    _ => {}
                }
            }
            for f in &i.raw.dropped_files {
                out.push(Command::LoadFile(f.path().to_path_buf()));
            }
        });
        if steps > 0 {
            out.push(Command::Step(steps));
        }
    }

    /// One key press, as a command (or a window of the app's own).
    #[allow(clippy::too_many_arguments)]
    fn key(
        &mut self,
        key: egui::Key,
        plain: bool,
        cmd: bool,
        shift: bool,
        pasting: bool,
        busy: bool,
        steps: &mut u64,
        out: &mut Vec<Command>,
    ) {
        use egui::Key;
        let command = match key {
            // As in Golly: Space is the next generation, Return starts and stops.
            Key::N | Key::Space if plain => {
                *steps += 1;
                None
            }
            Key::Enter if plain => Some(Command::TogglePlay),
            Key::F if plain => Some(Command::Fit),
            Key::C if plain => Some(Command::Centre),
            Key::R if plain => Some(Command::Reset),
            Key::Plus | Key::Equals if plain => Some(Command::Faster),
            Key::Minus if plain => Some(Command::Slower),
            Key::OpenBracket if plain => Some(Command::Zoom(0.5)),
            Key::CloseBracket if plain => Some(Command::Zoom(2.0)),
            Key::T if plain => Some(Command::SetFollow(!self.follow)),
            Key::L if plain => Some(Command::SetGridLines(!self.show_grid)),
            Key::X if plain && pasting => {
                Some(Command::TransformPaste(command::Transform::FlipLeftRight))
            }
            Key::Y if plain && pasting => {
                Some(Command::TransformPaste(command::Transform::FlipTopBottom))
            }
            // Esc drops the floating paste, else stops a job, else drops the selection.
            Key::Escape if plain && pasting => Some(Command::CancelPaste),
            Key::Escape if plain && busy => Some(Command::Cancel),
            // Then it closes the help and the pattern info.
            Key::Escape if plain && (self.help != help::Help::Closed || self.show_info) => {
                self.help = help::Help::Closed;
                self.show_info = false;
                None
            }
            Key::Escape if plain => Some(Command::Select(None)),
            Key::F1 if plain => {
                self.help = help::Help::Shortcuts;
                None
            }
            Key::Delete if !cmd && shift => Some(Command::ClearOutside),
            Key::Delete if !cmd => Some(Command::Clear),
            Key::Z if cmd && shift => Some(Command::Redo),
            Key::Z if cmd => Some(Command::Undo),
            Key::Y if cmd => Some(Command::Redo),
            Key::A if cmd => Some(Command::SelectAll),
            Key::O if cmd => Some(Command::OpenDialog),
            Key::S if cmd => Some(Command::SaveDialog(Format::Rle)),
            // X11 keyboards may report Ctrl+I as Ctrl+Tab (Tab is I's control character).
            Key::I | Key::Tab if cmd => {
                self.show_info = !self.show_info;
                None
            }
            _ => None,
        };
        out.extend(command);
    }

    /// Takes Tab away from egui, which would move the keyboard focus into the widgets (and
    /// keep it there): in lifelab Tab steps, as in Golly. A text field keeps its Tab.
    pub fn take_tab(&mut self, ctx: &egui::Context, raw: &mut egui::RawInput) {
        if ctx.text_edit_focused() {
            return;
        }
        raw.events.retain(|e| match e {
            egui::Event::Key {
                key: egui::Key::Tab,
                pressed,
                modifiers,
                ..
            } if !modifiers.command => {
                if *pressed {
                    self.tab_steps += 1;
                }
                false
            }
            _ => true,
        });
        // A button with the focus would take Space and Enter for itself: the keys belong to
        // the simulation.
        if let Some(id) = ctx.memory(|m| m.focused()) {
            ctx.memory_mut(|m| m.surrender_focus(id));
        }
    }
}
