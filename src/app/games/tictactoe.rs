//! The tic-tac-toe tab: play against the computer, which answers with a best move and says why;
//! every empty square shows its value (exact, or the textbook's F = M - N at two plies), and
//! every square its number, 0 to 8 row by row, the numbers the explanations use.

use eframe::egui;

use super::{Log, number, split};
use crate::app::panels::games::GameTab;
use crate::games::tictactoe::{self, Board, Eval};

pub struct TicTacToeTab {
    board: Board,
    you_are_x: bool,
    show_static: bool,
    log: Log,
}

impl Default for TicTacToeTab {
    fn default() -> Self {
        Self {
            board: [0; 9],
            you_are_x: true,
            show_static: false,
            log: Log::new("you are X and move first"),
        }
    }
}

impl TicTacToeTab {
    fn computer_moves(&mut self) {
        if let Some((square, why)) = tictactoe::reply(&self.board) {
            self.board = tictactoe::play(&self.board, square);
            self.log.push(format!("the computer plays {square}: {why}"));
        }
        self.announce();
    }

    /// Your mark on `square`, or why not; then the computer's.
    fn mark(&mut self, square: u64) -> Result<(), String> {
        if square > 8 {
            return self.log.refuse(format!(
                "there is no square {square}: they are numbered 0 to 8"
            ));
        }
        let s = square as usize;
        if tictactoe::is_over(&self.board) {
            return self.log.refuse("the game is over: start a new one");
        }
        if (tictactoe::to_move(&self.board) == 1) != self.you_are_x {
            return self.log.refuse("it is the computer's move");
        }
        if self.board[s] != 0 {
            return self
                .log
                .refuse(format!("square {s} is taken: choose an empty one"));
        }
        self.board = tictactoe::play(&self.board, s);
        self.log.push(format!("you play {s}"));
        self.announce();
        if !tictactoe::is_over(&self.board) {
            self.computer_moves();
        }
        Ok(())
    }

    fn new_game(&mut self, x: bool) {
        *self = Self {
            you_are_x: x,
            show_static: self.show_static,
            log: Log::new(if x {
                "you are X and move first"
            } else {
                "you are O; the computer opens"
            }),
            ..Self::default()
        };
        if !x {
            self.computer_moves();
        }
    }

    fn announce(&mut self) {
        match tictactoe::winner(&self.board) {
            Some(w) => {
                let (mark, you) = (if w == 1 { 'X' } else { 'O' }, (w == 1) == self.you_are_x);
                self.log.push(format!(
                    "{mark} has three in a row: {}",
                    if you { "you win" } else { "the computer wins" }
                ));
            }
            None if tictactoe::is_over(&self.board) => {
                self.log.push("the board is full: a draw");
            }
            None => {}
        }
    }
}

impl GameTab for TicTacToeTab {
    fn title(&self) -> &'static str {
        "Tic-tac-toe"
    }

    fn act(&mut self, action: &str) -> Result<(), String> {
        match split(action) {
            (v, w) if v == "play" && w.len() == 1 => {
                let s = number("square", w[0]).or_else(|e| self.log.refuse(e))?;
                self.mark(s)
            }
            (v, w) if v == "new" => {
                self.new_game(w.first().is_none_or(|s| s.eq_ignore_ascii_case("x")));
                Ok(())
            }
            (v, w) if v == "static" => {
                self.show_static = w.first() != Some(&"off");
                Ok(())
            }
            _ => Err(format!(
                "unknown action '{action}': the tic-tac-toe tab takes 'play SQUARE' (0 to 8), 'new x|o', \
                 'static on|off'"
            )),
        }
    }

    fn state(&self) -> serde_json::Value {
        serde_json::json!({
            "board": tictactoe::board_text(&self.board),
            "log": self.log.lines(),
        })
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game as X").clicked() {
                let _ = self.act("new x");
            }
            if ui.button("New game as O").clicked() {
                let _ = self.act("new o");
            }
            ui.checkbox(&mut self.show_static, "values by F = M - N, 2 plies");
        });
        let eval = if self.show_static {
            Eval::Static
        } else {
            Eval::Exact
        };
        let depth = self.show_static.then_some(2);
        let analysis = tictactoe::analyse(&self.board, eval, depth);
        let over = tictactoe::is_over(&self.board);
        let yours = (tictactoe::to_move(&self.board) == 1) == self.you_are_x;
        let mut clicked = None;
        egui::Grid::new("ttt board")
            .spacing([4.0, 4.0])
            .show(ui, |ui| {
                for row in 0..3 {
                    for col in 0..3 {
                        let s = row * 3 + col;
                        let text = match self.board[s] {
                            1 => egui::RichText::new("X").size(32.0).strong(),
                            2 => egui::RichText::new("O").size(32.0).strong(),
                            _ => {
                                let v = analysis
                                    .moves
                                    .iter()
                                    .find(|m| m.square == s)
                                    .map(|m| m.value);
                                egui::RichText::new(v.map_or(String::new(), |v| format!("{v:+}")))
                                    .size(14.0)
                                    .weak()
                            }
                        };
                        let button = egui::Button::new(text).min_size(egui::vec2(64.0, 64.0));
                        let response = ui.add_enabled(!over && yours && self.board[s] == 0, button);
                        // The square's number, in its corner.
                        ui.painter().text(
                            response.rect.left_top() + egui::vec2(5.0, 3.0),
                            egui::Align2::LEFT_TOP,
                            s.to_string(),
                            egui::FontId::proportional(11.0),
                            egui::Color32::from_rgb(150, 170, 200),
                        );
                        if response.clicked() {
                            clicked = Some(s);
                        }
                    }
                    ui.end_row();
                }
            });
        ui.label(format!(
            "value {} for X; in the corners the squares' numbers, in the middle each move's \
             value for X ({})",
            analysis.value,
            if self.show_static {
                "F = M - N, 2 plies"
            } else {
                "exact, retrograde analysis"
            }
        ));
        if let Some(s) = clicked {
            let _ = self.act(&format!("play {s}"));
        }
        self.log.ui(ui, 6);
    }
}
