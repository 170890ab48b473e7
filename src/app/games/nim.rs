//! The Nim tab: the nim-sum added column by column in binary, every winning move, a game
//! against the computer with each move explained, and the x XOR y table.

use eframe::egui;

use crate::app::panels::games::GameTab;
use crate::games::nim;

pub struct NimTab {
    text: String,
    game: Vec<u64>,
    log: Vec<String>,
    over: bool,
    take: Vec<u64>,
    table: Option<egui::TextureHandle>,
}

impl Default for NimTab {
    fn default() -> Self {
        Self {
            text: "3 5 7".into(),
            game: vec![3, 5, 7],
            log: Vec::new(),
            over: false,
            take: vec![1; 3],
            table: None,
        }
    }
}

fn parse(text: &str) -> Result<Vec<u64>, String> {
    let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        return Err("type the heaps, like 3 5 7".into());
    }
    nim::parse_heaps(&words).map_err(|e| e.to_string())
}

impl GameTab for NimTab {
    fn title(&self) -> &'static str {
        "Nim"
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label("heaps");
            ui.text_edit_singleline(&mut self.text);
        });
        match parse(&self.text) {
            Err(e) => {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            Ok(heaps) => {
                column_sum(ui, &heaps);
                let moves = nim::winning_moves(&heaps);
                if moves.is_empty() {
                    ui.label("nim-sum 0: the player to move loses against best play");
                } else {
                    ui.label("the player to move wins; every winning move:");
                    for m in moves {
                        ui.label(format!(
                            "  take {} from heap {} (of {}), leaving {}",
                            m.take, m.heap, heaps[m.heap], m.leaves
                        ));
                    }
                }
                if ui.button("Play these heaps against the computer").clicked() {
                    self.game = heaps;
                    self.take = vec![1; self.game.len()];
                    self.log = vec!["you move first".into()];
                    self.over = false;
                }
            }
        }
        ui.separator();
        ui.heading("Play");
        let mut chosen = None;
        for (i, &h) in self.game.iter().enumerate() {
            ui.horizontal(|ui| {
                ui.monospace(format!(
                    "heap {i}: {h:>3} {}",
                    "|".repeat(h.min(40) as usize)
                ));
                if h > 0 && !self.over {
                    ui.add(egui::DragValue::new(&mut self.take[i]).range(1..=h));
                    if ui.button("take").clicked() {
                        chosen = Some((i, self.take[i].min(h)));
                    }
                }
            });
        }
        if let Some((i, t)) = chosen {
            self.game[i] -= t;
            self.take[i] = 1;
            self.log.push(format!("you took {t} from heap {i}"));
            if self.game.iter().all(|&h| h == 0) {
                self.log.push("you took the last stone: you win".into());
                self.over = true;
            } else if let Some((m, why)) = nim::reply(&self.game) {
                self.game[m.heap] = m.leaves;
                self.log.push(format!(
                    "the computer takes {} from heap {}: {why}",
                    m.take, m.heap
                ));
                if self.game.iter().all(|&h| h == 0) {
                    self.log
                        .push("the computer took the last stone: it wins".into());
                    self.over = true;
                }
            }
        }
        for line in self.log.iter().rev().take(8) {
            ui.label(egui::RichText::new(line).small());
        }
        ui.separator();
        egui::CollapsingHeader::new("The table of x XOR y (q = 64)")
            .default_open(true)
            .show(ui, |ui| {
                let tex = self.table.get_or_insert_with(|| {
                    super::table_texture(ui.ctx(), "xor table", 64, |x, y| (x ^ y) as u32)
                });
                ui.image((tex.id(), egui::vec2(256.0, 256.0)));
                ui.label("equal values share a colour: the squares within squares are the fractal");
            });
    }
}

/// The heaps in binary, one under the other, and their XOR, as the textbook adds them.
fn column_sum(ui: &mut egui::Ui, heaps: &[u64]) {
    let s = nim::nim_sum(heaps);
    let bits = (64 - heaps.iter().copied().max().unwrap_or(0).leading_zeros()).max(1) as usize;
    egui::Grid::new("nim column sum").show(ui, |ui| {
        for h in heaps {
            ui.monospace(h.to_string());
            ui.monospace(format!("{h:0bits$b}"));
            ui.end_row();
        }
        ui.monospace("XOR");
        ui.monospace(egui::RichText::new(format!("{s:0bits$b}")).strong());
        ui.monospace(format!("= {s}"));
        ui.end_row();
    });
}
