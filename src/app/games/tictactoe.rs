//! The tic-tac-toe tab: play against the computer, which answers with a best move and says why;
//! every empty square shows its value (exact, or the textbook's F = M - N at two plies).

use eframe::egui;

use crate::app::panels::games::GameTab;
use crate::games::tictactoe::{self, Board, Eval};

pub struct TicTacToeTab {
    board: Board,
    you_are_x: bool,
    show_static: bool,
    log: Vec<String>,
}

impl Default for TicTacToeTab {
    fn default() -> Self {
        Self {
            board: [0; 9],
            you_are_x: true,
            show_static: false,
            log: vec!["you are X and move first".into()],
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

    fn announce(&mut self) {
        match tictactoe::winner(&self.board) {
            Some(1) => self.log.push("X wins".into()),
            Some(_) => self.log.push("O wins".into()),
            None if tictactoe::is_over(&self.board) => self.log.push("a draw".into()),
            None => {}
        }
    }
}

impl GameTab for TicTacToeTab {
    fn title(&self) -> &'static str {
        "Tic-tac-toe"
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if ui.button("New game as X").clicked() {
                *self = Self::default();
            }
            if ui.button("New game as O").clicked() {
                *self = Self {
                    you_are_x: false,
                    log: vec!["you are O; the computer opens".into()],
                    ..Self::default()
                };
                self.computer_moves();
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
                        if ui
                            .add_enabled(!over && yours && self.board[s] == 0, button)
                            .clicked()
                        {
                            clicked = Some(s);
                        }
                    }
                    ui.end_row();
                }
            });
        ui.label(format!(
            "value {} for X; the small numbers are each move's value for X ({})",
            analysis.value,
            if self.show_static {
                "F = M - N, 2 plies"
            } else {
                "exact, retrograde analysis"
            }
        ));
        if let Some(s) = clicked {
            self.board = tictactoe::play(&self.board, s);
            self.log.push(format!("you play {s}"));
            self.announce();
            if !tictactoe::is_over(&self.board) {
                self.computer_moves();
            }
        }
        for line in self.log.iter().rev().take(6) {
            ui.label(egui::RichText::new(line).small());
        }
    }
}
