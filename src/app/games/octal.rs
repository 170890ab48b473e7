//! The Octal tab: an octal game by its code or name (Kayles, Dawson's chess, ...) or Grundy's
//! game; its nim-sequence as a strip, the period with the theorem's check, the winning moves of a
//! position of several heaps (normal or misère play), and a game against the computer.

use eframe::egui;

use super::{Log, heap_index, number, split};
use crate::app::panels::games::GameTab;
use crate::games::misere;
use crate::games::octal::{self, HeapGame, HeapMove, NAMES, Periodicity};

pub struct OctalTab {
    code: String,
    heaps: String,
    misere: bool,
    /// The game and its sequence, recomputed when the code changes.
    analysed: Option<(String, Result<Analysed, String>)>,
    play: Option<(HeapGame, Vec<u64>)>,
    over: bool,
    log: Log,
}

struct Analysed {
    game: HeapGame,
    values: Vec<u32>,
    period: Option<Periodicity>,
}

impl Default for OctalTab {
    fn default() -> Self {
        Self {
            code: "kayles".into(),
            heaps: "7 5 3".into(),
            misere: false,
            analysed: None,
            play: None,
            over: false,
            log: Log::default(),
        }
    }
}

/// The values shown, and the work the period search may do (a fraction of a second).
const SHOWN: u64 = 60;
const BUDGET: u128 = 50_000_000;
/// The largest heap played here (moves are listed as buttons).
const MAX_HEAP: u64 = 60;

fn parse_heaps(text: &str) -> Result<Vec<u64>, String> {
    let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if words.is_empty() {
        return Err("type the heaps, like 7 5 3".into());
    }
    let heaps = crate::games::nim::parse_heaps(&words).map_err(|e| e.to_string())?;
    if let Some(h) = heaps.iter().find(|&&h| h > MAX_HEAP) {
        return Err(format!(
            "a heap of {h}: heaps up to {MAX_HEAP} here (the command line goes further)"
        ));
    }
    Ok(heaps)
}

impl OctalTab {
    fn analysed(&mut self) -> &Result<Analysed, String> {
        if self.analysed.as_ref().is_none_or(|(c, _)| *c != self.code) {
            let result = HeapGame::parse(&self.code)
                .map_err(|e| e.to_string())
                .map(|game| {
                    let (values, period) = game.search_period(SHOWN.max(MAX_HEAP), BUDGET);
                    Analysed {
                        game,
                        values,
                        period,
                    }
                });
            self.analysed = Some((self.code.clone(), result));
        }
        &self.analysed.as_ref().expect("just set").1
    }

    fn new_game(&mut self) -> Result<(), String> {
        let game = HeapGame::parse(&self.code).map_err(|e| e.to_string())?;
        let heaps = parse_heaps(&self.heaps)?;
        self.log.clear(format!(
            "{}, {} play: you move first; whoever cannot move {}",
            game.name(),
            if self.misere { "misère" } else { "normal" },
            if self.misere { "wins" } else { "loses" }
        ));
        self.play = Some((game, heaps));
        self.over = false;
        Ok(())
    }

    /// Your move, or why not; then the computer's.
    fn take(&mut self, m: HeapMove) -> Result<(), String> {
        let Some((game, heaps)) = &self.play else {
            return self.log.refuse("start a game first (Play)");
        };
        if self.over {
            return self.log.refuse("the game is over: start a new one");
        }
        let (game, mut heaps) = (game.clone(), heaps.clone());
        if !octal::moves(&game, &heaps).contains(&m) {
            let h = heaps[m.heap];
            let what = match m.into {
                Some([a, b]) => format!("take {} leaving {a} and {b}", m.take),
                None => format!("take {} leaving {}", m.take, m.leaves),
            };
            return self.log.refuse(format!(
                "heap {} (of {h}): you cannot {what} in {}",
                m.heap + 1,
                game.name()
            ));
        }
        self.log.push(format!("you: {}", m.describe(&heaps)));
        // An emptied heap is no heap: the others keep their order.
        heaps = octal::apply(&heaps, &m);
        heaps.retain(|&h| h > 0);
        if self.finished(&game, &heaps, true) {
            self.play = Some((game, heaps));
            return Ok(());
        }
        let (reply, why) = self.reply(&game, &heaps);
        self.log
            .push(format!("the computer: {}; {why}", reply.describe(&heaps)));
        heaps = octal::apply(&heaps, &reply);
        heaps.retain(|&h| h > 0);
        self.finished(&game, &heaps, false);
        self.play = Some((game, heaps));
        Ok(())
    }

    /// The computer's move: a winning one if there is one (by the values in normal play, by
    /// direct search in misère play), else the first legal move.
    fn reply(&self, game: &HeapGame, heaps: &[u64]) -> (HeapMove, String) {
        let winning = if self.misere {
            misere::heaps_misere(game, heaps, misere::SEARCH_LIMIT)
                .map(|(_, moves, n)| (moves, format!("found by searching {n} positions")))
                .unwrap_or_default()
        } else {
            let top = heaps.iter().copied().max().unwrap_or(0);
            let (total, moves) = octal::winning_moves(game, &game.values(top), heaps);
            (moves, format!("the values' XOR was {total}, now 0"))
        };
        match winning.0.into_iter().next() {
            Some(m) => (m, winning.1),
            None => (
                octal::moves(game, heaps)
                    .into_iter()
                    .next()
                    .expect("a move exists"),
                "every move loses against best play".to_string(),
            ),
        }
    }

    fn finished(&mut self, game: &HeapGame, heaps: &[u64], you: bool) -> bool {
        if !octal::moves(game, heaps).is_empty() {
            return false;
        }
        self.over = true;
        let you_win = you != self.misere;
        self.log.push(format!(
            "{} no move left: {}",
            if you { "the computer has" } else { "you have" },
            if you_win {
                "you win"
            } else {
                "the computer wins"
            }
        ));
        true
    }
}

impl GameTab for OctalTab {
    fn title(&self) -> &'static str {
        "Octal"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["kayles", "grundys-game"]
    }

    fn act(&mut self, action: &str) -> Result<(), String> {
        let (verb, w) = split(action);
        match verb.as_str() {
            "game" => {
                self.code = w.join(" ");
                Ok(())
            }
            "heaps" => {
                self.heaps = w.join(" ");
                Ok(())
            }
            "misere" => {
                self.misere = w.first() != Some(&"off");
                Ok(())
            }
            "play" => self.new_game().or_else(|e| self.log.refuse(e)),
            // take HEAP R, or take HEAP R A B to split what is left into A and B.
            "take" if w.len() == 2 || w.len() == 4 => {
                let count = self.play.as_ref().map_or(0, |(_, h)| h.len());
                let heap = heap_index(w[0], count).or_else(|e| self.log.refuse(e))?;
                let take = number("amount", w[1]).or_else(|e| self.log.refuse(e))?;
                let h = self.play.as_ref().map_or(0, |(_, h)| h[heap]);
                let m = if w.len() == 4 {
                    let a = number("heap", w[2]).or_else(|e| self.log.refuse(e))?;
                    let b = number("heap", w[3]).or_else(|e| self.log.refuse(e))?;
                    HeapMove {
                        heap,
                        take,
                        leaves: a + b,
                        into: Some([a.min(b), a.max(b)]),
                    }
                } else {
                    HeapMove {
                        heap,
                        take,
                        leaves: h.saturating_sub(take),
                        into: None,
                    }
                };
                if take > h {
                    return self.log.refuse(format!(
                        "heap {} holds {h}: you cannot take {take}",
                        heap + 1
                    ));
                }
                self.take(m)
            }
            _ => Err(format!(
                "unknown action '{action}': the Octal tab takes 'game 0.77', 'heaps 7 5 3', 'misere on|off', \
                 'play', 'take HEAP R [A B]'"
            )),
        }
    }

    fn state(&self) -> serde_json::Value {
        serde_json::json!({
            "game": self.play.as_ref().map(|(g, _)| g.name()),
            "heaps": self.play.as_ref().map(|(_, h)| h.clone()),
            "over": self.over,
            "log": self.log.lines(),
        })
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("game");
            ui.add(egui::TextEdit::singleline(&mut self.code).desired_width(90.0));
            egui::ComboBox::from_id_salt("octal names")
                .selected_text("named games")
                .show_ui(ui, |ui| {
                    for n in NAMES {
                        let label = if n.code.is_empty() {
                            format!("{}: {}", n.name, n.about)
                        } else {
                            format!("{} ({}): {}", n.name, n.code, n.about)
                        };
                        if ui.selectable_label(false, label).clicked() {
                            self.code = n.name.to_string();
                        }
                    }
                });
        });
        let analysed = match self.analysed() {
            Ok(a) => a,
            Err(e) => {
                ui.colored_label(super::REFUSED, e.clone());
                return;
            }
        };
        let (game, values) = (analysed.game.clone(), analysed.values.clone());
        ui.label(format!("{}: g(0), ..., g({})", game.name(), SHOWN - 1));
        super::grundy::strip(ui, &values[..SHOWN as usize]);
        match (&game, &analysed.period) {
            (HeapGame::Grundys, _) => {
                ui.label(
                    "Grundy's game is not octal: no periodicity theorem applies, and its \
                     sequence is not known to be periodic.",
                );
            }
            (_, Some(p)) => {
                ui.label(format!(
                    "{} period {} from n = {}{}",
                    if p.certified {
                        "certified:"
                    } else {
                        "apparent, not certified:"
                    },
                    p.period,
                    p.preperiod,
                    p.last_exception.map_or(String::new(), |n| format!(
                        " (last exceptional value at n = {n})"
                    ))
                ));
                ui.label(
                    egui::RichText::new(format!(
                        "{}; checked for {} <= n < {}",
                        p.theorem, p.preperiod, p.checked_to
                    ))
                    .small(),
                );
            }
            (_, None) => {
                ui.label(format!("no period within {} values", values.len()));
            }
        }
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            ui.label("heaps");
            ui.add(egui::TextEdit::singleline(&mut self.heaps).desired_width(160.0));
            ui.checkbox(&mut self.misere, "misère (the last move loses)");
        });
        match parse_heaps(&self.heaps) {
            Ok(heaps) => {
                if self.misere {
                    match misere::heaps_misere(&game, &heaps, misere::SEARCH_LIMIT) {
                        Ok((wins, moves, n)) => {
                            ui.label(format!(
                                "misère, by direct search of {n} positions: the player to move {}",
                                if wins { "wins" } else { "loses" }
                            ));
                            for m in moves {
                                ui.label(format!("  {}", m.describe(&heaps)));
                            }
                        }
                        Err(e) => {
                            ui.colored_label(super::REFUSED, e.to_string());
                        }
                    }
                } else {
                    let (total, moves) = octal::winning_moves(&game, &values, &heaps);
                    let g: Vec<String> = heaps
                        .iter()
                        .map(|&h| values[h as usize].to_string())
                        .collect();
                    ui.label(format!("values {}; XOR {total}", g.join(" ")));
                    if moves.is_empty() {
                        ui.label("the player to move loses against best play");
                    } else {
                        ui.label("every winning move:");
                        for m in moves {
                            ui.label(format!("  {}", m.describe(&heaps)));
                        }
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
    }
}

impl OctalTab {
    fn play_ui(&mut self, ui: &mut egui::Ui) {
        let Some((game, heaps)) = &self.play else {
            return;
        };
        ui.separator();
        ui.heading("Play");
        let mut chosen = None;
        for (i, &h) in heaps.iter().enumerate() {
            ui.horizontal_wrapped(|ui| {
                ui.monospace(format!("heap {}: {h:>2}", i + 1));
                if self.over {
                    return;
                }
                game.for_each_option(h, |take, a, b| {
                    let label = if a > 0 {
                        format!("-{take}: {a}+{b}")
                    } else {
                        format!("-{take}")
                    };
                    if ui.small_button(label).clicked() {
                        chosen = Some(if a > 0 {
                            format!("take {} {take} {a} {b}", i + 1)
                        } else {
                            format!("take {} {take}", i + 1)
                        });
                    }
                });
            });
        }
        if let Some(action) = chosen {
            let _ = self.act(&action);
        }
        self.log.ui(ui, 6);
    }
}
