//! One soup, from its first generation to its objects, as apgsearch's `censusSoup` runs it:
//! 1. stabilise: step in blocks until the population has repeated for long enough (blocks of
//!    8, then 12, then 30 generations), or failing that until a hash of the cells near the soup
//!    repeats;
//! 2. separate: one more stabilisation period, keeping every cell alive in it (the envelope),
//!    then the classifier; if it finds a pathological object, 10,000 generations more and a
//!    longer envelope, up to five times.
//!
//! Gliders that escape (nothing lies further along their diagonal) are taken off the plane
//! and counted, so that they cost nothing; the population the stabilisation watches counts
//! them still, so the soup settles at the generation it would with them.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;

use rustc_hash::{FxHashMap, FxHashSet};
use std::hash::{Hash, Hasher};

use super::classify::Classifier;
use super::object::{Patch, apgcode, cycle};
use super::plane::SoupPlane;
use super::stabilise::{Stabiliser, Verdict};
use crate::engine::{EngineError, EngineResult};

/// What one soup gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoupOutcome {
    pub index: u64,
    /// The generation at which the soup was judged settled (the methuselah hunt's measure).
    pub settled: u64,
    /// Each object's apgcode, once per object (`PATHOLOGICAL`, `yl…` and `zz_…` included).
    pub objects: Vec<String>,
}

/// The 3x3 shapes of the rule's c/4 diagonal glider, each with its direction: indexed by the
/// box's nine cells as bits (row by row, bit 3 v + u).
struct Gliders {
    shapes: Box<[Option<Direction>; 512]>,
    code: String,
}

impl Gliders {
    fn of(classifier: &Classifier) -> Option<Gliders> {
        let glider = Patch::from_cells(&[(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)]);
        let c = cycle(&glider, &classifier.map, 8).ok()?;
        if c.period != 4 || c.dx.abs() != 1 || c.dy.abs() != 1 {
            return None;
        }
        let mut shapes = Box::new([None; 512]);
        for phase in &c.phases {
            if phase.w != 3 || phase.h != 3 || phase.population() != 5 {
                return None;
            }
            // The eight orientations, each moving its own way.
            for o in 0..8 {
                let mut mask = 0u16;
                for (x, y) in phase.live() {
                    let (x, y) = (x - phase.x0, y - phase.y0);
                    let (u, v) = orient(o, x, y);
                    mask |= 1 << (3 * v + u);
                }
                let (du, dv) = orient_vector(o, c.dx, c.dy);
                shapes[mask as usize] = Some((du, dv));
            }
        }
        Some(Gliders {
            shapes,
            code: apgcode(&c),
        })
    }
}

/// Orientation `o` of a cell of a 3x3 box: `o & 4` transposes, `o & 1` and `o & 2` mirror.
fn orient(o: u8, x: i64, y: i64) -> (i64, i64) {
    let (x, y) = if o & 4 != 0 { (y, x) } else { (x, y) };
    let x = if o & 1 != 0 { 2 - x } else { x };
    let y = if o & 2 != 0 { 2 - y } else { y };
    (x, y)
}

fn orient_vector(o: u8, dx: i64, dy: i64) -> (i64, i64) {
    let (dx, dy) = if o & 4 != 0 { (dy, dx) } else { (dx, dy) };
    let dx = if o & 1 != 0 { -dx } else { dx };
    let dy = if o & 2 != 0 { -dy } else { dy };
    (dx, dy)
}

/// Where a soup's run starts: its cells (lifelib's coordinates) at a generation, and how far
/// its stabilisation has got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    pub generation: u64,
    pub cells: Vec<(i64, i64)>,
    pub stage: Stage,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// In the first phase, with the machine's state.
    Stabilising(Stabiliser),
    /// At the start of the second phase.
    PhaseTwo,
    /// Settled now, with this stabilisation period.
    Settled(u64),
}

impl Start {
    /// A soup at generation 0.
    pub fn fresh(cells: &[(i64, i64)]) -> Self {
        Start {
            generation: 0,
            cells: cells.to_vec(),
            stage: Stage::Stabilising(Stabiliser::new()),
        }
    }
}

/// The soup runner for one thread: its classifier keeps what it has named.
pub struct Settler {
    pub classifier: Classifier,
    gliders: Option<Gliders>,
}

/// A soup on the plane, with the gliders it has lost.
struct Soup {
    engine: SoupPlane,
    generation: u64,
    escaped: u64,
    /// Each glider taken off: the generation it was taken at and its cells then. The
    /// stabilisation's hash still sees them where they would be.
    ghosts: Vec<Ghost>,
    /// The generation at which gliders are next looked for.
    next_sweep: u64,
}

/// A glider taken off: the generation it was taken at, its cells then, and the diagonal it
/// moves along (a cell each way every four generations).
struct Ghost {
    taken: u64,
    cells: Patch,
    direction: Direction,
}

/// Generations between looks for escaping gliders. When a glider is taken off changes nothing
/// the census sees, only what it costs.
const SWEEP: u64 = 128;

/// Where lifelib's origin is on this plane.
const SHIFT: i64 = 16;

impl Settler {
    pub fn new(classifier: Classifier) -> Self {
        let gliders = Gliders::of(&classifier);
        Settler {
            classifier,
            gliders,
        }
    }

    /// Runs the soup of `cells` to its objects.
    pub fn run(&mut self, index: u64, cells: &[(i64, i64)]) -> EngineResult<SoupOutcome> {
        self.resume(index, &Start::fresh(cells))
    }

    /// Runs a soup to its objects from where `start` leaves it (the GPU's first generations).
    pub fn resume(&mut self, index: u64, start: &Start) -> EngineResult<SoupOutcome> {
        let mut engine = SoupPlane::new(&self.classifier.rule).ok_or_else(|| {
            EngineError::Unsupported(format!("{}: no census plane", self.classifier.rule))
        })?;
        for &(x, y) in &start.cells {
            engine.set(x + SHIFT, y + SHIFT, true);
        }
        let mut soup = Soup {
            engine,
            generation: start.generation,
            escaped: 0,
            ghosts: Vec::new(),
            next_sweep: start.generation + SWEEP,
        };
        let mut duration = match start.stage {
            Stage::Stabilising(machine) => self.stabilise(&mut soup, machine)?,
            Stage::PhaseTwo => self.phase_two(&mut soup)?,
            Stage::Settled(period) => period,
        };
        // Every glider escaping at the settling generation is taken off, however the soup got
        // here (from generation 0, or from the GPU at any generation), so that separation sees
        // the same plane either way.
        self.remove_escaped(&mut soup)?;
        let settled = soup.generation;
        let mut attempt = 0;
        let objects = loop {
            let mut objects = Vec::new();
            if soup.engine.population() > 0 {
                objects = self.separate(&mut soup, duration)?;
            }
            let linear = objects.iter().any(|o| o.starts_with('y'));
            let pathological = objects.iter().any(|o| o == "PATHOLOGICAL");
            if !pathological || linear || attempt >= 5 {
                break objects;
            }
            attempt += 1;
            self.advance(&mut soup, 10_000)?;
            duration = 4000;
        };
        let mut objects = objects;
        if let Some(g) = &self.gliders {
            objects.extend((0..soup.escaped).map(|_| g.code.clone()));
        }
        objects.retain(|o| o != "xs0_0");
        objects.sort_unstable();
        Ok(SoupOutcome {
            index,
            settled,
            objects,
        })
    }

    fn advance(&self, soup: &mut Soup, gens: u64) -> EngineResult<()> {
        soup.engine.step(gens);
        soup.generation += gens;
        if soup.generation >= soup.next_sweep {
            soup.next_sweep = soup.generation + SWEEP;
            self.remove_escaped(soup)?;
        }
        Ok(())
    }

    /// The population as if no glider had been taken off.
    fn population(&self, soup: &mut Soup) -> EngineResult<u64> {
        Ok(soup.engine.population() + 5 * soup.escaped)
    }

    /// apgsearch's stabilisation from `machine`'s state; the stabilisation period it ends
    /// with.
    fn stabilise(&self, soup: &mut Soup, mut machine: Stabiliser) -> EngineResult<u64> {
        loop {
            self.advance(soup, machine.due())?;
            match machine.event(self.population(soup)?) {
                Verdict::Continue => {}
                Verdict::Settled(period) => return Ok(period),
                Verdict::PhaseTwo => return self.phase_two(soup),
            }
        }
    }

    /// The second phase: the first time the cells near the soup repeat.
    fn phase_two(&self, soup: &mut Soup) -> EngineResult<u64> {
        // Phase II: the first time the cells near the soup repeat, looked at every 30
        // generations. (apgluxe keeps a sorted list of hashes that it cuts short, so when it
        // sees a repeat depends on the hash's values; every hash is kept here.)
        let mut seen: HashMap<u64, u64> = HashMap::new();
        let mut generation = 0u64;
        for _ in 0..4000 {
            self.advance(soup, 30)?;
            generation += 30;
            let h = self.near_hash(soup)?;
            if let Some(&first) = seen.get(&h) {
                let mut period = generation - first;
                let mut previous = self.population(soup)?;
                for _ in 0..20 {
                    self.advance(soup, period)?;
                    let current = self.population(soup)?;
                    if current != previous {
                        period = period.max(1280);
                        break;
                    }
                    previous = current;
                }
                return Ok(period);
            }
            seen.insert(h, generation);
        }
        self.advance(soup, 1280)?;
        Ok(1280)
    }

    /// One more `duration` generations, keeping the envelope, then the classifier.
    fn separate(&mut self, soup: &mut Soup, duration: u64) -> EngineResult<Vec<String>> {
        // Gathered a word at a time: far fewer words than cells.
        let mut words: FxHashMap<(i64, i64), u64> = FxHashMap::default();
        let mut gather = |plane: &SoupPlane| {
            for (at, v) in plane.words() {
                *words.entry(at).or_default() |= v;
            }
        };
        gather(&soup.engine);
        for _ in 0..duration {
            soup.engine.step(1);
            soup.generation += 1;
            gather(&soup.engine);
        }
        let mut envelope: FxHashSet<(i64, i64)> = FxHashSet::default();
        for ((x0, y), mut v) in words {
            while v != 0 {
                envelope.insert((x0 + v.trailing_zeros() as i64, y));
                v &= v - 1;
            }
        }
        let live: FxHashSet<(i64, i64)> = soup.engine.cells().into_iter().collect();
        Ok(self.classifier.census(&live, &envelope, true))
    }

    /// Takes off every glider that nothing lies ahead of, counting it.
    fn remove_escaped(&self, soup: &mut Soup) -> EngineResult<()> {
        let Some(gliders) = &self.gliders else {
            return Ok(());
        };
        let mut cells: Vec<(i64, i64)> = soup.engine.cells();
        while let Some((found, direction)) = escaping(gliders, &soup.engine, &cells) {
            for c in &found {
                soup.engine.set(c.0, c.1, false);
            }
            cells.retain(|c| !found.contains(c));
            soup.escaped += 1;
            soup.ghosts.push(Ghost {
                taken: soup.generation,
                cells: Patch::from_cells(&found),
                direction,
            });
        }
        soup.engine.shrink();
        Ok(())
    }
}

/// A glider's motion: a cell right (1) or left (-1) and down (1) or up (-1) every 4 generations.
type Direction = (i64, i64);

/// The cells of one glider that is alone (nothing within two cells of its box) and ahead of
/// every other cell along its diagonal by more than its box, if there is one.
fn escaping(
    gliders: &Gliders,
    plane: &SoupPlane,
    cells: &[(i64, i64)],
) -> Option<(Vec<(i64, i64)>, Direction)> {
    if cells.len() < 5 {
        return None;
    }
    let get = |x: i64, y: i64| plane.get(x, y);
    for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let proj = |&(x, y): &(i64, i64)| sx * x + sy * y;
        let top = cells.iter().map(proj).max()?;
        for &(cx, cy) in cells.iter().filter(|c| proj(c) == top) {
            for (bx, by) in (0..3).flat_map(|u| (0..3).map(move |v| (cx - u, cy - v))) {
                let mut mask = 0u16;
                for v in 0..3 {
                    for u in 0..3 {
                        if get(bx + u, by + v) {
                            mask |= 1 << (3 * v + u);
                        }
                    }
                }
                if gliders.shapes[mask as usize] != Some((sx, sy)) {
                    continue;
                }
                let ring_empty = (-2..5).all(|v| {
                    (-2..5)
                        .all(|u| (0..3).contains(&u) && (0..3).contains(&v) || !get(bx + u, by + v))
                });
                if !ring_empty {
                    continue;
                }
                let own: Vec<(i64, i64)> = (0..3)
                    .flat_map(|v| (0..3).map(move |u| (bx + u, by + v)))
                    .filter(|&(x, y)| get(x, y))
                    .collect();
                let low = own.iter().map(proj).min()?;
                let ahead = cells
                    .iter()
                    .filter(|c| !own.contains(c))
                    .any(|c| proj(c) >= low - 4);
                if !ahead {
                    return Some((own, (sx, sy)));
                }
            }
        }
    }
    None
}

impl Settler {
    /// A hash of the cells within 2048 of the origin (the oracle's box), so that ships far
    /// away do not stop the stabilisation's hash from repeating. Gliders taken off count where
    /// they would be, so the hash is the one the whole plane would give.
    fn near_hash(&self, soup: &mut Soup) -> EngineResult<u64> {
        let near = |&(x, y): &(i64, i64)| {
            (SHIFT - 2048..SHIFT + 2048).contains(&x) && (SHIFT - 2048..SHIFT + 2048).contains(&y)
        };
        let mut cells: Vec<(i64, i64)> = soup.engine.cells().into_iter().filter(near).collect();
        for ghost in &soup.ghosts {
            let age = soup.generation - ghost.taken;
            let mut g = ghost.cells.clone();
            for _ in 0..age % 4 {
                g = g.step(&self.classifier.map);
            }
            let (dx, dy) = ghost.direction;
            let n = (age / 4) as i64;
            cells.extend(g.live().map(|(x, y)| (x + n * dx, y + n * dy)).filter(near));
        }
        cells.sort_unstable();
        let mut h = DefaultHasher::new();
        cells.hash(&mut h);
        Ok(h.finish())
    }
}
