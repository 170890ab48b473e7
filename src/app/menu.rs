//! The menu bar: File, View, Simulation (engine, universe, go to), Mode.

use eframe::egui;

use super::LifelabApp;
use super::command::Command;
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
                if ui.button("Paste RLE (Ctrl+V)").clicked() {
                    out.push(Command::Paste);
                }
                if ui.button("Copy selection as RLE (Ctrl+C)").clicked() {
                    out.push(Command::CopySelection);
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    out.push(Command::Quit);
                }
            });
            ui.menu_button("View", |ui| {
                let whole = if status.universe.is_plane() {
                    "Fit pattern (F)"
                } else {
                    "Fit torus (F)"
                };
                if ui.button(whole).clicked() {
                    out.push(Command::Fit);
                }
                if ui.button("Fit pattern").clicked() {
                    out.push(Command::FitPattern);
                }
                if ui.button("Centre (C)").clicked() {
                    out.push(Command::Centre);
                }
                if ui.button("Zoom in").clicked() {
                    out.push(Command::Zoom(2.0));
                }
                if ui.button("Zoom out").clicked() {
                    out.push(Command::Zoom(0.5));
                }
                ui.checkbox(&mut self.show_games, "Games panel");
            });
            ui.menu_button("Simulation", |ui| {
                ui.label(egui::RichText::new("Engine").strong());
                for name in self.engine_names() {
                    let summary = match name {
                        "auto" => "the cheapest engine for the work, chosen again at each load",
                        n => crate::registry::find(n).map_or("", |s| s.summary),
                    };
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
                    .selectable_label(!status.universe.is_plane(), "Torus")
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
            ui.label(egui::RichText::new(&self.source).weak());
        });
    }
}
