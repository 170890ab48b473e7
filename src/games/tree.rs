//! Explicit game trees: a small text notation, ranks, Zermelo's backward induction and the
//! winning (or drawing) strategy as arrows.
//!
//! Notation: a leaf is `+` (the first player wins), `-` (the second player wins) or `0` (a
//! draw); a vertex with choices is a parenthesised list of its subtrees, as in
//! `((+ -) (- -) (+ +))`; the Unicode minus − reads as `-`. The first player moves at the root,
//! and the turn alternates with each level.
//!
//! Two ranks are in use. The *rank* of a vertex here is the length of the longest play from it
//! (0 at a leaf), and the rank of the tree is the rank of its root. The seed's textbook numbers
//! ranks by level instead: the root is on level 1, its children on level 2, and so on, so the
//! odd levels are the first player's moves; [`Tree::level`] gives that number.
//!
//! Trees live in an arena (children after their parent), so that every pass is a loop, and
//! trees nested 10^5 deep neither overflow the stack nor the drop.

use serde::Serialize;

/// A result, from the first player's point of view, ordered `-` < `0` < `+`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Outcome {
    #[serde(rename = "-")]
    SecondWins,
    #[serde(rename = "0")]
    Draw,
    #[serde(rename = "+")]
    FirstWins,
}

impl Outcome {
    pub fn symbol(self) -> char {
        match self {
            Outcome::FirstWins => '+',
            Outcome::SecondWins => '-',
            Outcome::Draw => '0',
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// `line` is 1 for one-line text, where the message names only the column.
    #[error("{}column {column}: {message}", if *line > 1 { format!("line {line}, ") } else { String::new() })]
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("the tree has more than {limit} vertices")]
    TooLarge { limit: usize },
}

fn syntax((line, column): (usize, usize), message: impl Into<String>) -> TreeError {
    TreeError::Syntax {
        line,
        column,
        message: message.into(),
    }
}

#[derive(Clone, Debug)]
pub struct Vertex {
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// Leaves only.
    pub leaf: Option<Outcome>,
    /// The move that leads here (trees built from rules name their moves).
    pub label: String,
    pub depth: u32,
}

/// A game tree, vertex 0 the root.
#[derive(Clone, Debug)]
pub struct Tree {
    pub vertices: Vec<Vertex>,
}

/// Backward induction's result.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// Per vertex: its value under best play.
    pub labels: Vec<Outcome>,
    /// Per vertex: the longest play from it.
    pub ranks: Vec<u32>,
    /// The strategy's arrows (from, to): the moves of the player who secures the root's value,
    /// at every vertex of theirs the strategy can reach, answering every move of the opponent.
    pub strategy: Vec<(usize, usize)>,
    /// Every player's strategy that secures the root's value: the winner's alone, or for a draw
    /// one for each player, each guaranteeing at least a draw.
    pub strategies: Vec<Strategy>,
}

/// A strategy: the moves of `first_player` (or the second) at every vertex of theirs it
/// reaches, answering every move of the opponent, that keep the root's value `secures`.
#[derive(Clone, Debug, Serialize)]
pub struct Strategy {
    pub first_player: bool,
    pub secures: Outcome,
    pub arrows: Vec<(usize, usize)>,
}

impl Tree {
    /// Parses the notation. Errors name the line and column (1-based). Iterative, so a tree
    /// may nest as deep as memory allows.
    pub fn parse(text: &str) -> Result<Tree, TreeError> {
        let mut vertices: Vec<Vertex> = Vec::new();
        // (vertex, line and column of its '(')
        let mut open: Vec<(usize, (usize, usize))> = Vec::new();
        let mut done = false;
        let (mut line, mut line_start) = (1, 0);
        for (i, c) in text.chars().enumerate() {
            let at = (line, i + 1 - line_start);
            if c == '\n' {
                line += 1;
                line_start = i + 1;
            }
            if c.is_whitespace() || c == ',' {
                continue;
            }
            if done {
                return Err(syntax(at, format!("'{c}' after the end of the tree")));
            }
            let parent = open.last().map(|&(v, _)| v);
            let depth = open.len() as u32;
            // Word processors turn '-' into the Unicode minus.
            let c = if c == '\u{2212}' { '-' } else { c };
            match c {
                '(' | '[' => {
                    let v = push(&mut vertices, parent, None, depth);
                    open.push((v, at));
                }
                ')' | ']' => {
                    let Some((v, _)) = open.pop() else {
                        return Err(syntax(at, format!("'{c}' closes nothing")));
                    };
                    if vertices[v].children.is_empty() {
                        return Err(syntax(
                            at,
                            "an empty list: a vertex needs at least one choice (or write a leaf +, - or 0)",
                        ));
                    }
                    done = open.is_empty();
                }
                '+' | '-' | '0' => {
                    let outcome = match c {
                        '+' => Outcome::FirstWins,
                        '-' => Outcome::SecondWins,
                        _ => Outcome::Draw,
                    };
                    push(&mut vertices, parent, Some(outcome), depth);
                    done = open.is_empty();
                }
                other => {
                    return Err(syntax(
                        at,
                        format!(
                            "unexpected '{other}' (a tree holds '(', ')', and leaves +, - and 0)"
                        ),
                    ));
                }
            }
        }
        if let Some(&(_, at)) = open.last() {
            return Err(syntax(at, "this '(' is never closed"));
        }
        if vertices.is_empty() {
            return Err(syntax((1, 1), "empty: write a tree such as ((+ -) (- -))"));
        }
        Ok(Tree { vertices })
    }

    /// Whether the first player moves at a vertex.
    pub fn first_to_move(&self, v: usize) -> bool {
        self.vertices[v].depth.is_multiple_of(2)
    }

    /// Ranks, labels and the strategy.
    pub fn analyse(&self) -> Analysis {
        let n = self.vertices.len();
        let mut labels = vec![Outcome::Draw; n];
        let mut ranks = vec![0u32; n];
        // Children always come after their parent, so a reverse sweep sees children first.
        for v in (0..n).rev() {
            let vx = &self.vertices[v];
            if let Some(o) = vx.leaf {
                labels[v] = o;
                continue;
            }
            let values = vx.children.iter().map(|&c| labels[c]);
            labels[v] = if self.first_to_move(v) {
                values.max().expect("a vertex has children")
            } else {
                values.min().expect("a vertex has children")
            };
            ranks[v] = 1 + vx.children.iter().map(|&c| ranks[c]).max().unwrap_or(0);
        }
        // The player who secures the root's value: the first player unless the second wins;
        // in a draw each player has a strategy that keeps it.
        let players: &[bool] = match labels[0] {
            Outcome::FirstWins => &[true],
            Outcome::SecondWins => &[false],
            Outcome::Draw => &[true, false],
        };
        let strategies: Vec<Strategy> = players
            .iter()
            .map(|&first| Strategy {
                first_player: first,
                secures: labels[0],
                arrows: self.strategy_for(first, &labels),
            })
            .collect();
        Analysis {
            strategy: strategies[0].arrows.clone(),
            labels,
            ranks,
            strategies,
        }
    }

    /// The arrows of `first`'s (or the second player's) strategy: at each of their vertices one
    /// move that keeps the vertex's value, which never gets worse for them than the root's.
    fn strategy_for(&self, first: bool, labels: &[Outcome]) -> Vec<(usize, usize)> {
        let mut strategy = Vec::new();
        let mut stack = vec![0usize];
        while let Some(v) = stack.pop() {
            let vx = &self.vertices[v];
            if vx.leaf.is_some() {
                continue;
            }
            if self.first_to_move(v) == first {
                let best = *vx
                    .children
                    .iter()
                    .find(|&&c| labels[c] == labels[v])
                    .expect("the value comes from a child");
                strategy.push((v, best));
                stack.push(best);
            } else {
                // Every answer of the opponent.
                stack.extend(vx.children.iter().copied());
            }
        }
        strategy.sort_unstable();
        strategy
    }

    /// The seed's rank by level: the root is 1, and odd levels are the first player's moves.
    pub fn level(&self, v: usize) -> u32 {
        self.vertices[v].depth + 1
    }

    /// The path of child indices from the root to `v`, as `0.2.1` (the root is `root`).
    pub fn path(&self, v: usize) -> String {
        let mut steps = Vec::new();
        let mut at = v;
        while let Some(p) = self.vertices[at].parent {
            let i = self.vertices[p]
                .children
                .iter()
                .position(|&c| c == at)
                .expect("child");
            steps.push(i.to_string());
            at = p;
        }
        if steps.is_empty() {
            "root".to_string()
        } else {
            steps.reverse();
            steps.join(".")
        }
    }

    /// The tree in the notation again.
    pub fn to_notation(&self) -> String {
        let mut out = String::new();
        // (vertex, whether its closing parenthesis is due)
        let mut stack = vec![(0usize, false)];
        while let Some((v, close)) = stack.pop() {
            if close {
                out.push(')');
                continue;
            }
            if !out.is_empty() && !out.ends_with('(') {
                out.push(' ');
            }
            match self.vertices[v].leaf {
                Some(o) => out.push(o.symbol()),
                None => {
                    out.push('(');
                    stack.push((v, true));
                    for &c in self.vertices[v].children.iter().rev() {
                        stack.push((c, false));
                    }
                }
            }
        }
        out
    }
}

fn push(
    vertices: &mut Vec<Vertex>,
    parent: Option<usize>,
    leaf: Option<Outcome>,
    depth: u32,
) -> usize {
    let v = vertices.len();
    vertices.push(Vertex {
        parent,
        children: Vec::new(),
        leaf,
        label: String::new(),
        depth,
    });
    if let Some(p) = parent {
        vertices[p].children.push(v);
    }
    v
}

/// A game given by its rules, for building its full tree.
pub trait TreeGame {
    type Position: Clone;
    /// The moves from `p`, each with a name and the position it leads to.
    fn moves(&self, p: &Self::Position) -> Vec<(String, Self::Position)>;
    /// The result when the game is over at `p` (`first_to_move` says whose turn it would be).
    fn result(&self, p: &Self::Position, first_to_move: bool) -> Option<Outcome>;
}

/// The full tree of a game from `start`, breadth first so that children follow parents;
/// refuses to grow past `limit` vertices.
pub fn build<G: TreeGame>(game: &G, start: G::Position, limit: usize) -> Result<Tree, TreeError> {
    let mut vertices: Vec<Vertex> = Vec::new();
    let mut positions: Vec<G::Position> = Vec::new();
    push(&mut vertices, None, None, 0);
    positions.push(start);
    let mut at = 0;
    while at < vertices.len() {
        let first = vertices[at].depth.is_multiple_of(2);
        match game.result(&positions[at], first) {
            Some(o) => vertices[at].leaf = Some(o),
            None => {
                let moves = game.moves(&positions[at]);
                if moves.is_empty() {
                    // A game that stops without saying who won: a draw.
                    vertices[at].leaf = Some(Outcome::Draw);
                }
                if vertices.len() + moves.len() > limit {
                    return Err(TreeError::TooLarge { limit });
                }
                let depth = vertices[at].depth + 1;
                for (label, p) in moves {
                    let v = push(&mut vertices, Some(at), None, depth);
                    vertices[v].label = label;
                    positions.push(p);
                }
            }
        }
        at += 1;
    }
    Ok(Tree { vertices })
}
