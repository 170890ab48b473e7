//! Minimax with a depth limit and a static evaluation, and the same search with alpha–beta
//! pruning. Both count the positions they visit; with the same depth, evaluation and move
//! order they return the same value, and alpha–beta visits no more positions.

/// A two-player game for search. Values are from the maximising player's point of view.
pub trait SearchGame {
    type Position: Clone;
    fn moves(&self, p: &Self::Position) -> Vec<Self::Position>;
    /// The value of a finished game, or `None` while it goes on.
    fn terminal(&self, p: &Self::Position) -> Option<i32>;
    /// The static evaluation at the search horizon.
    fn evaluate(&self, p: &Self::Position) -> i32;
    /// Whether the maximising player moves at `p`.
    fn maximising(&self, p: &Self::Position) -> bool;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SearchResult {
    pub value: i32,
    /// Positions visited, the root included.
    pub nodes: u64,
}

pub fn minimax<G: SearchGame>(game: &G, p: &G::Position, depth: u32) -> SearchResult {
    let mut nodes = 0;
    let value = minimax_rec(game, p, depth, &mut nodes);
    SearchResult { value, nodes }
}

fn minimax_rec<G: SearchGame>(game: &G, p: &G::Position, depth: u32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if let Some(v) = game.terminal(p) {
        return v;
    }
    if depth == 0 {
        return game.evaluate(p);
    }
    let values = game
        .moves(p)
        .into_iter()
        .map(|q| minimax_rec(game, &q, depth - 1, nodes));
    if game.maximising(p) {
        values.max().unwrap_or_else(|| game.evaluate(p))
    } else {
        values.min().unwrap_or_else(|| game.evaluate(p))
    }
}

pub fn alphabeta<G: SearchGame>(game: &G, p: &G::Position, depth: u32) -> SearchResult {
    let mut nodes = 0;
    let value = alphabeta_rec(game, p, depth, i32::MIN, i32::MAX, &mut nodes);
    SearchResult { value, nodes }
}

fn alphabeta_rec<G: SearchGame>(
    game: &G,
    p: &G::Position,
    depth: u32,
    mut alpha: i32,
    mut beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(v) = game.terminal(p) {
        return v;
    }
    if depth == 0 {
        return game.evaluate(p);
    }
    let moves = game.moves(p);
    if moves.is_empty() {
        return game.evaluate(p);
    }
    if game.maximising(p) {
        let mut best = i32::MIN;
        for q in moves {
            best = best.max(alphabeta_rec(game, &q, depth - 1, alpha, beta, nodes));
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        best
    } else {
        let mut best = i32::MAX;
        for q in moves {
            best = best.min(alphabeta_rec(game, &q, depth - 1, alpha, beta, nodes));
            beta = beta.min(best);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// An explicit tree of integer leaves, for tests and the tree tab: vertex 0 is the root, the
/// maximising player moves at even depths.
#[derive(Clone, Debug)]
pub struct IntTree {
    pub children: Vec<Vec<usize>>,
    pub leaf: Vec<i32>,
    pub depth: Vec<u32>,
}

impl SearchGame for IntTree {
    type Position = usize;
    fn moves(&self, &p: &usize) -> Vec<usize> {
        self.children[p].clone()
    }
    fn terminal(&self, &p: &usize) -> Option<i32> {
        self.children[p].is_empty().then_some(self.leaf[p])
    }
    fn evaluate(&self, &p: &usize) -> i32 {
        self.leaf[p]
    }
    fn maximising(&self, &p: &usize) -> bool {
        self.depth[p].is_multiple_of(2)
    }
}
