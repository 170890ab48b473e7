//! The toolbar: run, pause, step, step N, go to, speed (generations per second asked for, and
//! the step 2^k), reset, the mouse tool and the view.

use eframe::egui;

use super::{Mode, Status, Tool};
use crate::app::command::Command;
use crate::session::worker::Pace;

pub struct ControlsPanel {
    pub step_n: u64,
    pub go_to: u64,
}

impl Default for ControlsPanel {
    fn default() -> Self {
        Self {
            step_n: 100,
            go_to: 5206,
        }
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
            if ui
                .button("Step")
                .on_hover_text("One generation (N)")
                .clicked()
            {
                out.push(Command::Step(1));
            }
            ui.add(
                egui::DragValue::new(&mut self.step_n)
                    .range(1..=100_000_000)
                    .speed(10),
            );
            if ui
                .button("Step N")
                .on_hover_text("Advance this many generations (with progress; Esc cancels)")
                .clicked()
            {
                out.push(Command::Step(self.step_n));
            }
            if status.mode == Mode::Life {
                ui.add(
                    egui::DragValue::new(&mut self.go_to)
                        .range(0..=u64::MAX / 2)
                        .speed(100),
                );
                if ui
                    .button("Go to")
                    .on_hover_text("Run to this generation (with progress; Esc cancels)")
                    .clicked()
                {
                    out.push(Command::GoTo(self.go_to));
                }
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
            let mut exp = pace_to_slider(status.pace);
            let slider = egui::Slider::new(&mut exp, -2.0..=31.0)
                .show_value(false)
                .step_by(1.0);
            if ui
                .add(slider)
                .on_hover_text("Generations per second asked for, up to max")
                .changed()
            {
                out.push(Command::SetSpeed(slider_to_pace(exp)));
            }
            if ui
                .button("+")
                .on_hover_text("Faster (+); at max, each step becomes 2^k generations, as in Golly")
                .clicked()
            {
                out.push(Command::Faster);
            }
            ui.label(status.pace.describe());
            if status.step_exponent > 0 {
                ui.label(format!("step 2^{}", status.step_exponent));
            }
            ui.separator();
            if status.mode == Mode::Life {
                ui.selectable_value(tool, Tool::Draw, "Draw")
                    .on_hover_text("Draw and erase cells while paused");
                ui.selectable_value(tool, Tool::Move, "Move")
                    .on_hover_text("Drag to pan");
                ui.selectable_value(tool, Tool::Select, "Select")
                    .on_hover_text("Drag to select a rectangle (or shift-drag)");
                ui.separator();
            }
            if ui
                .button("Fit")
                .on_hover_text("Fit the torus to the window (F)")
                .clicked()
            {
                out.push(Command::Fit);
            }
            if ui
                .button("Centre")
                .on_hover_text("Centre the pattern (C)")
                .clicked()
            {
                out.push(Command::Centre);
            }
        });
    }
}

/// The slider runs over exponents: k is 2^k generations per second, 31 is max.
fn pace_to_slider(p: Pace) -> f64 {
    match p {
        Pace::Max => 31.0,
        Pace::PerSecond(r) => r.log2().round(),
    }
}

fn slider_to_pace(x: f64) -> Pace {
    let k = x.round() as i32;
    if k >= 31 {
        Pace::Max
    } else {
        Pace::PerSecond(2f64.powi(k))
    }
}
