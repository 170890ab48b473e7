//! `lifelab nim`: the nim-sum, the outcome and every winning move of a Nim position; or, with
//! `--lost`, the listing of lost positions.

use std::process::ExitCode;

use anyhow::bail;

use serde::Serialize;

use crate::games::nim;

#[derive(clap::Args, Debug)]
pub struct NimArgs {
    /// The heaps, like 3 5 7.
    #[arg(value_name = "HEAP", allow_negative_numbers = true)]
    pub heaps: Vec<String>,

    /// List every lost position with this many heaps (with --max).
    #[arg(long, value_name = "HEAPS")]
    pub lost: Option<usize>,

    /// The largest heap in the listing.
    #[arg(long, default_value_t = 10)]
    pub max: u64,

    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub use crate::games::nim::parse_heaps;

#[derive(Serialize)]
struct Position {
    heaps: Vec<u64>,
    nim_sum: u64,
    first_player_wins: bool,
    winning_moves: Vec<nim::NimMove>,
}

#[derive(Serialize)]
struct Listing {
    heaps: usize,
    max: u64,
    convention: &'static str,
    count: usize,
    positions: Vec<Vec<u64>>,
}

const CONVENTION: &str = "heaps are unordered: each position is listed once, non-decreasing, \
     and the list is sorted; empty heaps count";

pub fn execute(args: NimArgs) -> anyhow::Result<ExitCode> {
    if let Some(n) = args.lost {
        if !args.heaps.is_empty() {
            bail!("--lost lists positions; give either heaps or --lost, not both");
        }
        let positions = nim::lost_positions(n, args.max)?;
        if args.json {
            super::print_json(&Listing {
                heaps: n,
                max: args.max,
                convention: CONVENTION,
                count: positions.len(),
                positions,
            })?;
        } else {
            println!(
                "{} lost positions of {n}-heap Nim with heaps up to {} ({CONVENTION}):",
                positions.len(),
                args.max
            );
            for p in &positions {
                let s: Vec<String> = p.iter().map(u64::to_string).collect();
                println!("  ({})", s.join(", "));
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.heaps.is_empty() {
        bail!("give the heaps, like `lifelab nim 3 5 7`, or --lost 3 --max 10 for a listing");
    }
    let heaps = parse_heaps(&args.heaps)?;
    let report = Position {
        nim_sum: nim::nim_sum(&heaps),
        first_player_wins: nim::first_player_wins(&heaps),
        winning_moves: nim::winning_moves(&heaps),
        heaps,
    };
    if args.json {
        super::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    // The textbook's column addition in binary.
    let bits = (64
        - report
            .heaps
            .iter()
            .max()
            .copied()
            .unwrap_or(0)
            .leading_zeros())
    .max(1) as usize;
    let width = report
        .heaps
        .iter()
        .map(|h| h.to_string().len())
        .max()
        .unwrap_or(1);
    for h in &report.heaps {
        println!("  {h:>width$} = {h:0bits$b}");
    }
    println!("  {:>width$}   {}", "", "-".repeat(bits));
    println!(
        "  {:>width$} = {:0bits$b}   nim-sum {}",
        "XOR", report.nim_sum, report.nim_sum
    );
    if report.first_player_wins {
        println!("the player to move wins; every winning move:");
        for m in &report.winning_moves {
            println!(
                "  take {} from heap {} (counted from 0), leaving {}",
                m.take, m.heap, m.leaves
            );
        }
    } else {
        println!("the nim-sum is 0: the player to move loses against best play");
    }
    Ok(ExitCode::SUCCESS)
}
