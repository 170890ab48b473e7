//! The one analysis the command line and the app both run: what a set of cells is.
//!
//! A small pattern (its live cells fit a 256x256 box, and the rule is deterministic) is
//! identified on its own: still life, oscillator, spaceship, gun, or, when it never repeats in
//! its own box, a methuselah whose lifespan is found on a universe roomy enough that nothing
//! escaping comes back. Anything bigger (a soup) is run where it is until the whole universe
//! repeats. Long runs go to the cheapest engine the registry has.

use std::time::Instant;

use serde::Serialize;

use super::identify::{Kind, identify, working_side};
use super::lifespan::{lifespan, roomy_side};
use super::period::{TorusFate, find_period};
use crate::engine::{Bounds, EngineError, EngineResult, Progress, Universe};
use crate::grid::Grid;
use crate::registry::{self, Request, Workload};
use crate::rule::Rule;
use crate::tiles::TileMap;

/// The largest box of live cells identified as one object.
pub const OBJECT_SIDE: u64 = 256;

/// What to analyse.
#[derive(Clone, Debug)]
pub enum Subject {
    /// One object: its cells, in a box of their own.
    Pattern(Grid),
    /// A whole universe as it is (the cells, wherever they are).
    Universe { universe: Universe, cells: TileMap },
}

#[derive(Clone, Debug)]
pub struct Question {
    pub rule: Rule,
    pub subject: Subject,
    /// Seeds stochastic rules.
    pub seed: u64,
    /// The most generations to search.
    pub max_gens: u64,
    /// Methuselahs: how long the population must stay periodic.
    pub settle: u64,
    /// The engine for long runs: a name, or `auto`.
    pub engine: String,
    /// The universe a methuselah runs on (default: a roomy torus).
    pub universe: Option<Universe>,
}

impl Question {
    /// The question for a universe's current cells: one object when it is small, the whole
    /// universe otherwise.
    pub fn of_state(rule: Rule, universe: Universe, cells: TileMap) -> Question {
        // Under B0 empty space fills at once: nothing is an object on its own.
        let b0 = !super::period::empty_stays_empty(&rule);
        let subject = match object_box(universe, &cells) {
            Some(b) if !rule.is_stochastic() && !b0 => {
                let mut g = Grid::new(b.width() as u32, b.height() as u32);
                for (x, y) in cells.cells() {
                    let (dx, dy) = match universe {
                        Universe::Torus { width, height } => (
                            (x - b.left).rem_euclid(width as i64),
                            (y - b.top).rem_euclid(height as i64),
                        ),
                        Universe::Plane | Universe::Bounded { .. } | Universe::Tube(_) => {
                            (x - b.left, y - b.top)
                        }
                    };
                    g.set(dx as u32, dy as u32, true);
                }
                Subject::Pattern(g)
            }
            _ => Subject::Universe { universe, cells },
        };
        Question {
            rule,
            subject,
            seed: 0,
            max_gens: 50_000,
            settle: 1000,
            engine: "auto".into(),
            universe: None,
        }
    }
}

/// The live cells' box when it is small enough to be one object (on a torus, the box may
/// wrap: it starts after the widest empty band).
fn object_box(universe: Universe, cells: &TileMap) -> Option<Bounds> {
    match universe {
        // A tube's cells may straddle its seam: it is asked about as a whole.
        Universe::Tube(_) => None,
        Universe::Plane | Universe::Bounded { .. } => cells
            .bounds()
            .filter(|b| b.width() <= OBJECT_SIDE && b.height() <= OBJECT_SIDE),
        Universe::Torus { width, height } => {
            let mut xs: Vec<i64> = Vec::new();
            let mut ys: Vec<i64> = Vec::new();
            for (x, y) in cells.cells() {
                xs.push(x);
                ys.push(y);
                if xs.len() > (OBJECT_SIDE * OBJECT_SIDE) as usize {
                    return None;
                }
            }
            let (left, w) = circular_span(&mut xs, width as i64)?;
            let (top, h) = circular_span(&mut ys, height as i64)?;
            (w <= OBJECT_SIDE as i64 && h <= OBJECT_SIDE as i64).then_some(Bounds {
                left,
                top,
                right: left + w - 1,
                bottom: top + h - 1,
            })
        }
    }
}

/// The shortest circular interval (start, length) of `0..n` covering every value.
fn circular_span(v: &mut [i64], n: i64) -> Option<(i64, i64)> {
    v.sort_unstable();
    let (&first, &last) = (v.first()?, v.last()?);
    // The widest gap between consecutive values, the wrap-around gap included.
    let mut best = (n - last + first, first);
    for w in v.windows(2) {
        if w[1] - w[0] > best.0 {
            best = (w[1] - w[0], w[1]);
        }
    }
    Some((best.1, n - best.0 + 1))
}

/// How many of one object: its apgcode, and its name where it has a common one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ObjectCount {
    pub apgcode: String,
    pub name: Option<String>,
    pub count: u64,
}

/// Everything the analysis found, in one vocabulary for the text, the JSON and the app.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Findings {
    pub rule: String,
    pub kind: Option<Kind>,
    pub period: Option<u64>,
    pub displacement: Option<[i64; 2]>,
    pub speed: Option<String>,
    pub name: Option<String>,
    pub apgcode: Option<String>,
    /// The first generation of the cycle (or of death).
    pub start: Option<u64>,
    pub emits: Option<String>,
    pub lifespan: Option<u64>,
    pub final_population: Option<u64>,
    pub escaping_spaceships: Option<usize>,
    /// A methuselah's objects at the end, as apgsearch's census names them (the escaping
    /// spaceships included), commonest first: filled in by the presenter from `settled`.
    pub final_census: Option<Vec<ObjectCount>>,
    /// A methuselah's cells at the end of the run.
    #[serde(skip)]
    pub settled: Option<super::Settled>,
    /// Where the long run happened.
    pub universe: Option<Universe>,
    pub universe_note: Option<String>,
    pub generations: u64,
    pub engine: String,
    pub engine_reason: String,
    pub seconds: f64,
    /// Whole-universe runs: hash hits confirmed by full comparison, and collisions rejected.
    pub confirmations: Option<u32>,
    pub collisions: Option<u32>,
    /// The population of every generation looked at.
    #[serde(skip)]
    pub history: Vec<u64>,
}

impl Findings {
    /// One or two sentences, as both the command line and the app say them.
    pub fn sentences(&self) -> Vec<String> {
        let name = match (&self.name, &self.apgcode) {
            (Some(n), Some(a)) => format!(" ({n}, {a})"),
            (Some(n), None) => format!(" ({n})"),
            (None, Some(a)) => format!(" ({a})"),
            (None, None) => String::new(),
        };
        let whole = self.confirmations.is_some();
        let subject = if whole { "the universe" } else { "it" };
        let mut out = vec![match self.kind {
            Some(Kind::Still) if whole => format!(
                "the universe is a still life from generation {}",
                self.start.unwrap_or(0)
            ),
            Some(Kind::Still) => format!(
                "a still life{name}, from generation {}",
                self.start.unwrap_or(0)
            ),
            Some(Kind::Oscillator) if whole => format!(
                "the universe oscillates with period {} from generation {}",
                self.period.unwrap_or(0),
                self.start.unwrap_or(0)
            ),
            Some(Kind::Oscillator) => format!(
                "an oscillator{name} of period {}, from generation {}",
                self.period.unwrap_or(0),
                self.start.unwrap_or(0)
            ),
            Some(Kind::Spaceship) => format!(
                "a spaceship{name}: period {}, speed {}",
                self.period.unwrap_or(0),
                self.speed.as_deref().unwrap_or("?")
            ),
            Some(Kind::Dies) => format!("{subject} dies at generation {}", self.start.unwrap_or(0)),
            Some(Kind::Gun) => format!(
                "a gun{name} of period {}: it emits {}",
                self.period.unwrap_or(0),
                self.emits.as_deref().unwrap_or("?")
            ),
            Some(Kind::Methuselah) => format!(
                "a methuselah: it stabilises at generation {} with population {} ({} spaceships escaping)",
                self.lifespan.unwrap_or(0),
                self.final_population.unwrap_or(0),
                self.escaping_spaceships.unwrap_or(0)
            ),
            Some(Kind::Unresolved) | None => {
                format!("no repetition within {} generations", self.generations)
            }
        }];
        if let Some(census) = &self.final_census {
            let items: Vec<String> = census
                .iter()
                .map(|o| match &o.name {
                    Some(n) => format!("{} {n} ({})", o.count, o.apgcode),
                    None => format!("{} {}", o.count, o.apgcode),
                })
                .collect();
            out.push(format!("what is left: {}", items.join(", ")));
        }
        if let Some(note) = &self.universe_note {
            out.push(format!("on {note}"));
        }
        out
    }
}

/// Answers `q`, reporting progress (generations searched) and stopping when cancelled.
pub fn analyse(q: &Question, progress: &Progress) -> anyhow::Result<Findings> {
    let started = Instant::now();
    let mut f = Findings {
        rule: q.rule.to_string(),
        engine: "cpu".into(),
        engine_reason: "identification runs small tori on the dense CPU engine".into(),
        ..Default::default()
    };
    if q.rule.is_elementary() {
        anyhow::bail!(
            "analysis is for Life-like rules; an elementary rule's ring is a different kind of object"
        );
    }
    if q.rule.states() > 2 {
        anyhow::bail!(
            "analysis identifies two-state objects (still lifes, oscillators, spaceships, apgcodes); rule {} has {} states, so run it with `lifelab run` instead",
            q.rule,
            q.rule.states()
        );
    }
    match &q.subject {
        Subject::Pattern(cells) => {
            if cells.is_empty() {
                anyhow::bail!("there are no live cells to analyse");
            }
            let id = identify(q.rule, cells, q.max_gens.min(4000))?;
            let side = working_side(cells);
            f.kind = Some(id.kind);
            f.period = id.period;
            f.displacement = id.displacement.map(|(x, y)| [x, y]);
            f.speed = id.speed.clone();
            f.name = id.name.clone();
            f.apgcode = id.apgcode.clone();
            f.start = Some(id.start);
            f.emits = id.emits.clone();
            f.universe = Some(Universe::torus(side, side));
            f.generations = id.generations;
            if id.kind == Kind::Unresolved {
                methuselah(q, cells, &mut f, progress)?;
            } else {
                f.history = populations(q.rule, cells, side, id.generations)?;
            }
        }
        Subject::Universe { universe, cells } => {
            let request = Request::new(q.rule, *universe)
                .with_seed(q.seed)
                .with_workload(Workload {
                    generations: q.max_gens,
                    population: cells.population(),
                    // Unbounded one way (a tube): the box the cells take.
                    span: universe.cells().unwrap_or_else(|| {
                        cells
                            .bounds()
                            .map_or(0, |b| b.width().saturating_mul(b.height()))
                    }),
                    stride: 1,
                    from_quadtree: false,
                });
            let (mut e, choice) = registry::create(&q.engine, &request)?;
            e.import(cells)?;
            let replay = || -> EngineResult<Box<dyn crate::engine::Engine>> {
                Ok(
                    registry::create("auto", &request.clone().with_workload(Workload::default()))?
                        .0,
                )
            };
            let r = find_period(e.as_mut(), &replay, q.max_gens, &|c| c.hash, progress)?;
            f.engine = choice.engine.into();
            f.engine_reason = choice.reason;
            f.universe = Some(*universe);
            f.generations = r.history.len() as u64 - 1;
            f.confirmations = Some(r.confirmations);
            f.collisions = Some(r.collisions);
            match r.fate {
                TorusFate::Dies { generation } => {
                    f.kind = Some(Kind::Dies);
                    f.start = Some(generation);
                }
                TorusFate::Repeats { start, period } => {
                    f.kind = Some(if period == 1 {
                        Kind::Still
                    } else {
                        Kind::Oscillator
                    });
                    f.start = Some(start);
                    f.period = Some(period);
                    f.displacement = Some([0, 0]);
                }
                TorusFate::Unresolved { .. } => f.kind = Some(Kind::Unresolved),
            }
            f.history = r.history;
        }
    }
    f.seconds = started.elapsed().as_secs_f64();
    Ok(f)
}

/// The lifespan of a pattern that never repeats in its own box.
fn methuselah(
    q: &Question,
    cells: &Grid,
    f: &mut Findings,
    progress: &Progress,
) -> anyhow::Result<()> {
    let universe = q.universe.unwrap_or_else(|| {
        let s = roomy_side(cells, q.max_gens);
        Universe::torus(s, s)
    });
    let request = Request::new(q.rule, universe)
        .with_seed(q.seed)
        .with_workload(Workload {
            generations: q.max_gens,
            population: cells.population(),
            span: cells.cells(),
            stride: 1,
            from_quadtree: false,
        });
    let choice = registry::choose(&q.engine, &request)?;
    let make = || -> EngineResult<Box<dyn crate::engine::Engine>> {
        Ok(registry::create(choice.engine, &request)?.0)
    };
    let r = match lifespan(q.rule, cells, q.max_gens, q.settle, &make, progress) {
        Err(EngineError::Cancelled) => return Err(EngineError::Cancelled.into()),
        r => r?,
    };
    f.engine = choice.engine.into();
    f.engine_reason = choice.reason;
    f.universe = Some(r.universe);
    f.universe_note = Some(r.torus_note.clone());
    f.generations = r.history.len() as u64 - 1;
    if let Some(l) = &r.result {
        f.kind = Some(Kind::Methuselah);
        f.lifespan = Some(l.lifespan);
        f.final_population = Some(l.final_population);
        f.period = Some(l.period);
        f.escaping_spaceships = Some(l.escaping);
        f.start = Some(l.lifespan);
        f.settled = Some(l.settled.clone());
    }
    f.history = r.history;
    Ok(())
}

/// The population over the generations identification looked at.
fn populations(rule: Rule, cells: &Grid, side: u32, gens: u64) -> anyhow::Result<Vec<u64>> {
    let request = Request::new(rule, Universe::torus(side, side));
    let (mut e, _) = registry::create("cpu", &request)?;
    let mut g = Grid::new(side, side);
    let (x, y) = g.centre_offset(cells.width(), cells.height());
    g.paste(cells, x, y);
    e.set_grid(&g, 0)?;
    let mut h = vec![g.population()];
    for _ in 0..gens {
        e.step(1)?;
        h.push(e.population()?);
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glider_straddling_the_torus_edge_is_one_small_object() {
        let mut t = TileMap::new();
        for (x, y) in [(99, 0), (0, 1), (98, 2), (99, 2), (0, 2)] {
            t.set(x, y, true);
        }
        let q = Question::of_state(Rule::life(), Universe::torus(100, 100), t);
        match q.subject {
            Subject::Pattern(g) => assert_eq!((g.width(), g.height(), g.population()), (3, 3, 5)),
            Subject::Universe { .. } => panic!("a glider is one object"),
        }
    }
}
