//! The untouchable-king tab: king and queen against king with the white king fixed on a square
//! of your choice. The board colours every square for the black king by the result and the
//! distance to mate (with the queen where you put it), and then you play the mate out against
//! the solver, as White (it defends as long as it can) or as Black (it mates as fast as it can).

use std::collections::HashMap;

use eframe::egui;

use super::{Log, split};
use crate::app::panels::games::GameTab;
use crate::games::kqk::{self, KingReport, Kqk, Position, Square};
use crate::games::retro::{PositionSet, Solution, Value};

pub struct KingTab {
    king: Square,
    queen: Square,
    /// Which side is to move in the coloured board.
    white_to_move: bool,
    /// What a click on the board places before a game starts.
    placing: Placing,
    you_are_white: bool,
    /// The game in progress.
    play: Option<Position>,
    over: bool,
    log: Log,
    solved: HashMap<Square, (Kqk, Solution, KingReport)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Placing {
    King,
    Queen,
    BlackKing,
}

impl Default for KingTab {
    fn default() -> Self {
        Self {
            king: sq("c3"),
            queen: sq("h2"),
            white_to_move: true,
            placing: Placing::BlackKing,
            you_are_white: true,
            play: None,
            over: false,
            log: Log::default(),
            solved: HashMap::new(),
        }
    }
}

fn sq(name: &str) -> Square {
    kqk::parse_square(name).expect("a square")
}

fn square(text: &str) -> Result<Square, String> {
    kqk::parse_square(text).ok_or_else(|| format!("'{text}' is not a square (a1 to h8)"))
}

/// What a position is worth, in words and as a number of White's moves to mate.
fn describe(value: Value, plies: u32, white_to_move: bool) -> (String, Option<u32>) {
    match (value, white_to_move) {
        (Value::Win, true) => {
            let n = plies.div_ceil(2);
            (format!("White mates in {n}"), Some(n))
        }
        (Value::Loss, false) => {
            let n = plies / 2;
            if n == 0 {
                ("checkmate".into(), Some(0))
            } else {
                (format!("White mates in {n}"), Some(n))
            }
        }
        (Value::Draw, _) => ("a draw".into(), None),
        _ => ("Black wins (impossible here)".into(), None),
    }
}

impl KingTab {
    fn solution(&mut self) -> &(Kqk, Solution, KingReport) {
        self.solved
            .entry(self.king)
            .or_insert_with(|| kqk::solve_game(Some(self.king)))
    }

    /// The value of a position, `None` when it is not legal.
    fn value(&mut self, p: Position) -> Option<(Value, u32)> {
        let (game, solution, _) = self.solution();
        game.legal(&p).then(|| {
            let s = solution.values[game.index(p)];
            (s.value, s.plies)
        })
    }

    fn start(&mut self, black_king: Square) -> Result<(), String> {
        let p = Position {
            white_king: self.king,
            queen: self.queen,
            black_king,
            white_to_move: true,
        };
        let Some((v, plies)) = self.value(p) else {
            return self.log.refuse(format!(
                "the black king cannot stand on {} with the white king on {} and the queen on {}",
                kqk::square_name(black_king),
                kqk::square_name(self.king),
                kqk::square_name(self.queen)
            ));
        };
        let (what, _) = describe(v, plies, true);
        self.log.clear(format!(
            "white king {} (it never moves), queen {}, black king {}: {what}; you play {}",
            kqk::square_name(self.king),
            kqk::square_name(self.queen),
            kqk::square_name(black_king),
            if self.you_are_white { "White" } else { "Black" }
        ));
        self.play = Some(p);
        self.over = false;
        if !self.you_are_white {
            self.solver_moves();
        }
        Ok(())
    }

    /// The positions one move from `p` (the draw after the queen is taken is `None`).
    fn successors(&mut self, p: Position) -> Vec<(Option<Position>, Value, u32)> {
        let (game, solution, _) = self.solution();
        let taken = game.count() - 1;
        game.moves(game.index(p))
            .into_iter()
            .map(|i| {
                let s = solution.values[i];
                ((i != taken).then(|| game.decode(i)), s.value, s.plies)
            })
            .collect()
    }

    /// Your move: the queen (as White) or the black king (as Black) to `to`.
    fn move_to(&mut self, to: Square) -> Result<(), String> {
        let Some(p) = self.play else {
            return self
                .log
                .refuse("place the black king first to start a game");
        };
        if self.over {
            return self.log.refuse("the game is over: start a new one");
        }
        if p.white_to_move != self.you_are_white {
            return self.log.refuse("it is the solver's move");
        }
        let next = self.successors(p).into_iter().find(|(q, _, _)| match q {
            Some(q) if p.white_to_move => q.queen == to,
            Some(q) => q.black_king == to,
            // Taking the queen.
            None => !p.white_to_move && p.queen == to,
        });
        let Some((next, v, plies)) = next else {
            let piece = if p.white_to_move {
                "the queen"
            } else {
                "the black king"
            };
            return self.log.refuse(format!(
                "{piece} cannot go to {}: not a legal move",
                kqk::square_name(to)
            ));
        };
        self.log.push(format!(
            "you: {} to {}",
            if p.white_to_move { "Q" } else { "K" },
            kqk::square_name(to)
        ));
        self.after(next, v, plies);
        if !self.over {
            self.solver_moves();
        }
        Ok(())
    }

    /// Records the position reached; ends the game at mate, stalemate or the queen taken.
    fn after(&mut self, next: Option<Position>, v: Value, plies: u32) {
        let Some(next) = next else {
            self.log.push("the black king took the queen: a draw");
            self.over = true;
            return;
        };
        self.play = Some(next);
        let (what, _) = describe(v, plies, next.white_to_move);
        if !next.white_to_move && self.successors(next).is_empty() {
            self.over = true;
            self.log.push(if v == Value::Loss {
                "checkmate: White wins"
            } else {
                "stalemate: a draw"
            });
        } else {
            self.log.push(format!("now {what}"));
        }
    }

    /// The solver's move: White mates as fast as it can, Black holds out as long as it can (a
    /// draw first, if one is there).
    fn solver_moves(&mut self) {
        let Some(p) = self.play else { return };
        let options = self.successors(p);
        let best = if p.white_to_move {
            options
                .into_iter()
                .filter(|(_, v, _)| *v == Value::Loss)
                .min_by_key(|(_, _, plies)| *plies)
        } else {
            let draw = options.iter().find(|(_, v, _)| *v != Value::Win).cloned();
            draw.or_else(|| options.into_iter().max_by_key(|(_, _, plies)| *plies))
        };
        let Some((next, v, plies)) = best else {
            return;
        };
        let what = match next {
            Some(q) if p.white_to_move => format!("Q to {}", kqk::square_name(q.queen)),
            Some(q) => format!("K to {}", kqk::square_name(q.black_king)),
            None => format!("K takes the queen on {}", kqk::square_name(p.queen)),
        };
        self.log.push(format!("the solver: {what}"));
        self.after(next, v, plies);
    }
}

impl GameTab for KingTab {
    fn title(&self) -> &'static str {
        "Untouchable king"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["kqk", "kqk-untouchable", "king"]
    }

    fn act(&mut self, action: &str) -> Result<(), String> {
        let (verb, w) = split(action);
        let one = |w: &[&str]| match w {
            [s] => square(s),
            _ => Err("give one square, like c3".to_string()),
        };
        match verb.as_str() {
            "king" => {
                let s = one(&w).or_else(|e| self.log.refuse(e))?;
                self.king = s;
                self.play = None;
                Ok(())
            }
            "queen" if self.play.is_none() => {
                self.queen = one(&w).or_else(|e| self.log.refuse(e))?;
                Ok(())
            }
            "side" => {
                self.you_are_white = w.first().is_none_or(|s| s.eq_ignore_ascii_case("white"));
                Ok(())
            }
            "tomove" => {
                self.white_to_move = w.first().is_none_or(|s| s.eq_ignore_ascii_case("white"));
                Ok(())
            }
            "start" => {
                let s = one(&w).or_else(|e| self.log.refuse(e))?;
                self.start(s)
            }
            "move" | "queen" => {
                let s = one(&w).or_else(|e| self.log.refuse(e))?;
                self.move_to(s)
            }
            _ => Err(format!(
                "unknown action '{action}': the untouchable-king tab takes 'king c3', 'queen h2', 'tomove \
                 white|black', 'side white|black', 'start a1', 'move b2'"
            )),
        }
    }

    fn state(&self) -> serde_json::Value {
        match self.solved.get(&self.king) {
            Some((game, solution, _)) => self.board_state(game, solution),
            None => {
                let (game, solution, _) = kqk::solve_game(Some(self.king));
                self.board_state(&game, &solution)
            }
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let report = self.solution().2.clone();
        ui.label(format!(
            "white king fixed on {}: {} of {} positions with White to move are won{}; the \
             longest mate takes {} moves",
            report.king,
            report.won,
            report.positions,
            if report.all_won { " (all)" } else { "" },
            report.longest_mate
        ));
        ui.horizontal_wrapped(|ui| {
            ui.label("a click places:");
            ui.radio_value(&mut self.placing, Placing::King, "the white king");
            ui.radio_value(&mut self.placing, Placing::Queen, "the queen");
            ui.radio_value(
                &mut self.placing,
                Placing::BlackKing,
                "the black king (and play)",
            );
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("colours for");
            ui.radio_value(&mut self.white_to_move, true, "White to move");
            ui.radio_value(&mut self.white_to_move, false, "Black to move");
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("you play");
            ui.radio_value(&mut self.you_are_white, true, "White");
            ui.radio_value(&mut self.you_are_white, false, "Black");
        });
        let clicked = self.board(ui);
        if let Some(s) = clicked {
            let name = kqk::square_name(s);
            let action = match (self.play.is_some() && !self.over, self.placing) {
                (true, _) => format!("move {name}"),
                (false, Placing::King) => format!("king {name}"),
                (false, Placing::Queen) => format!("queen {name}"),
                (false, Placing::BlackKing) => format!("start {name}"),
            };
            if self.over && self.placing == Placing::BlackKing {
                self.play = None;
            }
            let _ = self.act(&action);
        }
        ui.horizontal_wrapped(|ui| {
            if self.play.is_some() && ui.button("Back to the board").clicked() {
                self.play = None;
                self.over = false;
            }
            ui.label(
                egui::RichText::new(
                    "green: a quick mate, red: a long one, blue: a draw; the numbers are White's \
                     moves to mate",
                )
                .small(),
            );
        });
        self.log.ui(ui, 8);
    }
}

impl KingTab {
    /// What the coloured board shows: White's moves to mate per black-king square, null where
    /// the black king may not stand, "draw" for a draw; and the game.
    fn board_state(&self, game: &Kqk, solution: &Solution) -> serde_json::Value {
        let name = kqk::square_name;
        let board: serde_json::Map<String, serde_json::Value> = (0..64u8)
            .map(|s| {
                let p = Position {
                    white_king: self.king,
                    queen: self.queen,
                    black_king: s,
                    white_to_move: self.white_to_move,
                };
                let v = if game.legal(&p) {
                    let solved = solution.values[game.index(p)];
                    match describe(solved.value, solved.plies, self.white_to_move).1 {
                        Some(n) => serde_json::json!(n),
                        None => serde_json::json!("draw"),
                    }
                } else {
                    serde_json::Value::Null
                };
                (name(s), v)
            })
            .collect();
        serde_json::json!({
            "board": board,
            "king": name(self.king),
            "queen": name(self.play.map_or(self.queen, |p| p.queen)),
            "black_king": self.play.map(|p| name(p.black_king)),
            "white_to_move": self.play.map(|p| p.white_to_move),
            "over": self.over,
            "log": self.log.lines(),
        })
    }

    /// The board: every black-king square coloured (before a game) or the game's position.
    fn board(&mut self, ui: &mut egui::Ui) -> Option<Square> {
        let cell = 40.0;
        let (rect, response) = ui.allocate_exact_size(
            egui::vec2(cell * 8.0 + 16.0, cell * 8.0 + 16.0),
            egui::Sense::click(),
        );
        let painter = ui.painter_at(rect);
        let origin = rect.min + egui::vec2(16.0, 0.0);
        let square_rect = |s: Square| {
            let (file, rank) = ((s % 8) as f32, (s / 8) as f32);
            egui::Rect::from_min_size(
                origin + egui::vec2(file * cell, (7.0 - rank) * cell),
                egui::vec2(cell, cell),
            )
        };
        let longest = self.solution().2.longest_mate.max(1);
        let (queen, black, to_move) = match self.play {
            Some(p) => (p.queen, Some(p.black_king), p.white_to_move),
            None => (self.queen, None, self.white_to_move),
        };
        for s in 0..64u8 {
            let r = square_rect(s);
            let light = (s % 8 + s / 8) % 2 == 1;
            let base = if light {
                egui::Color32::from_gray(170)
            } else {
                egui::Color32::from_gray(120)
            };
            let mut fill = base;
            let mut number = None;
            if self.play.is_none() {
                let p = Position {
                    white_king: self.king,
                    queen,
                    black_king: s,
                    white_to_move: to_move,
                };
                if let Some((v, plies)) = self.value(p) {
                    let (_, n) = describe(v, plies, to_move);
                    fill = match n {
                        Some(n) => {
                            let t = n as f32 / longest as f32;
                            egui::Color32::from_rgb(
                                (60.0 + 190.0 * t) as u8,
                                (200.0 - 140.0 * t) as u8,
                                70,
                            )
                        }
                        None => egui::Color32::from_rgb(70, 110, 200),
                    };
                    number = n;
                }
            }
            painter.rect_filled(r, 0.0, fill);
            if let Some(n) = number {
                painter.text(
                    r.center(),
                    egui::Align2::CENTER_CENTER,
                    n.to_string(),
                    egui::FontId::proportional(13.0),
                    egui::Color32::BLACK,
                );
            }
        }
        let piece = |s: Square, text: &str, white: bool| {
            let c = square_rect(s).center();
            let (bg, fg) = if white {
                (egui::Color32::WHITE, egui::Color32::BLACK)
            } else {
                (egui::Color32::BLACK, egui::Color32::WHITE)
            };
            painter.circle(c, cell * 0.36, bg, egui::Stroke::new(1.5, fg));
            painter.text(
                c,
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(18.0),
                fg,
            );
        };
        piece(self.king, "K", true);
        if !(self.over
            && self
                .log
                .last()
                .is_some_and(|l| l.contains("took the queen")))
        {
            piece(queen, "Q", true);
        }
        if let Some(b) = black {
            piece(b, "K", false);
        }
        for i in 0..8u8 {
            painter.text(
                origin + egui::vec2((i as f32 + 0.5) * cell, 8.0 * cell + 8.0),
                egui::Align2::CENTER_CENTER,
                ((b'a' + i) as char).to_string(),
                egui::FontId::proportional(11.0),
                egui::Color32::GRAY,
            );
            painter.text(
                origin + egui::vec2(-8.0, (7.5 - i as f32) * cell),
                egui::Align2::CENTER_CENTER,
                (i + 1).to_string(),
                egui::FontId::proportional(11.0),
                egui::Color32::GRAY,
            );
        }
        let pos = response
            .interact_pointer_pos()
            .filter(|_| response.clicked())?;
        let d = pos - origin;
        let (file, row) = ((d.x / cell).floor(), (d.y / cell).floor());
        ((0.0..8.0).contains(&file) && (0.0..8.0).contains(&row))
            .then(|| ((7 - row as u8) * 8 + file as u8) as Square)
    }
}
