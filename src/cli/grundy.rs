//! `lifelab grundy`: Sprague–Grundy values of subtraction games and their sums, the game of N,
//! and the x XOR y table as a picture.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use serde::Serialize;

use crate::games::grundy::{self, SubtractionGame, TakeSet};

#[derive(clap::Args, Debug)]
pub struct GrundyArgs {
    #[command(subcommand)]
    pub command: GrundyCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum GrundyCommand {
    /// One heap; a move takes an amount from the take-set: the g sequence and its period.
    Subtract {
        /// The take-set: 1..3 (inclusive), 3 (same as 1..3) or a list 1,3,4.
        #[arg(long)]
        take: String,
        /// Show g(0) to g(UPTO).
        #[arg(long, default_value_t = 20)]
        upto: u64,
        #[arg(long)]
        json: bool,
    },
    /// Several heaps of a subtraction game: g of the sum and every winning move.
    Heaps {
        #[arg(value_name = "HEAP", allow_negative_numbers = true, required = true)]
        heaps: Vec<String>,
        #[arg(long)]
        take: String,
        #[arg(long)]
        json: bool,
    },
    /// "The game of N" with five dominoes worth 1..5: who wins, and the winning first moves.
    Dominoes {
        #[arg(long)]
        target: u64,
        #[arg(long)]
        json: bool,
    },
    /// The table v(m, n) = m XOR n of the one-sided rook (two-heap Nim), as a picture.
    Table {
        /// q: the table is q x q (a power of two shows the fractal best).
        #[arg(long, default_value_t = 64)]
        size: u64,
        /// Write the coloured table here.
        #[arg(long, value_name = "FILE.png")]
        png: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
}

impl GrundyArgs {
    pub fn json(&self) -> bool {
        match &self.command {
            GrundyCommand::Subtract { json, .. }
            | GrundyCommand::Heaps { json, .. }
            | GrundyCommand::Dominoes { json, .. }
            | GrundyCommand::Table { json, .. } => *json,
        }
    }
}

/// The largest sequence or table lifelab computes.
const MAX_UPTO: u64 = 100_000_000;
const MAX_TABLE: u64 = 4096;

pub fn parse_take(text: &str) -> anyhow::Result<TakeSet> {
    TakeSet::parse(text).with_context(|| format!("--take {text}"))
}

#[derive(Serialize)]
struct SubtractReport {
    take: String,
    values: Vec<u32>,
    period: Option<grundy::Period>,
}

#[derive(Serialize)]
struct HeapsReport {
    take: String,
    heaps: Vec<u64>,
    grundy_values: Vec<u32>,
    sum: u32,
    first_player_wins: bool,
    /// The move Bouton's rule picks: a component whose g has the sum's highest bit, lowered
    /// to g XOR sum.
    winning_move: Option<grundy::SumMove>,
    /// Every winning move (some raise a component's g instead).
    winning_moves: Vec<grundy::SumMove>,
}

#[derive(Serialize)]
struct TableReport {
    size: u64,
    /// Every entry checked: the engine's value of the one-sided rook equals m XOR n.
    equals_xor: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    png: Option<PathBuf>,
}

pub fn execute(args: GrundyArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        GrundyCommand::Subtract { take, upto, json } => {
            let take = parse_take(&take)?;
            if upto > MAX_UPTO {
                bail!("--upto {upto}: at most {MAX_UPTO} values");
            }
            let game = SubtractionGame { take: take.clone() };
            let values = game.values(upto);
            // Enough values to see the period of any small take-set.
            let search = upto.clamp(4096, MAX_UPTO);
            let period = game.period(search);
            if json {
                super::print_json(&SubtractReport {
                    take: take.to_string(),
                    values,
                    period,
                })?;
            } else {
                println!("subtraction game, take {take}: g(0..={upto})");
                let s: Vec<String> = values.iter().map(u32::to_string).collect();
                println!("  {}", s.join(" "));
                match period {
                    Some(p) => println!(
                        "periodic from n = {} with period {} (certified: the last {} values repeat)",
                        p.preperiod,
                        p.period,
                        take.max()
                    ),
                    None => println!("no period within the first {search} values"),
                }
            }
        }
        GrundyCommand::Heaps { heaps, take, json } => {
            let heaps = super::nim::parse_heaps(&heaps)?;
            let take = parse_take(&take)?;
            let top = heaps.iter().copied().max().unwrap_or(0);
            if top > MAX_UPTO {
                bail!("a heap of {top}: at most {MAX_UPTO} stones for a take-set game");
            }
            let game = SubtractionGame { take: take.clone() };
            let g = game.values(top);
            let (sum, moves) = grundy::heaps_winning_moves(&game, &heaps);
            let report = HeapsReport {
                take: take.to_string(),
                grundy_values: heaps.iter().map(|&h| g[h as usize]).collect(),
                heaps,
                sum,
                first_player_wins: sum != 0,
                winning_move: moves
                    .iter()
                    .find(|m| m.grundy_after < m.grundy_before)
                    .cloned(),
                winning_moves: moves,
            };
            if json {
                super::print_json(&report)?;
            } else {
                for (h, v) in report.heaps.iter().zip(&report.grundy_values) {
                    println!("  heap {h:>4}: g = {v}");
                }
                println!("  g of the sum = XOR = {}", report.sum);
                if report.first_player_wins {
                    for m in &report.winning_moves {
                        let textbook = report.winning_move.as_ref() == Some(m);
                        println!(
                            "  winning move: take {} from the heap of {} (heap {} counted from 0): g {} -> {}{}",
                            m.from - m.to,
                            m.from,
                            m.component,
                            m.grundy_before,
                            m.grundy_after,
                            if textbook { "   <- Bouton's rule" } else { "" }
                        );
                    }
                } else {
                    println!("  the sum is 0: the player to move loses against best play");
                }
            }
        }
        GrundyCommand::Dominoes { target, json } => {
            if target > MAX_UPTO {
                bail!("--target {target}: at most {MAX_UPTO}");
            }
            let r = grundy::dominoes(target);
            if json {
                super::print_json(&r)?;
            } else if r.first_player_wins {
                let s: Vec<String> = r.winning_first_moves.iter().map(u8::to_string).collect();
                println!(
                    "N = {target}: the first player wins by putting the coin on {}",
                    s.join(" or ")
                );
            } else {
                println!("N = {target}: the second player wins: every first move loses");
            }
        }
        GrundyCommand::Table { size, png, json } => {
            if size == 0 || size > MAX_TABLE {
                bail!("--size {size}: the table size must be between 1 and {MAX_TABLE}");
            }
            let table = grundy::rook_table(size);
            let equals_xor = table
                .iter()
                .enumerate()
                .all(|(m, row)| row.iter().enumerate().all(|(n, &v)| v as usize == m ^ n));
            if let Some(path) = &png {
                write_png(&table, path)?;
            }
            if json {
                super::print_json(&TableReport {
                    size,
                    equals_xor,
                    png,
                })?;
            } else {
                if size <= 16 {
                    for row in &table {
                        let s: Vec<String> = row.iter().map(|v| format!("{v:>2}")).collect();
                        println!("  {}", s.join(" "));
                    }
                }
                println!(
                    "v(m, n) of the one-sided rook {} m XOR n for all m, n < {size}",
                    if equals_xor { "equals" } else { "DIFFERS FROM" }
                );
                if let Some(p) = &png {
                    println!("wrote {}", p.display());
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn write_png(table: &[Vec<u32>], path: &PathBuf) -> anyhow::Result<()> {
    let q = table.len() as u32;
    let cell = (512 / q).max(1);
    let side = q * cell;
    let mut img = image::RgbImage::new(side, side);
    for (y, row) in table.iter().enumerate() {
        for (x, &v) in row.iter().enumerate() {
            let c = image::Rgb(grundy::value_colour(v, q));
            for dy in 0..cell {
                for dx in 0..cell {
                    img.put_pixel(x as u32 * cell + dx, y as u32 * cell + dy, c);
                }
            }
        }
    }
    img.save(path)
        .with_context(|| format!("writing {}", path.display()))
}
