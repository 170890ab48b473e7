//! The built-in pattern library, grouped: still lifes, oscillators, spaceships, guns,
//! methuselahs, and patterns for other rules.

use eframe::egui;

use crate::app::command::Command;
use crate::pattern::library::{Category, PATTERNS};

pub fn ui(ui: &mut egui::Ui, out: &mut Vec<Command>) {
    for category in Category::ALL {
        let entries: Vec<_> = PATTERNS.iter().filter(|p| p.category == category).collect();
        if entries.is_empty() {
            continue;
        }
        egui::CollapsingHeader::new(category.title())
            .default_open(matches!(
                category,
                Category::Methuselah | Category::Spaceship
            ))
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    for entry in entries {
                        let pattern = entry.pattern();
                        let title = pattern.name.clone().unwrap_or_else(|| entry.id.to_string());
                        let hover = pattern.comments.join("\n");
                        if ui.button(&title).on_hover_text(hover).clicked() {
                            out.push(Command::Load {
                                pattern,
                                source: entry.id.to_string(),
                            });
                        }
                    }
                });
            });
    }
}
