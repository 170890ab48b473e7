//! `lifelab nim`: the nim-sum, the outcome and every winning move of a Nim position, in normal or
//! misère play; or, with `--lost`, the listing of lost positions.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use serde::Serialize;

use crate::games::{misere, nim};

#[derive(clap::Args, Debug)]
pub struct NimArgs {
    /// The heaps, like 3 5 7.
    #[arg(value_name = "HEAP", allow_negative_numbers = true)]
    pub heaps: Vec<String>,

    /// Read the heaps from this file (`-`: standard input), separated by spaces or new lines:
    /// for more heaps than a command line holds. Errors name the line and column.
    #[arg(long, value_name = "FILE", conflicts_with = "heaps")]
    pub file: Option<PathBuf>,

    /// Misère play: whoever takes the last stone loses (Bouton's misère rule).
    #[arg(long)]
    pub misere: bool,

    /// List every lost position with this many heaps (with --max).
    #[arg(long, value_name = "HEAPS")]
    pub lost: Option<usize>,

    /// The largest heap in the listing.
    #[arg(long, default_value_t = 10)]
    pub max: u64,

    /// In the listing, leave out positions with an empty heap (each heap from 1 to --max).
    #[arg(long, requires = "lost")]
    pub no_empty: bool,

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
struct MiserePosition {
    heaps: Vec<u64>,
    misere: bool,
    nim_sum: u64,
    first_player_wins: bool,
    winning_moves: Vec<misere::MisereMove>,
    rule: &'static str,
}

#[derive(Serialize)]
struct Listing {
    heaps: usize,
    max: u64,
    convention: String,
    count: usize,
    positions: Vec<Vec<u64>>,
}

const CONVENTION: &str = "heaps are unordered: each position is listed once, non-decreasing, \
     and the list is sorted";

const MISERE_RULE: &str = "Bouton's misère rule: play as in normal Nim, except that a move \
     leaving only heaps of 0 and 1 must leave an odd number of 1s";

/// The most heaps the text output shows in binary, one per line.
const MAX_COLUMN_HEAPS: usize = 64;

pub fn execute(args: NimArgs) -> anyhow::Result<ExitCode> {
    if let Some(n) = args.lost {
        if !args.heaps.is_empty() || args.file.is_some() {
            bail!("--lost lists positions; give either heaps or --lost, not both");
        }
        let min = u64::from(args.no_empty);
        let positions = nim::lost_positions_from(n, min, args.max)?;
        let convention = format!(
            "{CONVENTION}; {}",
            if args.no_empty {
                "every heap holds at least 1"
            } else {
                "empty heaps count"
            }
        );
        if args.json {
            super::print_json(&Listing {
                heaps: n,
                max: args.max,
                convention,
                count: positions.len(),
                positions,
            })?;
        } else {
            // Buffered: a listing may have millions of lines.
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            writeln!(
                out,
                "{} lost positions of {n}-heap Nim with heaps up to {} ({convention}):",
                positions.len(),
                args.max
            )?;
            for p in &positions {
                let s: Vec<String> = p.iter().map(u64::to_string).collect();
                writeln!(out, "  ({})", s.join(", "))?;
            }
            out.flush()?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let heaps = match &args.file {
        Some(path) => {
            let text = super::read_text(path)?;
            nim::parse_heaps_text(&text).map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))?
        }
        None if args.heaps.is_empty() => bail!(
            "give the heaps, like `lifelab nim 3 5 7`, --file HEAPS.txt, or --lost 3 --max 10 for a listing"
        ),
        None => parse_heaps(&args.heaps)?,
    };
    if args.misere {
        return misere_position(heaps, args.json);
    }
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
    column_sum(&report.heaps, report.nim_sum)?;
    if report.first_player_wins {
        outln!("the player to move wins; every winning move (heaps counted from 1):")?;
        for m in &report.winning_moves {
            outln!(
                "  take {} from heap {} (of {}), leaving {}",
                m.take,
                m.heap + 1,
                report.heaps[m.heap],
                m.leaves
            )?;
        }
    } else {
        outln!("the nim-sum is 0: the player to move loses against best play")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The textbook's column addition in binary.
fn column_sum(heaps: &[u64], nim_sum: u64) -> anyhow::Result<()> {
    if heaps.len() > MAX_COLUMN_HEAPS {
        outln!(
            "{} heaps; nim-sum {nim_sum} = {nim_sum:b} in binary",
            heaps.len()
        )?;
        return Ok(());
    }
    let bits = (64 - heaps.iter().max().copied().unwrap_or(0).leading_zeros()).max(1) as usize;
    let width = heaps.iter().map(|h| h.to_string().len()).max().unwrap_or(1);
    for h in heaps {
        outln!("  {h:>width$} = {h:0bits$b}")?;
    }
    outln!("  {:>width$}   {}", "", "-".repeat(bits))?;
    outln!(
        "  {:>width$} = {nim_sum:0bits$b}   nim-sum {nim_sum}",
        "XOR"
    )?;
    Ok(())
}

fn misere_position(heaps: Vec<u64>, json: bool) -> anyhow::Result<ExitCode> {
    let report = MiserePosition {
        misere: true,
        nim_sum: nim::nim_sum(&heaps),
        first_player_wins: misere::nim_first_player_wins(&heaps),
        winning_moves: misere::nim_winning_moves(&heaps),
        rule: MISERE_RULE,
        heaps,
    };
    if json {
        super::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    column_sum(&report.heaps, report.nim_sum)?;
    outln!("misère play (whoever takes the last stone loses); {MISERE_RULE}")?;
    if report.heaps.iter().all(|&h| h == 0) {
        outln!("no stones left: the opponent took the last one and lost")?;
    } else if report.first_player_wins {
        outln!("the player to move wins; every winning move (heaps counted from 1):")?;
        for w in &report.winning_moves {
            outln!(
                "  take {} from heap {} (of {}), leaving {}: {}",
                w.m.take,
                w.m.heap + 1,
                report.heaps[w.m.heap],
                w.m.leaves,
                w.reason
            )?;
        }
    } else {
        let why = if report.heaps.iter().any(|&h| h >= 2) {
            "the nim-sum is 0 with a heap above 1"
        } else {
            "only heaps of 1 are left, an odd number of them"
        };
        outln!("{why}: the player to move loses against best play")?;
    }
    Ok(ExitCode::SUCCESS)
}
