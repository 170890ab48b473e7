//! `lifelab bench`: cell updates per second for each rule, grid size and engine, measured in one
//! run next to a baseline (the reference engine on Life, 256x256), because machines are noisy.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use super::setup::parse_size;
use crate::engine::{self, EngineError, EngineKind};
use crate::gpu::{LifeOptions, ShaderMode};
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

    /// GPU shaders to measure: the rule compiled in ('specialised') or read from a table at
    /// run time ('generic'). Repeat for both. Default: specialised.
    #[arg(long = "shader", value_enum, value_name = "MODE")]
    pub shaders: Vec<ShaderMode>,

    /// GPU: output rows per shader invocation.
    #[arg(long, default_value_t = 4)]
    pub rows: u32,

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
    /// GPU only: how the shader gets the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shader: Option<ShaderMode>,
    pub generations: u64,
    pub seconds: f64,
    /// `device` (GPU timestamp queries) or `wall` (wall clock after a warm-up).
    pub timing: &'static str,
    pub cell_updates_per_second: f64,
}

#[derive(Serialize)]
struct BenchReport {
    /// The reference engine on Life 256x256, measured in the same run.
    baseline: Measurement,
    results: Vec<Measurement>,
    cpu_threads: usize,
    /// The GPU adapter, when a GPU engine was measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    adapter: Option<crate::gpu::AdapterSummary>,
    /// Sizes left out because the device cannot hold them, with why.
    skipped: Vec<String>,
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

    let adapter = if engines.contains(&EngineKind::Gpu) {
        Some(crate::gpu::shared_context()?.summary.clone())
    } else {
        None
    };
    let shaders = if args.shaders.is_empty() {
        vec![ShaderMode::Specialised]
    } else {
        args.shaders.clone()
    };

    let baseline = measure(EngineKind::Reference, None, Rule::life(), (256, 256), &args)?;
    let mut results = Vec::new();
    let mut skipped = Vec::new();
    if !args.json {
        if let Some(a) = &adapter {
            println!("adapter: {} ({}, {})", a.name, a.backend, a.device_type);
        }
        println!(
            "baseline: reference engine, B3/S23 256x256: {:.3e} cell updates/s",
            baseline.cell_updates_per_second
        );
        println!(
            "{:<16} {:>12} {:>16} {:>8} {:>9} {:>7} {:>16} {:>12}",
            "rule", "size", "engine", "gens", "seconds", "timing", "cell updates/s", "x baseline"
        );
    }
    for rule in &rules {
        for &size in &sizes {
            for &kind in &engines {
                let modes: Vec<Option<ShaderMode>> =
                    if kind == EngineKind::Gpu && !rule.is_elementary() {
                        shaders.iter().copied().map(Some).collect()
                    } else {
                        vec![None]
                    };
                for shader in modes {
                    let m = match measure(kind, shader, rule.without_torus(), size, &args) {
                        Ok(m) => m,
                        // A grid the device cannot hold is reported and skipped ("where memory
                        // allows"); anything else is an error.
                        Err(e) if is_capacity(&e) => {
                            let why =
                                format!("{rule} {}x{} on {}: {e:#}", size.0, size.1, kind.name());
                            if !args.json {
                                println!("skipped: {why}");
                            }
                            skipped.push(why);
                            continue;
                        }
                        Err(e) => return Err(e),
                    };
                    if !args.json {
                        let engine = match m.shader {
                            Some(s) => format!("{} {}", m.engine, shader_name(s)),
                            None => m.engine.to_string(),
                        };
                        println!(
                            "{:<16} {:>12} {:>16} {:>8} {:>9.3} {:>7} {:>16.3e} {:>12.1}",
                            m.rule,
                            format!("{}x{}", m.width, m.height),
                            engine,
                            m.generations,
                            m.seconds,
                            m.timing,
                            m.cell_updates_per_second,
                            m.cell_updates_per_second / baseline.cell_updates_per_second
                        );
                    }
                    results.push(m);
                }
            }
        }
    }
    if args.json {
        super::print_json(&BenchReport {
            baseline,
            results,
            cpu_threads: rayon::current_num_threads(),
            adapter,
            skipped,
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

fn shader_name(s: ShaderMode) -> &'static str {
    match s {
        ShaderMode::Specialised => "specialised",
        ShaderMode::Generic => "generic",
    }
}

fn is_capacity(e: &anyhow::Error) -> bool {
    matches!(
        e.downcast_ref::<EngineError>(),
        Some(EngineError::OutOfMemory(_) | EngineError::Memory(_) | EngineError::Unavailable(_),)
    ) || e.downcast_ref::<crate::grid::GridError>().is_some()
}

/// One measurement: a soup, one warm-up generation, then enough generations to fill the time.
pub fn measure(
    kind: EngineKind,
    shader: Option<ShaderMode>,
    rule: Rule,
    (width, height): (u32, u32),
    args: &BenchArgs,
) -> anyhow::Result<Measurement> {
    let mut grid = Grid::try_new(width, height)?;
    grid.fill_random(args.density, args.seed);
    let options = LifeOptions {
        shader: shader.unwrap_or_default(),
        rows_per_invocation: args.rows,
        max_band_bytes: None,
    };
    let mut engine = engine::create_with(kind, rule, &grid, args.seed, options)?;
    drop(grid);
    engine.step(1)?;
    engine.finish()?;

    let cells = width as f64 * height as f64;
    let ((seconds, device), generations) = match args.gens {
        Some(n) => (timed(engine.as_mut(), n)?, n),
        None => {
            // Grow the batch until it fills a tenth of the budget, then size the real run.
            let mut n = 1;
            loop {
                let (t, _) = timed(engine.as_mut(), n)?;
                if t >= args.seconds / 10.0 || n >= 1 << 20 {
                    let per_gen = t / n as f64;
                    let total = ((args.seconds / per_gen.max(1e-12)) as u64).clamp(1, 1 << 24);
                    break (timed(engine.as_mut(), total)?, total);
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
        shader,
        generations,
        seconds,
        timing: if device { "device" } else { "wall" },
        cell_updates_per_second: cells * generations as f64 / seconds.max(1e-12),
    })
}

/// Seconds for `n` generations, and whether the device measured them itself.
fn timed(engine: &mut dyn engine::Engine, n: u64) -> anyhow::Result<(f64, bool)> {
    let t = Instant::now();
    let device = engine.step_timed(n)?;
    engine.finish()?;
    let wall = t.elapsed().as_secs_f64();
    Ok(match device {
        Some(d) if d > 0.0 => (d, true),
        _ => (wall, false),
    })
}
