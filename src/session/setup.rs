//! From what a user asked for (a rule, a pattern or a soup, a size, the plane) to a simulation
//! ready for any engine: where the rule comes from, the default torus, where the pattern goes.
//! The command line and the app both come through here, so they agree.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};

use crate::engine::{Bounds, Engine, EngineResult, Put, Universe};
use crate::grid::Grid;
use crate::pattern::macrocell::Macrocell;
use crate::pattern::{self, Pattern, library};
use crate::registry::{Request, Workload};
use crate::rule::Rule;
use crate::tiles::TileMap;

/// The torus side when neither the flags, the rule nor the file give one (grown to fit the
/// pattern).
pub const DEFAULT_SIDE: u32 = 1024;

/// An elementary ring's default length.
pub const DEFAULT_RING: u32 = 256;

/// A soup on the plane covers this square unless `--size` says otherwise.
pub const PLANE_SOUP_SIDE: u32 = 256;

/// What the user asked for, as text, the way both the command line and the app take it.
#[derive(Clone, Debug, Default)]
pub struct Spec {
    /// `B3/S23`, a name, `W110`, a formula; with `:T<w>,<h>` for the torus.
    pub rule: Option<String>,
    /// A library name or a file.
    pub pattern: Option<String>,
    /// A soup's density.
    pub random: Option<f64>,
    pub seed: u64,
    /// `WxH` or `N`.
    pub size: Option<String>,
    /// Elementary start row.
    pub start: Option<String>,
    /// The unbounded plane instead of a torus.
    pub plane: bool,
}

/// The cells a simulation starts from, kept as compact as they came.
#[derive(Clone, Debug)]
pub enum Start {
    Empty,
    /// A bitmap with its top-left corner at `at`.
    Cells {
        cells: Grid,
        at: (i64, i64),
    },
    /// A random soup of this density over the whole torus (or `region` on the plane).
    Soup {
        density: f64,
        region: (u32, u32),
    },
    /// Cells too spread out for one bitmap (an RLE file drawn far apart).
    Tiles(TileMap),
    /// A macrocell file's quadtree, kept as its nodes: an engine that keeps a quadtree takes
    /// them as they are, and the others expand them into cells when they load them.
    Quadtree(Arc<Quadtree>),
}

/// A file's cells that are not one bitmap, in Golly's coordinates (centred on the origin).
pub enum FileCells {
    /// An RLE file drawn far apart.
    Tiles(TileMap),
    /// A macrocell file's quadtree.
    Quadtree(Box<Macrocell>),
}

impl FileCells {
    /// A file's cells as they are read (`None`: a bitmap, placed by [`place_pattern`]).
    pub fn of(loaded: &mut Loaded) -> Option<FileCells> {
        match loaded.quadtree.take() {
            Some(tree) => Some(FileCells::Quadtree(Box::new(tree))),
            None => loaded.tiles.take().map(FileCells::Tiles),
        }
    }

    /// The cells placed in `universe` as Golly places them (its origin at a torus's centre),
    /// refused when they reach beyond a torus; a quadtree stays nodes, so that HashLife takes
    /// it as it is. The one placement for the command line and the window
    /// (`Cells::of_file`).
    pub fn place(self, universe: Universe) -> anyhow::Result<Start> {
        let (start, bounds) = match self {
            FileCells::Quadtree(tree) => {
                let q = Quadtree::new(*tree, macrocell_centre(universe));
                let bounds = q.bounds;
                (Start::Quadtree(Arc::new(q)), bounds)
            }
            FileCells::Tiles(t) => {
                let t = centre_tiles(t, universe);
                let bounds = t.bounds();
                (Start::Tiles(t), bounds)
            }
        };
        check_inside(bounds, universe)?;
        Ok(start)
    }
}

/// A quadtree on a universe: its root centred on `centre` (lifelab's coordinates), with its
/// population and box worked out once from the nodes.
#[derive(Debug, PartialEq)]
pub struct Quadtree {
    pub tree: Macrocell,
    pub centre: (i64, i64),
    pub population: u64,
    /// The live cells' box, in lifelab's coordinates.
    pub bounds: Option<Bounds>,
}

impl Quadtree {
    pub fn new(tree: Macrocell, centre: (i64, i64)) -> Quadtree {
        let shift = |b: Bounds| Bounds {
            left: b.left + centre.0,
            right: b.right + centre.0,
            top: b.top + centre.1,
            bottom: b.bottom + centre.1,
        };
        Quadtree {
            population: tree.population(),
            bounds: tree.bounds().map(shift),
            tree,
            centre,
        }
    }

    /// The cells, expanded (refused beyond a quarter of lifelab's memory).
    pub fn to_tiles(&self) -> EngineResult<TileMap> {
        crate::engine::quadtree_tiles(&self.tree, self.centre)
    }
}

/// A rule, a universe and a start: ready to load into any engine.
#[derive(Clone, Debug)]
pub struct Simulation {
    pub rule: Rule,
    pub universe: Universe,
    pub start: Start,
    pub seed: u64,
    /// The pattern's name or file, `random 0.35 (seed 7)`, or the elementary start.
    pub source: String,
    /// The file's own name, author and comments, when a pattern was loaded (its cells are in
    /// `start`).
    pub pattern: Option<Pattern>,
    /// The generation the start belongs to (a macrocell file says).
    pub generation: u64,
    /// The start came from a macrocell file's quadtree (see `Workload::from_quadtree`).
    pub from_quadtree: bool,
}

impl Spec {
    /// Resolves the rule, the universe and the start.
    pub fn build(&self) -> anyhow::Result<Simulation> {
        let flag_rule = self
            .rule
            .as_deref()
            .map(str::parse::<Rule>)
            .transpose()
            .context("--rule")?;
        let loaded = self.pattern.as_deref().map(resolve_pattern).transpose()?;
        let rule = flag_rule
            .or_else(|| loaded.as_ref().and_then(|l| l.pattern.rule))
            .unwrap_or_else(Rule::life);
        let file_torus = loaded
            .as_ref()
            .and_then(|l| l.pattern.rule.and_then(|r| r.torus));
        let file_bounded = loaded
            .as_ref()
            .and_then(|l| l.pattern.rule.and_then(|r| r.bounded));
        let file_tube = loaded
            .as_ref()
            .and_then(|l| l.pattern.rule.and_then(|r| r.tube));
        // A rule given with its own grid (`--rule B3/S23:T0,68`) takes it whole, over the file's.
        let flag_grid =
            flag_rule.is_some_and(|r| r.torus.is_some() || r.bounded.is_some() || r.tube.is_some());
        let (file_torus, file_bounded, file_tube) = if flag_grid {
            (None, None, None)
        } else {
            (file_torus, file_bounded, file_tube)
        };
        let flag_size = self
            .size
            .as_deref()
            .map(|s| parse_size(s, rule.is_elementary()))
            .transpose()?;
        if let Some(start) = &self.start
            && !rule.is_elementary()
        {
            bail!("--start {start} is for elementary rules; rule {rule} is Life-like");
        }
        if let Some(d) = self.random
            && !(0.0..=1.0).contains(&d)
        {
            bail!("--random {d}: the density must be between 0 and 1");
        }
        let size = flag_size.or(rule.torus).or(file_torus);
        // Golly's bounded plane, unless a torus was asked for.
        let bounded = match size {
            None => rule.bounded.or(file_bounded),
            Some(_) => None,
        };
        let tube = match (size, bounded) {
            (None, None) => rule.tube.or(file_tube),
            _ => None,
        };
        let rule = rule.without_torus();
        if rule.is_elementary() {
            if self.plane {
                bail!("an elementary rule runs on a ring, not on the plane");
            }
            return self.build_elementary(rule, size, loaded);
        }
        let from_quadtree = loaded.as_ref().is_some_and(|l| l.quadtree.is_some());
        let (pattern, source, generation, tiles, quadtree) = match loaded {
            Some(l) => (Some(l.pattern), l.label, l.generation, l.tiles, l.quadtree),
            None => (None, String::new(), 0, None, None),
        };
        // A pattern with no torus from the flags, its rule or its file lives on the unbounded
        // plane, as in Golly, LifeWiki and every RLE tool.
        let plane = self.plane
            || (pattern.is_some() || tiles.is_some() || quadtree.is_some())
                && size.is_none()
                && bounded.is_none()
                && tube.is_none();
        let universe = if plane {
            Universe::Plane
        } else if let Some(t) = tube {
            let (w, h) = t.sides();
            Grid::check_torus_dimensions(w.unwrap_or(1) as u64, h.unwrap_or(1) as u64)?;
            Universe::Tube(t)
        } else if let Some((width, height, edges)) = bounded {
            Grid::check_torus_dimensions(width as u64, height as u64)?;
            Universe::Bounded {
                width,
                height,
                edges,
            }
        } else {
            // A soup or an empty universe: the flags' or the rule's torus, else the default.
            let (w, h) = size.unwrap_or((DEFAULT_SIDE, DEFAULT_SIDE));
            // Only the sides here: what the torus costs depends on the engine, and the
            // registry refuses, in the same words, an engine that would not fit.
            Grid::check_torus_dimensions(w as u64, h as u64)?;
            Universe::torus(w, h)
        };
        let loose = match quadtree {
            Some(tree) => Some(FileCells::Quadtree(Box::new(tree))),
            None => tiles.map(FileCells::Tiles),
        };
        let mut pattern = pattern;
        let (start, source) = match (pattern.as_mut(), loose, self.random) {
            (_, Some(loose), _) => {
                let start = loose
                    .place(universe)
                    .with_context(|| format!("pattern {source}"))?;
                (start, source)
            }
            (Some(p), None, _) if p.states.is_some() => {
                if p.max_state() as u16 >= rule.states() {
                    bail!(
                        "pattern {source} has cells in states up to {}, and rule {rule} has {} (0 to {})",
                        p.max_state(),
                        rule.states(),
                        rule.states() - 1
                    );
                }
                // Multi-state cells travel as tiles, which keep each cell's state.
                let at = place_pattern(p, universe).with_context(|| format!("pattern {source}"))?;
                (Start::Tiles(p.to_tiles(at)), source)
            }
            (Some(p), None, _) => {
                let at = place_pattern(p, universe).with_context(|| format!("pattern {source}"))?;
                // The start holds the cells; the pattern kept beside it is its name and
                // comments (a copy of a large bitmap cost a run's start a few hundred pages).
                let cells = std::mem::replace(&mut p.cells, Grid::new(0, 0));
                (Start::Cells { cells, at }, source)
            }
            (None, None, Some(density)) => {
                let region = match (universe, flag_size) {
                    (
                        Universe::Torus { width, height } | Universe::Bounded { width, height, .. },
                        _,
                    ) => (width, height),
                    (Universe::Plane, Some(s)) => s,
                    (Universe::Plane, None) => (PLANE_SOUP_SIDE, PLANE_SOUP_SIDE),
                    // The soup fills the tube round (the strip across), and as far along as a
                    // square's side.
                    (Universe::Tube(t), _) => match t.sides() {
                        (Some(w), _) => (w, w),
                        (_, h) => (h.unwrap_or(1), h.unwrap_or(1)),
                    },
                };
                (
                    Start::Soup { density, region },
                    format!("random {density} (seed {})", self.seed),
                )
            }
            (None, None, None) => (Start::Empty, "empty universe".to_string()),
        };
        Ok(Simulation {
            rule,
            universe,
            start,
            seed: self.seed,
            source,
            pattern,
            generation,
            from_quadtree,
        })
    }

    fn build_elementary(
        &self,
        rule: Rule,
        size: Option<(u32, u32)>,
        loaded: Option<Loaded>,
    ) -> anyhow::Result<Simulation> {
        let typed_row = self.start.as_deref().and_then(|s| {
            (!matches!(s, "center" | "centre" | "right") && !s.starts_with("random:")).then_some(s)
        });
        let width = match size {
            Some((w, 1)) => w,
            Some((w, h)) => {
                bail!("an elementary rule runs on a ring: give --size as one number, not {w}x{h}")
            }
            None => match (typed_row, &loaded) {
                (Some(row), _) => row.chars().count() as u32,
                (None, Some(l)) => l.pattern.width().max(1),
                (None, None) => DEFAULT_RING,
            },
        };
        let mut grid = Grid::try_new(width, 1)?;
        let source;
        let mut pattern = None;
        if let Some(l) = loaded {
            // Golly saves a one-dimensional rule's space-time diagram, generation by
            // generation downwards: the last row is the state now.
            let cells = &l.pattern.cells;
            let row = if cells.height() > 1 {
                cells.crop(crate::grid::Rect {
                    x: 0,
                    y: cells.height() - 1,
                    width: cells.width(),
                    height: 1,
                })
            } else {
                cells.clone()
            };
            place_centred(&mut grid, &row).with_context(|| format!("pattern {}", l.label))?;
            source = l.label;
            pattern = Some(l.pattern);
        } else if let Some(density) = self.random {
            grid.fill_random(density, self.seed);
            source = format!("random {density} (seed {})", self.seed);
        } else {
            let start = self.start.as_deref().unwrap_or("center");
            grid = crate::pattern::elementary::start_row(width, start, self.seed)
                .map_err(|e| anyhow!("--start {start}: {e}"))?;
            source = format!("start {start}");
        }
        Ok(Simulation {
            rule,
            universe: Universe::torus(width, 1),
            start: Start::Cells {
                cells: grid,
                at: (0, 0),
            },
            seed: self.seed,
            source,
            pattern,
            generation: 0,
            from_quadtree: false,
        })
    }
}

/// Cells in Golly's coordinates (centred on the origin) brought onto a universe: a torus, like
/// Golly's bounded grids, is centred on the origin, and lifelab's runs from 0.
pub fn centre_tiles(tiles: TileMap, universe: Universe) -> TileMap {
    match golly_origin(universe) {
        (0, 0) => tiles,
        (x, y) => tiles.shifted(x, y),
    }
}

/// Where a macrocell file's root is centred in lifelab's coordinates. lifelab puts a root of
/// level L at -2^(L-1) on both axes; Golly's HashLife counts rows upwards, and its root's
/// rows run from 1 - 2^(L-1) (bgolly writes `#CXRLE Pos=0,0`'s cell in the root's row
/// 2^(L-1) - 1). On the plane the whole pattern one row up changes nothing, and the quadtree
/// engines take the file's nodes as they are; where a grid has edges the cells go where
/// Golly has them.
pub fn macrocell_centre(universe: Universe) -> (i64, i64) {
    match golly_origin(universe) {
        _ if universe.is_plane() => (0, 0),
        (x, y) => (x, y + 1),
    }
}

/// Where Golly's origin is in lifelab's coordinates on a universe.
pub fn golly_origin(universe: Universe) -> (i64, i64) {
    match universe {
        Universe::Torus { width, height } | Universe::Bounded { width, height, .. } => {
            ((width / 2) as i64, (height / 2) as i64)
        }
        Universe::Plane => (0, 0),
        Universe::Tube(t) => match t.sides() {
            (Some(w), _) => ((w / 2) as i64, 0),
            (_, h) => (0, (h.unwrap_or(0) / 2) as i64),
        },
    }
}

/// Refuses cells (placed in lifelab's coordinates) beyond a torus or a bounded plane: a
/// quadtree's cells are where the file puts them, and wrapping them round would merge cells
/// that are far apart (an RLE larger than its torus is refused the same way).
pub fn check_inside(bounds: Option<Bounds>, universe: Universe) -> anyhow::Result<()> {
    // A tube's cells must lie round it once: its round side is checked as a torus's is (a
    // strip's across it, as a bounded plane's).
    if let (Universe::Tube(t), Some(b)) = (universe, bounds) {
        let (w, h) = t.sides();
        let (origin_x, origin_y) = golly_origin(universe);
        let beyond =
            |side: Option<u32>, lo: i64, hi: i64| side.is_some_and(|n| lo < 0 || hi >= n as i64);
        if beyond(w, b.left, b.right) || beyond(h, b.top, b.bottom) {
            bail!(
                "the cells span {}x{} from ({}, {}) in Golly's coordinates, {} {}",
                b.width(),
                b.height(),
                b.left - origin_x,
                b.top - origin_y,
                if t.is_strip() {
                    "beyond"
                } else {
                    "more than once round"
                },
                universe.describe()
            );
        }
        return Ok(());
    }
    let (Some((w, h)), Some(b)) = (universe.size(), bounds) else {
        return Ok(());
    };
    if b.left < 0 || b.top < 0 || b.right >= w as i64 || b.bottom >= h as i64 {
        bail!(
            "the cells span {}x{} from ({}, {}) in Golly's coordinates, beyond {} (which spans {}..{} by {}..{} there)",
            b.width(),
            b.height(),
            b.left - (w / 2) as i64,
            b.top - (h / 2) as i64,
            universe.describe(),
            -((w / 2) as i64),
            w as i64 - (w / 2) as i64,
            -((h / 2) as i64),
            h as i64 - (h / 2) as i64,
        );
    }
    Ok(())
}

/// Where a pattern goes: centred on a torus (refused when larger than it), centred on the
/// origin on the plane.
pub fn place(cells: &Grid, universe: Universe) -> anyhow::Result<Start> {
    Ok(Start::Cells {
        cells: cells.clone(),
        at: place_at(cells, universe)?,
    })
}

/// Where a pattern file's rectangle goes: where the file says on its bounded plane (an MCell
/// board), else as [`place`] puts it.
pub fn place_pattern(p: &Pattern, universe: Universe) -> anyhow::Result<(i64, i64)> {
    match (universe, p.origin) {
        (Universe::Bounded { width, height, .. }, Some(at)) => {
            // A live cell beyond the grid would wrap as on a torus: refused, as an RLE larger
            // than its torus is.
            if let Some(b) = p.cells.bounding_box() {
                let (left, top) = (at.0 + b.x as i64, at.1 + b.y as i64);
                let (right, bottom) = (left + b.width as i64, top + b.height as i64);
                if left < 0 || top < 0 || right > width as i64 || bottom > height as i64 {
                    bail!(
                        "the file puts its live cells at {}..{} by {}..{} in Golly's coordinates (its #CXRLE position or MCell board), beyond {}",
                        left - (width / 2) as i64,
                        right - (width / 2) as i64,
                        top - (height / 2) as i64,
                        bottom - (height / 2) as i64,
                        universe.describe()
                    );
                }
            }
            Ok(at)
        }
        _ => place_at(&p.cells, universe),
    }
}

/// Where [`place`] puts a pattern's top-left corner.
pub fn place_at(cells: &Grid, universe: Universe) -> anyhow::Result<(i64, i64)> {
    Ok(match universe {
        Universe::Torus { width, height } => {
            if cells.width() > width || cells.height() > height {
                bail!(
                    "the pattern is {}x{}, larger than the {width}x{height} torus",
                    cells.width(),
                    cells.height()
                );
            }
            (
                (width.saturating_sub(cells.width()) / 2) as i64,
                (height.saturating_sub(cells.height()) / 2) as i64,
            )
        }
        // Golly centres a pattern on the origin, and its other bounded grids too.
        Universe::Bounded { width, height, .. } => {
            if cells.width() > width || cells.height() > height {
                bail!(
                    "the pattern is {}x{}, larger than {}",
                    cells.width(),
                    cells.height(),
                    universe.describe()
                );
            }
            (
                (width / 2) as i64 - (cells.width() / 2) as i64,
                (height / 2) as i64 - (cells.height() / 2) as i64,
            )
        }
        Universe::Plane => (-(cells.width() as i64 / 2), -(cells.height() as i64 / 2)),
        // Round a tube as on a torus, across a strip as on a bounded plane, along either as on
        // the plane.
        Universe::Tube(t) => {
            let (w, h) = t.sides();
            let fits = |side: Option<u32>, n: u32| side.is_none_or(|s| n <= s);
            if !fits(w, cells.width()) || !fits(h, cells.height()) {
                bail!(
                    "the pattern is {}x{}, larger {} than {}",
                    cells.width(),
                    cells.height(),
                    if t.is_strip() { "across" } else { "round" },
                    universe.describe()
                );
            }
            let at = |side: Option<u32>, n: u32| match side {
                Some(s) if t.is_strip() => (s / 2) as i64 - (n / 2) as i64,
                Some(s) => (s.saturating_sub(n) / 2) as i64,
                None => -(n as i64 / 2),
            };
            (at(w, cells.width()), at(h, cells.height()))
        }
    })
}

impl Simulation {
    /// Live cells at the start (a soup's is its expected count).
    pub fn population(&self) -> u64 {
        match &self.start {
            Start::Empty => 0,
            Start::Cells { cells, .. } => cells.population(),
            Start::Soup { density, region } => (density * region.0 as f64 * region.1 as f64) as u64,
            Start::Tiles(t) => t.population(),
            Start::Quadtree(q) => q.population,
        }
    }

    /// Cells in the box around the start's live cells.
    pub fn span(&self) -> u64 {
        match &self.start {
            Start::Empty => 0,
            Start::Cells { cells, .. } => cells.cells(),
            Start::Soup { region, .. } => region.0 as u64 * region.1 as u64,
            Start::Tiles(t) => t
                .bounds()
                .map_or(0, |b| b.width().saturating_mul(b.height())),
            Start::Quadtree(q) => q.bounds.map_or(0, |b| b.width().saturating_mul(b.height())),
        }
    }

    pub fn workload(&self, generations: u64) -> Workload {
        Workload {
            generations,
            population: self.population(),
            span: self.span(),
            stride: 0,
            from_quadtree: self.from_quadtree,
        }
    }

    /// What to ask the registry for, to run `generations`.
    pub fn request(&self, generations: u64) -> Request {
        Request::new(self.rule, self.universe)
            .with_seed(self.seed)
            .with_workload(self.workload(generations))
    }

    /// Writes the start into a fresh engine and sets its generation.
    pub fn load_into(&self, engine: &mut dyn Engine) -> EngineResult<()> {
        engine.clear()?;
        match &self.start {
            Start::Empty => {}
            Start::Cells { cells, at } => engine.put(cells, *at, Put::Or)?,
            Start::Soup { density, region } => {
                let mut g = Grid::try_new(region.0, region.1)?;
                g.fill_random(*density, self.seed);
                let at = match self.universe {
                    Universe::Torus { .. } | Universe::Bounded { .. } | Universe::Tube(_) => (0, 0),
                    Universe::Plane => (-(region.0 as i64 / 2), -(region.1 as i64 / 2)),
                };
                engine.put(&g, at, Put::Or)?;
            }
            Start::Tiles(t) => engine.import(t)?,
            Start::Quadtree(q) => engine.import_quadtree(&q.tree, q.centre)?,
        }
        engine.set_generation(self.generation);
        Ok(())
    }

    /// The start as tiles, placed as an engine places it: a throwaway CPU engine of the
    /// registry does the placing.
    pub fn start_tiles(&self) -> EngineResult<crate::tiles::TileMap> {
        let mut request = self.request(0);
        request.options.forbid_gpu = true;
        let (mut e, _) = crate::registry::create("auto", &request)?;
        self.load_into(e.as_mut())?;
        e.export()
    }

    /// The whole torus at the start, as one grid (the reference engine and the checks use it).
    pub fn start_grid(&self) -> anyhow::Result<Grid> {
        let (w, h) = self.universe.size().ok_or_else(|| {
            anyhow!(
                "{} has no whole grid (a check compares engines on a torus or a bounded plane)",
                self.universe.describe()
            )
        })?;
        let mut g = Grid::try_new(w, h)?;
        match &self.start {
            Start::Empty => {}
            Start::Cells { cells, at } => {
                crate::engine::dense::put(&mut g, cells, *at, Put::Or);
            }
            Start::Soup { density, .. } => g.fill_random(*density, self.seed),
            Start::Tiles(t) => crate::engine::dense::import(&mut g, t),
            Start::Quadtree(q) => crate::engine::dense::import(&mut g, &q.to_tiles()?),
        }
        Ok(g)
    }

    /// Makes an engine (`wanted`: a name or `auto`) for `generations` and loads the start.
    pub fn engine(
        &self,
        wanted: &str,
        generations: u64,
        options: crate::registry::Options,
    ) -> anyhow::Result<(Box<dyn Engine>, crate::registry::Choice)> {
        let mut request = self.request(generations);
        request.options = options;
        let (mut engine, choice) = crate::registry::create(wanted, &request)?;
        self.load_into(engine.as_mut())
            .with_context(|| format!("{} on the {} engine", self.source, choice.engine))?;
        Ok((engine, choice))
    }
}

/// A pattern as loaded: the file's or library's, its label, and for macrocell files (and RLE
/// files too spread out for one bitmap) the generation and the cells as tiles, in Golly's
/// coordinates: centred on the origin.
pub struct Loaded {
    pub pattern: Pattern,
    pub label: String,
    pub generation: u64,
    pub tiles: Option<TileMap>,
    /// A macrocell file's quadtree, in Golly's coordinates.
    pub quadtree: Option<Macrocell>,
}

/// An RLE file whose one bitmap would take more than this is read as tiles.
const SPARSE_RLE_BYTES: u64 = 64 << 20;

/// A library name, or a path to a pattern file.
pub fn resolve_pattern(name: &str) -> anyhow::Result<Loaded> {
    if let Some(soup) = name.strip_prefix("census:") {
        return census_soup(name, soup);
    }
    let path = Path::new(name);
    if path.exists() || name.contains(['/', '\\']) || pattern::Format::from_path(path).is_some() {
        // Rule files beside the pattern come first, as in Golly.
        let folder = path.parent().unwrap_or(Path::new("."));
        return crate::rule::loader::in_folder(folder, || resolve_file(name, path));
    }
    library::get(name)
        .map(|p| Loaded {
            pattern: p,
            label: name.to_string(),
            generation: 0,
            tiles: None,
            quadtree: None,
        })
        .ok_or_else(|| {
            anyhow!(
                "--pattern {name}: no such file, and no library pattern of that name (the library has {})",
                library::names().join(", ")
            )
        })
}

/// `census:ROOT:INDEX` or `census:SYMMETRY:ROOT:INDEX`: the census's soup, in the rule the
/// session is given (a census soup has no rule of its own).
fn census_soup(name: &str, soup: &str) -> anyhow::Result<Loaded> {
    let parts: Vec<&str> = soup.split(':').collect();
    let (symmetry, root, index) = match parts[..] {
        [root, index] => (crate::census::Symmetry::C1, root, index),
        [symmetry, root, index] => (
            symmetry
                .parse()
                .map_err(|e: String| anyhow!("--pattern {name}: {e}"))?,
            root,
            index,
        ),
        _ => bail!(
            "--pattern {name}: a census soup is census:ROOT:INDEX or census:SYMMETRY:ROOT:INDEX"
        ),
    };
    let index: u64 = index.parse().map_err(|_| {
        anyhow!("--pattern {name}: the soup number '{index}' is not a whole number")
    })?;
    let seed = format!("{root}{index}");
    let cells = crate::census::soup::hashsoup(&seed, symmetry);
    let mut pattern =
        crate::census::soup::soup_pattern(&cells, Rule::life(), format!("{seed} ({symmetry})"));
    pattern.rule = None;
    Ok(Loaded {
        pattern,
        label: name.to_string(),
        generation: 0,
        tiles: None,
        quadtree: None,
    })
}

/// A pattern file, read whole (a large RLE or a macrocell file as tiles).
fn resolve_file(name: &str, path: &Path) -> anyhow::Result<Loaded> {
    let parse_error = |error| pattern::LoadError::Parse {
        path: path.to_path_buf(),
        error,
    };
    let bytes = pattern::read_file(path)?;
    let text = pattern::utf8(&bytes).map_err(parse_error)?;
    let format = pattern::Format::sniff(text);
    let hint = pattern::Format::from_path(path);
    let mut tiles = None;
    let pattern = if format == pattern::Format::Macrocell && !pattern::is_mcell(text) {
        return load_macrocell(text, path);
    } else if format == pattern::Format::Rle
        && hint != Some(pattern::Format::Cells)
        && !pattern::is_mcell(text)
    {
        // Read once: a large bitmap goes to tiles, the rest is what `parse_bytes` would make.
        let parsed = pattern::rle::read(text).map_err(parse_error)?;
        if parsed.bitmap_bytes() > SPARSE_RLE_BYTES {
            let (w, h) = (parsed.width as i64, parsed.height as i64);
            let (p, t) = parsed.into_tiles();
            tiles = Some(t.shifted(-w / 2, -h / 2));
            p
        } else {
            parsed.into_pattern().map_err(parse_error)?
        }
    } else {
        // Parsed from the bytes already read: a pipe can be read only once.
        pattern::parse_bytes(&bytes, hint).map_err(parse_error)?
    };
    Ok(Loaded {
        pattern,
        label: name.to_string(),
        generation: 0,
        tiles,
        quadtree: None,
    })
}

/// A macrocell file, kept as its quadtree.
fn load_macrocell(text: &str, path: &Path) -> anyhow::Result<Loaded> {
    let mc = pattern::macrocell::parse(text).map_err(|error| pattern::LoadError::Parse {
        path: path.to_path_buf(),
        error,
    })?;
    let mut p = Pattern::new(Grid::new(0, 0));
    p.rule = mc.rule;
    p.comments = mc.comments.clone();
    Ok(Loaded {
        pattern: p,
        label: path.display().to_string(),
        generation: mc.generation,
        tiles: None,
        quadtree: Some(mc),
    })
}

/// `4096x4096`, `4096` (square, or a ring for elementary rules), `31x7`.
pub fn parse_size(text: &str, elementary: bool) -> anyhow::Result<(u32, u32)> {
    let dim = |what: &str, s: &str| -> anyhow::Result<u64> {
        s.trim()
            .parse::<u64>()
            .map_err(|_| anyhow!("--size {text}: {what} '{s}' is not a whole number"))
    };
    let (w, h) = match text.split_once(['x', 'X']) {
        Some((w, h)) => (dim("width", w)?, dim("height", h)?),
        None => {
            let n = dim("size", text)?;
            (n, if elementary { 1 } else { n })
        }
    };
    Grid::check_torus_dimensions(w, h).with_context(|| format!("--size {text}"))?;
    Ok((w as u32, h as u32))
}

/// A torus twice the pattern's size (at least the default), rounded up to a multiple of 64.
pub fn default_size(w: u32, h: u32) -> (u32, u32) {
    let side = |n: u32| (n.saturating_mul(2)).next_multiple_of(64).max(DEFAULT_SIDE);
    (side(w), side(h))
}

/// Centres `cells` on `grid` (a whole torus).
pub fn place_centred(grid: &mut Grid, cells: &Grid) -> anyhow::Result<()> {
    if cells.width() > grid.width() || cells.height() > grid.height() {
        bail!(
            "the pattern is {}x{}, larger than the {}x{} torus",
            cells.width(),
            cells.height(),
            grid.width(),
            grid.height()
        );
    }
    let (x, y) = grid.centre_offset(cells.width(), cells.height());
    grid.paste(cells, x, y);
    Ok(())
}
