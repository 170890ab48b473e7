//! `lifelab run`: run a pattern or a soup for some generations; report the population and the
//! time, and optionally write the final torus.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use super::setup::{EngineChoice, SimArgs};
use crate::engine::Engine;
use crate::pattern::{self, Pattern};

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub sim: SimArgs,

    /// Generations to run.
    #[arg(long, default_value_t = 100)]
    pub gens: u64,

    /// The engine: auto is the GPU when an adapter exists, else the fast CPU engine.
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,

    /// Write the final torus here (.rle, .cells or .lif, by extension).
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
    width: u32,
    height: u32,
    rule: String,
    engine: &'static str,
    seconds: f64,
    cell_updates_per_second: f64,
    source: String,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<PathBuf>,
}

pub fn execute(args: RunArgs) -> anyhow::Result<ExitCode> {
    let kind = args.engine.resolve();
    let sim = args.sim.build_for(Some(kind))?;
    let mut engine = crate::engine::create(kind, sim.rule, &sim.grid, sim.seed)?;

    let started = Instant::now();
    step_with_progress(engine.as_mut(), args.gens)?;
    let final_grid = engine.grid()?;
    let seconds = started.elapsed().as_secs_f64();

    if let Some(path) = &args.out {
        let mut p = Pattern::new(final_grid.clone());
        p.name = Some(format!("{} after {} generations", sim.source, args.gens));
        let mut rule = sim.rule;
        rule.torus = Some((final_grid.width(), final_grid.height()));
        p.rule = Some(rule);
        pattern::save_file(&p, path).with_context(|| format!("writing {}", path.display()))?;
    }

    let report = RunReport {
        generation: engine.generation(),
        population: final_grid.population(),
        width: final_grid.width(),
        height: final_grid.height(),
        rule: sim.rule.to_string(),
        engine: kind.name(),
        seconds,
        cell_updates_per_second: final_grid.cells() as f64 * args.gens as f64 / seconds.max(1e-9),
        source: sim.source,
        seed: sim.seed,
        out: args.out,
    };
    if args.json {
        super::print_json(&report)?;
    } else {
        println!(
            "{} on a {}x{} torus, rule {}, engine {}",
            report.source, report.width, report.height, report.rule, report.engine
        );
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

/// Steps in slices so that a progress bar can move, when stderr is a terminal.
pub(crate) fn step_with_progress(engine: &mut dyn Engine, gens: u64) -> anyhow::Result<()> {
    if !std::io::stderr().is_terminal() || gens < 2 {
        engine.step(gens)?;
        return Ok(());
    }
    let bar = indicatif::ProgressBar::new(gens).with_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} generations ({per_sec}, eta {eta})",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    // Slices of about 1% keep the overhead of GPU submissions and bar redraws negligible.
    let slice = (gens / 100).max(1);
    let mut done = 0;
    while done < gens {
        let n = slice.min(gens - done);
        engine.step(n)?;
        done += n;
        bar.set_position(done);
    }
    bar.finish_and_clear();
    Ok(())
}
