//! The soup census: apgsearch's soups, each run to stability on the plane, split into objects
//! named by their apgcodes, counted in a haul that Catagolue's format carries. See
//! `docs/census.md`.
//!
//! - [`soup`]: the soups, from SHA-256 as lifelib makes them;
//! - [`settle`]: one soup to its objects (stabilisation, escaping gliders, retries);
//! - [`stabilise`]: the first phase of the stabilisation, as a machine the GPU runs too;
//! - [`classify`]: clusters, their cycles and the space-time separation;
//! - [`object`]: one object alone, its cycle and apgcode;
//! - [`plane`]: the flat, growing bit grid a soup runs on;
//! - [`aperiodic`]: linear and chaotic growth;
//! - [`haul`]: the tally, its text and JSON forms, and merging.

pub mod aperiodic;
pub mod classify;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod haul;
pub mod object;
pub mod plane;
pub mod settle;
pub mod soup;
pub mod stabilise;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::rule::map::{self, MapRule};
use crate::rule::{Neighbourhood, Rule, RuleKind};
pub use haul::Haul;
pub use settle::SoupOutcome;
pub use soup::Symmetry;

/// Soups handed out at a time: small enough that a stop is prompt, big enough to keep every
/// core busy.
const BATCH: u64 = 512;

/// Why a rule has no census.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{rule}: {reason}")]
pub struct Unsupported {
    pub rule: String,
    pub reason: String,
}

/// The rule's 3x3 table, if the census can run it: two states, the Moore neighbourhood,
/// isotropic (apgcodes take every orientation as one object), no birth on empty space, on the
/// unbounded plane.
pub fn census_table(rule: &Rule) -> Result<MapRule, Unsupported> {
    let refuse = |reason: &str| Unsupported {
        rule: rule.to_string(),
        reason: reason.into(),
    };
    if rule.torus.is_some() || rule.bounded.is_some() || rule.tube.is_some() {
        return Err(refuse(
            "soups are censused on the unbounded plane; leave out the bounded-grid suffix",
        ));
    }
    if rule.loaded().is_some() && rule.states() == 2 && rule.births_from_nothing() {
        return Err(refuse(
            "the rule gives birth on empty space (B0); the census does not run B0 rules",
        ));
    }
    let table = rule.block_rule().ok_or_else(|| {
        refuse("the census runs two-state rules of the 3x3 block (B/S and isotropic non-totalistic rules, and rule files of two states that are one)")
    })?;
    if table.neighbourhood != Neighbourhood::Moore {
        return Err(refuse(
            "the census runs the Moore neighbourhood; apgcodes of hexagonal and von Neumann rules are not built",
        ));
    }
    if table.births_from_nothing() {
        return Err(refuse(
            "the rule gives birth on empty space (B0); the census does not run B0 rules",
        ));
    }
    if !isotropic(&table) {
        return Err(refuse(
            "the rule is not isotropic, so an object's orientations are not one object as apgcodes take them",
        ));
    }
    Ok(table)
}

fn isotropic(t: &MapRule) -> bool {
    let turn = |i: u16, f: &dyn Fn(i32, i32) -> (i32, i32)| -> u16 {
        let mut out = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if i & map::bit_at(dx, dy) != 0 {
                    let (x, y) = f(dx, dy);
                    out |= map::bit_at(x, y);
                }
            }
        }
        out
    };
    (0..512u16).all(|i| {
        t.next(turn(i, &|x, y| (-y, x))) == t.next(i)
            && t.next(turn(i, &|x, y| (-x, y))) == t.next(i)
    })
}

/// The rule as Catagolue names it: `b3s23`, `b36s23`, `b2-as12`. A MAP rule or a rule file's
/// that the census runs is an isotropic rule of the Moore block, and goes by its canonical
/// Hensel form, as Catagolue knows it (Life's MAP string and a table of Life are `b3s23`),
/// not by its base64 (which lowercase would garble) or the file's name.
pub fn catagolue_rule(rule: &Rule) -> String {
    let name = match rule.kind {
        RuleKind::Loaded(_) | RuleKind::Map(_) => match census_table(rule) {
            Ok(t) => MapRule::from_fn(t.neighbourhood, map::MapNotation::Hensel, |i| t.next(i))
                .to_string(),
            Err(_) => return rule.to_string(),
        },
        RuleKind::Life(_) => rule.to_string(),
        _ => return rule.to_string(),
    };
    name.replace('/', "").to_ascii_lowercase()
}

/// `N` (soups 0 to N-1) or `A..B` (soups A to B-1), as `--soups` and the Census panel take it.
pub fn parse_soups(text: &str) -> Result<(u64, u64), String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("{text}: '{}' is not a whole number", t.trim()))
    };
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (0, number(text)?),
    };
    if a >= b {
        return Err(if text.contains("..") {
            format!("{text}: the range {a}..{b} holds no soups (A..B is soups A to B-1)")
        } else {
            format!("{text}: no soups to census")
        });
    }
    Ok((a, b))
}

/// How the GPU path runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuPath {
    /// Cells a side of each soup's square (a multiple of 32). A soup that reaches the edge goes
    /// on on the CPU from there.
    pub side: u32,
    /// Soups per batch.
    pub batch: u32,
    /// Generations the GPU runs a soup at most.
    pub generations: u32,
}

impl Default for GpuPath {
    fn default() -> Self {
        GpuPath {
            side: 512,
            batch: 1024,
            generations: 32_768,
        }
    }
}

/// A census to run: soups `first..end` of `root` under `symmetry`, on the GPU's path when
/// `gpu` says how.
#[derive(Clone, Debug)]
pub struct Request {
    pub rule: Rule,
    pub symmetry: Symmetry,
    pub root: String,
    pub first: u64,
    pub end: u64,
    pub gpu: Option<GpuPath>,
}

/// How far a census has gone, for a progress bar.
#[derive(Debug, Default)]
pub struct Progress {
    pub soups: AtomicU64,
    pub objects: AtomicU64,
    pub stop: AtomicBool,
    /// What the GPU path did.
    pub gpu: GpuTally,
}

/// How far the GPU carried the soups: each soup is counted once, by where the CPU took it on.
#[derive(Debug, Default)]
pub struct GpuTally {
    /// Settled on the GPU: the CPU only separated their objects.
    pub settled: AtomicU64,
    /// Reached their square's edge, or ran out of the GPU's generations, still settling.
    pub handed_on: AtomicU64,
    /// Through the first phase of the stabilisation unsettled.
    pub phase_two: AtomicU64,
    /// Too big for their square: all on the CPU.
    pub on_cpu: AtomicU64,
    /// Generations the GPU ran, over all soups.
    pub generations: AtomicU64,
    /// Wall-clock microseconds spent in the GPU's batches, and in the CPU's finishing of them
    /// (the two overlap, a batch apart).
    pub gpu_micros: AtomicU64,
    pub cpu_micros: AtomicU64,
}

impl GpuTally {
    #[cfg(feature = "gpu")]
    fn count(&self, start: &settle::Start) {
        let field = match start.stage {
            _ if start.generation == 0 => &self.on_cpu,
            settle::Stage::Settled(_) => &self.settled,
            settle::Stage::PhaseTwo => &self.phase_two,
            settle::Stage::Stabilising(_) => &self.handed_on,
        };
        field.fetch_add(1, Ordering::Relaxed);
        self.generations
            .fetch_add(start.generation, Ordering::Relaxed);
    }
}

/// Runs the census. Stopped (`progress.stop`), it ends after the soups in hand and the haul
/// counts the soups from `first` up to the first one not done, so it is a valid haul of a
/// shorter range. The haul is the same however many threads ran it.
pub fn run(request: &Request, progress: &Progress) -> Result<Haul, String> {
    run_with(request, progress, &|_| {})
}

/// [`run`], handing the haul so far to `on_batch` after each batch of soups (a live table).
pub fn run_with(
    request: &Request,
    progress: &Progress,
    on_batch: &(dyn Fn(&Haul) + Sync),
) -> Result<Haul, String> {
    let table = census_table(&request.rule).map_err(|e| e.to_string())?;
    let mut haul = Haul::new(
        &request.root,
        &catagolue_rule(&request.rule),
        request.symmetry.name(),
    );
    let soup = |index: u64| soup_of(request, index);
    let Some(path) = request.gpu else {
        let mut next = request.first;
        while next < request.end && !progress.stop.load(Ordering::Relaxed) {
            let end = (next + BATCH).min(request.end);
            let starts = (next..end)
                .into_par_iter()
                .map(|i| settle::Start::fresh(&soup(i)))
                .collect();
            if !finish(request, table, progress, next, starts, &mut haul)? {
                break;
            }
            on_batch(&haul);
            next = end;
        }
        return Ok(haul);
    };
    run_gpu(request, table, path, progress, on_batch, haul)
}

/// Soup `index` of the request's root and symmetry.
fn soup_of(request: &Request, index: u64) -> Vec<(i64, i64)> {
    soup::hashsoup(&format!("{}{index}", request.root), request.symmetry)
}

/// The GPU path: the GPU carries one batch while the CPU finishes the one before.
#[cfg(feature = "gpu")]
fn run_gpu(
    request: &Request,
    table: MapRule,
    path: GpuPath,
    progress: &Progress,
    on_batch: &(dyn Fn(&Haul) + Sync),
    mut haul: Haul,
) -> Result<Haul, String> {
    let soup = |index: u64| soup_of(request, index);
    let path = GpuPath {
        // No bigger than the range: the buffers are made for a whole batch.
        batch: path
            .batch
            .min((request.end - request.first).min(u32::MAX as u64) as u32),
        ..path
    };
    let ctx = crate::gpu::shared_context().map_err(|e| format!("the GPU path: {e}"))?;
    let gpu = gpu::GpuSoups::new(ctx, &table, path).map_err(|e| format!("the GPU path: {e}"))?;
    let batch = gpu.batch() as u64;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let gpu = &gpu;
        scope.spawn(move || {
            let mut next = request.first;
            while next < request.end && !progress.stop.load(Ordering::Relaxed) {
                let end = (next + batch).min(request.end);
                let soups: Vec<_> = (next..end).into_par_iter().map(soup).collect();
                let clock = std::time::Instant::now();
                let carried = gpu.run(&soups).map_err(|e| format!("the GPU path: {e}"));
                let micros = clock.elapsed().as_micros() as u64;
                progress.gpu.gpu_micros.fetch_add(micros, Ordering::Relaxed);
                let failed = carried.is_err();
                if tx.send(carried.map(|s| (next, s))).is_err() || failed {
                    break;
                }
                next = end;
            }
        });
        for carried in rx {
            let (first, starts) = carried?;
            for start in &starts {
                progress.gpu.count(start);
            }
            let clock = std::time::Instant::now();
            let whole = finish(request, table, progress, first, starts, &mut haul)?;
            let micros = clock.elapsed().as_micros() as u64;
            progress.gpu.cpu_micros.fetch_add(micros, Ordering::Relaxed);
            if !whole {
                // Stopped: the sender ends at its next send.
                break;
            }
            on_batch(&haul);
        }
        Ok(haul)
    })
}

#[cfg(not(feature = "gpu"))]
fn run_gpu(
    _: &Request,
    _: MapRule,
    _: GpuPath,
    _: &Progress,
    _: &(dyn Fn(&Haul) + Sync),
    _: Haul,
) -> Result<Haul, String> {
    Err("the GPU path: lifelab was built without the gpu feature".into())
}

/// Runs the soups `first..` from their starts and adds them to the haul; false when a stop
/// cut the batch short (only the soups up to the first one not done count).
fn finish(
    request: &Request,
    table: MapRule,
    progress: &Progress,
    first: u64,
    starts: Vec<settle::Start>,
    haul: &mut Haul,
) -> Result<bool, String> {
    let n = starts.len();
    let outcomes: Vec<Option<Result<SoupOutcome, String>>> = starts
        .into_par_iter()
        .enumerate()
        .map_init(
            || settle::Settler::new(classify::Classifier::new(request.rule, table)),
            |settler, (k, start)| {
                if progress.stop.load(Ordering::Relaxed) {
                    return None;
                }
                let index = first + k as u64;
                let outcome = settler
                    .resume(index, &start)
                    .map_err(|e| format!("soup {}{index}: {e}", request.root));
                progress.soups.fetch_add(1, Ordering::Relaxed);
                if let Ok(o) = &outcome {
                    progress
                        .objects
                        .fetch_add(o.objects.len() as u64, Ordering::Relaxed);
                }
                Some(outcome)
            },
        )
        .collect();
    let done: Vec<SoupOutcome> = outcomes
        .into_iter()
        .map_while(|o| o)
        .collect::<Result<_, _>>()?;
    let stop = first + done.len() as u64;
    haul.add(first, stop, &done);
    Ok(done.len() == n)
}

/// One soup's outcome alone (what the tests and `census soup --objects` use).
pub fn one(rule: Rule, symmetry: Symmetry, root: &str, index: u64) -> Result<SoupOutcome, String> {
    let table = census_table(&rule).map_err(|e| e.to_string())?;
    let mut settler = settle::Settler::new(classify::Classifier::new(rule, table));
    let cells = soup::hashsoup(&format!("{root}{index}"), symmetry);
    settler.run(index, &cells).map_err(|e| e.to_string())
}

/// The objects of a settled pattern, as a soup's are counted: `debris` runs `duration` more
/// generations for its envelope and is separated and named (gliders that escape counted), and
/// each of `ships` (a spaceship flying away, taken off before) is named on its own. Each
/// apgcode with its count, commonest first. Refused for a rule the census cannot run, and for
/// debris spread over more than 2^28 cells, which the census plane would hold whole.
pub fn objects_of_settled(
    rule: Rule,
    debris: &[(i64, i64)],
    ships: &[Vec<(i64, i64)>],
    duration: u64,
) -> Result<Vec<(String, u64)>, String> {
    let table = census_table(&rule).map_err(|e| e.to_string())?;
    if let (Some(l), Some(r)) = (
        debris.iter().map(|c| c.0).min(),
        debris.iter().map(|c| c.0).max(),
    ) {
        let (t, b) = (
            debris.iter().map(|c| c.1).min().unwrap_or(0),
            debris.iter().map(|c| c.1).max().unwrap_or(0),
        );
        let area = (r - l + 1) as u128 * (b - t + 1) as u128;
        if area > 1 << 28 {
            return Err(format!(
                "the debris spans {}x{} cells, more than the census plane holds (2^28)",
                r - l + 1,
                b - t + 1
            ));
        }
    }
    let mut settler = settle::Settler::new(classify::Classifier::new(rule, table));
    let start = settle::Start {
        generation: 0,
        cells: debris.to_vec(),
        stage: settle::Stage::Settled(duration.max(1)),
    };
    let mut objects = settler
        .resume(0, &start)
        .map_err(|e| e.to_string())?
        .objects;
    for ship in ships {
        objects.extend(settler.classifier.identify(ship, true));
    }
    let mut counts: std::collections::BTreeMap<String, u64> = Default::default();
    for o in objects.into_iter().filter(|o| o != "xs0_0") {
        *counts.entry(o).or_default() += 1;
    }
    let mut out: Vec<(String, u64)> = counts.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(out)
}

/// The common name of a Life object's apgcode, where it has one: the still lifes, oscillators
/// and spaceships a methuselah's debris is mostly made of (their shapes as LifeWiki draws
/// them; the codes are computed, not typed).
pub fn common_name(rule: &Rule, code: &str) -> Option<&'static str> {
    static NAMES: std::sync::OnceLock<std::collections::HashMap<String, &'static str>> =
        std::sync::OnceLock::new();
    if *rule != Rule::life() {
        return None;
    }
    let names = NAMES.get_or_init(|| {
        const SHAPES: [(&str, &str); 20] = [
            ("block", "2o$2o!"),
            ("beehive", "b2o$o2bo$b2o!"),
            ("loaf", "b2o$o2bo$bobo$2bo!"),
            ("boat", "2o$obo$bo!"),
            ("ship", "2o$obo$b2o!"),
            ("tub", "bo$obo$bo!"),
            ("pond", "b2o$o2bo$o2bo$b2o!"),
            ("barge", "bo$obo$bobo$2bo!"),
            ("long boat", "2o$obo$bobo$2bo!"),
            ("mango", "b2o$o2bo$bo2bo$2b2o!"),
            ("aircraft carrier", "2o$o2bo$2b2o!"),
            ("snake", "2obo$ob2o!"),
            ("blinker", "3o!"),
            ("toad", "b3o$3o!"),
            ("beacon", "2o$o$3bo$2b2o!"),
            ("glider", "bo$2bo$3o!"),
            ("lightweight spaceship", "bo2bo$o$o3bo$4o!"),
            ("middleweight spaceship", "3bo$bo3bo$o$o4bo$5o!"),
            ("heavyweight spaceship", "3b2o$bo4bo$o$o5bo$6o!"),
            ("pentadecathlon", "2bo4bo$2ob4ob2o$2bo4bo!"),
        ];
        let table = census_table(&Rule::life()).expect("Life has a census");
        let mut names = std::collections::HashMap::new();
        for (name, rle) in SHAPES {
            let p = crate::pattern::rle::parse(&format!("x = 0, y = 0\n{rle}\n"))
                .expect("a shape of the table");
            let cells: Vec<(i64, i64)> = p
                .cells
                .alive_cells()
                .map(|(x, y)| (x as i64, y as i64))
                .collect();
            let c = object::cycle(&object::Patch::from_cells(&cells), &table, 64)
                .expect("a periodic shape");
            names.insert(object::apgcode(&c), name);
        }
        names
    });
    names.get(code).copied()
}
