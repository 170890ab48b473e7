//! Editing the universe: random fill (whole torus or the selection), clear (the selection or
//! everything), resize the torus.

use eframe::egui;

use super::Status;
use crate::app::command::Command;

pub struct EditPanel {
    density: f64,
    seed: u64,
    width: u32,
    height: u32,
    /// The torus size the fields last showed.
    shown: (u32, u32),
}

impl Default for EditPanel {
    fn default() -> Self {
        Self {
            density: 0.35,
            seed: 1,
            // The plane has no size to show: the fields offer the default torus.
            width: crate::session::setup::DEFAULT_SIDE,
            height: crate::session::setup::DEFAULT_SIDE,
            shown: (0, 0),
        }
    }
}

impl EditPanel {
    /// The torus size in the fields: what Universe → Torus makes.
    pub fn torus_size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, status: &Status, out: &mut Vec<Command>) {
        if self.shown != status.size && status.size != (0, 0) {
            self.shown = status.size;
            (self.width, self.height) = status.size;
        }
        // A bounded plane can be filled like a torus, but Resize makes a torus of it.
        let bounded = !status.universe.is_unbounded();
        let torus = status.universe.torus_size().is_some();
        ui.horizontal(|ui| {
            ui.label("density");
            ui.add(egui::Slider::new(&mut self.density, 0.0..=1.0).fixed_decimals(2));
        });
        ui.horizontal(|ui| {
            ui.label("seed");
            ui.add(egui::DragValue::new(&mut self.seed));
        });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(
                    bounded,
                    egui::Button::new(if status.universe.is_bounded_plane() {
                        "Fill all"
                    } else {
                        "Fill torus"
                    }),
                )
                .on_disabled_hover_text("The plane has no edges: select a region and fill that")
                .clicked()
            {
                out.push(Command::RandomFill {
                    density: self.density,
                    seed: self.seed,
                    region: None,
                });
            }
            let has_selection = status.selection.is_some();
            if ui
                .add_enabled(has_selection, egui::Button::new("Fill selection"))
                .clicked()
            {
                out.push(Command::RandomFill {
                    density: self.density,
                    seed: self.seed,
                    region: status.selection,
                });
            }
        });
        if let Some(r) = status.selection {
            ui.label(format!(
                "selection {}x{} at ({}, {})",
                r.width, r.height, r.x, r.y
            ));
        }
        ui.horizontal(|ui| {
            let label = if status.selection.is_some() {
                "Clear selection"
            } else {
                "Clear all"
            };
            if ui.button(label).clicked() {
                out.push(Command::Clear);
            }
        });
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("torus");
            ui.add(egui::DragValue::new(&mut self.width).range(1..=crate::grid::MAX_DIMENSION));
            ui.label("x");
            ui.add(egui::DragValue::new(&mut self.height).range(1..=crate::grid::MAX_DIMENSION));
            let label = if torus {
                "Resize"
            } else {
                "Torus of this size"
            };
            if ui.button(label).clicked() {
                out.push(Command::Resize {
                    width: self.width,
                    height: self.height,
                });
            }
        });
    }
}
