//! The status line: generation, population, generations and cell updates per second, the
//! adapter, and the frame time.

use eframe::egui;

use super::{Mode, Status};

pub fn ui(ui: &mut egui::Ui, s: &Status) {
    ui.horizontal(|ui| {
        match (s.mode, s.elementary) {
            (Mode::Elementary, Some((rule, width, generation))) => {
                ui.label(format!("W{} ring of {width}", rule.0));
                ui.separator();
                ui.label(format!("generation {generation}"));
            }
            _ => {
                ui.label(format!("generation {}", s.generation));
                ui.separator();
                match s.population {
                    Some(p) => ui.label(format!("population {p}")),
                    None => ui.label("population …"),
                };
                ui.separator();
                ui.label(format!("{}x{} {}", s.size.0, s.size.1, s.rule));
            }
        }
        ui.separator();
        ui.label(format!("{:.1} gen/s", s.generations_per_second));
        ui.separator();
        ui.label(format!("{:.3e} cells/s", s.cells_per_second()));
        ui.separator();
        ui.label(format!("frame {:.1} ms", s.frame_ms));
        if s.dirty {
            ui.separator();
            ui.label(egui::RichText::new("unsaved edits").color(egui::Color32::LIGHT_RED));
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(egui::RichText::new(&s.adapter).weak());
        });
    });
}
