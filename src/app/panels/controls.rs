//! The toolbar: run, pause, step, step N, go to, speed (generations per second asked for, and
//! the step 2^k), reset, the mouse tool and the view.

use eframe::egui;

use super::{Mode, Status, Tool};
use crate::app::command::Command;
use crate::session::worker::Pace;

/// The toolbar's state: what the two number fields hold, as typed.
pub struct ControlsPanel {
    pub step_n: String,
    pub go_to: String,
}

impl Default for ControlsPanel {
    fn default() -> Self {
        Self {
            step_n: "100".into(),
            // Empty until typed: no pattern's generation is everyone's.
            go_to: String::new(),
        }
    }
}

/// The highest step exponent offered: 2^62 generations per step.
const MAX_STEP_EXPONENT: u32 = 62;

/// A whole number as a user types it: `5206`, `1,000,000`, `1_000`, `1e6`, `2^20`, `10^6`.
pub fn parse_count(text: &str) -> Option<u64> {
    let t: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' '))
        .collect();
    let power = |base: &str, exp: &str| -> Option<u64> {
        let (b, e) = (base.parse::<u64>().ok()?, exp.parse::<u32>().ok()?);
        b.checked_pow(e)
    };
    if let Some((b, e)) = t.split_once('^') {
        return power(b, e);
    }
    if let Some((m, e)) = t.split_once(['e', 'E']) {
        return m.parse::<u64>().ok()?.checked_mul(power("10", e)?);
    }
    t.parse().ok()
}

/// A framed text field for a whole number, so that it reads as a field, not a button: the
/// number typed (None while it is not one, with the field marked) and whether Enter was
/// pressed in it.
pub fn count_field(ui: &mut egui::Ui, text: &mut String, hint: &str) -> (Option<u64>, bool) {
    let bad = parse_count(text).is_none() && !text.is_empty();
    let mut edit = egui::TextEdit::singleline(text)
        .desired_width(72.0)
        .align(egui::Align2::RIGHT_CENTER)
        .hint_text("gen");
    if bad {
        edit = edit.text_color(ui.visuals().error_fg_color);
    }
    let response = ui.add(edit).on_hover_text(hint);
    let enter = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    (parse_count(text), enter)
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
                .on_hover_text("Run or pause (Return)")
                .clicked()
            {
                out.push(Command::TogglePlay);
            }
            if ui
                .button("Step")
                .on_hover_text(
                    "One step: 2^k generations at step 2^k (Tab); Space or N: one generation",
                )
                .clicked()
            {
                out.push(Command::NextStep(1));
            }
            let (n, enter) = count_field(
                ui,
                &mut self.step_n,
                "Generations for Step N: 100, 1,000,000, 1e6 or 2^20 (Enter steps)",
            );
            let n = n.filter(|&n| n > 0);
            let clicked = ui
                .add_enabled(n.is_some(), egui::Button::new("Step N"))
                .on_hover_text("Advance this many generations (with progress; Esc cancels)")
                .clicked();
            if let Some(n) = n
                && (clicked || enter)
            {
                out.push(Command::Step(n));
            }
            if status.mode == Mode::Life {
                let (g, enter) = count_field(
                    ui,
                    &mut self.go_to,
                    "The generation to go to, before or after this one (Enter goes)",
                );
                let clicked = ui
                    .add_enabled(g.is_some(), egui::Button::new("Go to"))
                    .on_hover_text(
                        "Run to this generation, with progress (Esc cancels); an earlier one \
                         resets and runs forward, as in Golly",
                    )
                    .clicked();
                if let Some(g) = g
                    && (clicked || enter)
                {
                    out.push(Command::GoTo(g));
                }
            }
            if ui
                .button("Reset")
                .on_hover_text(
                    "Back to the start of the pattern: as loaded, with the edits made there, \
                     or as set with Simulation > Set as start or a save (R)",
                )
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
            // Fixed widths, so that the controls after them stay put as the texts change
            // (repeated clicks on + must not miss).
            let row = ui.spacing().interact_size.y;
            ui.add_sized(
                [96.0, row],
                egui::Label::new(status.pace.describe()).truncate(),
            );
            let mut k = status.step_exponent;
            egui::ComboBox::from_id_salt("step exponent")
                .width(78.0)
                .selected_text(format!("step 2^{k}"))
                .show_ui(ui, |ui| {
                    for e in 0..=MAX_STEP_EXPONENT {
                        ui.selectable_value(&mut k, e, step_text(e));
                    }
                })
                .response
                .on_hover_text("Generations per step, 2^k, as in Golly (+ at max and - change it)");
            if k != status.step_exponent {
                out.push(Command::SetStepExponent(k));
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

/// A step size in the step menu: 2^k with its value while that is short.
fn step_text(k: u32) -> String {
    if k <= 20 {
        format!("2^{k} = {}", 1u64 << k)
    } else {
        format!("2^{k}")
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

#[cfg(test)]
mod tests {
    use super::parse_count;

    #[test]
    fn counts_are_read_as_users_write_them() {
        assert_eq!(parse_count("5206"), Some(5206));
        assert_eq!(parse_count(" 1,000,000 "), Some(1_000_000));
        assert_eq!(parse_count("1_000"), Some(1000));
        assert_eq!(parse_count("1e6"), Some(1_000_000));
        assert_eq!(parse_count("3E2"), Some(300));
        assert_eq!(parse_count("2^20"), Some(1 << 20));
        assert_eq!(parse_count("10^6"), Some(1_000_000));
        // Not numbers, negative, fractional, or past u64.
        for bad in ["", "abc", "-5", "1.5", "2^64", "1e20", "12x"] {
            assert_eq!(parse_count(bad), None, "{bad}");
        }
    }
}
