//! `lifelab analyze`: the command line's presenter of `analysis::analyse` (text or JSON).
//! A pattern is identified as an object (and a methuselah's lifespan found); a soup, when the
//! whole universe repeats.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};

use super::setup::{SimArgs, engine_name, parse_size};
use crate::analysis::{self, Question, Subject};
use crate::engine::{Progress, Universe};

#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub sim: SimArgs,

    /// The most generations to search (Golly's longest methuselahs, but the arks, settle within
    /// the default).
    #[arg(long, default_value_t = 50_000)]
    pub max_gens: u64,

    /// Methuselahs: generations the population must stay periodic before the search stops.
    #[arg(long, default_value_t = 1000)]
    pub settle: u64,

    /// The engine for long runs (identification always runs on the dense CPU engine); auto
    /// takes the cheapest for the work.
    #[arg(long, default_value = "auto", value_parser = engine_name)]
    pub engine: String,

    /// Write the population of every generation here, as CSV.
    #[arg(long, value_name = "FILE.csv")]
    pub history: Option<PathBuf>,

    #[arg(long)]
    pub json: bool,
}

pub fn execute(args: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let mut sim_args = args.sim.clone();
    // Under a B0 rule empty space is not empty (it fills at once): no pattern is an object of
    // its own, so the whole torus is what repeats or not.
    let b0 = sim_args
        .rule
        .as_deref()
        .and_then(|r| r.parse::<crate::rule::Rule>().ok())
        .is_some_and(|r| !crate::analysis::period::empty_stays_empty(&r));
    let pattern = sim_args.pattern.is_some() && !b0;
    // A soup's default torus: small enough to repeat within the search.
    // (A rule's own grid, `:T`, `:P`, a tube, is kept: the default is for a bare rule.)
    let own_grid = sim_args
        .rule
        .as_deref()
        .and_then(|r| r.parse::<crate::rule::Rule>().ok())
        .is_some_and(|r| r.torus.is_some() || r.bounded.is_some() || r.tube.is_some());
    if !pattern && sim_args.size.is_none() && !sim_args.plane && !own_grid {
        sim_args.size = Some("256x256".into());
    }
    let sim = sim_args.build()?;
    if sim.rule.is_elementary() {
        bail!(
            "analyze is for Life-like rules; an elementary rule's ring is a different kind of object"
        );
    }
    // On Golly's bounded grids and tubes the edges decide what a pattern does: it is followed
    // there as a whole, never identified as an object on a torus of its own.
    let pattern = pattern && !(sim.universe.is_bounded_plane() || sim.universe.tube().is_some());
    let subject = if pattern {
        let cells = match &sim.start {
            crate::session::Start::Cells { cells, .. } => cells.clone(),
            _ => {
                let mut e = sim.engine("auto", 0, Default::default())?.0;
                let b = e
                    .bounds()?
                    .ok_or_else(|| anyhow::anyhow!("the pattern has no live cells"))?;
                e.cells_in(
                    b.rect()
                        .context("the pattern is too spread out to analyse")?,
                )?
            }
        };
        let trimmed = match cells.bounding_box() {
            Some(b) => cells.crop(b),
            None => bail!("pattern {} has no live cells", sim.source),
        };
        Subject::Pattern(trimmed)
    } else {
        let mut e = sim.engine("auto", 0, Default::default())?.0;
        Subject::Universe {
            universe: sim.universe,
            cells: e.export()?,
        }
    };
    // A pattern's lifespan is found where the pattern is: the unbounded plane unless a torus
    // was asked for (`--size`, or the file's own `:T`), so that no torus size is needed and
    // nothing that escapes comes back, as apgsearch counts it.
    let universe = match (&args.sim.size, args.sim.plane, pattern) {
        (_, true, _) => Some(Universe::Plane),
        (Some(s), false, true) => {
            let (w, h) = parse_size(s, false)?;
            Some(Universe::torus(w, h))
        }
        // The roomy torus, as before, for an engine named that runs on a torus only (the dense
        // ones), for Golly's bounded plane (no sparse engine runs it), and for a file whose own
        // rule is B0 (the plane would emulate it, and its populations would be the emulation's).
        (None, false, true)
            if !sim.universe.is_bounded_plane()
                && crate::analysis::period::empty_stays_empty(&sim.rule)
                && runs_on(&args.engine, sim.rule, sim.universe) =>
        {
            Some(sim.universe)
        }
        _ => None,
    };
    let q = Question {
        rule: sim.rule,
        subject,
        seed: sim.seed,
        max_gens: args.max_gens,
        settle: args.settle,
        engine: args.engine.clone(),
        universe,
    };
    let mut findings = analysis::analyse(&q, &Progress::default())?;
    crate::session::final_census::fill(&mut findings, sim.rule);

    if let Some(path) = &args.history {
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("writing {}", path.display()))?,
        );
        writeln!(f, "generation,population")?;
        for (g, p) in findings.history.iter().enumerate() {
            writeln!(f, "{g},{p}")?;
        }
        f.flush()?;
    }
    if args.json {
        let mut v = serde_json::to_value(&findings)?;
        v["source"] = serde_json::Value::String(sim.source.clone());
        super::print_json(&v)?;
        return Ok(ExitCode::SUCCESS);
    }
    println!("{} under {}", sim.source, findings.rule);
    for s in findings.sentences() {
        println!("{s}");
    }
    if let (Some(c), Some(k)) = (findings.confirmations, findings.collisions) {
        println!("{c} hash matches checked against full states, {k} of them collisions");
    }
    println!(
        "{} generations, {:.2} s on the {} engine ({})",
        findings.generations, findings.seconds, findings.engine, findings.engine_reason
    );
    Ok(ExitCode::SUCCESS)
}

/// Whether the engine `name` (or `auto`) can run `rule` on `universe`.
fn runs_on(name: &str, rule: crate::rule::Rule, universe: Universe) -> bool {
    let request = crate::registry::Request::new(rule, universe);
    crate::registry::choose(name, &request).is_ok()
}
