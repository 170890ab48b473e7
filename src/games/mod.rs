//! Games on the CPU (SPEC 2): Nim and the Sprague–Grundy function for impartial games; game
//! trees, backward induction, minimax with alpha–beta and retrograde analysis for games of
//! perfect information. One file per solver or game.

pub mod grundy;
pub mod kqk;
pub mod matches;
pub mod nim;
pub mod retro;
pub mod search;
pub mod tictactoe;
pub mod tree;
