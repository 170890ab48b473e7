//! The engine seam, modelled on Golly's `lifealgo`: everything the app, the command line and the
//! analysis need from a simulation, without assuming a dense grid. The reference, fast, tile,
//! HashLife and GPU engines sit behind it; `registry` lists them and chooses one.
//!
//! Coordinates are `i64`: on a torus they wrap (any integer names a cell), on the unbounded
//! plane they are where the cell is. A dense grid or GPU buffers are capabilities that some
//! engines have ([`Engine::dense`], [`Engine::view_source`]), never something a caller may assume.

pub mod dense;

pub use crate::geometry::{Bounds, CellRect, Edges, Tube};

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub use crate::grid::Census;
use crate::grid::{Grid, GridError};
use crate::pattern::macrocell::Macrocell;
use crate::rule::Rule;
use crate::tiles::TileMap;

/// Where the cells live.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Universe {
    /// A `width x height` torus: the left edge touches the right, the top the bottom.
    Torus { width: u32, height: u32 },
    /// The unbounded plane, as in Golly's default universe.
    Plane,
    /// Golly's bounded grids but the plain torus: a `width x height` rectangle with nothing
    /// beyond its edges (the bounded plane `:P<w>,<h>`), or whose edges are joined as `edges`
    /// says (a shifted torus, a Klein bottle, the cross-surface, the sphere).
    Bounded {
        width: u32,
        height: u32,
        edges: Edges,
    },
    /// Golly's infinite tube (`:T0,<h>`, `:T<w>,0`): wrapped one way, unbounded the other.
    Tube(Tube),
}

impl Universe {
    pub fn torus(width: u32, height: u32) -> Self {
        Universe::Torus { width, height }
    }

    /// The size of a torus or a bounded plane, or `None` on the unbounded plane.
    pub fn size(self) -> Option<(u32, u32)> {
        match self {
            Universe::Torus { width, height } | Universe::Bounded { width, height, .. } => {
                Some((width, height))
            }
            Universe::Plane | Universe::Tube(_) => None,
        }
    }

    /// The tube, on Golly's infinite tube.
    pub fn tube(self) -> Option<Tube> {
        match self {
            Universe::Tube(t) => Some(t),
            _ => None,
        }
    }

    /// Without a bound in some direction (the plane, a tube, a strip): a B0 rule is emulated
    /// there as Golly does, and only the sparse engines run it.
    pub fn is_unbounded(self) -> bool {
        matches!(self, Universe::Plane | Universe::Tube(_))
    }

    /// The finite sides, as (width, height): a torus's or bounded grid's both, a tube's or
    /// strip's one.
    pub fn finite_sides(self) -> (Option<u32>, Option<u32>) {
        match self {
            Universe::Torus { width, height } | Universe::Bounded { width, height, .. } => {
                (Some(width), Some(height))
            }
            Universe::Tube(t) => t.sides(),
            Universe::Plane => (None, None),
        }
    }

    /// Whether an edge ends the universe in dead cells (the bounded plane, a strip): no B0
    /// rule is emulated there, as it is where nothing bounds the plane.
    pub fn has_dead_edge(self) -> bool {
        self.is_bounded_plane() || self.tube().is_some_and(|t| t.is_strip())
    }

    /// The sides that wrap round, as (width, height): a torus's both, a tube's one.
    pub fn wrapped_sides(self) -> (Option<u32>, Option<u32>) {
        match self {
            Universe::Torus { width, height } => (Some(width), Some(height)),
            Universe::Tube(t) => t.wrapped_sides(),
            Universe::Plane | Universe::Bounded { .. } => (None, None),
        }
    }

    /// Refuses Golly's infinite tube, for an engine that has no wrap along one side only (the
    /// tile engine has).
    pub fn refuse_tube(self, engine: &str) -> EngineResult<()> {
        match self {
            Universe::Tube(t) => Err(EngineError::Unsupported(format!(
                "the {engine} engine does not run {}; the tile engine runs it for a two-state rule",
                t.describe()
            ))),
            _ => Ok(()),
        }
    }

    /// How a bounded grid's edges are joined; `None` on the plain torus and the plane.
    pub fn edges(self) -> Option<Edges> {
        match self {
            Universe::Bounded { edges, .. } => Some(edges),
            _ => None,
        }
    }

    /// A bounded grid whose edges are joined (a shifted torus, a Klein bottle, the
    /// cross-surface, the sphere): only the reference engine has Golly's border for it.
    pub fn has_joined_edges(self) -> bool {
        self.edges().is_some_and(|e| e != Edges::Plane)
    }

    /// The torus size, or `None` on a plane, bounded or not.
    pub fn torus_size(self) -> Option<(u32, u32)> {
        match self {
            Universe::Torus { width, height } => Some((width, height)),
            _ => None,
        }
    }

    /// Golly's bounded plane, or another bounded grid but the plain torus (see
    /// [`Universe::has_joined_edges`]): the engines built for the torus and the plane refuse both.
    pub fn is_bounded_plane(self) -> bool {
        matches!(self, Universe::Bounded { .. })
    }

    /// Cells in the universe (`None`: unbounded).
    pub fn cells(self) -> Option<u64> {
        self.size().map(|(w, h)| w as u64 * h as u64)
    }

    pub fn is_plane(self) -> bool {
        self == Universe::Plane
    }

    /// `a 4096x4096 torus`, `the unbounded plane`.
    pub fn describe(self) -> String {
        match self {
            Universe::Torus { width, height } => format!("a {width}x{height} torus"),
            Universe::Plane => "the unbounded plane".to_string(),
            Universe::Tube(t) => t.describe(),
            Universe::Bounded {
                width,
                height,
                edges,
            } => format!(
                "a {width}x{height} {} (Golly's {})",
                edges.name(),
                edges.suffix(width, height)
            ),
        }
    }

    /// Both sides powers of two (HashLife tiles such a torus exactly).
    pub fn is_power_of_two_torus(self) -> bool {
        self.torus_size()
            .is_some_and(|(w, h)| w.is_power_of_two() && h.is_power_of_two())
    }

    /// The cell (x, y) brought into the universe: wrapped on a torus, as is on a plane.
    pub fn wrap(self, x: i64, y: i64) -> (i64, i64) {
        match self {
            Universe::Torus { width, height } => {
                (x.rem_euclid(width as i64), y.rem_euclid(height as i64))
            }
            Universe::Tube(t) => t.wrap(x, y),
            Universe::Plane | Universe::Bounded { .. } => (x, y),
        }
    }

    /// Refuses, for an engine that has no border for them, Golly's bounded grids whose edges
    /// are joined (the reference engine has).
    pub fn refuse_joined_edges(self, engine: &str) -> EngineResult<()> {
        if self.has_joined_edges() {
            return Err(EngineError::Unsupported(format!(
                "the {engine} engine has no border for {}; the reference engine runs it",
                self.describe()
            )));
        }
        Ok(())
    }

    /// Whether the cell (x, y) can be alive: anywhere but beyond a bounded plane's or a
    /// strip's edges (a torus or a tube wraps every cell onto it).
    pub fn holds(self, x: i64, y: i64) -> bool {
        match self {
            Universe::Bounded { width, height, .. } => {
                (0..width as i64).contains(&x) && (0..height as i64).contains(&y)
            }
            Universe::Tube(t) => t.holds(x, y),
            Universe::Torus { .. } | Universe::Plane => true,
        }
    }
}

/// The fraction of live cells in each `block x block` square of a rectangle, one byte each
/// (0 = empty, 255 = full), row by row: what the viewer draws when zoomed out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sampled {
    pub columns: u32,
    pub rows: u32,
    pub block: u32,
    pub values: Vec<u8>,
}

/// A block's sample: its live share of 255, rounded down, but never 0 for a block with a live
/// cell in it. A glider alone in a block of 2^20 cells still shows, as Golly draws any block
/// with a live cell when zoomed out.
pub fn sample_value(live: u64, cells: u64) -> u8 {
    match live {
        0 => 0,
        n => (n.min(cells) * 255 / cells.max(1)).max(1) as u8,
    }
}

impl Sampled {
    pub fn value(&self, column: u32, row: u32) -> u8 {
        self.values[(row * self.columns + column) as usize]
    }
}

/// How [`Engine::put`] writes a bitmap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Put {
    /// Live cells of the bitmap become alive; the others keep their state (a paste).
    Or,
    /// The rectangle becomes exactly the bitmap, dead cells included.
    Replace,
    /// Live cells of the bitmap become dead (an erase).
    Erase,
}

/// Progress and cancellation of long work, shared between the thread doing it and the one
/// watching. Work stops at a consistent point (a whole generation) when cancelled, or when an
/// engine that counts its work has done as much as [`Progress::stop_at_work`] allows.
#[derive(Debug, Default)]
pub struct Progress {
    cancel: AtomicBool,
    done: AtomicU64,
    total: AtomicU64,
    /// The engine's [`Engine::work`] count at which it stops; 0: no limit.
    work_limit: AtomicU64,
    /// An estimate of the generations done inside the step in progress, for display only: a
    /// jumping engine's step of 2^k generations counts in `done` only once whole.
    within: AtomicU64,
}

impl Progress {
    pub fn new(total: u64) -> Self {
        let p = Self::default();
        p.total.store(total, Ordering::Relaxed);
        p
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Asks the work to stop, as if cancelled, once the engine's [`Engine::work`] count has
    /// reached `count` (at least 1): `auto`'s trial gives up on HashLife as soon as it has made
    /// more nodes than could win. An engine that does not count its work, or cannot stop inside
    /// a step, goes on.
    pub fn stop_at_work(&self, count: u64) {
        self.work_limit.store(count.max(1), Ordering::Relaxed);
    }

    /// Whether the work is cancelled, or an engine whose work count is `work` has reached its
    /// limit.
    pub fn stops_at(&self, work: u64) -> bool {
        let limit = self.work_limit.load(Ordering::Relaxed);
        self.cancelled() || (limit != 0 && work >= limit)
    }

    pub fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
        self.within.store(0, Ordering::Relaxed);
    }

    /// Sets the estimate of the generations done inside the step in progress (see
    /// [`Progress::estimate`]); the next [`Progress::advance`] clears it.
    pub fn set_within(&self, n: u64) {
        self.within.store(n, Ordering::Relaxed);
    }

    /// (done, total) for a progress bar: the generations done and an estimate of those done
    /// inside the step in progress, never past the total. A HashLife jump of 2^20 generations
    /// would otherwise show nothing until it ends.
    pub fn estimate(&self) -> (u64, u64) {
        let (done, total) = self.get();
        let within = self.within.load(Ordering::Relaxed);
        (done.saturating_add(within).min(total.max(done)), total)
    }

    pub fn set_done(&self, n: u64) {
        self.done.store(n, Ordering::Relaxed);
        self.within.store(0, Ordering::Relaxed);
    }

    pub fn set_total(&self, n: u64) {
        self.total.store(n, Ordering::Relaxed);
    }

    /// (done, total).
    pub fn get(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }
}

/// A jumping engine's estimate of how far its step of 2^k generations has got, for
/// [`Progress::set_within`]: HashLife's recursion needs 9 sub-results of each node (13 where
/// the node's step is its whole reach), and the share done is counted over the nodes of the
/// first [`StepTally::DEPTH`] levels below the step's root, some two thousand parts, of which a
/// memoised or empty one is done at once. The parts count alike, so the estimate is of the
/// share of the work, which is only roughly that of the generations. A node is placed by its
/// level alone, so the deep recursion, where nearly all of the step's results are, pays one
/// comparison a result. Both HashLifes keep one.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepTally {
    /// The level of the step's root.
    top: u8,
    /// For the nodes of the levels just below the root's, the parts done of those the node
    /// needs.
    parts: [(u8, u8); StepTally::DEPTH],
    /// The generations of the step in progress.
    generations: u64,
}

impl StepTally {
    const DEPTH: usize = 3;

    /// A step of `generations` begins from a root of level `top`.
    pub fn start(&mut self, generations: u64, top: u8) {
        *self = StepTally {
            top,
            generations,
            ..Default::default()
        };
    }

    /// Where a node of `level` counts: its depth below the root.
    #[inline(always)]
    fn depth(&self, level: u8) -> Option<usize> {
        let d = self.top.checked_sub(level)? as usize;
        (d < Self::DEPTH).then_some(d)
    }

    /// The recursion begins a node of `level` that needs `parts` sub-results.
    #[inline(always)]
    pub fn enter(&mut self, level: u8, parts: u8) {
        if let Some(d) = self.depth(level) {
            self.parts[d] = (0, parts.max(1));
        }
    }

    /// A sub-result of the node of `level` the recursion is in is done: where the level
    /// counts, the estimate moves on.
    #[inline(always)]
    pub fn part_done(&mut self, level: u8, progress: Option<&Progress>) {
        if let (Some(d), Some(progress)) = (self.depth(level), progress) {
            self.report(d, progress);
        }
    }

    #[cold]
    fn report(&mut self, d: usize, progress: &Progress) {
        self.parts[d].0 += 1;
        let (mut share, mut scale) = (0.0, 1.0);
        for &(done, of) in &self.parts[..=d] {
            scale /= of.max(1) as f64;
            share += done as f64 * scale;
        }
        progress.set_within((share * self.generations as f64) as u64);
    }
}

/// Why no GPU device could be opened (the adapters are the GPU module's; the error is the
/// seam's, since any engine request may meet it).
#[cfg(feature = "gpu")]
#[derive(Clone, Debug, thiserror::Error)]
pub enum GpuError {
    #[error(
        "no GPU adapter found (wgpu found {searched}; on Debian, \
         `apt-get install mesa-vulkan-drivers libvulkan1` provides lavapipe, a software one)"
    )]
    NoAdapter { searched: String },
    #[error("no GPU adapter's name contains '{wanted}' (adapters: {available})")]
    NoMatch { wanted: String, available: String },
    #[error("could not open the GPU device {adapter}: {reason}")]
    Device { adapter: String, reason: String },
}

#[cfg(feature = "gpu")]
impl GpuError {
    /// No adapter, naming the backends searched: those WGPU_BACKEND names, when it is set.
    pub fn no_adapter() -> Self {
        let searched = match std::env::var("WGPU_BACKEND") {
            Ok(b) if !b.is_empty() => format!("no device for WGPU_BACKEND={b}"),
            _ => "no Vulkan, Metal, DX12 or OpenGL device".to_string(),
        };
        GpuError::NoAdapter { searched }
    }
}

/// Why an engine could not go on.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the GPU device was lost: {0}")]
    DeviceLost(String),
    #[error("the GPU ran out of memory: {0}")]
    OutOfMemory(String),
    #[error("GPU error: {0}")]
    Gpu(String),
    /// No adapter, or none of the name asked for.
    #[cfg(feature = "gpu")]
    #[error(transparent)]
    Adapter(#[from] GpuError),
    /// A grid the system cannot hold.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// Memory the engine would need and the system does not have.
    #[error(transparent)]
    Memory(#[from] crate::memory::MemoryError),
    /// The engine cannot run this rule or universe (the message says why).
    #[error("{0}")]
    Unsupported(String),
    /// The engine does not know that name.
    #[error("{0}")]
    Unavailable(String),
    /// The work was cancelled before it finished.
    #[error("cancelled")]
    Cancelled,
}

pub type EngineResult<T> = Result<T, EngineError>;

/// Work done, counted by the engines that count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// 64x64 tiles computed, one per tile per generation (the rule-tree and tile engines).
    TilesComputed(u64),
    /// Quadtree nodes made, each a hash-table insert and at its lowest level a few cells of
    /// the rule (HashLife, two-state and N-state); a pattern that repeats makes few, a gas many.
    NodesMade(u64),
}

impl Work {
    /// The nodes made, where this is a HashLife's count.
    pub fn nodes_made(self) -> Option<u64> {
        match self {
            Work::NodesMade(n) => Some(n),
            Work::TilesComputed(_) => None,
        }
    }

    /// The tiles computed, where this is a tile engine's count.
    pub fn tiles_computed(self) -> Option<u64> {
        match self {
            Work::TilesComputed(t) => Some(t),
            Work::NodesMade(_) => None,
        }
    }
}

/// What kind of engine one is, as the session's and the registry's policies need it: a GPU
/// engine can fail under a run and be replaced from a checkpoint; a dense one holds a whole
/// torus; a sparse one computes only where cells change; HashLife jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The plain oracle.
    Reference,
    /// A dense torus on the CPU.
    Dense,
    /// Sparse tiles, computed where something changed.
    Tiles,
    /// A memoised quadtree.
    HashLife,
    /// On the GPU.
    Gpu,
    /// Golly's Generations rules: live, dying and dead cells in bit planes.
    Generations,
    /// A rule file's tree (Golly's RuleLoader), a byte per cell.
    RuleTree,
    /// Larger than Life: a byte per cell, counts from prefix sums.
    LargerThanLife,
    /// Any other (an engine registered at run time).
    Other,
}

impl EngineKind {
    pub fn on_gpu(self) -> bool {
        self == EngineKind::Gpu
    }
}

/// GPU buffers a renderer can draw the cells from, whichever engine holds them: for each of the
/// engine's states (a ping-pong pair, or one), the buffers of its bands of rows in order.
#[cfg(feature = "gpu")]
#[derive(Clone, Debug)]
pub struct ViewSource {
    pub sets: Vec<Vec<wgpu::Buffer>>,
    /// Rows per band (the last may have fewer).
    pub band_rows: u32,
    /// u32 words per row.
    pub words: u32,
}

/// How a GPU engine dispatches its work, for a benchmark's report: its kernel, and the
/// generations per dispatch of its blocked stretches (which only some kernels have).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dispatch {
    pub kernel: &'static str,
    pub block: u32,
    pub blocked: bool,
}

/// What every engine repeats, kept in one place: its kind and registry name, its rule and its
/// generation. The [`Engine`] trait's defaults read it.
#[derive(Clone, Debug)]
pub struct Core {
    pub kind: EngineKind,
    pub name: &'static str,
    pub rule: Rule,
    pub generation: u64,
}

impl Core {
    pub fn new(kind: EngineKind, name: &'static str, rule: Rule) -> Self {
        Self {
            kind,
            name,
            rule,
            generation: 0,
        }
    }
}

/// A universe of cells under a rule, with a generation counter. Elementary rules treat each row
/// of a torus as an independent ring.
pub trait Engine: Send {
    /// What every engine has: its kind and name, rule and generation.
    fn core(&self) -> &Core;

    fn core_mut(&mut self) -> &mut Core;

    /// The registry name: `reference`, `cpu`, `tiles`, `hashlife`, `gpu`.
    fn name(&self) -> &'static str {
        self.core().name
    }

    fn kind(&self) -> EngineKind {
        self.core().kind
    }

    fn rule(&self) -> &Rule {
        &self.core().rule
    }

    fn universe(&self) -> Universe;

    /// Generations computed since the cells were set (or the count set by `set_generation`).
    fn generation(&self) -> u64 {
        self.core().generation
    }

    fn set_generation(&mut self, generation: u64) {
        self.core_mut().generation = generation;
    }

    /// Advances `generations` generations.
    fn step(&mut self, generations: u64) -> EngineResult<()>;

    /// Advances up to `generations`, in pieces of at most [`Engine::step_piece`], reporting to
    /// `progress` and stopping at a whole generation when it is cancelled. Returns the
    /// generations done.
    fn step_with(&mut self, generations: u64, progress: &Progress) -> EngineResult<u64> {
        let piece = self.step_piece().max(1);
        let mut done = 0;
        while done < generations && !progress.cancelled() {
            let n = piece.min(generations - done);
            self.step(n)?;
            done += n;
            progress.advance(n);
        }
        Ok(done)
    }

    /// Whether the engine's speed comes from long jumps (HashLife), which stepping one
    /// generation at a time for a census would throw away.
    fn jumps(&self) -> bool {
        false
    }

    /// How many generations [`Engine::step_with`] does between looks at its progress.
    fn step_piece(&self) -> u64 {
        1
    }

    /// About how long, in milliseconds, a worker's piece of work on this engine should take:
    /// short enough that an edit waiting for the engine is not kept long.
    fn piece_ms(&self) -> f64 {
        15.0
    }

    fn population(&mut self) -> EngineResult<u64>;

    /// The population and state hash of the current generation (see [`Census`]).
    fn census(&mut self) -> EngineResult<Census>;

    /// Keeps the census hash up to date every generation (period detection), where keeping it
    /// costs something.
    fn track_hash(&mut self, _on: bool) {}

    /// Advances `generations`, appending the census of each new generation to `out`.
    fn step_census(&mut self, generations: u64, out: &mut Vec<Census>) -> EngineResult<()> {
        self.track_hash(true);
        for _ in 0..generations {
            self.step(1)?;
            out.push(self.census()?);
        }
        Ok(())
    }

    /// Whether the cell is not dead (alive, or one of Generations' dying states).
    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool>;

    /// The cell's state: 0 dead, 1 alive, 2.. a dying state of a Generations rule.
    fn state(&mut self, x: i64, y: i64) -> EngineResult<u8> {
        Ok(self.cell(x, y)? as u8)
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()>;

    /// Writes `cells` with its top-left corner at `at`.
    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()>;

    /// Kills every cell.
    fn clear(&mut self) -> EngineResult<()>;

    /// The smallest box holding every live cell (on a torus, in `0..W x 0..H`), `None` when
    /// there is none.
    fn bounds(&mut self) -> EngineResult<Option<Bounds>>;

    /// The cells of a rectangle, as a bitmap of its size.
    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid>;

    /// The state of every cell of a rectangle, row by row (0 dead, 1 alive, 2.. dying): what
    /// the viewer colours under a Generations rule.
    fn states_in(&mut self, rect: CellRect) -> EngineResult<Vec<u8>> {
        let g = self.cells_in(rect)?;
        Ok((0..rect.height)
            .flat_map(|y| (0..rect.width).map(move |x| (x, y)))
            .map(|(x, y)| g.get(x, y) as u8)
            .collect())
    }

    /// Whether reading a view of `rect` (`cells_in`, `states_in`, `sample`) costs what the
    /// rectangle's area does, so that a large one may be read in bands. An engine that reads a
    /// view from its live cells or its nodes says no: each band would cost the whole.
    fn view_costs_area(&self) -> bool {
        true
    }

    /// The live fraction of each `block x block` square of `rect` (`block` a power of two).
    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        sample_by_bands(self, rect, block)
    }

    /// Every live cell, as 64x64 tiles.
    fn export(&mut self) -> EngineResult<TileMap>;

    /// Replaces every cell with `tiles`' (tile coordinates are the universe's).
    fn import(&mut self, tiles: &TileMap) -> EngineResult<()>;

    /// Replaces every cell with a quadtree's, its root centred on `centre`. An engine that
    /// keeps a quadtree takes the nodes as they are, in time that follows their number; the
    /// others get the cells, expanded now that they are to run them.
    fn import_quadtree(&mut self, tree: &Macrocell, centre: (i64, i64)) -> EngineResult<()> {
        self.import(&quadtree_tiles(tree, centre)?)
    }

    /// The cells as a quadtree with its root centred on the origin, where the engine keeps one
    /// (a macrocell file is then written from its nodes, never from its cells).
    fn export_quadtree(&mut self) -> EngineResult<Option<Macrocell>> {
        Ok(None)
    }

    /// The cells as one dense grid, where the engine keeps them so (the CPU viewer draws it).
    fn dense(&self) -> Option<&Grid> {
        None
    }

    /// The GPU buffers that hold the cells, for a renderer to draw from, where the engine
    /// keeps them so that it can.
    #[cfg(feature = "gpu")]
    fn view_source(&self) -> Option<ViewSource> {
        None
    }

    /// How the engine dispatches its work on a GPU.
    fn dispatch(&self) -> Option<Dispatch> {
        None
    }

    /// Which buffer of [`Engine::view_source`]'s sets holds the current state.
    fn current_buffer(&self) -> Option<usize> {
        None
    }

    /// The work the engine has done since it was made, in its own unit (`None`: it does not
    /// count). `auto` compares a tile engine's and a HashLife's on a stretch of a pattern
    /// whose rule makes the choice uncertain (a rule file's, a rule of the 3x3 block).
    fn work(&self) -> Option<Work> {
        None
    }

    /// A sparse engine that keeps its own list of what to compute: the share of its tiles the
    /// next generation computes (`None`: not such an engine).
    fn active_fraction(&mut self) -> EngineResult<Option<f64>> {
        Ok(None)
    }

    /// Advances `generations`, appending the population of each new generation to `out`
    /// (cheaper than [`Engine::step_census`] where the hash costs: the sparse engines keep
    /// their population as they go).
    fn step_populations(&mut self, generations: u64, out: &mut Vec<u64>) -> EngineResult<()> {
        for _ in 0..generations {
            self.step(1)?;
            out.push(self.population()?);
        }
        Ok(())
    }

    /// Waits until every generation asked for has been computed, so that timings mean
    /// something (a no-op on the CPU).
    fn finish(&mut self) -> EngineResult<()> {
        Ok(())
    }

    /// Advances `generations` and returns the device's own time for them where the engine can
    /// measure it (GPU timestamp queries); `None` means: time it on the wall clock.
    fn step_timed(&mut self, generations: u64) -> EngineResult<Option<f64>> {
        self.step(generations)?;
        Ok(None)
    }

    /// A line on what the engine is doing differently from its usual path (a tile engine that
    /// went dense for a B0 rule), for reports.
    fn note(&self) -> Option<String> {
        None
    }

    /// The whole torus as one grid (an error on the plane, which has no size).
    fn grid(&mut self) -> EngineResult<Grid> {
        match self.universe() {
            Universe::Torus { width, height } | Universe::Bounded { width, height, .. } => {
                self.cells_in(CellRect::new(0, 0, width, height))
            }
            Universe::Plane | Universe::Tube(_) => Err(EngineError::Unsupported(format!(
                "{} has no whole grid; ask for a rectangle",
                self.universe().describe()
            ))),
        }
    }

    /// Replaces the whole torus with `grid` (which must have its size) at `generation`.
    fn set_grid(&mut self, grid: &Grid, generation: u64) -> EngineResult<()> {
        if let Universe::Torus { width, height } = self.universe()
            && (grid.width(), grid.height()) != (width, height)
        {
            return Err(EngineError::Unsupported(format!(
                "a {}x{} grid does not fit the {width}x{height} torus",
                grid.width(),
                grid.height()
            )));
        }
        self.put(grid, (0, 0), Put::Replace)?;
        self.set_generation(generation);
        Ok(())
    }
}

/// [`Engine::sample`] through [`Engine::cells_in`], a band of `block` rows at a time, so that a
/// huge rectangle never becomes one huge bitmap.
pub fn sample_by_bands<E: Engine + ?Sized>(
    engine: &mut E,
    rect: CellRect,
    block: u32,
) -> EngineResult<Sampled> {
    let block = block.max(1);
    let columns = rect.width.div_ceil(block);
    let rows = rect.height.div_ceil(block);
    let mut values = vec![0u8; columns as usize * rows as usize];
    for r in 0..rows {
        let y = rect.y + (r * block) as i64;
        let h = block.min(rect.height - r * block);
        let band = engine.cells_in(CellRect::new(rect.x, y, rect.width, h))?;
        let mut counts = vec![0u64; columns as usize];
        for by in 0..h {
            for (k, &w) in band.row(by).iter().enumerate() {
                let mut w = w;
                while w != 0 {
                    let bit = w.trailing_zeros();
                    w &= w - 1;
                    counts[((k as u32 * 64 + bit) / block) as usize] += 1;
                }
            }
        }
        for (c, n) in counts.iter().enumerate() {
            let w = block.min(rect.width - c as u32 * block) as u64;
            values[(r * columns) as usize + c] = sample_value(*n, w * h as u64);
        }
    }
    Ok(Sampled {
        columns,
        rows,
        block,
        values,
    })
}

/// [`Engine::sample`] of an engine that keeps a state per cell, from its cells as tiles
/// ([`sample_tiles`]), or band by band where the rectangle is wider than its torus.
pub fn sample_states<E: Engine + ?Sized>(
    e: &mut E,
    tiles: &TileMap,
    rect: CellRect,
    block: u32,
) -> EngineResult<Sampled> {
    let universe = e.universe();
    match sample_tiles(tiles.iter(), universe, rect, block) {
        Some(s) => Ok(s),
        None => sample_by_bands(e, rect, block),
    }
}

/// [`Engine::sample`] from the live tiles: it costs what the live cells cost, not what the
/// rectangle's area does (a zoomed-out view of the plane after gliders have flown apart spans
/// 10^11 cells, almost all empty). On a torus, each cell is counted at every place where it
/// shows in the rectangle; `None` when the rectangle is wider or taller than the torus (the
/// bands are bounded by the torus then).
pub fn sample_tiles<'a>(
    tiles: impl Iterator<Item = ((i64, i64), &'a crate::tiles::TileBits)>,
    universe: Universe,
    rect: CellRect,
    block: u32,
) -> Option<Sampled> {
    use crate::tiles::TILE;
    // The period of each side: a torus's (or a bounded grid's) both, a tube's round side.
    let period = match universe {
        Universe::Tube(t) => t.wrapped_sides(),
        _ => match universe.size() {
            Some((w, h)) => (Some(w), Some(h)),
            None => (None, None),
        },
    };
    if universe
        .size()
        .is_some_and(|(w, h)| rect.width > w || rect.height > h)
    {
        return None;
    }
    let block = block.max(1);
    let columns = rect.width.div_ceil(block);
    let rows = rect.height.div_ceil(block);
    let mut counts = vec![0u32; columns as usize * rows as usize];
    // Where coordinate `v` (a wrapped coordinate, or any on the plane) shows in `[start, start +
    // len)`: once on the plane, at most twice on a torus (the span is no longer than its side),
    // as many times as the span holds the period round a tube.
    let images = |v: i64, start: i64, len: u32, period: Option<u32>| {
        let (first, step) = match period {
            None => (v, 1),
            Some(p) => (start + (v - start).rem_euclid(p as i64), p as usize),
        };
        let end = if period.is_none() {
            first + 1
        } else {
            start + len as i64
        };
        (first..end.min(start + len as i64))
            .step_by(step)
            .filter(move |&u| u >= start)
            .map(move |u| (u - start) as u32)
    };
    for ((tx, ty), bits) in tiles {
        for (r, &word) in bits.iter().enumerate() {
            if word == 0 {
                continue;
            }
            let y = ty * TILE + r as i64;
            for dy in images(y, rect.y, rect.height, period.1) {
                let row = (dy / block) as usize * columns as usize;
                let mut w = word;
                while w != 0 {
                    let bit = w.trailing_zeros() as i64;
                    w &= w - 1;
                    for dx in images(tx * TILE + bit, rect.x, rect.width, period.0) {
                        counts[row + (dx / block) as usize] += 1;
                    }
                }
            }
        }
    }
    let values = counts
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let (c, r) = (i as u32 % columns, i as u32 / columns);
            let w = block.min(rect.width - c * block) as u64;
            let h = block.min(rect.height - r * block) as u64;
            sample_value(n as u64, w * h)
        })
        .collect();
    Some(Sampled {
        columns,
        rows,
        block,
        values,
    })
}

/// The census word index of the 32-cell word starting at column `32 * word_x` of row `y`: on a
/// torus its index in the dense layout (rows padded to 64-bit words), so that every engine and
/// the GPU agree; on the plane a hash of the position.
pub fn census_index(universe: Universe, word_x: i64, y: i64) -> u32 {
    match universe {
        Universe::Torus { width, .. } | Universe::Bounded { width, .. } => {
            let per_row = width.div_ceil(64) as i64 * 2;
            (y * per_row + word_x) as u32
        }
        Universe::Plane | Universe::Tube(_) => {
            crate::hash::mix32(
                (word_x as u32)
                    ^ crate::hash::mix32((y as u32) ^ ((y >> 32) as u32).rotate_left(7)),
            ) ^ ((word_x >> 32) as u32)
        }
    }
}

/// The census of cells held as tiles (coordinates the universe's). Under a two-state rule it
/// is the census every engine computes; the dying states of a Generations rule add a term per
/// cell, so that the hash tells states apart while the population counts every cell that is
/// not dead, as Golly's does.
pub fn census_of_tiles(universe: Universe, tiles: &TileMap) -> Census {
    let mut sum = CensusSum::default();
    for ((tx, ty), bits) in tiles.iter() {
        for (r, &w) in bits.iter().enumerate() {
            let y = ty * crate::tiles::TILE + r as i64;
            sum.add_word(census_index(universe, tx * 2, y), w as u32);
            sum.add_word(census_index(universe, tx * 2 + 1, y), (w >> 32) as u32);
        }
    }
    for (x, y, state) in tiles.dying_cells() {
        let at = census_index(universe, x.div_euclid(32), y) ^ (x.rem_euclid(32) as u32) << 27;
        let term = crate::hash::mix32(at ^ crate::hash::mix32(state as u32));
        sum.a = sum.a.wrapping_add(term);
        sum.b = sum.b.wrapping_add(crate::hash::mix32(term));
    }
    sum.census()
}

/// Refuses a step whose end lies past the last generation a `u64` counts, which would
/// otherwise wrap to a small generation without a word (a `.mc` at `#G 18446744073709551615`
/// run one more).
pub fn check_reach(generation: u64, gens: u64) -> EngineResult<()> {
    match generation.checked_add(gens) {
        Some(_) => Ok(()),
        None => Err(EngineError::Unsupported(format!(
            "generation {generation} plus {gens} passes {}, the last generation lifelab counts",
            u64::MAX
        ))),
    }
}

/// A quadtree's cells as tiles, its root centred on `centre`, unless they would take more than a
/// quarter of lifelab's memory.
pub fn quadtree_tiles(tree: &Macrocell, centre: (i64, i64)) -> EngineResult<TileMap> {
    let limit = crate::memory::limit();
    let tiles = tree.to_tiles(limit.bytes / 4).map_err(|e| {
        EngineError::Unsupported(format!(
            "{e}, more than a quarter of lifelab's memory ({limit}); HashLife runs a quadtree from its nodes (--engine hashlife)"
        ))
    })?;
    Ok(if centre == (0, 0) {
        tiles
    } else {
        tiles.shifted(centre.0, centre.1)
    })
}

/// Refuses cells in states the rule does not have (a Generations pattern under a two-state
/// rule, or under one with fewer states).
pub fn check_states(rule: &Rule, tiles: &TileMap) -> EngineResult<()> {
    let max = tiles.max_state();
    if max as u16 >= rule.states() {
        return Err(EngineError::Unsupported(format!(
            "the cells have states up to {max}, and rule {rule} has {} (0 to {})",
            rule.states(),
            rule.states() - 1
        )));
    }
    Ok(())
}

/// The cells of `rect` that are not dead, read one by one from an engine that keeps a state
/// per cell (Generations, rule files).
pub fn cells_by_state(rect: CellRect, mut state: impl FnMut(i64, i64) -> u8) -> EngineResult<Grid> {
    let mut g = Grid::try_new_bitmap(rect.width, rect.height)?;
    for y in 0..rect.height {
        for x in 0..rect.width {
            if state(rect.x + x as i64, rect.y + y as i64) != 0 {
                g.set(x, y, true);
            }
        }
    }
    Ok(g)
}

/// The states of `rect`, row by row, read one by one (after a check that they fit).
pub fn states_by_cell(
    rect: CellRect,
    mut state: impl FnMut(i64, i64) -> u8,
) -> EngineResult<Vec<u8>> {
    crate::memory::check(
        || format!("the states of a {}x{} rectangle", rect.width, rect.height),
        rect.width as u64 * rect.height as u64,
    )?;
    let mut out = Vec::with_capacity(rect.width as usize * rect.height as usize);
    for y in 0..rect.height as i64 {
        for x in 0..rect.width as i64 {
            out.push(state(rect.x + x, rect.y + y));
        }
    }
    Ok(out)
}

/// A bitmap put cell by cell into an engine of states: a live cell of it is state 1 (a paste,
/// or the bitmap's rectangle with `Replace`), an erased one 0.
pub fn put_by_cell(cells: &Grid, at: (i64, i64), how: Put, mut set: impl FnMut(i64, i64, u8)) {
    for y in 0..cells.height() {
        for x in 0..cells.width() {
            let alive = cells.get(x, y);
            let (cx, cy) = (at.0 + x as i64, at.1 + y as i64);
            match how {
                Put::Or if alive => set(cx, cy, 1),
                Put::Erase if alive => set(cx, cy, 0),
                Put::Replace => set(cx, cy, alive as u8),
                _ => {}
            }
        }
    }
}

/// Accumulates a [`Census`] from 32-bit words in any order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CensusSum {
    pub population: u64,
    pub a: u32,
    pub b: u32,
}

impl CensusSum {
    #[inline]
    pub fn add_word(&mut self, index: u32, w: u32) {
        if w != 0 {
            self.population += w.count_ones() as u64;
            let (a, b) = crate::grid::census_terms(index, w);
            self.a = self.a.wrapping_add(a);
            self.b = self.b.wrapping_add(b);
        }
    }

    #[inline]
    pub fn remove_word(&mut self, index: u32, w: u32) {
        if w != 0 {
            self.population -= w.count_ones() as u64;
            let (a, b) = crate::grid::census_terms(index, w);
            self.a = self.a.wrapping_sub(a);
            self.b = self.b.wrapping_sub(b);
        }
    }

    pub fn merge(&mut self, o: CensusSum) {
        self.population += o.population;
        self.a = self.a.wrapping_add(o.a);
        self.b = self.b.wrapping_add(o.b);
    }

    pub fn census(self) -> Census {
        Census {
            population: self.population,
            hash: self.a as u64 | (self.b as u64) << 32,
        }
    }
}
