//! The menu bar: File, Edit, View, Simulation (engine, universe), Mode, Help.

use eframe::egui;

use super::LifelabApp;
use super::command::{Command, Transform};
use super::help::Help;
use super::panels::{Mode, Status};
use crate::engine::Universe;
use crate::pattern::Format;

impl LifelabApp {
    pub(super) fn menu(&mut self, ui: &mut egui::Ui, status: &Status, out: &mut Vec<Command>) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Open… (Ctrl+O)").clicked() {
                    out.push(Command::OpenDialog);
                }
                ui.menu_button("Save as", |ui| {
                    for (label, format) in [
                        ("RLE (.rle)…", Format::Rle),
                        ("Plaintext (.cells)…", Format::Cells),
                        ("Life 1.06 (.lif)…", Format::Life),
                        ("Macrocell (.mc)…", Format::Macrocell),
                    ] {
                        if ui.button(label).clicked() {
                            out.push(Command::SaveDialog(format));
                        }
                    }
                });
                ui.separator();
                if ui.button("Pattern info (Ctrl+I)").clicked() {
                    self.show_info = true;
                }
                ui.checkbox(&mut self.own_file_dialog, "Use lifelab's own file dialog")
                    .on_hover_text(
                        "Instead of the system's (lifelab also falls back to it when the system has none)",
                    );
                ui.separator();
                if ui.button("Quit").clicked() {
                    out.push(Command::Quit);
                }
            });
            ui.menu_button("Edit", |ui| {
                let undo = match &status.undo {
                    Some(l) => format!("Undo {l} (Ctrl+Z)"),
                    None => "Undo (Ctrl+Z)".to_string(),
                };
                if ui
                    .add_enabled(status.undo.is_some(), egui::Button::new(undo))
                    .clicked()
                {
                    out.push(Command::Undo);
                }
                let redo = match &status.redo {
                    Some(l) => format!("Redo {l} (Ctrl+Shift+Z)"),
                    None => "Redo (Ctrl+Shift+Z)".to_string(),
                };
                if ui
                    .add_enabled(status.redo.is_some(), egui::Button::new(redo))
                    .clicked()
                {
                    out.push(Command::Redo);
                }
                ui.separator();
                if ui.button("Copy as RLE (Ctrl+C)").clicked() {
                    out.push(Command::CopySelection);
                }
                if ui.button("Paste (Ctrl+V)").clicked() {
                    out.push(Command::Paste);
                }
                ui.add_enabled_ui(status.pasting, |ui| {
                    for (label, t) in [
                        ("Turn paste clockwise (>)", Transform::RotateClockwise),
                        ("Turn paste anticlockwise (<)", Transform::RotateAnticlockwise),
                        ("Mirror paste left–right (X)", Transform::FlipLeftRight),
                        ("Mirror paste top–bottom (Y)", Transform::FlipTopBottom),
                    ] {
                        if ui.button(label).clicked() {
                            out.push(Command::TransformPaste(t));
                        }
                    }
                });
                ui.separator();
                if ui.button("Select all (Ctrl+A)").clicked() {
                    out.push(Command::SelectAll);
                }
                let clear = if status.selection.is_some() {
                    "Clear selection (Delete)"
                } else {
                    "Clear all (Delete)"
                };
                if ui.button(clear).clicked() {
                    out.push(Command::Clear);
                }
                if ui
                    .add_enabled(
                        status.selection.is_some(),
                        egui::Button::new("Clear outside selection (Shift+Delete)"),
                    )
                    .clicked()
                {
                    out.push(Command::ClearOutside);
                }
            });
            ui.menu_button("View", |ui| {
                // On the plane F fits the pattern: one item says so.
                if status.universe.is_unbounded() {
                    if ui.button("Fit pattern (F)").clicked() {
                        out.push(Command::Fit);
                    }
                } else {
                    if ui.button("Fit torus (F)").clicked() {
                        out.push(Command::Fit);
                    }
                    if ui.button("Fit pattern").clicked() {
                        out.push(Command::FitPattern);
                    }
                }
                if ui.button("Centre (C)").clicked() {
                    out.push(Command::Centre);
                }
                if ui.button("Zoom in (])").clicked() {
                    out.push(Command::Zoom(2.0));
                }
                if ui.button("Zoom out ([)").clicked() {
                    out.push(Command::Zoom(0.5));
                }
                ui.separator();
                let mut follow = status.follow;
                if ui
                    .checkbox(&mut follow, "Follow the pattern (T)")
                    .on_hover_text("Keep the live cells in view while running")
                    .changed()
                {
                    out.push(Command::SetFollow(follow));
                }
                let mut watch = status.watch_repeats;
                if ui
                    .checkbox(&mut watch, "Watch for repeats")
                    .on_hover_text(
                        "Hash every generation and say in the status line when the whole universe repeats (it costs a census per generation while on)",
                    )
                    .changed()
                {
                    out.push(Command::SetWatchRepeats(watch));
                }
                ui.checkbox(&mut self.show_tools, "Side panel");
                ui.checkbox(&mut self.show_grid, "Grid lines (L)");
                ui.checkbox(&mut self.show_games, "Games panel");
                ui.checkbox(&mut self.show_census, "Census panel");
            });
            ui.menu_button("Simulation", |ui| {
                if ui
                    .button("Set as start")
                    .on_hover_text("Reset returns here from now on (a save does the same)")
                    .clicked()
                {
                    out.push(Command::SetAsStart);
                }
                ui.separator();
                ui.label(egui::RichText::new("Engine").strong());
                for (name, summary) in crate::session::Session::engines() {
                    if ui
                        .selectable_label(status.wanted_engine == name, name)
                        .on_hover_text(summary)
                        .clicked()
                    {
                        out.push(Command::SetEngine(name.to_string()));
                    }
                }
                ui.separator();
                ui.label(egui::RichText::new("Universe").strong());
                if ui
                    .selectable_label(status.universe.torus_size().is_some(), "Torus")
                    .on_hover_text("A bounded grid whose edges meet (Golly's :T)")
                    .clicked()
                {
                    out.push(Command::SetPlane(false));
                }
                if ui
                    .selectable_label(status.universe == Universe::Plane, "Unbounded plane")
                    .on_hover_text("Golly's default universe: HashLife or the tile engine run it")
                    .clicked()
                {
                    out.push(Command::SetPlane(true));
                }
            });
            ui.menu_button("Mode", |ui| {
                if ui
                    .selectable_label(self.mode == Mode::Life, "Life-like")
                    .clicked()
                {
                    out.push(Command::EnterLife);
                }
                if ui
                    .selectable_label(self.mode == Mode::Elementary, "Elementary (space-time)")
                    .clicked()
                {
                    self.mode = Mode::Elementary;
                }
            });
            ui.menu_button("Help", |ui| {
                if ui.button("Keyboard shortcuts (F1)").clicked() {
                    self.help = Help::Shortcuts;
                }
                if ui.button("The panels").clicked() {
                    self.help = Help::Panels;
                }
            });
            ui.label(egui::RichText::new(&self.source).weak());
        });
    }
}
