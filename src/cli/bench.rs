//! `lifelab bench`: cell updates per second for each rule, grid size and engine, measured in one
//! run next to a baseline (the reference engine on Life, 256x256), because machines are noisy.
//! Besides random soups it runs sparse workloads (`--pattern acorn`): a pattern on a large
//! torus to a fixed generation, reported as effective cell updates per second (torus cells
//! times generations over the time), the measure on which sparse engines shine; `--sparse`
//! adds acorn and rabbits on 4096², 16384² and 65536² tori. The GPU's kernels (`--kernel`) and
//! generations per blocked dispatch (`--block`) are measured side by side.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use super::setup::{engine_name, parse_size};
use crate::engine::{Engine, EngineError, Universe};
use crate::gpu::{LifeKernel, LifeOptions, ShaderMode};
use crate::registry::{self, Request};
use crate::rule::Rule;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Engines to measure (repeat the flag for several): reference, cpu, tiles, hashlife,
    /// generations, rule-tree, rule-hashlife,
    /// gpu, or auto. Default: cpu.
    #[arg(long = "engine", value_name = "ENGINE", value_parser = engine_name)]
    pub engines: Vec<String>,

    /// Sparse workloads: a library pattern or file centred on each torus size, run for
    /// --pattern-gens generations (repeat for several). With patterns and no --rule, only the
    /// patterns are measured.
    #[arg(long = "pattern", value_name = "NAME|FILE")]
    pub patterns: Vec<String>,

    /// Generations of each sparse workload.
    #[arg(long, default_value_t = 5206)]
    pub pattern_gens: u64,

    /// Adds the sparse workloads next to the soups: acorn and rabbits on 4096², 16384² and
    /// 65536² tori (whatever --size says), to generation --pattern-gens.
    #[arg(long)]
    pub sparse: bool,

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
    pub shaders: Vec<super::choices::ShaderArg>,

    /// GPU kernels to measure (repeat for several): tiles (active tiles, dense stretches
    /// blocked), sparse (active tiles only), blocked, dense. Default: tiles.
    #[arg(long = "kernel", value_enum, value_name = "KERNEL")]
    pub kernels: Vec<super::choices::KernelArg>,

    /// GPU: generations per dispatch of the blocked kernel (repeat for several), 1 to 16; the
    /// tiles kernel's dense stretches use it too. Default: the adapter's.
    #[arg(long = "block", value_name = "K", value_parser = super::setup::block)]
    pub blocks: Vec<u32>,

    /// GPU: output rows per shader invocation (the dense kernel).
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
/// The sparse workloads of `--sparse`: methuselahs on tori from big to vast.
pub const SPARSE_PATTERNS: [&str; 2] = ["acorn", "rabbits"];
pub const SPARSE_SIDES: [u32; 3] = [4096, 16384, 65536];

/// How a GPU measurement runs: shader, kernel and generations per blocked dispatch.
#[derive(Clone, Copy, Debug, Default)]
struct GpuVariant {
    shader: ShaderMode,
    kernel: LifeKernel,
    block: Option<u32>,
}

#[derive(Serialize, Clone)]
pub struct Measurement {
    /// `soup 0.5` or the pattern's name.
    pub workload: String,
    pub rule: String,
    pub width: u32,
    pub height: u32,
    pub engine: &'static str,
    /// GPU only: how the shader gets the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shader: Option<ShaderMode>,
    /// GPU only: the kernel, and the generations per dispatch of its blocked (dense) stretches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<u32>,
    /// The kernel runs blocked stretches (`block` generations per dispatch).
    #[serde(skip)]
    pub blocked: bool,
    pub generations: u64,
    pub seconds: f64,
    /// `device` (GPU timestamp queries) or `wall` (wall clock after a warm-up).
    pub timing: &'static str,
    pub cell_updates_per_second: f64,
    /// The population at the end (sparse workloads: the check that the run is right).
    pub population: u64,
    /// Sparse workloads on the tile engines (CPU and GPU): the share of the torus's tiles the
    /// last generation computed (CPU) or the next one computes (GPU).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_fraction: Option<f64>,
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
        vec!["cpu".to_string()]
    } else {
        args.engines.clone()
    };
    let rules: Vec<Rule> = if args.rules.is_empty() {
        if args.patterns.is_empty() {
            DEFAULT_RULES
                .iter()
                .map(|r| r.parse().expect("valid"))
                .collect()
        } else {
            Vec::new()
        }
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

    let on_gpu = |name: &str| registry::find(name).is_some_and(|s| s.kind.on_gpu());
    let adapter = if engines.iter().any(|e| on_gpu(e)) {
        Some(crate::gpu::shared_context()?.summary.clone())
    } else {
        None
    };
    let shaders = if args.shaders.is_empty() {
        vec![ShaderMode::Specialised]
    } else {
        args.shaders.iter().map(|&s| s.into()).collect()
    };
    let kernels = if args.kernels.is_empty() {
        vec![LifeKernel::Tiles]
    } else {
        args.kernels.iter().map(|&k| k.into()).collect()
    };
    let mut variants = Vec::new();
    for &shader in &shaders {
        for &kernel in &kernels {
            let blocks: Vec<Option<u32>> = match kernel {
                LifeKernel::Dense | LifeKernel::Sparse => vec![None],
                _ if args.blocks.is_empty() => vec![None],
                _ => args.blocks.iter().copied().map(Some).collect(),
            };
            for block in blocks {
                variants.push(GpuVariant {
                    shader,
                    kernel,
                    block,
                });
            }
        }
    }

    let baseline = measure(
        &Work::soup(Rule::life(), (256, 256), &args),
        "reference",
        None,
        &args,
    )?;
    let mut results = Vec::new();
    let mut skipped = Vec::new();
    if !args.json {
        if let Some(a) = &adapter {
            println!("adapter: {} ({}, {:?})", a.name, a.backend, a.device_type);
        }
        println!(
            "baseline: reference engine, B3/S23 256x256: {:.3e} cell updates/s",
            baseline.cell_updates_per_second
        );
        println!(
            "{:<14} {:<16} {:>12} {:>24} {:>8} {:>9} {:>7} {:>16} {:>12} {:>8}",
            "workload",
            "rule",
            "size",
            "engine",
            "gens",
            "seconds",
            "timing",
            "cell updates/s",
            "x baseline",
            "active"
        );
    }
    let mut works = Vec::new();
    for rule in &rules {
        for &size in &sizes {
            works.push(Work::soup(rule.without_torus(), size, &args));
        }
    }
    for name in &args.patterns {
        for &size in &sizes {
            works.push(Work::pattern(name, size, &args)?);
        }
    }
    if args.sparse {
        for name in SPARSE_PATTERNS {
            for side in SPARSE_SIDES {
                works.push(Work::pattern(name, (side, side), &args)?);
            }
        }
    }
    for work in &works {
        for name in &engines {
            let modes: Vec<Option<GpuVariant>> = if on_gpu(name) && !work.rule.is_elementary() {
                variants.iter().copied().map(Some).collect()
            } else {
                vec![None]
            };
            for variant in modes {
                let m = match measure(work, name, variant, &args) {
                    Ok(m) => m,
                    // A grid the device cannot hold, or an engine that does not run this
                    // work, is reported and skipped; anything else is an error.
                    Err(e) if is_capacity(&e) => {
                        let why = format!(
                            "{} {} {}x{} on {name}: {e:#}",
                            work.label, work.rule, work.size.0, work.size.1
                        );
                        if !args.json {
                            println!("skipped: {why}");
                        }
                        skipped.push(why);
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                if !args.json {
                    let mut engine = m.engine.to_string();
                    if let Some(k) = m.kernel {
                        engine = format!("{engine} {k}");
                    }
                    if let Some(b) = m.block.filter(|_| m.blocked) {
                        engine = format!("{engine} k={b}");
                    }
                    if let Some(s) = m.shader.filter(|_| shaders.len() > 1) {
                        engine = format!("{engine} {}", shader_name(s));
                    }
                    let active = m
                        .active_fraction
                        .map_or(String::new(), |a| format!("{:.3}%", a * 100.0));
                    println!(
                        "{:<14} {:<16} {:>12} {:>24} {:>8} {:>9.3} {:>7} {:>16.3e} {:>12.1} {:>8}",
                        m.workload,
                        m.rule,
                        format!("{}x{}", m.width, m.height),
                        engine,
                        m.generations,
                        m.seconds,
                        m.timing,
                        m.cell_updates_per_second,
                        m.cell_updates_per_second / baseline.cell_updates_per_second,
                        active
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
            adapter,
            skipped,
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One workload: a soup on a torus, or a pattern centred on one run to a fixed generation.
struct Work {
    label: String,
    rule: Rule,
    size: (u32, u32),
    sim: crate::session::Simulation,
    /// Sparse workloads run exactly this many generations.
    gens: Option<u64>,
}

impl Work {
    fn soup(rule: Rule, size: (u32, u32), args: &BenchArgs) -> Work {
        let universe = Universe::torus(size.0, size.1);
        Work {
            label: format!("soup {}", args.density),
            rule,
            size,
            sim: crate::session::Simulation {
                rule,
                universe,
                start: crate::session::Start::Soup {
                    density: args.density,
                    region: size,
                },
                seed: args.seed,
                source: format!("random {}", args.density),
                pattern: None,
                from_quadtree: false,
                generation: 0,
            },
            gens: None,
        }
    }

    fn pattern(name: &str, size: (u32, u32), args: &BenchArgs) -> anyhow::Result<Work> {
        let spec = crate::session::Spec {
            pattern: Some(name.to_string()),
            size: Some(format!("{}x{}", size.0, size.1)),
            seed: args.seed,
            ..Default::default()
        };
        let sim = spec.build()?;
        Ok(Work {
            label: name.to_string(),
            rule: sim.rule,
            size,
            sim,
            gens: Some(args.pattern_gens),
        })
    }
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
        Some(
            EngineError::OutOfMemory(_)
                | EngineError::Memory(_)
                | EngineError::Grid(_)
                | EngineError::Unavailable(_)
                | EngineError::Unsupported(_)
        )
    ) || e.downcast_ref::<crate::grid::GridError>().is_some()
        || e.downcast_ref::<crate::memory::MemoryError>().is_some()
}

/// One measurement. A soup: one warm-up generation, then enough generations to fill the time.
/// A sparse workload: from generation 0 to its end, timed whole.
fn measure(
    work: &Work,
    engine_name: &str,
    variant: Option<GpuVariant>,
    args: &BenchArgs,
) -> anyhow::Result<Measurement> {
    let v = variant.unwrap_or_default();
    let options = registry::Options {
        gpu: LifeOptions {
            shader: v.shader,
            rows_per_invocation: args.rows,
            kernel: v.kernel,
            block: v.block,
            ..Default::default()
        },
        ..Default::default()
    };
    let gens_hint = work.gens.unwrap_or(1000);
    let request = Request {
        options,
        ..work.sim.request(gens_hint)
    };
    let (mut engine, choice) = registry::create(engine_name, &request)?;
    work.sim.load_into(engine.as_mut())?;
    let (width, height) = work.size;
    let cells = width as f64 * height as f64;
    let ((seconds, device), generations) = match (work.gens, args.gens) {
        (Some(n), _) => (timed(engine.as_mut(), n)?, n),
        (None, Some(n)) => {
            engine.step(1)?;
            engine.finish()?;
            (timed(engine.as_mut(), n)?, n)
        }
        (None, None) => {
            engine.step(1)?;
            engine.finish()?;
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
    let active_fraction = engine.active_fraction()?;
    let dispatch = engine.dispatch();
    let (kernel, block) = (dispatch.map(|d| d.kernel), dispatch.map(|d| d.block));
    let blocked = dispatch.is_some_and(|d| d.blocked);
    Ok(Measurement {
        workload: work.label.clone(),
        rule: work.rule.to_string(),
        width,
        height,
        engine: choice.engine,
        shader: variant.map(|v| v.shader),
        kernel,
        block,
        blocked,
        generations,
        seconds,
        timing: if device { "device" } else { "wall" },
        cell_updates_per_second: cells * generations as f64 / seconds.max(1e-12),
        population: engine.population()?,
        active_fraction,
    })
}

/// Seconds for `n` generations, and whether the device measured them itself.
fn timed(engine: &mut dyn Engine, n: u64) -> anyhow::Result<(f64, bool)> {
    let t = Instant::now();
    let device = engine.step_timed(n)?;
    engine.finish()?;
    let wall = t.elapsed().as_secs_f64();
    Ok(match device {
        Some(d) if d > 0.0 => (d, true),
        _ => (wall, false),
    })
}
