//! Tic-tac-toe: every position reachable from the empty board, solved by retrograde analysis;
//! the textbook's static evaluation F = M − N (lines still open for X minus lines still open
//! for O) with depth-limited minimax; symmetry classes.
//!
//! Squares are numbered 0–8 row by row. X moves first. Values are from X's point of view.

use std::collections::HashMap;

use serde::Serialize;

use super::retro::{self, PositionSet, Value};
use super::search::{SearchGame, alphabeta};

/// 0 empty, 1 X, 2 O.
pub type Board = [u8; 9];

pub const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("the position '{0}' has {1} squares; it needs 9 (row by row, X, O and .)")]
    Length(String, usize),
    #[error("square {square} is '{found}': use X, O and . (or -) for an empty square")]
    Square { square: usize, found: char },
    #[error("O has {o} marks and X {x}: X moves first, so X has as many as O or one more")]
    Counts { x: usize, o: usize },
    #[error("both X and O have three in a row")]
    BothWin,
    #[error("X has three in a row but O has moved as often as X: the game ended at X's line")]
    XWonTooLate,
    #[error("O has three in a row but X has moved after it")]
    OWonTooLate,
}

pub fn parse_position(text: &str) -> Result<Board, PositionError> {
    let chars: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '/')
        .collect();
    if chars.len() != 9 {
        return Err(PositionError::Length(text.to_string(), chars.len()));
    }
    let mut b = [0u8; 9];
    for (i, &c) in chars.iter().enumerate() {
        b[i] = match c {
            'X' | 'x' => 1,
            'O' | 'o' => 2,
            '.' | '-' | '_' => 0,
            found => return Err(PositionError::Square { square: i, found }),
        };
    }
    let x = b.iter().filter(|&&v| v == 1).count();
    let o = b.iter().filter(|&&v| v == 2).count();
    if o > x || x > o + 1 {
        return Err(PositionError::Counts { x, o });
    }
    let (xw, ow) = (has_line(&b, 1), has_line(&b, 2));
    if xw && ow {
        return Err(PositionError::BothWin);
    }
    if xw && x == o {
        return Err(PositionError::XWonTooLate);
    }
    if ow && x > o {
        return Err(PositionError::OWonTooLate);
    }
    Ok(b)
}

pub fn board_text(b: &Board) -> String {
    b.iter()
        .map(|&v| match v {
            1 => 'X',
            2 => 'O',
            _ => '.',
        })
        .collect()
}

fn has_line(b: &Board, who: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&s| b[s] == who))
}

pub fn winner(b: &Board) -> Option<u8> {
    [1, 2].into_iter().find(|&w| has_line(b, w))
}

/// Whose turn it is: 1 (X) or 2 (O).
pub fn to_move(b: &Board) -> u8 {
    let x = b.iter().filter(|&&v| v == 1).count();
    let o = b.iter().filter(|&&v| v == 2).count();
    if x == o { 1 } else { 2 }
}

pub fn is_over(b: &Board) -> bool {
    winner(b).is_some() || b.iter().all(|&v| v != 0)
}

/// Empty squares, in order.
pub fn empty_squares(b: &Board) -> impl Iterator<Item = usize> + '_ {
    (0..9).filter(|&s| b[s] == 0)
}

pub fn play(b: &Board, square: usize) -> Board {
    let mut next = *b;
    next[square] = to_move(b);
    next
}

/// The textbook's static evaluation: lines with no O (still open for X) minus lines with no X.
pub fn static_eval(b: &Board) -> i32 {
    let open = |other: u8| {
        LINES
            .iter()
            .filter(|l| l.iter().all(|&s| b[s] != other))
            .count() as i32
    };
    open(2) - open(1)
}

fn code(b: &Board) -> u32 {
    b.iter().fold(0, |acc, &v| acc * 3 + v as u32)
}

/// Every position reachable from the empty board by legal play (play stops at a win).
pub struct Reachable {
    pub boards: Vec<Board>,
    index: HashMap<u32, usize>,
}

impl Reachable {
    pub fn new() -> Self {
        Self::from_board([0; 9])
    }

    /// Every position reachable from `start` by legal play.
    pub fn from_board(start: Board) -> Self {
        let mut boards = vec![start];
        let mut index = HashMap::from([(code(&start), 0usize)]);
        let mut at = 0;
        while at < boards.len() {
            let b = boards[at];
            if !is_over(&b) {
                for s in empty_squares(&b).collect::<Vec<_>>() {
                    let next = play(&b, s);
                    index.entry(code(&next)).or_insert_with(|| {
                        boards.push(next);
                        boards.len() - 1
                    });
                }
            }
            at += 1;
        }
        Self { boards, index }
    }

    pub fn index_of(&self, b: &Board) -> Option<usize> {
        self.index.get(&code(b)).copied()
    }

    /// Classes of positions equal up to the board's 8 symmetries (rotations and reflections).
    pub fn symmetry_classes(&self) -> usize {
        let mut canon: Vec<u32> = self.boards.iter().map(canonical).collect();
        canon.sort_unstable();
        canon.dedup();
        canon.len()
    }
}

impl Default for Reachable {
    fn default() -> Self {
        Self::new()
    }
}

/// The square maps of the 8 symmetries of the board.
const SYMMETRIES: [[usize; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

fn canonical(b: &Board) -> u32 {
    SYMMETRIES
        .iter()
        .map(|map| {
            let mut t = [0u8; 9];
            for (i, &from) in map.iter().enumerate() {
                t[i] = b[from];
            }
            code(&t)
        })
        .min()
        .expect("eight symmetries")
}

impl PositionSet for Reachable {
    fn count(&self) -> usize {
        self.boards.len()
    }
    fn moves(&self, p: usize) -> Vec<usize> {
        let b = &self.boards[p];
        empty_squares(b)
            .map(|s| self.index_of(&play(b, s)).expect("reachable"))
            .collect()
    }
    fn terminal(&self, p: usize) -> Option<Value> {
        let b = &self.boards[p];
        if winner(b).is_some() {
            // The player to move faces the opponent's line.
            Some(Value::Loss)
        } else if b.iter().all(|&v| v != 0) {
            Some(Value::Draw)
        } else {
            None
        }
    }
}

/// How positions are valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// The true value (+1, 0, -1): retrograde analysis, or minimax to the given depth with
    /// positions at the horizon counted as 0.
    Exact,
    /// F = M − N at the horizon; a finished game counts ±9, beyond any F.
    Static,
}

struct Searcher(Eval);

impl SearchGame for Searcher {
    type Position = Board;
    fn moves(&self, b: &Board) -> Vec<Board> {
        empty_squares(b).map(|s| play(b, s)).collect()
    }
    fn terminal(&self, b: &Board) -> Option<i32> {
        let win = match self.0 {
            Eval::Exact => 1,
            Eval::Static => 9,
        };
        match winner(b) {
            Some(1) => Some(win),
            Some(_) => Some(-win),
            None if b.iter().all(|&v| v != 0) => Some(0),
            None => None,
        }
    }
    fn evaluate(&self, b: &Board) -> i32 {
        match self.0 {
            Eval::Exact => 0,
            Eval::Static => static_eval(b),
        }
    }
    fn maximising(&self, b: &Board) -> bool {
        to_move(b) == 1
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct MoveValue {
    pub square: usize,
    pub value: i32,
}

#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub position: String,
    /// The position's value from X's point of view.
    pub value: i32,
    /// Positions analysed: the reachable set for retrograde analysis, the nodes searched for
    /// minimax.
    pub positions: u64,
    /// The value of each move, from X's point of view.
    pub moves: Vec<MoveValue>,
    pub to_move: char,
    /// Whether the game is over, and who has three in a row ('X', 'O'; none for a full board
    /// or a game going on).
    pub over: bool,
    pub winner: Option<char>,
}

/// The positions reachable from `b` (itself included) and their classes under the board's
/// symmetries, counted.
pub fn counts(b: &Board) -> (usize, usize) {
    let reach = Reachable::from_board(*b);
    (reach.boards.len(), reach.symmetry_classes())
}

/// The whole game, solved once per process: the app asks every frame.
fn solved() -> &'static (Reachable, retro::Solution) {
    static SOLVED: std::sync::OnceLock<(Reachable, retro::Solution)> = std::sync::OnceLock::new();
    SOLVED.get_or_init(|| {
        let reach = Reachable::new();
        let solution = retro::solve(&reach);
        (reach, solution)
    })
}

/// X's view of a retrograde value for the player to move at `b`.
fn x_view(v: Value, b: &Board) -> i32 {
    let mover = match v {
        Value::Win => 1,
        Value::Loss => -1,
        Value::Draw => 0,
    };
    if to_move(b) == 1 { mover } else { -mover }
}

/// Values of a position and of each move. `depth` None with `Eval::Exact` solves the whole
/// game by retrograde analysis; otherwise alpha–beta to that depth (moves count one ply).
pub fn analyse(b: &Board, eval: Eval, depth: Option<u32>) -> Analysis {
    let mut moves = Vec::new();
    let (value, positions) = match (eval, depth) {
        (Eval::Exact, None) => {
            let (reach, solution) = solved();
            let at = |b: &Board| {
                let i = reach.index_of(b).expect("a legal position is reachable");
                x_view(solution.values[i].value, b)
            };
            if !is_over(b) {
                for s in empty_squares(b) {
                    moves.push(MoveValue {
                        square: s,
                        value: at(&play(b, s)),
                    });
                }
            }
            (at(b), reach.boards.len() as u64)
        }
        (eval, depth) => {
            let depth = depth.unwrap_or(9);
            let searcher = Searcher(eval);
            let mut nodes = 0;
            if !is_over(b) {
                for s in empty_squares(b) {
                    let r = alphabeta(&searcher, &play(b, s), depth.saturating_sub(1));
                    nodes += r.nodes;
                    moves.push(MoveValue {
                        square: s,
                        value: r.value,
                    });
                }
            }
            // The root is worth its best move, so that the two always agree (at depth 0 too,
            // where each move is evaluated at once).
            let x = to_move(b) == 1;
            let best = moves
                .iter()
                .map(|m| if x { m.value } else { -m.value })
                .max();
            match best {
                Some(v) => (if x { v } else { -v }, nodes + 1),
                None => {
                    let r = alphabeta(&searcher, b, depth);
                    (r.value, r.nodes)
                }
            }
        }
    };
    Analysis {
        position: board_text(b),
        value,
        positions,
        moves,
        to_move: if to_move(b) == 1 { 'X' } else { 'O' },
        over: is_over(b),
        winner: winner(b).map(|w| if w == 1 { 'X' } else { 'O' }),
    }
}

/// The computer's move and why: the best value for the player to move, first in square order.
pub fn reply(b: &Board) -> Option<(usize, String)> {
    if is_over(b) {
        return None;
    }
    let a = analyse(b, Eval::Exact, None);
    let x = to_move(b) == 1;
    let best = a
        .moves
        .iter()
        .max_by_key(|m| if x { m.value } else { -m.value })
        .map(|m| m.value)?;
    let choice = a.moves.iter().find(|m| m.value == best)?;
    let word = |v: i32| match (v, x) {
        (1, true) | (-1, false) => "a win",
        (0, _) => "a draw",
        _ => "a loss",
    };
    let all: Vec<String> = a
        .moves
        .iter()
        .map(|m| format!("{}: {}", m.square, word(m.value)))
        .collect();
    Some((
        choice.square,
        format!(
            "square {} keeps {} with best play (every move: {})",
            choice.square,
            word(best),
            all.join(", ")
        ),
    ))
}
