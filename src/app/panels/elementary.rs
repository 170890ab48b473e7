//! Elementary mode: a Wolfram rule (0..255 or a formula of x, y, z), its number and truth
//! table, the ring and its start; the space-time diagram scrolls in the central view.

use eframe::egui;

use super::Status;
use crate::app::command::Command;
use crate::pattern::elementary::start_row;
use crate::rule::{ElementaryRule, Rule};

pub struct ElementaryPanel {
    rule_text: String,
    width: u32,
    capacity: u32,
    start: String,
    seed: u64,
    error: Option<String>,
    /// The diagram the fields last showed, to follow one started elsewhere (the command line).
    shown: Option<(ElementaryRule, u32)>,
}

impl Default for ElementaryPanel {
    fn default() -> Self {
        Self {
            rule_text: "110".to_string(),
            width: 512,
            capacity: 512,
            start: "center".to_string(),
            seed: 1,
            error: None,
            shown: None,
        }
    }
}

/// `110`, `W110`, or a formula such as `x ^ (y | z)`.
pub fn parse_elementary(text: &str) -> Result<ElementaryRule, String> {
    let t = text.trim();
    if let Ok(n) = t.parse::<u32>() {
        return u8::try_from(n)
            .map(ElementaryRule)
            .map_err(|_| format!("{t}: Wolfram rule number {t} is outside 0..255"));
    }
    let rule: Rule = t
        .parse()
        .map_err(|e: crate::rule::RuleError| e.to_string())?;
    rule.elementary()
        .ok_or_else(|| format!("{t}: {rule} is not an elementary rule"))
}

impl ElementaryPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, status: &Status, out: &mut Vec<Command>) {
        if let Some((rule, width, _)) = status.elementary
            && self.shown != Some((rule, width))
        {
            self.shown = Some((rule, width));
            self.rule_text = rule.0.to_string();
            self.width = width;
        }
        ui.horizontal(|ui| {
            ui.label("rule");
            ui.add(
                egui::TextEdit::singleline(&mut self.rule_text)
                    .hint_text("110, W30, x ^ (y | z)")
                    .desired_width(140.0),
            );
        });
        let parsed = parse_elementary(&self.rule_text);
        match &parsed {
            Ok(rule) => truth_table(ui, *rule),
            Err(e) => {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
        }
        ui.horizontal(|ui| {
            ui.label("ring");
            ui.add(egui::DragValue::new(&mut self.width).range(1..=1 << 20));
            ui.label("rows kept");
            ui.add(egui::DragValue::new(&mut self.capacity).range(2..=8192));
        });
        ui.horizontal(|ui| {
            ui.label("start");
            for s in ["center", "right", "random:10"] {
                if ui.selectable_label(self.start == s, s).clicked() {
                    self.start = s.to_string();
                }
            }
        });
        ui.add(
            egui::TextEdit::singleline(&mut self.start)
                .hint_text("center, right, random:K or a row like ..#.##."),
        );
        ui.horizontal(|ui| {
            if ui.button("Start diagram").clicked() {
                match (&parsed, start_row(self.width, self.start.trim(), self.seed)) {
                    (Ok(rule), Ok(start)) => {
                        self.error = None;
                        out.push(Command::EnterElementary {
                            rule: *rule,
                            start,
                            capacity: self.capacity,
                        });
                    }
                    (Err(e), _) => self.error = Some(e.clone()),
                    (_, Err(e)) => self.error = Some(format!("start {}: {e}", self.start)),
                }
            }
            if status.elementary.is_some() && ui.button("Back to the torus").clicked() {
                out.push(Command::EnterLife);
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(egui::Color32::LIGHT_RED, e);
        }
    }
}

/// The rule's number and its eight outputs, 111 down to 000, as Wolfram draws them.
fn truth_table(ui: &mut egui::Ui, rule: ElementaryRule) {
    ui.label(format!(
        "rule {} = W{}, binary {:08b}",
        rule.0, rule.0, rule.0
    ));
    egui::Grid::new("truth table")
        .spacing([6.0, 2.0])
        .show(ui, |ui| {
            let table = rule.truth_table();
            for k in (0..8).rev() {
                ui.monospace(format!("{k:03b}"));
            }
            ui.end_row();
            for k in (0..8).rev() {
                ui.monospace(if table[k] { " 1" } else { " 0" });
            }
            ui.end_row();
        });
}
