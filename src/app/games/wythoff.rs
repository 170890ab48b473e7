//! The Wythoff tab: a position of two heaps, its Grundy value and the winning moves (to the lost
//! positions (⌊nφ⌋, ⌊nφ²⌋)), the table of Grundy values as a picture like the XOR table, and a
//! game against the computer.

use eframe::egui;

use super::{Log, number, split};
use crate::app::panels::games::GameTab;
use crate::games::wythoff;

pub struct WythoffTab {
    x: u64,
    y: u64,
    play: Option<(u64, u64)>,
    over: bool,
    log: Log,
    table: Option<(egui::TextureHandle, Vec<Vec<u32>>)>,
}

impl Default for WythoffTab {
    fn default() -> Self {
        Self {
            x: 9,
            y: 14,
            play: None,
            over: false,
            log: Log::default(),
            table: None,
        }
    }
}

/// The side of the picture of values.
const Q: u64 = 64;

impl WythoffTab {
    fn new_game(&mut self) {
        self.play = Some((self.x, self.y));
        self.over = false;
        self.log.clear(format!(
            "({}, {}): you move first; take from one heap, or the same from both",
            self.x, self.y
        ));
    }

    fn take(&mut self, a: u64, b: u64) -> Result<(), String> {
        let Some((x, y)) = self.play else {
            return self.log.refuse("start a game first (Play)");
        };
        if self.over {
            return self.log.refuse("the game is over: start a new one");
        }
        if a == 0 && b == 0 {
            return self.log.refuse("take at least one");
        }
        if a != 0 && b != 0 && a != b {
            return self.log.refuse(format!(
                "take {a} and {b}: from both heaps you must take the same number"
            ));
        }
        if a > x || b > y {
            return self.log.refuse(format!(
                "the heaps hold {x} and {y}: you cannot take {a} and {b}"
            ));
        }
        let (x, y) = (x - a, y - b);
        self.log.push(format!("you leave ({x}, {y})"));
        if x == 0 && y == 0 {
            self.log.push("you took the last one: you win");
            self.over = true;
            self.play = Some((x, y));
            return Ok(());
        }
        let (m, why) = match wythoff::winning_moves(x, y)
            .ok()
            .and_then(|m| m.first().copied())
        {
            Some(m) => {
                let n = m.leaves[0].abs_diff(m.leaves[1]);
                (
                    m,
                    format!("a lost position for you, (⌊nφ⌋, ⌊nφ²⌋) with n = {n}"),
                )
            }
            None => {
                // Lost: one from the larger heap keeps the game long.
                let m = if x >= y {
                    wythoff::WythoffMove {
                        take: [1, 0],
                        leaves: [x - 1, y],
                    }
                } else {
                    wythoff::WythoffMove {
                        take: [0, 1],
                        leaves: [x, y - 1],
                    }
                };
                (m, "every move loses against best play".to_string())
            }
        };
        self.log
            .push(format!("the computer: {}; {why}", m.describe()));
        self.play = Some((m.leaves[0], m.leaves[1]));
        if m.leaves == [0, 0] {
            self.log.push("the computer took the last one: it wins");
            self.over = true;
        }
        Ok(())
    }
}

impl GameTab for WythoffTab {
    fn title(&self) -> &'static str {
        "Wythoff"
    }

    fn act(&mut self, action: &str) -> Result<(), String> {
        let (verb, w) = split(action);
        match (verb.as_str(), w.as_slice()) {
            ("position", [x, y]) => {
                self.x = number("heap 1", x)?;
                self.y = number("heap 2", y)?;
                Ok(())
            }
            ("play", []) => {
                self.new_game();
                Ok(())
            }
            ("take", [a, b]) => {
                let a = number("heap 1", a).or_else(|e| self.log.refuse(e))?;
                let b = number("heap 2", b).or_else(|e| self.log.refuse(e))?;
                self.take(a, b)
            }
            _ => Err(format!(
                "unknown action '{action}': the Wythoff tab takes 'position X Y', 'play', 'take A B' (A from \
                 heap 1, B from heap 2)"
            )),
        }
    }

    fn state(&self) -> serde_json::Value {
        serde_json::json!({
            "position": self.play,
            "over": self.over,
            "log": self.log.lines(),
        })
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label("heaps");
            ui.add(egui::DragValue::new(&mut self.x).range(0..=wythoff::MAX_HEAP));
            ui.add(egui::DragValue::new(&mut self.y).range(0..=wythoff::MAX_HEAP));
            if ui.button("Play").clicked() {
                let _ = self.act("play");
            }
        });
        let (x, y) = self.play.unwrap_or((self.x, self.y));
        match wythoff::winning_moves(x, y) {
            Ok(moves) if moves.is_empty() => {
                ui.label(format!(
                    "({x}, {y}) is lost for the player to move: (⌊nφ⌋, ⌊nφ²⌋) with n = {}",
                    x.abs_diff(y)
                ));
            }
            Ok(moves) => {
                ui.label(format!(
                    "({x}, {y}): the player to move wins; every winning move:"
                ));
                for m in moves {
                    ui.label(format!("  {}", m.describe()));
                }
            }
            Err(e) => {
                ui.colored_label(super::REFUSED, e.to_string());
            }
        }
        let (tex, table) = self.table.get_or_insert_with(|| {
            let t = wythoff::grundy_table(Q, Q);
            // The lost positions (value 0) in white; the others round the colour wheel.
            let q = Q as usize;
            let mut image = egui::ColorImage::filled([q, q], egui::Color32::WHITE);
            for (y, row) in t.iter().enumerate() {
                for (x, &v) in row.iter().enumerate() {
                    if v > 0 {
                        let [r, g, b] = crate::games::grundy::value_colour(v, 2 * Q as u32);
                        image.pixels[y * q + x] = egui::Color32::from_rgb(r, g, b);
                    }
                }
            }
            let tex = ui
                .ctx()
                .load_texture("wythoff table", image, egui::TextureOptions::NEAREST);
            (tex, t)
        });
        if x < Q && y < Q {
            ui.label(format!(
                "Grundy value g({x}, {y}) = {}",
                table[y as usize][x as usize]
            ));
        }
        ui.label(
            "g(x, y) for x, y < 64, x across and y down; in white the lost positions (value 0), \
             two rays at slopes φ and 1/φ; the ring is the position",
        );
        let side = 320.0;
        let response = ui.image((tex.id(), egui::vec2(side, side)));
        // The current position, ringed.
        if x < Q && y < Q {
            let cell = side / Q as f32;
            let centre =
                response.rect.min + egui::vec2((x as f32 + 0.5) * cell, (y as f32 + 0.5) * cell);
            ui.painter().circle_stroke(
                centre,
                cell * 1.5,
                egui::Stroke::new(2.0, egui::Color32::WHITE),
            );
        }
        if self.play.is_some() {
            ui.separator();
            ui.heading("Play");
            if !self.over {
                let mut chosen = None;
                ui.horizontal_wrapped(|ui| {
                    for m in wythoff::all_moves(x, y).into_iter().take(60) {
                        let label = match m.take {
                            [a, 0] => format!("-{a} | ."),
                            [0, b] => format!(". | -{b}"),
                            [a, _] => format!("-{a} | -{a}"),
                        };
                        if ui.small_button(label).on_hover_text(m.describe()).clicked() {
                            chosen = Some(format!("take {} {}", m.take[0], m.take[1]));
                        }
                    }
                });
                if let Some(a) = chosen {
                    let _ = self.act(&a);
                }
            }
            self.log.ui(ui, 6);
        }
    }
}
