//! Games on the CPU (SPEC 2): Nim and the Sprague–Grundy function for impartial games (octal
//! games, Wythoff's game, Green Hackenbush, games given by their move graph, their sums, and
//! misère play); game trees, backward induction, minimax with alpha–beta and retrograde analysis
//! for games of perfect information. One file per solver or game. Nothing here knows about the
//! automata.

pub mod graph;
pub mod grundy;
pub mod hackenbush;
pub mod kqk;
pub mod matches;
pub mod misere;
pub mod nim;
pub mod octal;
pub mod retro;
pub mod search;
pub mod sum;
pub mod take_set;
pub mod tictactoe;
pub mod tree;
pub mod wythoff;
