//! Conformance: an engine under test and the reference engine run the same work side by side,
//! compared bit for bit after every generation, and the first difference is named by rule,
//! generation and cell. `lifelab check` and the GPU tests both use this.

use serde::Serialize;

use crate::engine::{Engine, EngineResult, Universe};
use crate::grid::Grid;
use crate::pattern::library;
use crate::registry::{self, Options, Request};
use crate::rule::{Rule, named};

/// One piece of work: a rule, a start, a seed and a number of generations.
#[derive(Clone, Debug)]
pub struct Case {
    pub label: String,
    pub rule: Rule,
    pub start: Grid,
    pub seed: u64,
    pub gens: u64,
    /// Engine options (tests force small GPU bands with them).
    pub options: Options,
}

/// The first difference between the engine under test and the reference.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Mismatch {
    pub case: String,
    pub rule: String,
    pub width: u32,
    pub height: u32,
    pub generation: u64,
    pub x: u32,
    pub y: u32,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "rule {} on a {}x{} torus ({}): generation {} differs first at cell ({}, {})",
            self.rule, self.width, self.height, self.case, self.generation, self.x, self.y
        )
    }
}

/// A bit to flip in the engine under test after some generation, to prove that a difference
/// is caught (the checker's own test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub generation: u64,
    pub x: u32,
    pub y: u32,
}

/// Makes the engine `name` for `case`, loaded with its start.
pub fn engine_for(name: &str, case: &Case) -> EngineResult<Box<dyn Engine>> {
    let universe = Universe::torus(case.start.width(), case.start.height());
    let mut request = Request::new(case.rule, universe).with_seed(case.seed);
    request.options = case.options.clone();
    let (mut e, _) = registry::create(name, &request)?;
    e.set_grid(&case.start, 0)?;
    Ok(e)
}

/// Runs `case` on the engine `name` and on the reference engine, comparing after every
/// generation.
pub fn run_case(name: &str, case: &Case, fault: Option<Fault>) -> EngineResult<Option<Mismatch>> {
    let mut oracle = engine_for("reference", case)?;
    let mut tested = engine_for(name, case)?;
    compare(oracle.as_mut(), tested.as_mut(), case, fault)
}

/// Steps both engines one generation at a time; the first difference wins.
pub fn compare(
    oracle: &mut dyn Engine,
    tested: &mut dyn Engine,
    case: &Case,
    fault: Option<Fault>,
) -> EngineResult<Option<Mismatch>> {
    for g in 1..=case.gens {
        oracle.step(1)?;
        tested.step(1)?;
        let want = oracle.grid()?;
        let mut got = tested.grid()?;
        if let Some(f) = fault.filter(|f| f.generation == g) {
            let (x, y) = (f.x % got.width(), f.y % got.height());
            got.set(x, y, !got.get(x, y));
            tested.set_grid(&got, g)?;
        }
        if let Some((x, y)) = want.first_difference(&got) {
            return Ok(Some(Mismatch {
                case: case.label.clone(),
                rule: case.rule.to_string(),
                width: case.start.width(),
                height: case.start.height(),
                generation: g,
                x,
                y,
            }));
        }
    }
    Ok(None)
}

/// Torus sizes of the suite: tiny, not multiples of 32, tall and thin, and a large one.
pub const SIZES: [(u32, u32); 6] = [(1, 1), (2, 3), (31, 7), (33, 65), (1000, 999), (4099, 17)];

fn soup(w: u32, h: u32, density: f64, seed: u64) -> Grid {
    let mut g = Grid::new(w, h);
    g.fill_random(density, seed);
    g
}

fn case(label: String, rule: Rule, start: Grid, seed: u64, gens: u64) -> Case {
    Case {
        label,
        rule,
        start,
        seed,
        gens,
        options: Options::default(),
    }
}

/// Generations for a size: fewer on the big tori, where the reference engine is slow.
fn gens_for(w: u32, h: u32) -> u64 {
    if w as u64 * h as u64 > 100_000 { 3 } else { 8 }
}

/// A group of cases that belong together, for progress reports.
pub struct Group {
    pub name: &'static str,
    pub cases: Vec<Case>,
}

/// The built-in conformance suite.
pub fn suite() -> Vec<Group> {
    let mut groups = Vec::new();

    let mut cases = Vec::new();
    for (i, (name, rule)) in named::all().into_iter().enumerate() {
        for (j, &(w, h)) in SIZES.iter().enumerate() {
            let seed = (i * 10 + j) as u64;
            cases.push(case(
                format!("{name}, random 0.4 seed {seed}"),
                rule.into(),
                soup(w, h, 0.4, seed),
                seed,
                gens_for(w, h),
            ));
        }
    }
    groups.push(Group {
        name: "every named rule on every size",
        cases,
    });

    let mut cases = Vec::new();
    let others = [
        "B2/S34H",
        "B245/S3H",
        "B0/S23H",
        "B3/S23V",
        "B0/S8",
        "B0123/S5678",
        "B2(1/3)/S12H",
        "B2(1/6)3/S23H",
        "B3/S2(1/2)3",
    ];
    for (i, text) in others.iter().enumerate() {
        let rule: Rule = text.parse().expect("valid");
        for (j, &(w, h)) in SIZES.iter().enumerate() {
            let seed = (100 + i * 10 + j) as u64;
            cases.push(case(
                format!("random 0.35 seed {seed}"),
                rule,
                soup(w, h, 0.35, seed),
                seed,
                gens_for(w, h),
            ));
        }
    }
    groups.push(Group {
        name: "hexagonal, von Neumann, B0 and stochastic rules",
        cases,
    });

    let mut cases = Vec::new();
    for n in 0..=255u32 {
        let rule: Rule = format!("W{n}").parse().expect("valid");
        for (j, w) in [1u32, 31, 33, 4099].into_iter().enumerate() {
            let seed = (n * 4 + j as u32) as u64;
            cases.push(case(
                format!("ring of {w}, random 0.5"),
                rule,
                soup(w, 1, 0.5, seed),
                seed,
                8,
            ));
        }
    }
    groups.push(Group {
        name: "all 256 elementary rules",
        cases,
    });

    let mut cases = Vec::new();
    for p in library::PATTERNS {
        let pattern = p.pattern();
        let rule = pattern
            .rule
            .map(Rule::without_torus)
            .unwrap_or_else(Rule::life);
        let (w, h) = (
            (pattern.width() + 40).next_multiple_of(32) + 5,
            pattern.height() + 41,
        );
        let mut start = Grid::new(w, h);
        let (x, y) = start.centre_offset(pattern.width(), pattern.height());
        start.paste(&pattern.cells, x, y);
        cases.push(case(
            format!("library pattern {}", p.id),
            rule,
            start,
            0,
            40,
        ));
    }
    groups.push(Group {
        name: "library patterns",
        cases,
    });

    // Tall, thin tori, which the GPU holds with rows and columns swapped.
    let mut cases = Vec::new();
    for (w, h) in [(1u32, 300u32), (3, 1000), (63, 200), (2, 65)] {
        for text in ["B3/S23", "B2/S34H", "B3/S23V", "B0/S8", "B2(1/3)/S12H"] {
            let rule: Rule = text.parse().expect("valid");
            let seed = (w * 1000 + h) as u64;
            cases.push(case(
                format!("{w}x{h}, random 0.45"),
                rule,
                soup(w, h, 0.45, seed),
                seed,
                12,
            ));
        }
    }
    groups.push(Group {
        name: "tall, thin tori",
        cases,
    });

    // Bands: a torus split across several buffers, as big tori are on every device.
    let mut cases = Vec::new();
    for (rows_per_band, (w, h)) in [(1u64, (70u32, 9u32)), (3, (300, 200)), (64, (4099, 130))] {
        for text in ["B3/S23", "B2/S34H", "B2(1/3)/S12H"] {
            let rule: Rule = text.parse().expect("valid");
            #[cfg_attr(not(feature = "gpu"), allow(unused_mut))]
            let mut c = case(
                format!("split into bands of {rows_per_band} rows"),
                rule,
                soup(w, h, 0.4, rows_per_band),
                7,
                5,
            );
            #[cfg(feature = "gpu")]
            {
                let row_bytes = (w as u64).div_ceil(64) * 8;
                c.options.gpu.max_band_bytes = Some(rows_per_band * row_bytes);
            }
            cases.push(c);
        }
    }
    groups.push(Group {
        name: "tori split into bands",
        cases,
    });

    groups
}
