//! The toolbar: run, pause, step, step N, speed, reset, the mouse tool and the view.

use eframe::egui;

use super::{Mode, Status, Tool};
use crate::app::command::Command;
use crate::app::sim::Speed;

pub struct ControlsPanel {
    pub step_n: u64,
}

impl Default for ControlsPanel {
    fn default() -> Self {
        Self { step_n: 100 }
    }
}

impl ControlsPanel {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        status: &Status,
        tool: &mut Tool,
        out: &mut Vec<Command>,
    ) {
        ui.horizontal_wrapped(|ui| {
            let label = if status.running { "Pause" } else { "Run" };
            if ui
                .button(label)
                .on_hover_text("Run or pause (space)")
                .clicked()
            {
                out.push(Command::TogglePlay);
            }
            if ui.button("Step").on_hover_text("One generation (N)").clicked() {
                out.push(Command::Step(1));
            }
            ui.add(
                egui::DragValue::new(&mut self.step_n)
                    .range(1..=100_000_000)
                    .speed(10),
            );
            if ui
                .button("Step N")
                .on_hover_text("Advance this many generations")
                .clicked()
            {
                out.push(Command::Step(self.step_n));
            }
            if ui
                .button("Reset")
                .on_hover_text("Back to the last loaded or edited state (R)")
                .clicked()
            {
                out.push(Command::Reset);
            }
            ui.separator();
            ui.label("Speed");
            if ui.button("-").on_hover_text("Slower (-)").clicked() {
                out.push(Command::Slower);
            }
            let mut exp = speed_to_slider(status.speed);
            let slider = egui::Slider::new(&mut exp, -5.0..=20.0)
                .show_value(false)
                .step_by(1.0);
            if ui.add(slider).changed() {
                out.push(Command::SetSpeed(slider_to_speed(exp)));
            }
            if ui.button("+").on_hover_text("Faster (+): up to 2^20 generations per frame").clicked() {
                out.push(Command::Faster);
            }
            ui.label(status.speed.describe());
            if let Some(n) = status.limited_to {
                ui.label(egui::RichText::new(format!("(device keeps up with {n})")).weak())
                    .on_hover_text("The GPU finishes this many generations per frame; more would slow the frames down");
            }
            ui.separator();
            if status.mode == Mode::Life {
                ui.selectable_value(tool, Tool::Draw, "Draw")
                    .on_hover_text("Draw and erase cells while paused");
                ui.selectable_value(tool, Tool::Move, "Move").on_hover_text("Drag to pan");
                ui.selectable_value(tool, Tool::Select, "Select")
                    .on_hover_text("Drag to select a rectangle (or shift-drag)");
                ui.separator();
            }
            if ui.button("Fit").on_hover_text("Fit the torus to the window (F)").clicked() {
                out.push(Command::Fit);
            }
            if ui.button("Centre").on_hover_text("Centre the pattern (C)").clicked() {
                out.push(Command::Centre);
            }
        });
    }
}

/// The slider runs over exponents: 0 is 1 generation per frame, k > 0 is 2^k per frame, k < 0
/// is one generation every 2^-k frames.
fn speed_to_slider(s: Speed) -> f64 {
    if s.0 >= 1 {
        (s.0 as f64).log2().round()
    } else {
        -((-s.0) as f64).log2().round()
    }
}

fn slider_to_speed(x: f64) -> Speed {
    let k = x.round() as i32;
    if k >= 0 {
        Speed(1 << k)
    } else {
        Speed(-(1 << -k))
    }
}
