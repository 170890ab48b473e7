//! `lifelab wythoff`: Wythoff's game. A position's outcome and winning moves (exact for heaps up
//! to 2^63 - 1), the lost positions (⌊nφ⌋, ⌊nφ²⌋), and the Grundy values as a table and picture.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use serde::Serialize;

use crate::games::wythoff::{self, WythoffMove};

#[derive(clap::Args, Debug)]
pub struct WythoffArgs {
    /// A position: two heaps, like 3 5.
    #[arg(value_name = "HEAP", allow_negative_numbers = true, num_args = 0..=2)]
    pub heaps: Vec<String>,
    /// List this many lost positions (⌊nφ⌋, ⌊nφ²⌋), from n = --from.
    #[arg(long, value_name = "N")]
    pub p_positions: Option<u64>,
    /// The first n of the listing.
    #[arg(long, default_value_t = 1, requires = "p_positions")]
    pub from: u64,
    /// The Grundy values g(x, y) for x, y < Q, as a table (Q <= 16) and with --png a picture.
    #[arg(long, value_name = "Q")]
    pub table: Option<u64>,
    #[arg(long, value_name = "FILE.png", requires = "table")]
    pub png: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct PositionReport {
    heaps: [u64; 2],
    /// The Grundy value, for heaps below the table's limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    grundy: Option<u32>,
    first_player_wins: bool,
    winning_moves: Vec<WythoffMove>,
}

#[derive(Serialize)]
struct Listing {
    from: u64,
    p_positions: Vec<[u64; 2]>,
}

#[derive(Serialize)]
struct TableReport {
    size: u64,
    /// Row y, column x: g(x, y).
    values: Vec<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    png: Option<PathBuf>,
}

/// The largest listing.
const MAX_LISTING: u64 = 1_000_000;
/// The largest table shown as numbers.
const MAX_SHOWN: u64 = 16;

pub fn execute(args: WythoffArgs) -> anyhow::Result<ExitCode> {
    if let Some(count) = args.p_positions {
        if count > MAX_LISTING {
            bail!("--p-positions {count}: at most {MAX_LISTING}");
        }
        let last = args.from.saturating_add(count.saturating_sub(1));
        // Both heaps (b is about 2.618 n) must stay below 2^63.
        let max_n = wythoff::MAX_HEAP / 3;
        if last > max_n {
            bail!("--from {}: the listing goes up to n = {max_n}", args.from);
        }
        let list: Vec<[u64; 2]> = (args.from..args.from + count)
            .map(|n| {
                let (a, b) = wythoff::p_position(n);
                [a, b]
            })
            .collect();
        if args.json {
            super::print_json(&Listing {
                from: args.from,
                p_positions: list,
            })?;
        } else {
            outln!("lost positions (⌊nφ⌋, ⌊nφ²⌋), besides (0, 0):")?;
            for (i, [a, b]) in list.iter().enumerate() {
                outln!("  n = {:>3}: ({a}, {b})", args.from + i as u64)?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(q) = args.table {
        if q == 0 || q > wythoff::MAX_TABLE {
            bail!(
                "--table {q}: the size must be between 1 and {}",
                wythoff::MAX_TABLE
            );
        }
        if q > MAX_SHOWN && args.png.is_none() && !args.json {
            bail!(
                "--table {q}: a table larger than {MAX_SHOWN} x {MAX_SHOWN} is not printed; add \
                 --png FILE.png for the picture or --json for the values"
            );
        }
        let table = wythoff::grundy_table(q, q);
        if let Some(path) = &args.png {
            super::grundy::write_png(&table, 2 * q as u32, path)?;
        }
        if args.json {
            super::print_json(&TableReport {
                size: q,
                values: table,
                png: args.png,
            })?;
        } else {
            if q <= MAX_SHOWN {
                outln!("g(x, y) of Wythoff's game, x across, y down; 0 marks the lost positions:")?;
                for row in &table {
                    let s: Vec<String> = row.iter().map(|v| format!("{v:>2}")).collect();
                    outln!("  {}", s.join(" "))?;
                }
            }
            if let Some(p) = &args.png {
                outln!("wrote {}", p.display())?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let [x, y] = match args.heaps.as_slice() {
        [x, y] => {
            let h = super::nim::parse_heaps(&[x, y])?;
            [h[0], h[1]]
        }
        _ => bail!(
            "give a position of two heaps, like `lifelab wythoff 3 5`, or --p-positions 10, or --table 16"
        ),
    };
    let winning = wythoff::winning_moves(x, y)?;
    let grundy = (x.max(y) < wythoff::MAX_TABLE).then(|| {
        let t = wythoff::grundy_table(x + 1, y + 1);
        t[y as usize][x as usize]
    });
    let report = PositionReport {
        heaps: [x, y],
        grundy,
        first_player_wins: !winning.is_empty(),
        winning_moves: winning,
    };
    if args.json {
        super::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(g) = report.grundy {
        outln!("({x}, {y}): Grundy value {g}")?;
    }
    if report.first_player_wins {
        outln!("the player to move wins; every winning move (to a lost position):")?;
        for m in &report.winning_moves {
            outln!("  {}", m.describe())?;
        }
    } else {
        let n = x.abs_diff(y);
        outln!(
            "({x}, {y}) is lost for the player to move: it is (⌊nφ⌋, ⌊nφ²⌋) with n = {n}{}",
            if n == 0 { " (the empty position)" } else { "" }
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
