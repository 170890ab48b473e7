//! What the app opens with: its command-line options, resolved (through the same setup as the
//! command line's) before the window exists, so that bad options fail on the command line.

use std::path::PathBuf;

use anyhow::anyhow;

use crate::engine::{CellRect, Universe};
use crate::grid::Grid;
use crate::rule::{ElementaryRule, Rule};
use crate::session::cells::Cells;
use crate::session::worker::Pace;
use crate::session::{Simulation, Spec, Start};

/// What the app opens with and how it runs (the command line's `lifelab` with no subcommand
/// fills it in).
#[derive(Debug, Clone, Default)]
pub struct AppOptions {
    /// Open with this library pattern or pattern file.
    pub pattern: Option<String>,

    /// Open with a random soup of this density (0 to 1) instead of a pattern.
    pub random: Option<f64>,

    /// Open with this rule (a Wolfram rule opens elementary mode).
    pub rule: Option<String>,

    /// Open with a torus of this size (WxH, or N for NxN).
    pub size: Option<String>,

    /// Open on the unbounded plane instead of a torus.
    pub plane: bool,

    /// The engine: auto (chosen by the work), or one of reference, cpu, tiles, hashlife, gpu.
    pub engine: String,

    /// HashLife's node cache in MiB (default: a share of the memory available).
    pub memory: Option<u64>,

    /// Start running at once.
    pub run: bool,

    /// Generations per second when running, or 'max'.
    pub speed: Option<Pace>,

    /// Zoom, in screen points per cell (below 1: 1/zoom cells per point). Default: fit.
    pub zoom: Option<f64>,

    /// Open without grid lines.
    pub no_grid: bool,

    /// Save a PNG of the window after --after-gens generations, then exit. A JSON file next
    /// to it (FILE.png.json) says where the view was and how the run went.
    pub screenshot: Option<PathBuf>,

    /// With --screenshot: the generation to take it at.
    pub after_gens: u64,

    /// The window's size in points.
    pub window: String,

    /// Open the games panel on this tab (nim, grundy, octal, wythoff, hackenbush, sums, tree,
    /// tictactoe, kqk).
    pub games_tab: Option<String>,

    /// With --games-tab: actions on that tab, separated by ';', as its buttons make them (for
    /// example `take 2 1; take 1 3` on Nim), to show a position in a screenshot.
    pub games_do: Option<String>,

    /// Seed of random fills and stochastic rules.
    pub seed: u64,

    /// Where the autosave lives (default: the user's data directory).
    pub data_dir: Option<PathBuf>,
}

/// What the app opens with.
pub(super) struct Initial {
    pub rule: Rule,
    pub universe: Universe,
    pub cells: Cells,
    pub generation: u64,
    pub source: String,
    /// The pattern's box, to fit the view to.
    pub fit: Option<CellRect>,
    pub elementary: Option<(ElementaryRule, Grid)>,
    /// The pattern's own name, author and comments.
    pub info: super::PatternInfo,
}

impl AppOptions {
    fn spec(&self) -> Spec {
        Spec {
            rule: self.rule.clone(),
            pattern: self.pattern.clone(),
            random: self.random,
            seed: self.seed,
            size: self.size.clone(),
            start: None,
            plane: self.plane,
        }
    }
}

pub(super) fn initial_state(o: &AppOptions) -> anyhow::Result<Initial> {
    let sim: Simulation = o.spec().build()?;
    if let Some(e) = sim.rule.elementary() {
        let start = match &sim.start {
            Start::Cells { cells, .. } if sim.pattern.is_some() => {
                let mut row = Grid::try_new(sim.universe.size().map_or(512, |s| s.0), 1)?;
                crate::session::setup::place_centred(&mut row, cells)?;
                row
            }
            _ => crate::pattern::elementary::start_row(
                sim.universe.size().map_or(512, |s| s.0).max(1),
                "center",
                o.seed,
            )
            .map_err(|e| anyhow!(e))?,
        };
        return Ok(Initial {
            rule: Rule::life(),
            universe: Universe::torus(256, 256),
            cells: Cells::default(),
            generation: 0,
            source: format!("{}", sim.rule),
            fit: None,
            elementary: Some((e, start)),
            info: Default::default(),
        });
    }
    let fit = match &sim.start {
        Start::Cells { cells, at } => Some(CellRect::new(
            at.0,
            at.1,
            cells.width().max(1),
            cells.height().max(1),
        )),
        Start::Tiles(t) => t.bounds().and_then(|b| b.rect()),
        Start::Quadtree(q) => q.bounds.and_then(|b| b.rect()),
        _ => None,
    };
    // A macrocell file's quadtree goes to the session as it is: HashLife takes the nodes.
    let cells = match &sim.start {
        Start::Quadtree(q) => Cells::Quadtree(q.clone()),
        _ => sim.start_tiles()?.into(),
    };
    let info = sim
        .pattern
        .as_ref()
        .map(|p| super::PatternInfo {
            name: p.name.clone(),
            author: p.author.clone(),
            comments: p.comments.clone(),
            format: std::path::Path::new(&sim.source)
                .extension()
                .and_then(|e| e.to_str())
                .map(|e| e.to_ascii_lowercase()),
        })
        .unwrap_or_default();
    Ok(Initial {
        rule: sim.rule,
        universe: sim.universe,
        cells,
        generation: sim.generation,
        source: if sim.source.is_empty() {
            "empty universe".into()
        } else {
            sim.source.clone()
        },
        fit,
        elementary: None,
        info,
    })
}
