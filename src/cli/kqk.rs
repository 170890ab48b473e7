//! `lifelab kqk-untouchable`: king and queen against king, the white king fixed on its square.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::anyhow;

use crate::games::kqk;

#[derive(clap::Args, Debug)]
pub struct KqkArgs {
    /// The white king's square.
    #[arg(long, default_value = "c3")]
    pub king: String,
    /// Solve for the white king on every square.
    #[arg(long)]
    pub all: bool,
    /// Solve ordinary KQK instead, with a white king that moves (the classic: mate in 10).
    #[arg(long, conflicts_with_all = ["all", "king"])]
    pub free_king: bool,
    #[arg(long)]
    pub json: bool,
}

pub fn execute(args: KqkArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    if args.all {
        let reports: Vec<kqk::KingReport> = (0..64).map(kqk::solve).collect();
        let seconds = started.elapsed().as_secs_f64();
        if args.json {
            super::print_json(&serde_json::json!({ "squares": reports, "seconds": seconds }))?;
        } else {
            outln!("white king fixed on each square: all won? longest mate (White's moves)")?;
            for rank in (0..8).rev() {
                let row: Vec<String> = (0..8)
                    .map(|file| {
                        let r = &reports[rank * 8 + file];
                        if r.all_won {
                            format!("{:>3}", r.longest_mate)
                        } else {
                            format!("{:>3}", "-")
                        }
                    })
                    .collect();
                outln!("  {} {}", rank + 1, row.join(" "))?;
            }
            outln!("     a   b   c   d   e   f   g   h")?;
            outln!("('-': some positions are draws)  {seconds:.2} s")?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let r = if args.free_king {
        kqk::solve_game(None).2
    } else {
        let king = kqk::parse_square(&args.king)
            .ok_or_else(|| anyhow!("--king {}: not a square (a1 to h8)", args.king))?;
        kqk::solve(king)
    };
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let mut v = serde_json::to_value(&r)?;
        v["seconds"] = seconds.into();
        super::print_json(&v)?;
    } else {
        outln!(
            "white king {}: {} legal positions with White to move, {} won{}",
            r.king,
            r.positions,
            r.won,
            if r.all_won { " (all of them)" } else { "" }
        )?;
        if let Some((wk, q, bk)) = &r.longest_example {
            outln!(
                "longest forced mate: {} moves (for example white king {wk}, queen {q}, black king {bk}); {seconds:.3} s",
                r.longest_mate
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
