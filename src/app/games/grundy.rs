//! The Grundy tab: a subtraction game's g sequence as a strip with its period, a sum of heaps
//! with its winning move, a game of those heaps against the computer, the game of N, and the
//! one-sided rook's table.

use eframe::egui;

use super::{Log, heap_index, number, split};
use crate::app::panels::games::GameTab;
use crate::games::grundy::{self, SubtractionGame, TakeSet};

pub struct GrundyTab {
    take: String,
    heaps: String,
    target: u64,
    table: Option<egui::TextureHandle>,
    /// The game being played: its take-set and heaps.
    play: Option<(SubtractionGame, Vec<u64>)>,
    amount: Vec<String>,
    over: bool,
    log: Log,
}

impl Default for GrundyTab {
    fn default() -> Self {
        Self {
            take: "1..3".into(),
            heaps: "9 6 5 4".into(),
            target: 21,
            table: None,
            play: None,
            amount: Vec::new(),
            over: false,
            log: Log::default(),
        }
    }
}

/// The largest heap played or analysed here.
const MAX_HEAP: u64 = 1_000_000;

fn parse_heaps(text: &str) -> Result<Vec<u64>, String> {
    let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        return Err("type the heaps, like 9 6 5 4".into());
    }
    let heaps = crate::games::nim::parse_heaps(&words).map_err(|e| e.to_string())?;
    if let Some(h) = heaps.iter().find(|&&h| h > MAX_HEAP) {
        return Err(format!("a heap of {h}: heaps up to {MAX_HEAP} here"));
    }
    Ok(heaps)
}

impl GrundyTab {
    fn new_game(&mut self) -> Result<(), String> {
        let take = TakeSet::parse(&self.take).map_err(|e| e.to_string())?;
        let heaps = parse_heaps(&self.heaps)?;
        self.amount = vec!["1".into(); heaps.len()];
        self.log.clear(format!(
            "you move first: take {take} from one heap; whoever cannot move loses"
        ));
        self.play = Some((SubtractionGame { take }, heaps));
        self.over = false;
        Ok(())
    }

    fn take(&mut self, heap: usize, amount: u64) -> Result<(), String> {
        let Some((game, heaps)) = &mut self.play else {
            return self.log.refuse("start a game first (Play these heaps)");
        };
        if self.over {
            return self.log.refuse("the game is over: start a new one");
        }
        let h = heaps[heap];
        if !game.take.amounts(h).contains(&amount) {
            let why = if amount > h {
                format!("heap {} holds {h}: you cannot take {amount}", heap + 1)
            } else {
                format!(
                    "{amount} is not in the take-set {}: you cannot take it from heap {}",
                    game.take,
                    heap + 1
                )
            };
            return self.log.refuse(why);
        }
        heaps[heap] -= amount;
        self.log.push(format!(
            "you took {amount} from heap {}, leaving {}",
            heap + 1,
            heaps[heap]
        ));
        if stuck(game, heaps) {
            self.log
                .push("the computer cannot move: you made the last move and win");
            self.over = true;
            return Ok(());
        }
        let (sum, moves) = grundy::heaps_winning_moves(game, heaps);
        let (heap, to, why) = match moves.iter().find(|m| m.grundy_after < m.grundy_before) {
            Some(m) => (
                m.component,
                m.to,
                format!(
                    "g of the sum is {sum}; heap {} goes from g {} to g {}, making the sum 0",
                    m.component + 1,
                    m.grundy_before,
                    m.grundy_after
                ),
            ),
            None => {
                // Lost: the smallest move from the largest heap keeps the game long.
                let (i, &h) = heaps
                    .iter()
                    .enumerate()
                    .filter(|&(_, &h)| !game.take.amounts(h).is_empty())
                    .max_by_key(|&(_, h)| *h)
                    .expect("a move exists");
                let a = game.take.amounts(h)[0];
                (
                    i,
                    h - a,
                    "g of the sum is 0: every move loses against best play".to_string(),
                )
            }
        };
        let took = heaps[heap] - to;
        heaps[heap] = to;
        self.log.push(format!(
            "the computer takes {took} from heap {}: {why}",
            heap + 1
        ));
        if stuck(game, heaps) {
            self.log
                .push("you cannot move: the computer made the last move and wins");
            self.over = true;
        }
        Ok(())
    }
}

fn stuck(game: &SubtractionGame, heaps: &[u64]) -> bool {
    heaps.iter().all(|&h| game.take.amounts(h).is_empty())
}

impl GameTab for GrundyTab {
    fn title(&self) -> &'static str {
        "Grundy"
    }

    fn act(&mut self, action: &str) -> Result<(), String> {
        match split(action) {
            (v, _) if v == "play" => self.new_game().or_else(|e| self.log.refuse(e)),
            (v, w) if v == "take" && w.len() == 2 => {
                let count = self.play.as_ref().map_or(0, |(_, h)| h.len());
                let heap = heap_index(w[0], count).or_else(|e| self.log.refuse(e))?;
                let amount = number("amount", w[1]).or_else(|e| self.log.refuse(e))?;
                self.take(heap, amount)
            }
            (v, w) if v == "heaps" => {
                self.heaps = w.join(" ");
                Ok(())
            }
            (v, w) if v == "takeset" && w.len() == 1 => {
                self.take = w[0].to_string();
                Ok(())
            }
            _ => Err(format!(
                "unknown action '{action}': the Grundy tab takes 'takeset 1..3', 'heaps 9 6 5 4', 'play', 'take HEAP AMOUNT'"
            )),
        }
    }

    fn state(&self) -> serde_json::Value {
        serde_json::json!({
            "heaps": self.play.as_ref().map(|(_, h)| h.clone()),
            "over": self.over,
            "log": self.log.lines(),
        })
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label("take-set");
            ui.text_edit_singleline(&mut self.take);
        });
        let take = match TakeSet::parse(&self.take) {
            Ok(t) => t,
            Err(e) => {
                ui.colored_label(super::REFUSED, e.to_string());
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
            None => ui.label("no certified period in the first 2000 values"),
        };
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("heaps");
            ui.text_edit_singleline(&mut self.heaps);
        });
        match parse_heaps(&self.heaps) {
            Ok(heaps) => {
                let (sum, moves) = grundy::heaps_winning_moves(&game, &heaps);
                ui.label(format!("g of the sum: {sum}"));
                match moves.iter().find(|m| m.grundy_after < m.grundy_before) {
                    Some(m) => {
                        ui.label(format!(
                            "winning move: take {} from heap {} (of {}): g {} -> {}",
                            m.from - m.to,
                            m.component + 1,
                            m.from,
                            m.grundy_before,
                            m.grundy_after
                        ));
                    }
                    None => {
                        ui.label("the sum is 0: the player to move loses");
                    }
                }
                if ui.button("Play these heaps against the computer").clicked() {
                    let _ = self.act("play");
                }
            }
            Err(e) => {
                ui.colored_label(super::REFUSED, e);
            }
        }
        self.play_ui(ui);
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("the game of N with dominoes 1..5, N =");
            ui.add(egui::DragValue::new(&mut self.target).range(1..=1_000_000_000));
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

impl GrundyTab {
    fn play_ui(&mut self, ui: &mut egui::Ui) {
        let Some((game, heaps)) = &self.play else {
            return;
        };
        ui.label(format!("Play: take {} from one heap", game.take));
        let mut chosen = None;
        for (i, &h) in heaps.iter().enumerate() {
            ui.horizontal(|ui| {
                ui.monospace(format!(
                    "heap {}: {h:>3} {}",
                    i + 1,
                    "|".repeat(h.min(40) as usize)
                ));
                if !self.over && !game.take.amounts(h).is_empty() {
                    ui.add(egui::TextEdit::singleline(&mut self.amount[i]).desired_width(40.0));
                    if ui.button("take").clicked() {
                        chosen = Some(format!("take {} {}", i + 1, self.amount[i]));
                    }
                }
            });
        }
        if let Some(action) = chosen {
            let _ = self.act(&action);
        }
        self.log.ui(ui, 6);
    }
}

/// The sequence as coloured boxes with their values; 0 (lost positions) stands out. Each box
/// is allocated on its own, so that the row wraps at the panel's edge instead of widening it.
pub(crate) fn strip(ui: &mut egui::Ui, values: &[u32]) {
    let top = values.iter().copied().max().unwrap_or(0) + 1;
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing = egui::vec2(2.0, 2.0);
        for (n, &v) in values.iter().enumerate() {
            let [r, g, b] = crate::games::grundy::value_colour(v, top.max(4));
            let (fill, ink) = if v == 0 {
                (egui::Color32::from_gray(30), egui::Color32::WHITE)
            } else {
                (egui::Color32::from_rgb(r, g, b), egui::Color32::BLACK)
            };
            let text = v.to_string();
            let width = 8.0 * text.len() as f32 + 8.0;
            let (rect, response) =
                ui.allocate_exact_size(egui::vec2(width, 18.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, fill);
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::monospace(12.0),
                ink,
            );
            response.on_hover_text(format!("g({n}) = {v}"));
        }
    });
}
