//! The rule picker and rule text field. Any rule the parser takes; a bad one shows its error
//! inline and changes nothing.

use eframe::egui;

use super::Status;
use crate::app::command::Command;
use crate::rule::{Rule, named};

#[derive(Default)]
pub struct RulePanel {
    text: String,
    error: Option<String>,
    /// The rule the text field last showed, to follow rules set elsewhere (a loaded pattern).
    shown: Option<Rule>,
}

impl RulePanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, status: &Status, out: &mut Vec<Command>) {
        if self.shown != Some(status.rule) {
            self.shown = Some(status.rule);
            self.text = status.rule.to_string();
            self.error = None;
        }
        let current = status.rule.name().unwrap_or("custom");
        egui::ComboBox::from_id_salt("named rules")
            .selected_text(current)
            .show_ui(ui, |ui| {
                for (name, rule) in named::all() {
                    let label = format!("{name}  {rule}");
                    if ui.selectable_label(current == name, label).clicked() {
                        out.push(Command::SetRule(rule.into()));
                    }
                }
            });
        let response = ui.add(
            egui::TextEdit::singleline(&mut self.text)
                .hint_text("B3/S23, 23/3, B2/S34H, B2(1/3)/S12H, W110")
                .desired_width(f32::INFINITY),
        );
        let enter = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Apply rule").clicked() || enter {
            match self.text.parse::<Rule>() {
                Ok(rule) => {
                    self.error = None;
                    out.push(Command::SetRule(rule));
                }
                Err(e) => self.error = Some(e.to_string()),
            }
        }
        if let Some(e) = &self.error {
            ui.colored_label(egui::Color32::LIGHT_RED, e);
        }
        if status.rule.states() > 2 || status.rule.loaded().is_some() {
            legend(ui, &status.rule);
        }
    }
}

/// The states of a multi-state rule and their colours, as the view draws them.
fn legend(ui: &mut egui::Ui, rule: &Rule) {
    let colours = crate::app::cpu_view::palette(rule);
    if let Some(l) = rule.loaded() {
        ui.label(format!("{} states, from {}", colours.len(), l.def().source));
    }
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 6.0;
        for (state, colour) in colours.iter().enumerate() {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, *colour);
            ui.painter().rect_stroke(
                rect,
                2.0,
                egui::Stroke::new(1.0, egui::Color32::GRAY),
                egui::StrokeKind::Inside,
            );
            ui.label(state.to_string());
        }
    });
}
