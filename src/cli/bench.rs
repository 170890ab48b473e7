//! `lifelab bench`: cell updates per second for each rule, grid size and engine, measured in one
//! run next to a baseline (the reference engine on Life, 256x256), because machines are noisy.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use super::setup::parse_size;
use crate::engine::{self, EngineKind};
use crate::grid::Grid;
use crate::rule::Rule;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Engines to measure (repeat the flag for several). Default: cpu.
    #[arg(long = "engine", value_enum, value_name = "ENGINE")]
    pub engines: Vec<EngineKind>,

    /// Rules to measure (repeat for several). Default: Life, HighLife, Day & Night, Seeds,
    /// B2/S34H (hexagonal) and W110 (elementary, as H rings of W cells).
    #[arg(long = "rule", value_name = "RULE")]
    pub rules: Vec<String>,

    /// Torus sizes (repeat for several). Default: 1024, 4096 and 16384 squared.
    #[arg(long = "size", value_name = "WxH")]
    pub sizes: Vec<String>,

    /// Time to spend per measurement, in seconds; the generation count is chosen to fill it.
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,

    /// Run exactly this many generations per measurement instead.
    #[arg(long)]
    pub gens: Option<u64>,

    /// Density of the random soup.
    #[arg(long, default_value_t = 0.5)]
    pub density: f64,

    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub const DEFAULT_RULES: [&str; 6] = [
    "B3/S23",
    "B36/S23",
    "B3678/S34678",
    "B2/S",
    "B2/S34H",
    "W110",
];
pub const DEFAULT_SIDES: [u32; 3] = [1024, 4096, 16384];

#[derive(Serialize, Clone)]
pub struct Measurement {
    pub rule: String,
    pub width: u32,
    pub height: u32,
    pub engine: &'static str,
    pub generations: u64,
    pub seconds: f64,
    pub cell_updates_per_second: f64,
}

#[derive(Serialize)]
struct BenchReport {
    /// The reference engine on Life 256x256, measured in the same run.
    baseline: Measurement,
    results: Vec<Measurement>,
    cpu_threads: usize,
}

pub fn execute(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let engines = if args.engines.is_empty() {
        vec![EngineKind::Cpu]
    } else {
        args.engines.clone()
    };
    let rules: Vec<Rule> = if args.rules.is_empty() {
        DEFAULT_RULES
            .iter()
            .map(|r| r.parse().expect("valid"))
            .collect()
    } else {
        args.rules
            .iter()
            .map(|r| r.parse::<Rule>().context("--rule"))
            .collect::<anyhow::Result<_>>()?
    };
    let sizes: Vec<(u32, u32)> = if args.sizes.is_empty() {
        DEFAULT_SIDES.iter().map(|&n| (n, n)).collect()
    } else {
        args.sizes
            .iter()
            .map(|s| parse_size(s, false))
            .collect::<anyhow::Result<_>>()?
    };

    let baseline = measure(EngineKind::Reference, Rule::life(), (256, 256), &args)?;
    let mut results = Vec::new();
    if !args.json {
        println!(
            "baseline: reference engine, B3/S23 256x256: {:.3e} cell updates/s",
            baseline.cell_updates_per_second
        );
        println!(
            "{:<16} {:>12} {:>10} {:>8} {:>9} {:>16} {:>12}",
            "rule", "size", "engine", "gens", "seconds", "cell updates/s", "x baseline"
        );
    }
    for rule in &rules {
        for &size in &sizes {
            for &kind in &engines {
                let m = measure(kind, rule.without_torus(), size, &args)?;
                if !args.json {
                    println!(
                        "{:<16} {:>12} {:>10} {:>8} {:>9.3} {:>16.3e} {:>12.1}",
                        m.rule,
                        format!("{}x{}", m.width, m.height),
                        m.engine,
                        m.generations,
                        m.seconds,
                        m.cell_updates_per_second,
                        m.cell_updates_per_second / baseline.cell_updates_per_second
                    );
                }
                results.push(m);
            }
        }
    }
    if args.json {
        super::print_json(&BenchReport {
            baseline,
            results,
            cpu_threads: rayon::current_num_threads(),
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One measurement: a soup, one warm-up generation, then enough generations to fill the time.
pub fn measure(
    kind: EngineKind,
    rule: Rule,
    (width, height): (u32, u32),
    args: &BenchArgs,
) -> anyhow::Result<Measurement> {
    let mut grid = Grid::try_new(width, height)?;
    grid.fill_random(args.density, args.seed);
    let mut engine = engine::create(kind, rule, &grid, args.seed)?;
    engine.step(1)?;
    engine.finish()?;

    let cells = grid.cells() as f64;
    let (generations, seconds) = match args.gens {
        Some(n) => (n, timed(engine.as_mut(), n)?),
        None => {
            // Grow the batch until it fills a tenth of the budget, then size the real run.
            let mut n = 1;
            loop {
                let t = timed(engine.as_mut(), n)?;
                if t >= args.seconds / 10.0 || n >= 1 << 20 {
                    let per_gen = t / n as f64;
                    let total = ((args.seconds / per_gen.max(1e-12)) as u64).clamp(1, 1 << 24);
                    break (total, timed(engine.as_mut(), total)?);
                }
                n *= 4;
            }
        }
    };
    Ok(Measurement {
        rule: rule.to_string(),
        width,
        height,
        engine: kind.name(),
        generations,
        seconds,
        cell_updates_per_second: cells * generations as f64 / seconds.max(1e-12),
    })
}

fn timed(engine: &mut dyn engine::Engine, n: u64) -> anyhow::Result<f64> {
    let t = Instant::now();
    engine.step(n)?;
    engine.finish()?;
    Ok(t.elapsed().as_secs_f64())
}
