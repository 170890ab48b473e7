//! Methuselah lifespans, counted as the literature counts them: the first generation from
//! which the pattern is a stable set of still lifes and oscillators plus spaceships flying
//! away. Acorn stabilises at 5206 with 633 cells, the R-pentomino at 1103 with 116, rabbits at
//! 17331 (the Life Lexicon; its parent "bunnies" at 17332).
//!
//! The run uses a torus large enough that nothing escaping at the speed of light returns
//! within the generations searched, and says so. Two passes:
//! 1. The engine (GPU or CPU) runs and reports the population of every generation; the
//!    stabilisation cannot come before the population becomes periodic, and the run stops a
//!    settling margin after that.
//! 2. The last stretch is replayed on the CPU from a checkpoint with every generation's cells.
//!    The clusters that fly away at the end are identified as spaceships and traced back; with
//!    them removed, the remaining debris must repeat exactly, and the first generation from
//!    which it does is the lifespan.

use std::collections::HashSet;

use serde::Serialize;

use crate::engine::{Engine, EngineResult, Progress, Put, Universe};
use crate::grid::Grid;
use crate::rule::Rule;
use crate::tiles::TileMap;

/// The longest debris period looked for.
const MAX_PERIOD: usize = 60;

#[derive(Clone, Debug, Serialize)]
pub struct Lifespan {
    /// The first generation from which the pattern is stable (debris periodic, spaceships
    /// escaping).
    pub lifespan: u64,
    /// The whole population at that generation, spaceships included.
    pub final_population: u64,
    /// The debris's period.
    pub period: u64,
    /// Spaceships escaping at the end, and how many cells they hold.
    pub escaping: usize,
    pub escaping_cells: u64,
    /// The cells at the end of the run, for a census of what is left.
    #[serde(skip)]
    pub settled: Settled,
}

/// A stable pattern's cells at the end of a run, the debris apart from the spaceships flying
/// away (each ship's cells apart), at `generation`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settled {
    pub generation: u64,
    pub debris: Vec<(i64, i64)>,
    pub ships: Vec<Vec<(i64, i64)>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LifespanReport {
    /// `None` when it did not stabilise within the generations searched.
    pub result: Option<Lifespan>,
    /// Population of every generation of the first pass.
    pub history: Vec<u64>,
    pub universe: Universe,
    pub torus_note: String,
}

/// A torus for `max_gens` generations of `pattern`: anything leaving at speed c/2 (faster
/// than every spaceship of Life but the few at c) covers at most max_gens/2 cells, so a side
/// of max_gens + the pattern + a margin keeps escapees from coming back round.
pub fn roomy_side(pattern: &Grid, max_gens: u64) -> u32 {
    (room_needed(pattern, max_gens).next_power_of_two() as u32)
        .clamp(256, crate::grid::MAX_DIMENSION)
}

/// The side a torus needs so that nothing escaping `pattern` at c/2 or slower comes back
/// round within `max_gens` generations.
fn room_needed(pattern: &Grid, max_gens: u64) -> u64 {
    max_gens / 2 + pattern.width().max(pattern.height()) as u64 * 2 + 256
}

/// Finds the lifespan of `pattern` under `rule`, placed at the middle of the universe of the
/// engines `make` returns (a roomy torus, or the plane). `settle` is how long the population
/// must stay periodic.
pub fn lifespan(
    rule: Rule,
    pattern: &Grid,
    max_gens: u64,
    settle: u64,
    make: &dyn Fn() -> EngineResult<Box<dyn Engine>>,
    progress: &Progress,
) -> EngineResult<LifespanReport> {
    let mut engine = make()?;
    let universe = engine.universe();
    let at = match universe {
        Universe::Torus { width, height } | Universe::Bounded { width, height, .. } => (
            (width.saturating_sub(pattern.width()) / 2) as i64,
            (height.saturating_sub(pattern.height()) / 2) as i64,
        ),
        Universe::Plane | Universe::Tube(_) => universe.wrap(
            -(pattern.width() as i64 / 2),
            -(pattern.height() as i64 / 2),
        ),
    };
    engine.clear()?;
    engine.put(pattern, at, Put::Or)?;
    engine.set_generation(0);
    let torus_note = match universe {
        Universe::Torus { width, height }
            if width.min(height) as u64 >= room_needed(pattern, max_gens) =>
        {
            format!(
                "a {width}x{height} torus: nothing escaping at c/2 or slower comes back within {max_gens} generations"
            )
        }
        Universe::Torus { width, height } => format!(
            "this {width}x{height} torus, where what escapes may come back round within {max_gens} generations"
        ),
        other => other.describe(),
    };

    // Pass 1: populations, with a few checkpoints kept for pass 2.
    let mut history = vec![pattern.population()];
    let mut checkpoints: Vec<(u64, TileMap)> = vec![(0, engine.export()?)];
    let step = 512;
    let mut candidate = None;
    progress.set_total(max_gens);
    while (history.len() as u64) <= max_gens {
        if progress.cancelled() {
            return Err(crate::engine::EngineError::Cancelled);
        }
        let done = history.len() as u64 - 1;
        let n = step.min(max_gens - done);
        if n == 0 {
            break;
        }
        engine.step_populations(n, &mut history)?;
        progress.set_done(done + n);
        checkpoints.push((done + n, engine.export()?));
        if checkpoints.len() > 4 {
            checkpoints.remove(1);
        }
        if let Some((t, _)) = periodic_tail(&history, MAX_PERIOD)
            && (history.len() as u64 - 1).saturating_sub(t) >= settle
        {
            candidate = Some(t);
            break;
        }
    }
    let Some(from) = candidate else {
        return Ok(LifespanReport {
            result: None,
            history,
            universe,
            torus_note,
        });
    };
    let end = history.len() as u64 - 1;

    // Pass 2: replay the last stretch with every generation's cells.
    let back = from.saturating_sub(2 * MAX_PERIOD as u64);
    let (cg, tiles) = checkpoints
        .iter()
        .rev()
        .find(|(g, _)| *g <= back)
        .cloned()
        .unwrap_or_else(|| checkpoints[0].clone());
    let mut replay = make()?;
    replay.import(&tiles)?;
    replay.set_generation(cg);
    replay.step(back - cg)?;
    let mut frames: Vec<Vec<(i64, i64)>> = Vec::new();
    for g in back..=end {
        if g > back {
            replay.step(1)?;
        }
        let mut cells: Vec<(i64, i64)> = replay.export()?.cells().collect();
        cells.sort_unstable();
        frames.push(cells);
    }
    let ships = escaping_ships(rule, frames.last().expect("frames"), universe)?;
    let debris: Vec<Vec<(i64, i64)>> = frames
        .iter()
        .enumerate()
        .map(|(i, cells)| without_ships(cells, &ships, (frames.len() - 1 - i) as i64, universe))
        .collect();
    // Frames compared by fingerprint; the answer is confirmed cell by cell.
    let prints: Vec<u64> = debris.iter().map(|d| fingerprint(d)).collect();
    let periodic_from = |p: usize, same: &dyn Fn(usize, usize) -> bool| {
        let mut t = debris.len() - p;
        while t > 0 && same(t - 1, t - 1 + p) {
            t -= 1;
        }
        t
    };
    let mut best: Option<(usize, usize)> = None;
    for p in 1..=MAX_PERIOD.min(debris.len() / 2) {
        let mut t = periodic_from(p, &|a, b| prints[a] == prints[b]);
        if debris.len() - t >= 2 * p && best.is_none_or(|(bt, _)| t < bt) {
            // A fingerprint collision could make it look longer: count it again in full.
            t = periodic_from(p, &|a, b| debris[a] == debris[b]);
            if debris.len() - t >= 2 * p && best.is_none_or(|(bt, _)| t < bt) {
                best = Some((t, p));
            }
        }
    }
    let result = best.map(|(t, p)| {
        let lifespan = back + t as u64;
        Lifespan {
            lifespan,
            final_population: history[lifespan as usize],
            period: p as u64,
            escaping: ships.len(),
            escaping_cells: ships.iter().map(|s| s.phases[0].len() as u64).sum(),
            settled: Settled {
                generation: end,
                debris: debris.last().cloned().unwrap_or_default(),
                ships: ships.iter().map(|s| s.phases[0].clone()).collect(),
            },
        }
    });
    Ok(LifespanReport {
        result,
        history,
        universe,
        torus_note,
    })
}

/// The earliest t (and its period) from which `history` is periodic to its end with a period
/// of at most `max_p` (seen over at least three periods).
pub fn periodic_tail(history: &[u64], max_p: usize) -> Option<(u64, usize)> {
    let n = history.len();
    let mut best: Option<(u64, usize)> = None;
    for p in 1..=max_p.min(n / 3) {
        let mut t = n - p;
        while t > 0 && history[t - 1] == history[t - 1 + p] {
            t -= 1;
        }
        if n - t >= 3 * p && best.is_none_or(|(bt, _)| (t as u64) < bt) {
            best = Some((t as u64, p));
        }
    }
    best
}

/// A spaceship flying away: its cells in each phase at the end of the run (phase 0 is the
/// last generation), and its displacement per period.
struct Ship {
    phases: Vec<Vec<(i64, i64)>>,
    displacement: (i64, i64),
}

/// Clusters of cells closer than 3 to each other (8-connected with a gap of up to 2).
fn clusters(cells: &[(i64, i64)]) -> Vec<Vec<(i64, i64)>> {
    let set: HashSet<(i64, i64)> = cells.iter().copied().collect();
    let mut seen: HashSet<(i64, i64)> = HashSet::new();
    let mut out = Vec::new();
    for &c in cells {
        if !seen.insert(c) {
            continue;
        }
        let mut group = vec![c];
        let mut i = 0;
        while i < group.len() {
            let (x, y) = group[i];
            for dx in -2..=2 {
                for dy in -2..=2 {
                    let n = (x + dx, y + dy);
                    if set.contains(&n) && seen.insert(n) {
                        group.push(n);
                    }
                }
            }
            i += 1;
        }
        out.push(group);
    }
    out
}

/// The clusters at the end that are spaceships moving away from the rest.
fn escaping_ships(rule: Rule, cells: &[(i64, i64)], universe: Universe) -> EngineResult<Vec<Ship>> {
    let groups = clusters(cells);
    let total = cells.len().max(1) as f64;
    let centre = (
        cells.iter().map(|c| c.0 as f64).sum::<f64>() / total,
        cells.iter().map(|c| c.1 as f64).sum::<f64>() / total,
    );
    let mut ships = Vec::new();
    for g in groups {
        if g.len() > 64 {
            continue;
        }
        let (minx, miny) = (
            g.iter().map(|c| c.0).min().expect("not empty"),
            g.iter().map(|c| c.1).min().expect("not empty"),
        );
        let (maxx, maxy) = (
            g.iter().map(|c| c.0).max().expect("not empty"),
            g.iter().map(|c| c.1).max().expect("not empty"),
        );
        if maxx - minx > 24 || maxy - miny > 24 {
            continue;
        }
        // Alone on a small torus: does it come back moved, within 16 generations?
        let mut small = Grid::new(64, 64);
        for &(x, y) in &g {
            small.set((x - minx + 20) as u32, (y - miny + 20) as u32, true);
        }
        let request = crate::registry::Request::new(rule, Universe::torus(64, 64));
        let (mut e, _) = crate::registry::create("cpu", &request)?;
        e.set_grid(&small, 0)?;
        let mut phases = vec![small.clone()];
        let mut found = None;
        for p in 1..=16usize {
            e.step(1)?;
            let now = e.grid()?;
            if let (Some(a), Some(b)) = (small.bounding_box(), now.bounding_box())
                && small.crop(a) == now.crop(b)
                && (a.x, a.y) != (b.x, b.y)
            {
                found = Some((p, (b.x as i64 - a.x as i64, b.y as i64 - a.y as i64)));
                break;
            }
            phases.push(now);
        }
        let Some((p, d)) = found else { continue };
        // Moving away from the centre of everything.
        let gc = (
            g.iter().map(|c| c.0 as f64).sum::<f64>() / g.len() as f64,
            g.iter().map(|c| c.1 as f64).sum::<f64>() / g.len() as f64,
        );
        let away = (gc.0 - centre.0) * d.0 as f64 + (gc.1 - centre.1) * d.1 as f64;
        if away <= 0.0 {
            continue;
        }
        let to_world = |grid: &Grid| -> Vec<(i64, i64)> {
            grid.alive_cells()
                .map(|(x, y)| universe.wrap(x as i64 + minx - 20, y as i64 + miny - 20))
                .collect()
        };
        ships.push(Ship {
            phases: phases[..p].iter().map(to_world).collect(),
            displacement: d,
        });
    }
    Ok(ships)
}

/// The cells `k` generations before the end without the escaping ships that are already there:
/// a ship is traced back along its path, and removed only where all of its cells are alive.
fn without_ships(
    cells: &[(i64, i64)],
    ships: &[Ship],
    k: i64,
    universe: Universe,
) -> Vec<(i64, i64)> {
    // `cells` is sorted: membership is a binary search.
    let alive = |c: &(i64, i64)| cells.binary_search(c).is_ok();
    let mut removed: Vec<(i64, i64)> = Vec::new();
    for s in ships {
        let p = s.phases.len() as i64;
        // k generations back is j generations forward in phase, then back whole periods.
        let j = (p - k % p) % p;
        let periods = (k + j) / p;
        let shifted: Vec<(i64, i64)> = s.phases[j as usize]
            .iter()
            .map(|&(x, y)| {
                universe.wrap(
                    x - s.displacement.0 * periods,
                    y - s.displacement.1 * periods,
                )
            })
            .collect();
        if shifted.iter().all(alive) {
            removed.extend(shifted);
        }
    }
    removed.sort_unstable();
    cells
        .iter()
        .copied()
        .filter(|c| removed.binary_search(c).is_err())
        .collect()
}

/// A 64-bit fingerprint of a sorted list of cells.
fn fingerprint(cells: &[(i64, i64)]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ cells.len() as u64;
    for &(x, y) in cells {
        h = (h ^ x as u64).wrapping_mul(0x0000_0100_0000_01b3);
        h = (h ^ y as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
