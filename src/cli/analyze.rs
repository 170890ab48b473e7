//! `lifelab analyze`: what a pattern is (still life, oscillator, spaceship, gun, or a
//! methuselah and its lifespan), or, for a soup, when the whole torus repeats.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use serde::Serialize;

use super::setup::{EngineChoice, SimArgs, parse_size, resolve_pattern};
use crate::analysis::{self, Kind, TorusFate};
use crate::engine;
use crate::grid::Grid;
use crate::rule::Rule;

#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub sim: SimArgs,

    /// The most generations to search.
    #[arg(long, default_value_t = 20_000)]
    pub max_gens: u64,

    /// Methuselahs: generations the population must stay periodic before the search stops.
    #[arg(long, default_value_t = 1000)]
    pub settle: u64,

    /// The engine for long runs (identification always runs on the CPU). auto: a hardware GPU
    /// if there is one, else the CPU engine.
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,

    /// Write the population of every generation here, as CSV.
    #[arg(long, value_name = "FILE.csv")]
    pub history: Option<PathBuf>,

    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize, Default)]
struct Report {
    source: String,
    rule: String,
    kind: Option<Kind>,
    period: Option<u64>,
    displacement: Option<[i64; 2]>,
    speed: Option<String>,
    name: Option<String>,
    /// The first generation of the cycle (or of death).
    start: Option<u64>,
    emits: Option<String>,
    lifespan: Option<u64>,
    final_population: Option<u64>,
    escaping_spaceships: Option<usize>,
    torus: [u32; 2],
    torus_note: Option<String>,
    generations: u64,
    engine: String,
    seconds: f64,
    /// Hash hits confirmed by full comparison, and hash collisions rejected (whole-torus runs).
    confirmations: Option<u32>,
    collisions: Option<u32>,
}

pub fn execute(args: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let flag_rule = args
        .sim
        .rule
        .as_deref()
        .map(str::parse::<Rule>)
        .transpose()
        .context("--rule")?;
    if flag_rule.is_some_and(|r| r.is_elementary()) {
        bail!(
            "analyze is for Life-like rules; an elementary rule's ring is a different kind of object"
        );
    }
    let mut report = Report::default();
    let history: Vec<u64>;
    if let Some(name) = &args.sim.pattern {
        let (pattern, label) = resolve_pattern(name)?;
        let rule = flag_rule
            .or(pattern.rule)
            .unwrap_or_else(Rule::life)
            .without_torus();
        if rule.is_elementary() {
            bail!("analyze is for Life-like rules");
        }
        let cells = pattern.trimmed().cells;
        if cells.width() == 0 {
            bail!("pattern {label} has no live cells");
        }
        report.source = label;
        report.rule = rule.to_string();
        let id = analysis::identify(rule, &cells, args.max_gens.min(4000));
        let side = analysis::identify::working_side(&cells);
        report.kind = Some(id.kind);
        report.period = id.period;
        report.displacement = id.displacement.map(|(x, y)| [x, y]);
        report.speed = id.speed.clone();
        report.name = id.name.clone();
        report.start = Some(id.start);
        report.emits = id.emits.clone();
        report.torus = [side, side];
        report.generations = id.generations;
        report.engine = "cpu".into();
        if id.kind == Kind::Chaotic {
            let torus = match &args.sim.size {
                Some(s) => parse_size(s, false)?,
                None => {
                    let s = analysis::roomy_side(&cells, args.max_gens);
                    (s, s)
                }
            };
            let kind = args.engine.resolve_preferring_hardware();
            engine::check_memory(kind, torus.0, torus.1)?;
            let seed = args.sim.seed;
            let r = analysis::lifespan(
                rule,
                &cells,
                torus,
                args.max_gens,
                args.settle,
                &|g: &Grid| engine::create(kind, rule, g, seed),
            )?;
            report.engine = kind.name().into();
            report.torus = [torus.0, torus.1];
            report.torus_note = Some(r.torus_note.clone());
            report.generations = r.history.len() as u64 - 1;
            if let Some(l) = &r.result {
                report.lifespan = Some(l.lifespan);
                report.final_population = Some(l.final_population);
                report.period = Some(l.period);
                report.escaping_spaceships = Some(l.escaping);
                report.start = Some(l.lifespan);
            }
            history = r.history;
        } else {
            // The population over the generations looked at, for the history file.
            let mut g = Grid::new(side, side);
            let (x, y) = g.centre_offset(cells.width(), cells.height());
            g.paste(&cells, x, y);
            let mut e = crate::cpu::FastEngine::new(rule, &g, 0);
            let mut h = vec![g.population()];
            for _ in 0..id.generations {
                e.step_once();
                h.push(crate::engine::Engine::population(&mut e)?);
            }
            history = h;
        }
    } else {
        // A soup or an empty torus: the whole torus's fate.
        let mut sim_args = args.sim.clone();
        if sim_args.size.is_none() {
            sim_args.size = Some("256x256".into());
        }
        let kind = args.engine.resolve_preferring_hardware();
        let sim = sim_args.build_for(Some(kind))?;
        if sim.rule.is_elementary() {
            bail!("analyze is for Life-like rules");
        }
        let mut e = engine::create(kind, sim.rule, &sim.grid, sim.seed)?;
        let r = analysis::find_period(e.as_mut(), &sim.grid, sim.seed, args.max_gens, &|c| c.hash)?;
        report.source = sim.source;
        report.rule = sim.rule.to_string();
        report.torus = [sim.grid.width(), sim.grid.height()];
        report.engine = kind.name().into();
        report.generations = r.history.len() as u64 - 1;
        report.confirmations = Some(r.confirmations);
        report.collisions = Some(r.collisions);
        match r.fate {
            TorusFate::Dies { generation } => {
                report.kind = Some(Kind::Dies);
                report.start = Some(generation);
            }
            TorusFate::Repeats { start, period } => {
                report.kind = Some(if period == 1 {
                    Kind::Still
                } else {
                    Kind::Oscillator
                });
                report.start = Some(start);
                report.period = Some(period);
                report.displacement = Some([0, 0]);
            }
            TorusFate::Unresolved { .. } => report.kind = Some(Kind::Chaotic),
        }
        history = r.history;
    }
    report.seconds = started.elapsed().as_secs_f64();

    if let Some(path) = &args.history {
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("writing {}", path.display()))?,
        );
        writeln!(f, "generation,population")?;
        for (g, p) in history.iter().enumerate() {
            writeln!(f, "{g},{p}")?;
        }
        f.flush()?;
    }
    if args.json {
        super::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_text(&report);
    Ok(ExitCode::SUCCESS)
}

fn print_text(r: &Report) {
    println!("{} under {}", r.source, r.rule);
    let name = r
        .name
        .as_deref()
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    match r.kind {
        Some(Kind::Still) => println!(
            "a still life{name}, from generation {}",
            r.start.unwrap_or(0)
        ),
        Some(Kind::Oscillator) => println!(
            "an oscillator{name} of period {}, from generation {}",
            r.period.unwrap_or(0),
            r.start.unwrap_or(0)
        ),
        Some(Kind::Spaceship) => println!(
            "a spaceship{name}: period {}, speed {}",
            r.period.unwrap_or(0),
            r.speed.as_deref().unwrap_or("?")
        ),
        Some(Kind::Dies) => println!("it dies at generation {}", r.start.unwrap_or(0)),
        Some(Kind::Gun) => println!(
            "a gun{name} of period {}: it emits {}",
            r.period.unwrap_or(0),
            r.emits.as_deref().unwrap_or("?")
        ),
        Some(Kind::Chaotic) | None => match (r.lifespan, r.final_population) {
            (Some(l), Some(p)) => println!(
                "a methuselah: it stabilises at generation {l} with population {p} ({} spaceships escaping)",
                r.escaping_spaceships.unwrap_or(0)
            ),
            _ => println!("no repetition within {} generations", r.generations),
        },
    }
    if let Some(note) = &r.torus_note {
        println!("on {note}");
    }
    if let (Some(c), Some(k)) = (r.confirmations, r.collisions) {
        println!("{c} hash matches checked against full states, {k} of them collisions");
    }
    println!(
        "{} generations, {:.2} s on the {} engine",
        r.generations, r.seconds, r.engine
    );
}
