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

/// `file:line:column: what` for an error whose text starts "line L, column C: what", else
/// `file: text`: the location said once, the way compilers and pattern files say it.
pub(crate) fn located(file: &str, position: Option<(usize, usize)>, text: &str) -> String {
    match position {
        Some((l, c)) => {
            let prefix = format!("line {l}, column {c}: ");
            format!(
                "{file}:{l}:{c}: {}",
                text.strip_prefix(&prefix).unwrap_or(text)
            )
        }
        None => format!("{file}: {text}"),
    }
}
