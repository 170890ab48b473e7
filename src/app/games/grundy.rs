//! The Grundy tab: a subtraction game's g sequence as a strip with its period, a sum of heaps
//! with its winning move, the game of N, and the one-sided rook's table.

use eframe::egui;

use crate::app::panels::games::GameTab;
use crate::games::grundy::{self, SubtractionGame, TakeSet};

pub struct GrundyTab {
    take: String,
    heaps: String,
    target: u64,
    table: Option<egui::TextureHandle>,
}

impl Default for GrundyTab {
    fn default() -> Self {
        Self {
            take: "1..3".into(),
            heaps: "9 6 5 4".into(),
            target: 21,
            table: None,
        }
    }
}

impl GameTab for GrundyTab {
    fn title(&self) -> &'static str {
        "Grundy"
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label("take-set");
            ui.text_edit_singleline(&mut self.take);
        });
        let take = match TakeSet::parse(&self.take) {
            Ok(t) => t,
            Err(e) => {
                ui.colored_label(egui::Color32::LIGHT_RED, e.to_string());
                return;
            }
        };
        let game = SubtractionGame { take: take.clone() };
        let values = game.values(39);
        ui.label(format!("g(0), ..., g(39) of one heap, take {take}:"));
        strip(ui, &values);
        match game.period(2000) {
            Some(p) => ui.label(format!(
                "periodic from {} with period {} (certified)",
                p.preperiod, p.period
            )),
            None => ui.label("no period in the first 2000 values"),
        };
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("heaps");
            ui.text_edit_singleline(&mut self.heaps);
        });
        let words: Vec<String> = self.heaps.split_whitespace().map(str::to_string).collect();
        match crate::games::nim::parse_heaps(&words) {
            Ok(heaps) if heaps.iter().all(|&h| h <= 1_000_000) => {
                let (sum, moves) = grundy::heaps_winning_moves(&game, &heaps);
                ui.label(format!("g of the sum: {sum}"));
                match moves.iter().find(|m| m.grundy_after < m.grundy_before) {
                    Some(m) => {
                        ui.label(format!(
                            "winning move: take {} from the heap of {} (g {} -> {})",
                            m.from - m.to,
                            m.from,
                            m.grundy_before,
                            m.grundy_after
                        ));
                    }
                    None => {
                        ui.label("the sum is 0: the player to move loses");
                    }
                }
            }
            Ok(_) => {
                ui.colored_label(egui::Color32::LIGHT_RED, "heaps up to 1000000 here");
            }
            Err(e) => {
                ui.colored_label(egui::Color32::LIGHT_RED, e.to_string());
            }
        }
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("the game of N with dominoes 1..5, N =");
            ui.add(egui::DragValue::new(&mut self.target).range(1..=10_000));
        });
        let r = grundy::dominoes(self.target);
        if r.first_player_wins {
            let s: Vec<String> = r.winning_first_moves.iter().map(u8::to_string).collect();
            ui.label(format!(
                "the first player wins by starting on {}",
                s.join(" or ")
            ));
        } else {
            ui.label("the second player wins");
        }
        ui.separator();
        egui::CollapsingHeader::new("Two-heap Nim: the one-sided rook's table v(m, n) = m XOR n")
            .show(ui, |ui| {
                let tex = self.table.get_or_insert_with(|| {
                    let t = grundy::rook_table(64);
                    super::table_texture(ui.ctx(), "rook table", 64, move |x, y| t[y][x])
                });
                ui.image((tex.id(), egui::vec2(256.0, 256.0)));
            });
    }
}

/// The sequence as coloured boxes with their values; 0 (lost positions) stands out.
fn strip(ui: &mut egui::Ui, values: &[u32]) {
    let top = values.iter().copied().max().unwrap_or(0) + 1;
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing = egui::vec2(2.0, 2.0);
        for (n, &v) in values.iter().enumerate() {
            let [r, g, b] = crate::games::grundy::value_colour(v, top.max(4));
            let fill = if v == 0 {
                egui::Color32::from_gray(30)
            } else {
                egui::Color32::from_rgb(r, g, b)
            };
            let text = egui::RichText::new(format!("{v}"))
                .monospace()
                .color(if v == 0 {
                    egui::Color32::WHITE
                } else {
                    egui::Color32::BLACK
                });
            egui::Frame::new()
                .fill(fill)
                .inner_margin(3.0)
                .show(ui, |ui| {
                    ui.label(text).on_hover_text(format!("g({n}) = {v}"));
                });
        }
    });
}
