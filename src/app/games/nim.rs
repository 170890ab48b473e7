//! The Nim tab: the nim-sum added column by column in binary, every winning move, a game
//! against the computer with each move explained (normal or misère play), and the x XOR y
//! table.

use eframe::egui;

use super::{Log, heap_index, number, split};
use crate::app::panels::games::GameTab;
use crate::games::{misere, nim};

pub struct NimTab {
    text: String,
    misere: bool,
    game: Vec<u64>,
    log: Log,
    over: bool,
    /// What the user typed to take from each heap.
    take: Vec<String>,
    table: Option<egui::TextureHandle>,
}

impl Default for NimTab {
    fn default() -> Self {
        Self {
            text: "3 5 7".into(),
            misere: false,
            game: vec![3, 5, 7],
            log: Log::new("you move first"),
            over: false,
            take: vec!["1".into(); 3],
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

impl NimTab {
    fn new_game(&mut self, heaps: Vec<u64>) {
        self.take = vec!["1".into(); heaps.len()];
        self.game = heaps;
        self.over = false;
        self.log.clear(format!(
            "you move first ({} play: whoever takes the last stone {})",
            if self.misere { "misère" } else { "normal" },
            if self.misere { "loses" } else { "wins" }
        ));
    }

    /// Your move: `amount` from heap `heap` (counted from 0), or why not; then the computer's.
    fn take(&mut self, heap: usize, amount: u64) -> Result<(), String> {
        if self.over {
            return self.log.refuse("the game is over: start a new one");
        }
        let Some(&h) = self.game.get(heap) else {
            return self.log.refuse(format!(
                "there is no heap {}: the heaps are numbered 1 to {}",
                heap + 1,
                self.game.len()
            ));
        };
        if amount == 0 {
            return self.log.refuse("take at least one stone");
        }
        if amount > h {
            return self.log.refuse(format!(
                "heap {} holds {h} stones: you cannot take {amount}",
                heap + 1
            ));
        }
        self.game[heap] -= amount;
        self.log.push(format!(
            "you took {amount} from heap {}, leaving {}",
            heap + 1,
            self.game[heap]
        ));
        if self.finished(true) {
            return Ok(());
        }
        let reply = if self.misere {
            misere::nim_reply(&self.game)
        } else {
            nim::reply(&self.game)
        };
        if let Some((m, why)) = reply {
            self.game[m.heap] = m.leaves;
            self.log.push(format!(
                "the computer takes {} from heap {}: {why}",
                m.take,
                m.heap + 1
            ));
            self.finished(false);
        }
        Ok(())
    }

    /// Ends the game when the last stone is gone; `you` made the last move.
    fn finished(&mut self, you: bool) -> bool {
        if self.game.iter().any(|&h| h > 0) {
            return false;
        }
        self.over = true;
        let you_win = you != self.misere;
        self.log.push(format!(
            "{} took the last stone: {}",
            if you { "you" } else { "the computer" },
            if you_win {
                "you win"
            } else {
                "the computer wins"
            }
        ));
        true
    }
}

impl GameTab for NimTab {
    fn title(&self) -> &'static str {
        "Nim"
    }

    fn act(&mut self, action: &str) -> Result<(), String> {
        match split(action) {
            (v, w) if v == "take" && w.len() == 2 => {
                let heap = heap_index(w[0], self.game.len()).or_else(|e| self.log.refuse(e))?;
                let amount = number("amount", w[1]).or_else(|e| self.log.refuse(e))?;
                self.take(heap, amount)
            }
            (v, w) if v == "new" => {
                self.text = w.join(" ");
                let heaps = parse(&self.text)?;
                self.new_game(heaps);
                Ok(())
            }
            (v, w) if v == "misere" => {
                self.misere = w.first() != Some(&"off");
                self.new_game(self.game.clone());
                Ok(())
            }
            _ => Err(format!(
                "unknown action '{action}': the Nim tab takes 'take HEAP AMOUNT', 'new 3 5 7', 'misere on|off'"
            )),
        }
    }

    fn state(&self) -> serde_json::Value {
        serde_json::json!({
            "heaps": self.game,
            "misere": self.misere,
            "over": self.over,
            "log": self.log.lines(),
        })
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("heaps");
            ui.add(egui::TextEdit::singleline(&mut self.text).desired_width(160.0));
            if ui
                .checkbox(&mut self.misere, "misère (the last stone loses)")
                .changed()
            {
                self.new_game(self.game.clone());
            }
        });
        match parse(&self.text) {
            Err(e) => {
                ui.colored_label(super::REFUSED, e);
            }
            Ok(heaps) => {
                column_sum(ui, &heaps);
                if self.misere {
                    let moves = misere::nim_winning_moves(&heaps);
                    if misere::nim_first_player_wins(&heaps) {
                        ui.label("misère: the player to move wins; every winning move:");
                        for m in moves {
                            ui.label(format!(
                                "  take {} from heap {} (of {}), leaving {}: {}",
                                m.m.take,
                                m.m.heap + 1,
                                heaps[m.m.heap],
                                m.m.leaves,
                                m.reason
                            ));
                        }
                    } else {
                        ui.label("misère: the player to move loses against best play");
                    }
                } else {
                    let moves = nim::winning_moves(&heaps);
                    if moves.is_empty() {
                        ui.label("nim-sum 0: the player to move loses against best play");
                    } else {
                        ui.label("the player to move wins; every winning move:");
                        for m in moves {
                            ui.label(format!(
                                "  take {} from heap {} (of {}), leaving {}",
                                m.take,
                                m.heap + 1,
                                heaps[m.heap],
                                m.leaves
                            ));
                        }
                    }
                }
                if ui.button("Play these heaps against the computer").clicked() {
                    self.new_game(heaps);
                }
            }
        }
        ui.separator();
        ui.heading(if self.misere {
            "Play (misère)"
        } else {
            "Play"
        });
        let mut chosen = None;
        for (i, &h) in self.game.iter().enumerate() {
            ui.horizontal_wrapped(|ui| {
                ui.monospace(format!(
                    "heap {}: {h:>3} {}",
                    i + 1,
                    "|".repeat(h.min(40) as usize)
                ));
                if h > 0 && !self.over {
                    ui.add(egui::TextEdit::singleline(&mut self.take[i]).desired_width(40.0));
                    if ui.button("take").clicked() {
                        chosen = Some(format!("take {} {}", i + 1, self.take[i]));
                    }
                }
            });
        }
        if let Some(action) = chosen {
            // A refusal is in the log.
            let _ = self.act(&action);
        }
        self.log.ui(ui, 8);
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
pub(crate) fn column_sum(ui: &mut egui::Ui, heaps: &[u64]) {
    let s = nim::nim_sum(heaps);
    let bits = (64 - heaps.iter().copied().max().unwrap_or(0).leading_zeros()).max(1) as usize;
    egui::Grid::new("nim column sum").show(ui, |ui| {
        for (i, h) in heaps.iter().enumerate() {
            ui.monospace(format!("heap {}", i + 1));
            ui.monospace(h.to_string());
            ui.monospace(format!("{h:0bits$b}"));
            ui.end_row();
        }
        ui.monospace("");
        ui.monospace("XOR");
        ui.monospace(egui::RichText::new(format!("{s:0bits$b}")).strong());
        ui.monospace(format!("= {s}"));
        ui.end_row();
    });
}
