//! The engines lifelab has, in one table: each entry says what it supports, what a workload
//! would cost on it, what memory it would take, and how to make one. Every caller (the command
//! line, the app, the analysis) makes engines here, by name or with `auto`, which takes the
//! cheapest entry and says why. A new engine is one more entry (or a [`register`] call).

mod beside;
mod switching;

use std::sync::RwLock;

pub use switching::Switching;

use crate::engine::{Engine, EngineError, EngineKind, EngineResult, Universe};
use crate::rule::Rule;

/// What an engine is asked to run.
#[derive(Clone, Debug)]
pub struct Request {
    pub rule: Rule,
    pub universe: Universe,
    /// Drives stochastic rules.
    pub seed: u64,
    pub workload: Workload,
    pub options: Options,
}

/// What the run will look like, for the cost model.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Workload {
    /// Generations the run is expected to take (a guess is fine).
    pub generations: u64,
    /// Live cells at the start.
    pub population: u64,
    /// Cells in the bounding box of the live cells at the start.
    pub span: u64,
    /// Generations between the looks the caller takes (1: every generation, as an analysis
    /// does); 0: only at the end. HashLife gains nothing from a jump that short.
    pub stride: u64,
    /// The start came as a quadtree (a macrocell file): a pattern made or saved for HashLife,
    /// as Golly keeps HashLife for `.mc` files, however many cells it has (Golly's metapixel
    /// and hexadecimal demos, millions of cells in repeated blocks).
    pub from_quadtree: bool,
}

/// A span in words: the count saturates at `u64::MAX`, which means that many or more (two
/// cells 2^40 apart on the plane span 2^80).
fn span_text(span: u64) -> String {
    if span == u64::MAX {
        format!("{span} cells or more")
    } else {
        format!("{span} cells")
    }
}

/// Options some engines take.
#[derive(Clone, Default)]
pub struct Options {
    /// The GPU engine's shader and banding.
    #[cfg(feature = "gpu")]
    pub gpu: crate::gpu::LifeOptions,
    /// The device GPU engines run on (the app's); `None`: the process's shared one.
    #[cfg(feature = "gpu")]
    pub context: Option<crate::gpu::GpuContext>,
    /// Keeps the GPU out (CPU mode, or after the GPU failed).
    pub forbid_gpu: bool,
    /// HashLife's node cache, in bytes (`None`: a share of the memory available).
    pub memory: Option<u64>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("forbid_gpu", &self.forbid_gpu)
            .field("memory", &self.memory)
            .finish_non_exhaustive()
    }
}

impl Request {
    pub fn new(rule: Rule, universe: Universe) -> Self {
        Self {
            rule,
            universe,
            seed: 0,
            workload: Workload::default(),
            options: Options::default(),
        }
    }

    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    pub fn with_workload(mut self, workload: Workload) -> Self {
        self.workload = workload;
        self
    }

    /// Cells in the universe, or those a sparse engine would touch on the plane.
    fn cells(&self) -> f64 {
        self.universe.cells().unwrap_or(u64::MAX) as f64
    }

    fn describe(&self) -> String {
        format!("rule {} on {}", self.rule, self.universe.describe())
    }
}

/// An estimate of the time a workload takes, and the one line that explains it.
#[derive(Clone, Debug, PartialEq)]
pub struct Cost {
    pub seconds: f64,
    pub why: String,
}

/// One engine: what it supports, what it costs, how to make it.
#[derive(Clone, Copy)]
pub struct EngineSpec {
    pub name: &'static str,
    /// What the policies above need to know of it (the GPU fall-back, the dense and sparse
    /// swaps).
    pub kind: EngineKind,
    pub summary: &'static str,
    /// `Err(why)` when the engine cannot run the request at all.
    pub supports: fn(&Request) -> Result<(), String>,
    /// The estimate `auto` compares; `None` keeps the engine out of `auto`'s choice.
    pub cost: fn(&Request) -> Option<Cost>,
    /// Bytes the engine would take for the request, checked before it is made.
    pub memory: fn(&Request) -> u64,
    /// The least the engine's cost can be, known without asking its device (the GPU's start
    /// and its dispatches' latency, a generation each): `auto` does not ask an engine that
    /// cannot win anyway, since asking the GPU's cost opens the device (Vulkan's loader and a
    /// software rasteriser took 60 to 250 ms of a 50 ms Larger than Life run).
    pub floor: fn(&Request) -> f64,
    pub create: fn(&Request) -> EngineResult<Box<dyn Engine>>,
}

impl std::fmt::Debug for EngineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EngineSpec({})", self.name)
    }
}

/// Engines added at run time (a plug-in, a test's dummy engine).
static EXTRA: RwLock<Vec<EngineSpec>> = RwLock::new(Vec::new());

/// Adds an engine to the table (replacing one of the same name).
pub fn register(spec: EngineSpec) {
    let mut extra = EXTRA.write().unwrap_or_else(|p| p.into_inner());
    extra.retain(|s| s.name != spec.name);
    extra.push(spec);
}

/// Every engine, built-in first.
pub fn all() -> Vec<EngineSpec> {
    let mut specs = builtin();
    let extra = EXTRA.read().unwrap_or_else(|p| p.into_inner());
    specs.retain(|s| !extra.iter().any(|e| e.name == s.name));
    specs.extend(extra.iter().copied());
    specs
}

pub fn names() -> Vec<&'static str> {
    all().iter().map(|s| s.name).collect()
}

/// The first engine of a kind (the dense CPU engine, the tile engine), whatever its name.
pub fn find_kind(kind: EngineKind) -> Option<EngineSpec> {
    all().into_iter().find(|s| s.kind == kind)
}

pub fn find(name: &str) -> Option<EngineSpec> {
    all()
        .into_iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
}

/// The engine chosen for a request, and why.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Choice {
    pub engine: &'static str,
    pub kind: EngineKind,
    pub reason: String,
}

/// `wanted` is an engine's name or `auto`. A named engine must support the request; `auto`
/// takes the cheapest estimate among the engines that do.
pub fn choose(wanted: &str, request: &Request) -> EngineResult<Choice> {
    if !wanted.eq_ignore_ascii_case("auto") {
        let spec = find(wanted).ok_or_else(|| unknown(wanted))?;
        (spec.supports)(request).map_err(|why| {
            EngineError::Unsupported(format!(
                "the {} engine cannot run {}: {why}",
                spec.name,
                request.describe()
            ))
        })?;
        return Ok(Choice {
            engine: spec.name,
            kind: spec.kind,
            reason: "asked for with --engine".to_string(),
        });
    }
    let mut best: Option<(EngineSpec, Cost)> = None;
    let mut refused = Vec::new();
    // The least hungry engine that supports the request but does not fit: its refusal is the
    // answer when no engine fits, in the words every memory limit uses.
    let mut hungry: Option<crate::memory::MemoryError> = None;
    let mut specs = all();
    specs.sort_by(|a, b| (a.floor)(request).total_cmp(&(b.floor)(request)));
    for spec in specs {
        if let Err(why) = (spec.supports)(request) {
            refused.push(format!("{}: {why}", spec.name));
            continue;
        }
        if let Err(e) = fits(&spec, request) {
            refused.push(format!(
                "{}: it needs {}",
                spec.name,
                crate::memory::human_bytes(e.needed)
            ));
            if hungry.as_ref().is_none_or(|h| e.needed < h.needed) {
                hungry = Some(e);
            }
            continue;
        }
        if best
            .as_ref()
            .is_some_and(|(_, b)| b.seconds <= (spec.floor)(request))
        {
            continue;
        }
        let Some(cost) = (spec.cost)(request) else {
            continue;
        };
        if best.as_ref().is_none_or(|(_, b)| cost.seconds < b.seconds) {
            best = Some((spec, cost));
        }
    }
    match best {
        Some((spec, cost)) => Ok(Choice {
            engine: spec.name,
            kind: spec.kind,
            reason: cost.why,
        }),
        None => Err(match hungry {
            Some(e) => e.into(),
            None => EngineError::Unsupported(format!(
                "no engine can run {} ({})",
                request.describe(),
                refused.join("; ")
            )),
        }),
    }
}

fn fits(spec: &EngineSpec, request: &Request) -> Result<(), crate::memory::MemoryError> {
    crate::memory::check(
        || format!("{} on the {} engine", request.describe(), spec.name),
        (spec.memory)(request),
    )
}

fn unknown(name: &str) -> EngineError {
    EngineError::Unavailable(format!(
        "there is no engine called '{name}' (engines: auto, {})",
        names().join(", ")
    ))
}

/// Makes the engine `wanted` names (or `auto` chooses), after checking that it supports the
/// request and that its memory fits. The engine starts empty at generation 0.
pub fn create(wanted: &str, request: &Request) -> EngineResult<(Box<dyn Engine>, Choice)> {
    let mut choice = choose(wanted, request)?;
    if wanted.eq_ignore_ascii_case("auto")
        && let Some(trial) = memo_may_pay(request, &choice)
    {
        let (tiles, first) = create(trial.tiles, request)?;
        let choice = Choice {
            reason: format!(
                "{} on the plane: the {} engine runs {} generations and HashLife {m} twice, and the run goes on with the one that did less work",
                if request.rule.loaded().is_some() && !request.rule.is_tabled() {
                    "a rule file's rule"
                } else {
                    "a crowded pattern of a rule of the 3x3 block"
                },
                trial.tiles,
                trial.probe,
                m = switching::MEMO_STRETCH
            ),
            ..first
        };
        let race = may_race(request);
        let choice = Choice {
            reason: if race {
                format!(
                    "{}; where the run is one long step, HashLife's stretches run on a second thread while the {} engine goes on, and a HashLife that passes races it to the end",
                    choice.reason, trial.tiles
                )
            } else {
                format!(
                    "{}{}; where the {} engine goes on, the trial is made again from generation {} on, four times as far each time",
                    choice.reason,
                    if trial.runs_hashlife_first() {
                        format!(
                            " (on a pattern that covers {} tiles or more, HashLife's first)",
                            switching::FIRST_TILES
                        )
                    } else {
                        String::new()
                    },
                    trial.tiles,
                    switching::AGAIN_FROM
                ) + &if trial.chases() {
                    format!(
                        "; in a run made in one step, with {} generations or more to go, a HashLife that loses a trial goes on while it makes fewer nodes a generation piece by piece, and hands its cells back when it does not",
                        switching::CHASE_LEFT
                    )
                } else {
                    String::new()
                }
            },
            ..choice
        };
        let both = Switching::tiles_or_memo(tiles, trial, request.clone(), race);
        return Ok((Box::new(both), choice));
    }
    let spec = find(choice.engine).ok_or_else(|| unknown(choice.engine))?;
    fits(&spec, request)?;
    if wanted.eq_ignore_ascii_case("auto")
        && let Some(rival) = race_may_pay(request, &choice)
        && let Some(stepper) = find(rival).filter(|s| fits(s, request).is_ok())
    {
        // The tile engine steps here, alone at first: most of these runs end before a race
        // would pay. HashLife races it on a second thread from there.
        choice.reason.push_str(&format!(
            "; but on a small pattern of a rule of the 3x3 block either may win: auto runs the {rival} engine alone for {} tiles and generations, then races {} against it on a second thread, going on with the one that finishes first",
            switching::HEAD_START,
            choice.engine
        ));
        let engine = (stepper.create)(request)?;
        let raced = Switching::racing(
            engine,
            switching::Trial::BLOCK_RULE,
            choice.engine,
            request.clone(),
        );
        return Ok((Box::new(raced), choice));
    }
    let engine = (spec.create)(request)?;
    // A long run on a torus that both a dense and the sparse engine could take: keep looking.
    // The GPU's tile kernel follows the pattern itself.
    if wanted.eq_ignore_ascii_case("auto")
        && request.workload.generations >= 4 * 1024
        && matches!(
            choice.kind,
            EngineKind::Dense | EngineKind::Gpu | EngineKind::Tiles
        )
        && !(choice.kind.on_gpu() && gpu_follows_activity(request))
        && request.universe.cells().is_some_and(|c| c >= 1 << 20)
        && find_kind(EngineKind::Tiles).is_some_and(|t| (t.supports)(request).is_ok())
        && find_kind(EngineKind::Dense).is_some_and(|c| fits(&c, request).is_ok())
        && !request.rule.births_from_nothing()
    {
        choice.reason.push_str(
            "; auto looks again every 1024 generations and moves the run between the dense and the tile engine as the pattern changes",
        );
        return Ok((Box::new(Switching::new(engine, request.clone())), choice));
    }
    Ok((engine, choice))
}

/// The trial of a tile engine and HashLife that `auto` makes of a run on the plane long
/// enough, and looked at rarely enough, that HashLife may pay, where which one does is not
/// known up front and not one that `auto` gives HashLife outright (a quadtree file, a huge
/// constructor): a rule file's pattern, and a crowded one of a rule of the 3x3 block, whose
/// cost model `auto` would give the tile engine (`choice`).
fn memo_may_pay(request: &Request, choice: &Choice) -> Option<switching::Trial> {
    let w = request.workload;
    let trial = if request.rule.is_tabled() {
        if choice.kind != EngineKind::Tiles {
            return None;
        }
        // A rule file's of two states against HashLife over N states (see `memo_cost`).
        if request.rule.loaded().is_some() {
            switching::Trial::TWO_STATE_FILE
        } else {
            switching::Trial::BLOCK_RULE
        }
    } else if request.rule.loaded().is_some() {
        switching::Trial::RULE_FILE
    } else {
        return None;
    };
    (both_may_run(request, trial) && (w.stride == 0 || w.stride >= 1024) && w.population < 1 << 19)
        .then_some(trial)
}

/// Whether `trial`'s two engines both run and fit the request, a run on the plane of at least
/// [`switching::TRIAL_RUN`] generations that did not come as a quadtree (which is HashLife's).
fn both_may_run(request: &Request, trial: switching::Trial) -> bool {
    let w = request.workload;
    let runs = |name: &str| {
        find(name)
            .is_some_and(|spec| (spec.supports)(request).is_ok() && fits(&spec, request).is_ok())
    };
    runs(trial.tiles)
        && runs(trial.hashlife)
        && request.universe.is_plane()
        && w.generations >= switching::TRIAL_RUN
        && !w.from_quadtree
}

/// Whether a run made in one long step may race two engines, on a thread each: a rule of the 3x3
/// block (non-totalistic, MAP, a rule file's of two states), and two threads for the CPU
/// engines (`RAYON_NUM_THREADS`). A rule file's pattern of more states keeps its trial on one
/// thread: raced the same way, Golly's Loops and Self-Rep patterns to 10^4 generations kept
/// their median (0.97× Golly's time), the smallest demos a tenth of a millisecond slower, the
/// second thread's cost (BENCHMARKS.md, 2026-12-06). A rule file's of two states races in its
/// trial only: its small patterns go to HashLife over N states alone (`race_may_pay`).
fn may_race(request: &Request) -> bool {
    request.rule.is_tabled() && cpu_threads() >= 2
}

/// The engine that steps, with a head start, where `auto` chose HashLife (`choice`), which
/// races it: a pattern of a rule of the 3x3 block not crowded enough for a trial, on the
/// plane, run long enough that HashLife may pay and looked at only at its end (a race is one
/// step), where the tile engine may pay too. Measured on Golly's
/// non-totalistic patterns at 1000 generations (in-process): limited-spacefiller 1.5 ms on
/// the tile engine against 6.2 on HashLife, rr14gun 2.6 against 3.9; intergalactic-cruise-
/// ship-factory 4.5 against 0.5, spaceships 2.9 against 1.1 (BENCHMARKS.md, 2026-12-06).
fn race_may_pay(request: &Request, choice: &Choice) -> Option<&'static str> {
    let w = request.workload;
    let trial = switching::Trial::BLOCK_RULE;
    // Small as HashLife's estimate has it (its first generations cost about what the tile
    // engine's do): a larger one is HashLife's, and is not flattened for a race.
    // A rule file's pattern of two states is HashLife over N states' alone: raced, Banks-III
    // took 3.7 ms to 10^4 against 3.25, and 28 ms to 10^6 against 23 (11 runs each, the
    // twenty-second session): the tile engine never won, and it slowed HashLife beside it.
    (choice.kind == EngineKind::HashLife
        && request.rule.loaded().is_none()
        && w.population <= 4096
        && w.stride == 0
        && may_race(request)
        && both_may_run(request, trial))
    .then_some(trial.tiles)
}

/// What a run costs on a HashLife of a rule of range 1 (the two-state one, or HashLife over N
/// states for a rule file's pattern of two states).
fn memo_cost(r: &Request) -> Cost {
    let gens = r.workload.generations.max(1);
    // HashLife pays for a pattern's first few thousand generations as a sparse
    // engine does, then jumps: the memoised quadtree repeats nothing it has seen.
    // Measured against the tile engine (BENCHMARKS.md): on a jump of a thousand
    // generations or more, about half its time while a small pattern grows (acorn
    // to 5206: 0.027 s against 0.053 s; the R-pentomino to 1103: 0.004 s against
    // 0.007 s); a few generations at a time, about twice; some sixteen times while
    // a large soup churns.
    let jump = match r.workload.stride {
        0 => gens,
        s => s.min(gens),
    };
    // A rule of the 3x3 block costs the tile engine its circuit every generation,
    // while HashLife pays it once per memoised block: it wins from shorter jumps
    // (Golly's infinite-binary-ruler-generator to 1000: 0.03 s against 0.22 s).
    // A quadtree from a file is HashLife's own, and repeats itself: jumps pay there
    // as well (Golly's metapixel-galaxy to 1000 took the tile engine 260 s).
    let tabled = r.rule.is_tabled();
    // A run whose end alone matters: a plain B/S pattern's first 2^15 generations (a
    // methuselah's churn, Golly's longest but the arks) are the tile engine's since
    // it computes each changed tile in one pass: iwona to 28786 on the plane 0.08 s
    // against HashLife's 0.10-0.14 s, acorn to 5206 0.010 s against 0.017 s
    // (BENCHMARKS.md, issue 23). Steps of 2^10 and more, looked at one by one (the
    // window's 2^k steps), repeat themselves: HashLife's memo pays from there.
    let long = if tabled || r.workload.from_quadtree {
        1 << 6
    } else if r.workload.stride > 0 {
        1 << 10
    } else {
        1 << 15
    };
    let small = r.workload.population <= 4096 || r.workload.from_quadtree;
    let churn = match (small, jump >= long) {
        (true, true) => 0.5,
        (true, false) => 2.0,
        (false, _) => 16.0,
    };
    let paid = if jump < long { gens } else { gens.min(1 << 12) };
    let settling = paid as f64 * active_area(r) / (0.5 * dense_rate());
    Cost {
        seconds: churn * settling + (64 - gens.leading_zeros()) as f64 * 2e-5,
        why: format!(
            "a long jump of {gens} generations on {}: HashLife's memoised quadtree skips what repeats",
            r.universe.describe()
        ),
    }
}

/// Seconds per cell update of the fast dense engine on all cores (measured: about 1e10 cell
/// updates per second on two cores).
fn dense_rate() -> f64 {
    5e9 * cpu_threads() as f64
}

/// The threads the CPU engines work on (rayon's pool), read without starting the pool: a run
/// that never needs it (a pattern on the tile engine) does not pay for starting its threads.
fn cpu_threads() -> usize {
    // Asked once: the standard library reads the cgroup's files at every call, and every
    // engine's cost asks.
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| {
        std::env::var("RAYON_NUM_THREADS")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    })
}

/// What a tile engine touches per generation: the live area and a margin, never more than the
/// universe, nor more than nine tiles round every live cell (a few cells scattered far apart).
fn active_area(r: &Request) -> f64 {
    let w = r.workload;
    let area = (w.population as f64 * 256.0).max(w.span as f64).max(4096.0);
    area.min((w.population as f64 * 9.0 * 4096.0).max(4096.0))
        .min(r.cells())
}

/// Generations rules run on the Generations engine, rule files' on the rule-tree engine (and a
/// rule file's of two states without B0 here too, as its table), and all on the reference
/// engine.
fn two_states(r: &Request) -> Result<(), String> {
    if let Some(l) = r.rule.ltl() {
        return Err(format!(
            "it counts the 8 nearest cells, and {} is a Larger than Life rule of range {} (the ltl engine runs it)",
            r.rule, l.range
        ));
    }
    if r.rule.loaded().is_some() && !r.rule.is_tabled() {
        // Of two states and not run as a table: it gives birth on empty space, which Golly
        // runs as it stands and the tables' B0 emulation on the plane would not.
        Err(if r.rule.states() == 2 {
            format!(
                "it runs a rule file's rule of two states as a table of the 3x3 block where a dead cell among dead ones stays dead, and {} gives birth on empty space (B0) (the rule-tree engine runs it on a torus)",
                r.rule
            )
        } else {
            format!(
                "it has two states, and the rule file's rule {} has {} (the rule-tree and rule-hashlife engines run it)",
                r.rule,
                r.rule.states()
            )
        })
    } else if r.rule.states() > 2 {
        Err(format!(
            "it has two states, and {} has {} (the generations engine runs it)",
            r.rule,
            r.rule.states()
        ))
    } else {
        Ok(())
    }
}

/// What the bit-sliced kernel runs (`Kernel::for_rule`): two-state rules of the 3x3 block,
/// Larger than Life's of range 1 among them (as a table of the block) when no cell is born
/// from nothing, which the ltl engine keeps as Golly runs it.
fn block_rule(r: &Request) -> Result<(), String> {
    match r.rule.ltl() {
        Some(l) if l.block_rule().is_some() && !l.births_from_nothing() => Ok(()),
        _ => two_dimensional(r),
    }
}

fn two_dimensional(r: &Request) -> Result<(), String> {
    two_states(r)?;
    if r.rule.is_elementary() {
        Err("it runs two-dimensional rules only".into())
    } else {
        Ok(())
    }
}

/// HashLife runs a torus or the unbounded plane; Golly's bounded plane is the reference, tile
/// and Generations engines' (its constructor refuses it too).
fn not_bounded(r: &Request) -> Result<(), String> {
    if r.universe.is_bounded_plane() {
        Err(format!(
            "it runs a torus or the unbounded plane, not {}",
            r.universe.describe()
        ))
    } else {
        Ok(())
    }
}

/// Golly's bounded grids whose edges are joined (a shifted torus, a Klein bottle, the
/// cross-surface, the sphere) have Golly's one-cell border on the reference engine alone.
fn no_joined_edges(r: &Request) -> Result<(), String> {
    if r.universe.has_joined_edges() {
        Err(format!(
            "it has no border for {}; the reference engine has",
            r.universe.describe()
        ))
    } else {
        Ok(())
    }
}

/// Golly's infinite tube wraps one way only, and its strip ends one way only: the tile engine
/// alone has those.
fn no_tube(r: &Request) -> Result<(), String> {
    match r.universe {
        Universe::Tube(t) => Err(format!(
            "it has no {}; the tile engine has, for a two-state rule",
            if t.is_strip() {
                "edge along one side only"
            } else {
                "wrap along one side only"
            }
        )),
        _ => Ok(()),
    }
}

/// The tile engine has no border for joined edges, and no dense mode for a B0 rule inside an
/// edge (it emulates B0 where nothing bounds the plane).
fn tiles_universe(r: &Request) -> Result<(), String> {
    no_joined_edges(r)?;
    if r.universe.has_dead_edge() && r.rule.births_from_nothing() {
        return Err(format!(
            "a B0 rule gives birth everywhere inside the edges of {}",
            r.universe.describe()
        ));
    }
    Ok(())
}

fn torus_only(r: &Request) -> Result<(), String> {
    match r.universe {
        Universe::Plane | Universe::Bounded { .. } | Universe::Tube(_) => {
            Err("it runs on a torus only".into())
        }
        Universe::Torus { .. } => Ok(()),
    }
}

fn dense_bytes(r: &Request, copies: u64) -> u64 {
    r.universe.size().map_or(0, |(w, h)| {
        copies * crate::grid::Grid::bytes_for(w as u64, h as u64)
    })
}

fn builtin() -> Vec<EngineSpec> {
    #[cfg_attr(not(feature = "gpu"), allow(unused_mut))]
    let mut specs = vec![
        EngineSpec {
            name: "reference",
            kind: EngineKind::Reference,
            summary: "the plain oracle: one byte per cell, neighbours counted one by one; a torus or a bounded plane",
            supports: |r| match r.universe {
                Universe::Plane | Universe::Tube(_) => {
                    Err("it runs on a torus or a bounded plane only".into())
                }
                // Golly's border is one cell deep: a wider neighbourhood would read past it.
                u if u.has_joined_edges() && r.rule.ltl().is_some_and(|l| l.range > 1) => {
                    Err(format!(
                        "a Larger than Life rule of range above 1 reads beyond Golly's one-cell border of {}",
                        u.describe()
                    ))
                }
                _ => Ok(()),
            },
            // Never auto's choice where another engine runs the request; on Golly's bounded
            // plane it is the one engine for a two-state rule, and on the other bounded grids
            // the one engine for any rule, so it is taken there, last.
            cost: |r| {
                r.universe.is_bounded_plane().then(|| Cost {
                    seconds: f64::MAX,
                    why: if r.universe.has_joined_edges() {
                        format!(
                            "{}: only the reference engine has Golly's border for it",
                            r.universe.describe()
                        )
                    } else {
                        format!(
                            "{}: only the reference engine runs a two-state rule there",
                            r.universe.describe()
                        )
                    },
                })
            },
            memory: |r| r.universe.cells().unwrap_or(0) * 3,
            floor: |_| 0.0,
            create: |r| {
                Ok(Box::new(crate::cpu::ReferenceEngine::in_universe(
                    r.rule, r.universe, r.seed,
                )?))
            },
        },
        EngineSpec {
            name: "cpu",
            kind: EngineKind::Dense,
            summary: "dense and bit-sliced: 64 cells per word on every core, empty rows skipped",
            supports: |r| {
                two_states(r)?;
                torus_only(r)
            },
            cost: |r| {
                let gens = r.workload.generations.max(1) as f64;
                Some(Cost {
                    seconds: gens * r.cells() / dense_rate(),
                    why: format!(
                        "a dense workload ({} live cells of {}): the bit-sliced CPU engine on {} threads",
                        r.workload.population,
                        r.cells(),
                        cpu_threads()
                    ),
                })
            },
            memory: |r| dense_bytes(r, 3),
            floor: |_| 0.0,
            create: |r| {
                let (w, h) = r.universe.size().expect("a torus");
                Ok(Box::new(crate::cpu::FastEngine::empty(
                    r.rule, w, h, r.seed,
                )?))
            },
        },
        EngineSpec {
            name: "tiles",
            kind: EngineKind::Tiles,
            summary: "sparse: 64x64 tiles, computed only where something changed (Golly's QuickLife idea); torus or plane",
            supports: |r| {
                block_rule(r)?;
                tiles_universe(r)?;
                if r.universe.is_unbounded()
                    && r.rule.births_from_nothing()
                    && r.rule.b0_emulation().is_none()
                {
                    return Err(format!(
                        "a stochastic B0 rule fills {} at once",
                        r.universe.describe()
                    ));
                }
                Ok(())
            },
            cost: |r| {
                let gens = r.workload.generations.max(1) as f64;
                // On the plane a B0 rule is emulated as Golly does, without filling anything.
                let dense = r.rule.births_from_nothing() && !r.universe.is_unbounded();
                let area = if dense { r.cells() } else { active_area(r) };
                Some(Cost {
                    seconds: gens * area / (0.5 * dense_rate()),
                    why: if dense {
                        "a B0 rule: the tile engine would run the whole torus".to_string()
                    } else {
                        format!(
                            "a sparse workload ({} live cells in a span of {}{}): the tile engine computes only where something changes",
                            r.workload.population,
                            span_text(r.workload.span),
                            match r.universe {
                                Universe::Plane => String::new(),
                                u => format!(" on {}", u.describe()),
                            }
                        )
                    },
                })
            },
            memory: |r| {
                let tiles = if r.rule.births_from_nothing() && !r.universe.is_unbounded() {
                    r.cells() / 4096.0
                } else {
                    active_area(r) / 4096.0 * 16.0
                };
                (tiles * crate::cpu::TileEngine::TILE_BYTES as f64) as u64
                    + crate::cpu::TileEngine::index_bytes(r.universe)
            },
            floor: |_| 0.0,
            create: |r| {
                Ok(Box::new(crate::cpu::TileEngine::new(
                    r.rule, r.universe, r.seed,
                )?))
            },
        },
        EngineSpec {
            name: "generations",
            kind: EngineKind::Generations,
            summary: "Golly's Generations rules: live, dying and dead cells in bit planes, the bit-sliced kernel on the live ones; torus or plane",
            supports: |r| {
                if r.rule.generations().is_none() {
                    return Err("it runs Generations rules only".into());
                }
                no_joined_edges(r)?;
                no_tube(r)?;
                if r.universe.is_plane() && r.rule.births_from_nothing() {
                    return Err("a B0 rule fills the unbounded plane at once".into());
                }
                Ok(())
            },
            cost: |r| {
                let gens = r.workload.generations.max(1) as f64;
                // It computes the box round the cells, a few planes deep: on the plane a box
                // that grows by a quarter, on a torus or bounded plane the rows and words that
                // hold a cell, with a margin (all of them under B0). There the box is taken as
                // a square, its side the start's and 64 cells more, growing a row a side every
                // 16 generations on average (Golly's Banner to 1000 on 800x800 grows from 23x18
                // to 796x99: 0.04 s, where the whole torus would have been 0.32 s).
                let area = r
                    .universe
                    .cells()
                    .map_or(r.workload.span.max(4096) as f64 * 4.0, |c| {
                        let side = (r.workload.span as f64).sqrt() + 64.0 + gens / 8.0;
                        if r.rule.births_from_nothing() {
                            c as f64
                        } else {
                            (side * side).min(c as f64)
                        }
                    });
                // Measured on Brian's Brain (BENCHMARKS.md): 2.05e9 cell updates/s on 2048²
                // with 2 cores, 2.1e9 on 4096² with 16; it does not grow with the cores.
                Some(Cost {
                    seconds: gens * area / 2e9,
                    why: format!(
                        "a Generations rule ({} states): the generations engine",
                        r.rule.states()
                    ),
                })
            },
            memory: |r| crate::cpu::GenerationsEngine::bytes(&r.rule, r.universe),
            floor: |_| 0.0,
            create: |r| {
                Ok(Box::new(crate::cpu::GenerationsEngine::new(
                    r.rule, r.universe,
                )?))
            },
        },
        EngineSpec {
            name: "ltl",
            kind: EngineKind::LargerThanLife,
            summary: "Larger than Life (Golly's ltlalgo: ranges up to 500, 13 shapes, dying states): a byte per cell, each count from prefix sums of the live cells, on every core; plane, torus or bounded plane",
            supports: |r| {
                if r.rule.ltl().is_none() {
                    return Err("it runs Larger than Life rules only".into());
                }
                no_joined_edges(r)?;
                no_tube(r)?;
                if r.universe.is_plane() && r.rule.births_from_nothing() {
                    return Err(
                        "a B0 rule fills the unbounded plane at once (Golly refuses it too)".into(),
                    );
                }
                Ok(())
            },
            cost: |r| {
                let gens = r.workload.generations.max(1) as f64;
                let l = r.rule.ltl()?;
                // It computes the box round the cells grown by twice the range, on a torus
                // too (its seam is turned into the dead cells), taken as a square growing a
                // row a side every 16 generations on average, as the generations engine's;
                // under B0 the whole of it. A bug on a large torus is not the whole torus's
                // work, which sent `auto` to start the GPU to compare (Jitterbug on 400x400:
                // 190 M instructions of Vulkan and EGL set-up, for a run of 57 M). A thin
                // pattern across a whole axis is more than this square: an estimate.
                let area = match r.universe.cells() {
                    None => r.workload.span.max(4096) as f64 * 4.0,
                    Some(c) if l.births_from_nothing() => c as f64,
                    Some(c) => {
                        let side =
                            (r.workload.span as f64).sqrt() + 4.0 * l.range as f64 + gens / 8.0;
                        (side * side).min(c as f64)
                    }
                };
                Some(Cost {
                    seconds: gens * area / (0.05 * dense_rate()),
                    why: "a Larger than Life rule: the ltl engine".into(),
                })
            },
            memory: |r| {
                crate::cpu::LtlEngine::bytes(r.universe, r.rule.ltl().map_or(1, |l| l.range))
            },
            floor: |_| 0.0,
            create: |r| Ok(Box::new(crate::cpu::LtlEngine::new(r.rule, r.universe)?)),
        },
        EngineSpec {
            name: "rule-tree",
            kind: EngineKind::RuleTree,
            summary: "rule files (Golly's @TABLE and @TREE, up to 256 states) and Generations rules as trees: a byte per cell in 64x64 tiles, the rule's tree walked per cell on every core where something changed; plane, torus, bounded plane, tube or strip",
            supports: |r| {
                if r.rule.loaded().is_none() && r.rule.generations().is_none() {
                    return Err("it runs rule files' and Generations rules only".into());
                }
                no_joined_edges(r)?;
                if r.universe.is_unbounded() && r.rule.births_from_nothing() {
                    return Err(format!(
                        "the rule turns empty cells live, which fills {} at once",
                        r.universe.describe()
                    ));
                }
                Ok(())
            },
            cost: |r| {
                let gens = r.workload.generations.max(1) as f64;
                Some(Cost {
                    seconds: gens * active_area(r) / (0.02 * dense_rate()),
                    why: format!(
                        "{} ({} states): the rule-tree engine computes only where something changes",
                        if r.rule.loaded().is_some() {
                            "a rule file's rule"
                        } else {
                            "a Generations rule, as its tree"
                        },
                        r.rule.states()
                    ),
                })
            },
            memory: |r| crate::cpu::RuleTreeEngine::bytes(r.universe),
            floor: |_| 0.0,
            create: |r| {
                Ok(Box::new(crate::cpu::RuleTreeEngine::new(
                    r.rule, r.universe,
                )?))
            },
        },
        EngineSpec {
            name: "rule-hashlife",
            kind: EngineKind::HashLife,
            summary: "HashLife over N states (Golly's RuleLoader and Generations): rule files' and Generations rules as a memoised quadtree of 2x2 blocks of states that jumps 2^k generations; the plane",
            supports: |r| {
                if r.rule.loaded().is_none() && r.rule.generations().is_none() {
                    return Err("it runs rule files' and Generations rules only".into());
                }
                if !r.universe.is_plane() {
                    return Err("it runs on the unbounded plane only".into());
                }
                if r.rule.births_from_nothing() {
                    return Err(
                        "the rule turns empty cells live, which fills the unbounded plane at once"
                            .into(),
                    );
                }
                Ok(())
            },
            cost: |r| {
                // A rule file's of two states: in the two-state HashLife's place (its cost).
                if r.rule.is_tabled() {
                    return Some(memo_cost(r));
                }
                let gens = r.workload.generations.max(1);
                let jump = match r.workload.stride {
                    0 => gens,
                    s => s.min(gens),
                };
                // Measured on Golly's rule-file patterns at 1000 generations (BENCHMARKS.md):
                // it wins for a long jump, as Golly's RuleLoader (which is HashLife) does, and
                // at any length for a quadtree file or a huge constructor, whose tape repeats
                // (Codd's golly-constructor: 0.2 s against 129 s); a gas or a chaotic pattern
                // churns it (Ed-rep: 75 s against 7 s), and so a short run of a pattern that is
                // not huge stays on the rule-tree engine.
                let per = gens as f64 * active_area(r) / (0.02 * dense_rate());
                // A Generations rule on the plane: Golly's Steeplechase (345/2/4) to 10^6 took
                // 0.11 s against the generations engine's 3.2 s, and Transers (345/26/5) to 10^5
                // 0.08 s against over 20 s; a chaotic one churns it (Bloomerang to 1000: over
                // 20 s against 0.13 s), so only jumps of 2^12 and more, or a quadtree file.
                let generations = r.rule.generations().is_some();
                let repeats = if generations {
                    jump >= 1 << 12 || r.workload.from_quadtree
                } else {
                    jump >= 1024 || r.workload.from_quadtree || r.workload.population >= 1 << 19
                };
                let seconds = match (repeats, generations) {
                    (true, true) => per / 100.0,
                    (true, false) => per / 10.0,
                    (false, _) => per * 4.0,
                };
                Some(Cost {
                    seconds,
                    why: format!(
                        "a long jump of {gens} generations of {}: HashLife over {} states skips what repeats",
                        if generations {
                            "a Generations rule"
                        } else {
                            "a rule file's rule"
                        },
                        r.rule.states()
                    ),
                })
            },
            memory: |r| {
                r.options
                    .memory
                    .unwrap_or_else(|| crate::memory::limit().bytes / 4)
            },
            floor: |_| 0.0,
            create: |r| {
                Ok(Box::new(crate::cpu::RuleHashLifeEngine::new(
                    r.rule,
                    r.universe,
                    r.options.memory,
                )?))
            },
        },
        EngineSpec {
            name: "hashlife",
            kind: EngineKind::HashLife,
            summary: "Gosper's HashLife: a memoised quadtree that jumps 2^k generations; the plane or a power-of-two torus",
            supports: |r| {
                block_rule(r)?;
                not_bounded(r)?;
                no_tube(r)?;
                if r.rule.is_stochastic() {
                    return Err(
                        "it memoises the future, which a stochastic rule does not have".into(),
                    );
                }
                match r.universe {
                    Universe::Plane
                        if r.rule.births_from_nothing()
                            && !r.rule.b0_emulation().is_some_and(|(e, o)| e == o) =>
                    {
                        Err("a B0 rule without Smax alternates two rules on the plane, which HashLife's jumps cannot; the tile engine runs it".into())
                    }
                    Universe::Torus { width, height }
                        if !width.is_power_of_two() || !height.is_power_of_two() =>
                    {
                        Err(format!(
                            "the torus's sides must be powers of two, not {width}x{height}"
                        ))
                    }
                    _ => Ok(()),
                }
            },
            // A rule file's pattern of two states is HashLife over N states' (its cost below):
            // this one's base computes each new 16x16 block whole, that one memoises 2x2
            // blocks, and a Banks loop's signals repeat in small pieces (Banks-III to 10^6:
            // 15 ms against 20 ms; to 10^4: 2.1 against 3.7; the twenty-second session).
            cost: |r| r.rule.loaded().is_none().then(|| memo_cost(r)),
            memory: |r| {
                r.options
                    .memory
                    .unwrap_or_else(crate::cpu::hashlife::default_memory)
            },
            floor: |_| 0.0,
            create: |r| {
                Ok(Box::new(crate::cpu::HashLifeEngine::new(
                    r.rule,
                    r.universe,
                    r.options.memory,
                )?))
            },
        },
    ];
    #[cfg(feature = "gpu")]
    specs.push(gpu_spec());
    specs
}

/// The dense engine `auto` would take for the request's universe full of cells: the GPU when
/// there is a hardware one, else the CPU engine.
pub(crate) fn dense_engine(request: &Request) -> EngineKind {
    let mut dense = request.clone();
    let cells = request.universe.cells().unwrap_or(0);
    dense.workload.population = cells / 2;
    dense.workload.span = cells;
    match choose("auto", &dense) {
        Ok(c) if c.kind.on_gpu() => EngineKind::Gpu,
        _ => EngineKind::Dense,
    }
}

/// Whether the GPU engine would run the request on its tile kernel, which moves between the
/// tile list and dense stretches by itself.
fn gpu_follows_activity(request: &Request) -> bool {
    #[cfg(feature = "gpu")]
    {
        request.options.gpu.kernel == crate::gpu::LifeKernel::Tiles
            && !request.rule.births_from_nothing()
    }
    #[cfg(not(feature = "gpu"))]
    {
        let _ = request;
        false
    }
}

#[cfg(feature = "gpu")]
fn gpu_spec() -> EngineSpec {
    EngineSpec {
        name: "gpu",
        kind: EngineKind::Gpu,
        summary: "WGSL compute shaders on the GPU (wgpu): active tiles from a list the device keeps, dense stretches several generations per dispatch",
        supports: |r| {
            if r.options.forbid_gpu {
                return Err("the GPU is not to be used here".into());
            }
            torus_only(r)
        },
        cost: |r| {
            let ctx = match &r.options.context {
                Some(c) => c,
                // No hardware to find: not a software adapter's set-up to find that out.
                None if !crate::gpu::hardware_may_exist() => return None,
                None => crate::gpu::shared_context().ok()?,
            };
            if !crate::gpu::is_hardware(ctx) {
                // lavapipe and friends run on the same cores as the CPU engines, slower.
                return None;
            }
            let gens = r.workload.generations.max(1) as f64;
            // The tile kernel computes the active area, plus a compaction pass and two
            // dispatches' latency a generation; the dense kernels the whole torus.
            let tiles = matches!(
                r.options.gpu.kernel,
                crate::gpu::LifeKernel::Tiles | crate::gpu::LifeKernel::Sparse
            ) && !r.rule.births_from_nothing()
                && r.rule.states() <= 2
                && (r.rule.loaded().is_none() || r.rule.is_tabled())
                && r.rule.ltl().is_none();
            // A Generations rule or a rule file's runs a cell per invocation: on the H200,
            // 1.04e11 cell updates/s on 4096² for Brian's Brain, WireWorld and Langtons-Loops,
            // half the rate this model gives a bit-packed cell (BENCHMARKS.md).
            let (area, latency) = if tiles {
                (active_area(r), 40e-6)
            } else if let Some(l) = r.rule.ltl() {
                // Two passes, and a read of each of the range's rows per cell.
                (r.cells() * (10.0 + 2.0 * l.range as f64), 40e-6)
            } else if r.rule.states() > 2 || (r.rule.loaded().is_some() && !r.rule.is_tabled()) {
                (r.cells() * 2.0, 20e-6)
            } else {
                (r.cells(), 20e-6)
            };
            Some(Cost {
                seconds: 0.3 + gens * (area / 2e11 + latency),
                why: if tiles && area < r.cells() {
                    format!(
                        "a sparse workload ({} live cells in a span of {}): the GPU ({}) computes only the tiles near a change",
                        r.workload.population,
                        span_text(r.workload.span),
                        ctx.name()
                    )
                } else {
                    format!(
                        "a dense workload ({} live cells of {}): the GPU ({})",
                        r.workload.population,
                        r.cells(),
                        ctx.name()
                    )
                },
            })
        },
        // The host keeps one copy (what edits and reads go through); the device checks its own.
        // A Generations rule's copy is a byte per cell.
        memory: |r| {
            if r.rule.states() > 2 || (r.rule.loaded().is_some() && !r.rule.is_tabled()) {
                r.universe.cells().unwrap_or(0)
            } else {
                dense_bytes(r, 1)
            }
        },
        // Its cost below: the start, and at least 20 µs a generation.
        floor: |r| 0.3 + r.workload.generations.max(1) as f64 * 20e-6,
        create: |r| {
            let ctx = match &r.options.context {
                Some(c) => c,
                None => crate::gpu::shared_context()?,
            };
            let (w, h) = r.universe.size().expect("a torus");
            let empty = crate::grid::Grid::try_new(w, h)?;
            crate::gpu::create_engine(ctx, r.rule, &empty, r.seed, r.options.gpu)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small Larger-than-Life pattern on a large torus: `auto` takes the ltl engine without
    /// asking for the GPU's cost, whose first question starts the device: the ltl engine's
    /// estimate, the box round the cells, is below the GPU's floor. (Its old one, the whole
    /// torus, was 8 s on two cores: a GPU machine would have run the bug on the GPU.)
    #[test]
    fn a_bug_on_a_large_torus_is_the_ltl_engine_s_without_asking_the_gpu() {
        let rule: Rule = "R4,C0,M1,S24..38,B22..31,NM".parse().unwrap();
        let bug = Workload {
            generations: 1000,
            population: 33,
            span: 56,
            stride: 0,
            from_quadtree: false,
        };
        let r = Request::new(rule, Universe::torus(2048, 2048)).with_workload(bug);
        let ltl = find("ltl").unwrap();
        let seconds = (ltl.cost)(&r).unwrap().seconds;
        // The GPU's floor: its start, and 20 µs a generation.
        let floor = 0.3 + 1000.0 * 20e-6;
        assert!(seconds < floor, "{seconds} s against the GPU's {floor} s");
        assert_eq!(choose("auto", &r).unwrap().engine, "ltl");
        // The torus filled: its whole area, as before.
        let full = Request::new(rule, Universe::torus(2048, 2048)).with_workload(Workload {
            population: 2_000_000,
            span: 2048 * 2048,
            ..bug
        });
        assert!((ltl.cost)(&full).unwrap().seconds > 10.0 * seconds);
    }

    #[test]
    fn auto_never_takes_the_oracle_and_names_why_it_chose() {
        let r = Request::new(Rule::life(), Universe::torus(64, 64)).with_workload(Workload {
            generations: 100,
            population: 2000,
            span: 4096,
            stride: 0,
            from_quadtree: false,
        });
        let c = choose("auto", &r).unwrap();
        assert_ne!(c.engine, "reference");
        assert!(!c.reason.is_empty());
        assert_eq!(choose("reference", &r).unwrap().engine, "reference");
        let e = choose("warp-drive", &r).unwrap_err().to_string();
        assert!(e.contains("no engine called 'warp-drive'"), "{e}");
    }

    #[test]
    fn the_plane_is_refused_by_torus_engines_with_a_reason() {
        let r = Request::new(Rule::life(), Universe::Plane);
        let e = choose("cpu", &r).unwrap_err().to_string();
        assert!(e.contains("runs on a torus only"), "{e}");
    }
}
