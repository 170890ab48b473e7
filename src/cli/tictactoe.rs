//! `lifelab tictactoe`: the value of a position and of each move, by retrograde analysis or by
//! depth-limited minimax with the textbook's static evaluation F = M − N.

use std::process::ExitCode;

use crate::games::tictactoe::{self, Eval};

#[derive(clap::Args, Debug)]
pub struct TicTacToeArgs {
    /// The board, row by row: X, O and . (default: empty).
    #[arg(long, default_value = ".........")]
    pub position: String,
    /// exact: the true value; static: F = M − N at the horizon.
    #[arg(long, value_enum, default_value = "exact")]
    pub eval: super::choices::EvalArg,
    /// Search depth in plies (default: to the end; with --eval static, 2).
    #[arg(long)]
    pub depth: Option<u32>,
    #[arg(long)]
    pub json: bool,
}

pub fn execute(args: TicTacToeArgs) -> anyhow::Result<ExitCode> {
    let board = tictactoe::parse_position(&args.position)
        .map_err(|e| anyhow::anyhow!("--position {}: {e}", args.position))?;
    let depth = match (Eval::from(args.eval), args.depth) {
        (Eval::Static, None) => Some(2),
        (_, d) => d,
    };
    let a = tictactoe::analyse(&board, Eval::from(args.eval), depth);
    if args.json {
        let (reachable, classes) = tictactoe::counts(&board);
        let mut v = serde_json::to_value(&a)?;
        v["reachable_positions"] = reachable.into();
        v["symmetry_classes"] = classes.into();
        super::print_json(&v)?;
        return Ok(ExitCode::SUCCESS);
    }
    // The board, and the squares' numbers beside it (moves are named by them).
    for row in 0..3 {
        let cells: String = a.position[row * 3..row * 3 + 3].chars().collect();
        outln!("  {cells}    {} {} {}", row * 3, row * 3 + 1, row * 3 + 2)?;
    }
    if a.over {
        match a.winner {
            Some(w) => outln!("the game is over: {w} has three in a row and won")?,
            None => outln!("the game is over: the board is full, a draw")?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    let method = match (Eval::from(args.eval), depth) {
        (Eval::Exact, None) => "retrograde analysis".to_string(),
        (Eval::Exact, Some(d)) => format!("minimax to depth {d}, exact values"),
        (Eval::Static, Some(d)) => format!("minimax to depth {d}, F = M - N at the horizon"),
        (Eval::Static, None) => unreachable!("static has a depth"),
    };
    outln!(
        "{} to move; value {} for X ({method}, {} positions)",
        a.to_move,
        a.value,
        a.positions
    )?;
    for m in &a.moves {
        outln!(
            "  square {} (row {}, column {}): {}",
            m.square,
            m.square / 3 + 1,
            m.square % 3 + 1,
            m.value
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
