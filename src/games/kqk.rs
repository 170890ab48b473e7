//! The "untouchable king": White has a king fixed on one square, which never moves, and a
//! queen; Black has a bare king. Solved by the same retrograde engine as tic-tac-toe, with the
//! real rules of chess: kings never stand next to each other, a king may not move into check,
//! Black may take an unprotected queen (a draw), and a side to move with no legal move is
//! checkmated when in check, stalemated (a draw) otherwise.

use serde::Serialize;

use super::retro::{self, PositionSet, Value};

/// A square 0..64: file a..h = 0..7, rank 1..8 = 0..7, square = rank * 8 + file.
pub type Square = u8;

pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.trim().as_bytes();
    if b.len() != 2 {
        return None;
    }
    let file = b[0].to_ascii_lowercase().checked_sub(b'a')?;
    let rank = b[1].checked_sub(b'1')?;
    (file < 8 && rank < 8).then_some(rank * 8 + file)
}

pub fn square_name(s: Square) -> String {
    format!("{}{}", (b'a' + s % 8) as char, s / 8 + 1)
}

fn file(s: Square) -> i8 {
    (s % 8) as i8
}

fn rank(s: Square) -> i8 {
    (s / 8) as i8
}

fn adjacent(a: Square, b: Square) -> bool {
    a != b && (file(a) - file(b)).abs() <= 1 && (rank(a) - rank(b)).abs() <= 1
}

fn at(f: i8, r: i8) -> Option<Square> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as Square)
}

const QUEEN_DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Squares a queen on `q` attacks, stopped by the pieces on `blockers`.
fn queen_rays(q: Square, blockers: &[Square]) -> Vec<Square> {
    let mut out = Vec::new();
    for (df, dr) in QUEEN_DIRECTIONS {
        let (mut f, mut r) = (file(q) + df, rank(q) + dr);
        while let Some(s) = at(f, r) {
            out.push(s);
            if blockers.contains(&s) {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

/// King and queen against king. With `fixed` set, the white king stands on that square and
/// never moves (the untouchable king); otherwise it moves as in chess.
/// Positions: white king, queen, black king and the side to move; one extra position is the
/// draw after Black takes the queen.
pub struct Kqk {
    pub fixed: Option<Square>,
}

const WHITE: usize = 0;
const BLACK: usize = 1;

/// A decoded position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub white_king: Square,
    pub queen: Square,
    pub black_king: Square,
    pub white_to_move: bool,
}

impl Kqk {
    fn kings(&self) -> usize {
        if self.fixed.is_some() { 1 } else { 64 }
    }

    pub fn index(&self, p: Position) -> usize {
        let wk = if self.fixed.is_some() {
            0
        } else {
            p.white_king as usize
        };
        ((wk * 64 + p.queen as usize) * 64 + p.black_king as usize) * 2
            + if p.white_to_move { WHITE } else { BLACK }
    }

    pub fn decode(&self, i: usize) -> Position {
        let side = i % 2;
        let rest = i / 2;
        let bk = (rest % 64) as Square;
        let q = ((rest / 64) % 64) as Square;
        let wk = self.fixed.unwrap_or(((rest / 64) / 64) as Square);
        Position {
            white_king: wk,
            queen: q,
            black_king: bk,
            white_to_move: side == WHITE,
        }
    }

    /// The draw after the queen is taken.
    fn taken(&self) -> usize {
        self.kings() * 64 * 64 * 2
    }

    /// Whether the black king is attacked by the queen (the white king never gives check: the
    /// kings are never adjacent).
    fn in_check(p: &Position) -> bool {
        queen_rays(p.queen, &[p.white_king, p.black_king]).contains(&p.black_king)
    }

    /// Three distinct squares, kings apart, and the side not to move not in check.
    pub fn legal(&self, p: &Position) -> bool {
        p.queen != p.white_king
            && p.black_king != p.white_king
            && p.queen != p.black_king
            && !adjacent(p.black_king, p.white_king)
            && !(p.white_to_move && Self::in_check(p))
    }

    fn black_moves(&self, p: &Position) -> Vec<usize> {
        let mut out = Vec::new();
        for (df, dr) in QUEEN_DIRECTIONS {
            let Some(to) = at(file(p.black_king) + df, rank(p.black_king) + dr) else {
                continue;
            };
            if to == p.white_king || adjacent(to, p.white_king) {
                continue;
            }
            if to == p.queen {
                // Taking the queen: only when the white king does not guard it.
                if !adjacent(p.queen, p.white_king) {
                    out.push(self.taken());
                }
                continue;
            }
            // The king leaves its square, so the queen's rays pass through it.
            if queen_rays(p.queen, &[p.white_king, to]).contains(&to) {
                continue;
            }
            out.push(self.index(Position {
                black_king: to,
                white_to_move: true,
                ..*p
            }));
        }
        out
    }

    fn white_moves(&self, p: &Position) -> Vec<usize> {
        let mut out: Vec<usize> = queen_rays(p.queen, &[p.white_king, p.black_king])
            .into_iter()
            .filter(|&to| to != p.white_king && to != p.black_king)
            .map(|to| {
                self.index(Position {
                    queen: to,
                    white_to_move: false,
                    ..*p
                })
            })
            .collect();
        if self.fixed.is_none() {
            for (df, dr) in QUEEN_DIRECTIONS {
                let Some(to) = at(file(p.white_king) + df, rank(p.white_king) + dr) else {
                    continue;
                };
                if to != p.queen && to != p.black_king && !adjacent(to, p.black_king) {
                    out.push(self.index(Position {
                        white_king: to,
                        white_to_move: false,
                        ..*p
                    }));
                }
            }
        }
        out
    }
}

impl PositionSet for Kqk {
    fn count(&self) -> usize {
        self.taken() + 1
    }

    fn moves(&self, i: usize) -> Vec<usize> {
        if i == self.taken() {
            return Vec::new();
        }
        let p = self.decode(i);
        if !self.legal(&p) {
            return Vec::new();
        }
        if p.white_to_move {
            self.white_moves(&p)
        } else {
            self.black_moves(&p)
        }
    }

    fn terminal(&self, i: usize) -> Option<Value> {
        if i == self.taken() {
            return Some(Value::Draw);
        }
        let p = self.decode(i);
        if !self.legal(&p) {
            // Never reached by legal play; a draw keeps it out of the way.
            return Some(Value::Draw);
        }
        if !p.white_to_move && self.black_moves(&p).is_empty() {
            return Some(if Self::in_check(&p) {
                Value::Loss
            } else {
                Value::Draw
            });
        }
        None
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct KingReport {
    /// The fixed white king's square, or "free" when it moves.
    pub king: String,
    /// Legal positions with White to move.
    pub positions: usize,
    /// Of those, the ones White wins.
    pub won: usize,
    pub all_won: bool,
    /// The longest forced mate, in White's moves, over the won positions with White to move.
    pub longest_mate: u32,
    /// A position needing the longest mate: white king, queen and black king squares.
    pub longest_example: Option<(String, String, String)>,
}

/// Solves KQK, with the white king fixed on `fixed` or free.
pub fn solve_game(fixed: Option<Square>) -> (Kqk, retro::Solution, KingReport) {
    let game = Kqk { fixed };
    let solution = retro::solve(&game);
    let mut positions = 0;
    let mut won = 0;
    let mut longest = 0;
    let mut example = None;
    for i in (0..game.taken()).filter(|i| i % 2 == WHITE) {
        let p = game.decode(i);
        if !game.legal(&p) {
            continue;
        }
        positions += 1;
        let s = solution.values[i];
        if s.value == Value::Win {
            won += 1;
            // A win in p plies takes (p + 1) / 2 of White's moves.
            let moves = s.plies.div_ceil(2);
            if moves > longest {
                longest = moves;
                example = Some((
                    square_name(p.white_king),
                    square_name(p.queen),
                    square_name(p.black_king),
                ));
            }
        }
    }
    let report = KingReport {
        king: fixed.map_or("free".to_string(), square_name),
        positions,
        won,
        all_won: won == positions,
        longest_mate: longest,
        longest_example: example,
    };
    (game, solution, report)
}

/// The untouchable-king problem for the white king on `king`.
pub fn solve(king: Square) -> KingReport {
    solve_game(Some(king)).2
}

/// The value of one position (`None` when it is not legal).
pub fn value_of(fixed: Option<Square>, p: Position) -> Option<retro::Solved> {
    let (game, solution, _) = solve_game(fixed);
    game.legal(&p).then(|| solution.values[game.index(p)])
}
