//! `lifelab run`: run a pattern or a soup for some generations; report the population, the
//! engine (and why it was chosen) and the time, and optionally write the final cells.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use super::setup::{SimArgs, engine_name};
use crate::engine::Universe;
use crate::session::Session;
use crate::session::cells::Cells;

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub sim: SimArgs,

    /// Generations to run.
    #[arg(long, default_value_t = 100)]
    pub gens: u64,

    /// The engine: auto (the cheapest for the work, with the reason printed), or one of
    /// reference, cpu, tiles, hashlife, generations, rule-tree, rule-hashlife, gpu.
    #[arg(long, default_value = "auto", value_parser = engine_name)]
    pub engine: String,

    /// HashLife's node cache in MiB (default: collects from 224 MiB, grows to a share of the memory available when that frees too little).
    #[arg(long, value_name = "MB", value_parser = crate::memory::parse_mib)]
    pub memory: Option<u64>,

    #[command(flatten)]
    pub gpu: super::setup::GpuArgs,

    /// Write the final cells here (.rle, .cells, .lif or .mc, by extension).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct RunReport {
    generation: u64,
    population: u64,
    /// The universe: a torus and its size, or the plane.
    universe: Universe,
    width: Option<u32>,
    height: Option<u32>,
    rule: String,
    engine: &'static str,
    engine_reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    engine_note: Option<String>,
    seconds: f64,
    /// Cells of the universe (on the plane: of the final bounding box) times generations,
    /// per second.
    cell_updates_per_second: f64,
    source: String,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<PathBuf>,
    /// What was read or written although not strictly valid, or left out by the format.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

pub fn execute(args: RunArgs) -> anyhow::Result<ExitCode> {
    let sim = args.sim.build()?;
    let mut warnings: Vec<String> = sim
        .pattern
        .iter()
        .flat_map(|p| p.warnings.iter())
        .map(|w| format!("{}: {w}", sim.source))
        .collect();
    let options = super::engine_options(args.memory, &args.gpu);
    let mut request = sim.request(args.gens);
    request.options = options.clone();
    let (engine, choice) = sim.engine(&args.engine, args.gens, options)?;
    if !args.json && args.engine == "auto" {
        eprintln!("engine: {} ({})", choice.engine, choice.reason);
    }

    // The session the window uses, on the engine chosen here, its worker running the whole
    // run as one job. Nothing resets, so the start it keeps is empty.
    let generation = engine.generation();
    let settings = crate::session::life::Settings {
        seed: sim.seed,
        wanted: args.engine.clone(),
        memory: args.memory,
    };
    let mut session = Session::with_engine(
        None,
        engine,
        choice.clone(),
        (sim.rule, sim.universe),
        (Cells::default(), generation),
        settings,
    );
    let started = Instant::now();
    // A GPU that fails under the run: the run goes on on the CPU from the last checkpoint.
    let gpu_failure = run_with_progress(&mut session, request, args.gens)?;
    if let Some(f) = &gpu_failure {
        warnings.push(format!("the GPU failed: {f}"));
    }
    let population = session.read_now(|e| e.population())?;
    let seconds = started.elapsed().as_secs_f64();

    if let Some(path) = &args.out {
        let meta = crate::session::save::Meta {
            name: Some(format!("{} after {} generations", sim.source, args.gens)),
            ..Default::default()
        };
        for w in session
            .read_now(|e| crate::session::save::write_engine(e, &meta, path))
            .with_context(|| format!("writing {}", path.display()))?
        {
            warnings.push(format!("{}: {w}", path.display()));
        }
    }
    let (universe, generation, name, note, bounds) = session.read_now(|e| {
        let bounds = e.bounds();
        (e.universe(), e.generation(), e.name(), e.note(), bounds)
    });
    let cells = match universe.cells() {
        Some(c) => c as f64,
        None => bounds?.map_or(0.0, |b| b.width() as f64 * b.height() as f64),
    };
    let report = RunReport {
        generation,
        population,
        universe,
        width: universe.size().map(|s| s.0),
        height: universe.size().map(|s| s.1),
        rule: sim.rule.to_string(),
        engine: name,
        engine_reason: choice.reason,
        engine_note: note,
        seconds,
        cell_updates_per_second: cells * args.gens as f64 / seconds.max(1e-9),
        source: sim.source,
        seed: sim.seed,
        out: args.out,
        warnings,
    };
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    if args.json {
        super::print_json(&report)?;
    } else {
        println!(
            "{} on {}, rule {}, engine {}",
            report.source,
            universe.describe(),
            report.rule,
            report.engine
        );
        if let Some(note) = &report.engine_note {
            println!("note: {note}");
        }
        println!(
            "generation {}: population {}",
            report.generation, report.population
        );
        println!(
            "{:.3} s, {:.3e} cell updates/s",
            report.seconds, report.cell_updates_per_second
        );
        if let Some(out) = &report.out {
            println!("wrote {}", out.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs the session's one job with a progress bar when stderr is a terminal; says what
/// happened when the GPU failed.
fn run_with_progress(
    session: &mut Session,
    request: crate::registry::Request,
    gens: u64,
) -> anyhow::Result<Option<String>> {
    if !std::io::stderr().is_terminal() || gens < 2 {
        return Ok(session.run_here(gens, &request)?);
    }
    let job = session.run_unwatched(gens, request);
    let bar = indicatif::ProgressBar::new(gens).with_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} generations ({per_sec}, eta {eta})",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let answer = loop {
        if let Some(answer) = job.try_take() {
            break answer;
        }
        bar.set_position(job.progress.estimate().0);
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    bar.finish_and_clear();
    Ok(answer?)
}
