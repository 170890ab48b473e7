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
    /// Engine options (tests force small GPU bands and the GPU kernel with them).
    pub options: Options,
    /// Generations both engines advance between comparisons (1: every generation). More than
    /// one lets the GPU's blocked kernel advance several generations in one dispatch.
    pub stride: u64,
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
    let stride = case.stride.max(1);
    let mut g = 0;
    while g < case.gens {
        let n = stride.min(case.gens - g);
        g += n;
        oracle.step(n)?;
        tested.step(n)?;
        let want = oracle.grid()?;
        let mut got = tested.grid()?;
        if let Some(f) = fault.filter(|f| f.generation == g) {
            let (x, y) = (f.x % got.width(), f.y % got.height());
            got.set(x, y, !got.get(x, y));
            tested.set_grid(&got, g)?;
        }
        // Under a Generations rule the dying states must agree too.
        let mut states_differ = || -> EngineResult<Option<(u32, u32)>> {
            if case.rule.states() <= 2 {
                return Ok(None);
            }
            let (w, h) = (case.start.width(), case.start.height());
            let rect = crate::engine::CellRect::new(0, 0, w, h);
            let (a, b) = (oracle.states_in(rect)?, tested.states_in(rect)?);
            Ok(a.iter()
                .zip(&b)
                .position(|(x, y)| x != y)
                .map(|i| (i as u32 % w, i as u32 / w)))
        };
        if let Some((x, y)) = want.first_difference(&got).or(states_differ()?) {
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
        stride: 1,
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

    // Golly's Generations: few and many states (a power of two among them), Hensel's letters,
    // the other neighbourhoods and B0 on a torus.
    let mut cases = Vec::new();
    let generations = [
        "/2/3",
        "345/3/6",
        "3458/37/4",
        "2/13/21",
        "12/2-a/3",
        "12m/2-p/3H",
        "23/3/3H",
        "1/1/4V",
        "1456/2356/256",
        "5/0/3",
    ];
    for (i, text) in generations.iter().enumerate() {
        let rule: Rule = text.parse().expect("valid");
        for (j, &(w, h)) in SIZES
            .iter()
            .enumerate()
            .filter(|(_, s)| s.0 * s.1 < 1 << 20)
        {
            let seed = (300 + i * 10 + j) as u64;
            cases.push(case(
                format!("random 0.4 seed {seed}"),
                rule,
                soup(w, h, 0.4, seed),
                seed,
                gens_for(w, h).min(40),
            ));
        }
    }
    groups.push(Group {
        name: "Generations rules",
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

    // Rules of the 3x3 block, which every engine decides by the rule's circuit: Hensel's
    // letters, MAP of each neighbourhood (an asymmetric Moore one among them), B0, and Golly's
    // 2D Wolfram; on every size, and on tall, thin tori that the GPU holds transposed (where an
    // asymmetric table must be transposed too).
    let mut cases = Vec::new();
    for (i, rule) in tabled_rules().into_iter().enumerate() {
        for (j, &(w, h)) in SIZES.iter().chain(&[(3, 1000), (63, 200)]).enumerate() {
            let seed = (300 + i * 10 + j) as u64;
            cases.push(case(
                format!("{w}x{h}, random 0.35 seed {seed}"),
                rule,
                soup(w, h, 0.35, seed),
                seed,
                gens_for(w, h),
            ));
        }
    }
    groups.push(Group {
        name: "rules of the 3x3 block: non-totalistic, MAP, 2D Wolfram",
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

    #[cfg(feature = "gpu")]
    groups.extend(kernel_groups());

    groups
}

/// Rules of the 3x3 block that every engine's tests run: non-totalistic ones, B0 among them, an
/// hexagonal one, an asymmetric Moore MAP, hexagonal and von Neumann MAPs, and Golly's 2D form
/// of W30.
pub fn tabled_rules() -> Vec<Rule> {
    let mut rules: Vec<Rule> = TABLED_RULES
        .iter()
        .map(|t| t.parse().expect("valid"))
        .collect();
    rules.push(Rule::parse_in_2d_file("W30").expect("valid"));
    for (name, table) in TWO_STATE_TABLES {
        let loaded = crate::rule::loader::load_text(table, name).expect("a valid rule file");
        rules.push(Rule {
            kind: crate::rule::RuleKind::Loaded(loaded),
            torus: None,
            bounded: None,
            tube: None,
        });
    }
    rules
}

/// Rule files of two states (as Banks-I and Banks-III are), one per neighbourhood Golly's
/// tables have: the two-state engines run each as its table of the 3x3 block, and the
/// reference engine walks its tree. Asymmetric where the symmetry allows; a listed transition's
/// bound variable is one state throughout, and an unlisted neighbourhood leaves the cell as it
/// is (Golly's default).
const TWO_STATE_TABLES: [(&str, &str); 4] = [
    (
        "TwoStateVonNeumann",
        "@RULE TwoStateVonNeumann\n@TABLE\nn_states:2\nneighborhood:vonNeumann\nsymmetries:none\n\
         # C,N,E,S,W,C'\n0,1,0,0,0,1\n0,1,1,0,0,1\n0,0,1,1,1,1\n1,0,0,0,0,0\n1,1,0,1,0,0\n1,0,1,0,0,0\n",
    ),
    (
        "TwoStateMoore",
        "@RULE TwoStateMoore\n@TABLE\nn_states:2\nneighborhood:Moore\nsymmetries:rotate4reflect\n\
         var a={0,1}\nvar b={0,1}\n# C,N,NE,E,SE,S,SW,W,NW,C'\n0,1,1,0,0,0,0,0,1,1\n\
         0,1,0,1,0,0,0,0,0,1\n0,1,0,0,0,1,0,0,0,1\n1,0,0,0,0,0,0,0,0,0\n1,a,0,a,0,0,0,0,0,0\n\
         1,1,1,1,1,a,b,0,0,0\n1,1,a,1,a,1,a,1,a,0\n",
    ),
    (
        "TwoStateHexagonal",
        "@RULE TwoStateHexagonal\n@TABLE\nn_states:2\nneighborhood:hexagonal\nsymmetries:permute\n\
         # C,N,E,SE,S,W,NW,C'\n0,1,1,0,0,0,0,1\n1,0,0,0,0,0,0,0\n1,1,1,1,1,0,0,0\n\
         1,1,1,1,1,1,0,0\n",
    ),
    (
        "TwoStateRows",
        "@RULE TwoStateRows\n@TABLE\nn_states:2\nneighborhood:oneDimensional\nsymmetries:none\n\
         # C,W,E,C': Wolfram's rule 30\n0,1,0,1\n0,0,1,1\n1,0,0,1\n1,1,0,0\n1,1,1,0\n1,0,1,1\n",
    ),
];

const TABLED_RULES: [&str; 7] = [
    "B2-a/S12",
    // Hexagonal letters (LifeWiki's `o`, `m`, `p`).
    "B2o3p4-o5/S2-p3p45H",
    "B2-ac3ai/S1c2-n3-aky4a",
    "B02a/S12-ak8",
    "MAPCGXCSg1AkAwIwYABYdgjAFIR6RxCqREAg4QaEIAIEUJEqg2imhGQowKZ4wLEhAEEQKMsMESAQxABElchyQACkg",
    "MAPABCDEFGHIJKLMNOPQRSTUV",
    "MAPABCDEF",
];

/// Rules for the GPU kernels' groups: Life, hexagonal, von Neumann, B0 and stochastic ones,
/// and a non-totalistic one.
#[cfg(feature = "gpu")]
const KERNEL_RULES: [&str; 7] = [
    "B3/S23",
    "B3_S23-a4ei6",
    "B2/S34H",
    "B3/S23V",
    "B0/S8",
    "B2(1/3)/S12H",
    "B3/S2(1/2)3",
];

/// The cases of the GPU's tile and blocked kernels: each case names its kernel.
#[cfg(feature = "gpu")]
fn kernel_groups() -> Vec<Group> {
    use crate::gpu::LifeKernel;

    let with = |mut c: Case, kernel: LifeKernel, block: Option<u32>, band_rows: Option<u64>| {
        c.options.gpu.kernel = kernel;
        c.options.gpu.block = block;
        let row_bytes = (c.start.width() as u64).div_ceil(64) * 8;
        c.options.gpu.max_band_bytes = band_rows.map(|r| r * row_bytes);
        c
    };
    let rule = |text: &str| -> Rule { text.parse().expect("valid") };
    let mut groups = Vec::new();

    // The tile list on every workload (no dense stretches): tori smaller than one tile (64
    // cells by 64 rows), exactly one, widths not a multiple of it (a last tile one cell
    // wide), and tiles that settle in a thinning soup.
    let mut cases = Vec::new();
    let sizes = [
        (1u32, 1u32),
        (2, 3),
        (31, 7),
        (64, 64),
        (65, 129),
        (130, 200),
    ];
    for (i, text) in KERNEL_RULES.iter().enumerate() {
        for (j, &(w, h)) in sizes.iter().enumerate() {
            let seed = (300 + i * 10 + j) as u64;
            let c = case(
                format!("random 0.35 seed {seed}"),
                rule(text),
                soup(w, h, 0.35, seed),
                seed,
                10,
            );
            cases.push(with(c, LifeKernel::Sparse, None, None));
        }
        let seed = (390 + i) as u64;
        let c = case(
            format!("random 0.08 seed {seed}, settling"),
            rule(text),
            soup(200, 130, 0.08, seed),
            seed,
            60,
        );
        cases.push(with(c, LifeKernel::Sparse, None, None));
    }
    groups.push(Group {
        name: "active tiles: small, odd and settling tori",
        cases,
    });

    // Tiles in bands: band edges on tile edges (bands of 64 rows), tiles cut short by band
    // edges (1, 3 and 100 rows), and the torus wrap across the last band.
    let mut cases = Vec::new();
    for (band_rows, (w, h)) in [
        (64u64, (300u32, 200u32)),
        (1, (70, 9)),
        (3, (100, 40)),
        (100, (150, 250)),
    ] {
        for text in ["B3/S23", "B2/S34H", "B3/S23V", "B2(1/3)/S12H"] {
            let c = case(
                format!("bands of {band_rows} rows, random 0.2"),
                rule(text),
                soup(w, h, 0.2, band_rows),
                5,
                8,
            );
            cases.push(with(c, LifeKernel::Sparse, None, Some(band_rows)));
        }
    }
    groups.push(Group {
        name: "active tiles in bands",
        cases,
    });

    // A glider in each of the four directions on a 70x40 torus in bands of 16 rows: it crosses
    // tile edges (x = 64), a last tile 6 cells wide, band edges (y = 16, 32) and the wrap both
    // ways, through every side and corner of a tile.
    let mut cases = Vec::new();
    let glider = [(1u32, 0u32), (2, 1), (0, 2), (1, 2), (2, 2)];
    for (dx, dy, name) in [
        (1i32, 1i32, "south-east"),
        (-1, 1, "south-west"),
        (1, -1, "north-east"),
        (-1, -1, "north-west"),
    ] {
        let mut start = Grid::new(70, 40);
        for &(x, y) in &glider {
            let x = if dx > 0 { x } else { 2 - x };
            let y = if dy > 0 { y } else { 2 - y };
            start.set(50 + x, 10 + y, true);
        }
        let c = case(
            format!("a glider heading {name}"),
            Rule::life(),
            start,
            0,
            170,
        );
        cases.push(with(c, LifeKernel::Sparse, None, Some(16)));
    }
    groups.push(Group {
        name: "active tiles: a glider across every kind of edge",
        cases,
    });

    // Debris near the corner of four tiles, where a change reaches one neighbouring tile
    // only: each seed is one whose run goes wrong if the compaction drops one of the eight
    // directions (found by a model of the tile kernel; a soup rarely needs them, as a changing
    // region usually touches a side too).
    let mut cases = Vec::new();
    for seed in [1u64, 2, 3, 7, 34, 40, 156] {
        let mut start = Grid::new(128, 128);
        let around = crate::grid::Rect {
            x: 58,
            y: 58,
            width: 12,
            height: 12,
        };
        start.fill_random_rect(around, 0.35, seed);
        let c = case(
            format!("12x12 random 0.35 seed {seed} round a tile corner"),
            Rule::life(),
            start,
            0,
            120,
        );
        cases.push(with(c, LifeKernel::Sparse, None, None));
    }
    groups.push(Group {
        name: "active tiles: changes across every side and corner",
        cases,
    });

    // The blocked kernel, several generations per dispatch: a comparison after every 5 (a
    // dispatch of 3 and one of 2) and every 18 (16 and 2), on every kind of torus; in bands,
    // whose rows cap the generations per dispatch.
    let mut cases = Vec::new();
    for block in [3u32, 16] {
        for (i, text) in KERNEL_RULES.iter().enumerate() {
            for (j, &(w, h)) in SIZES
                .iter()
                .enumerate()
                .filter(|(_, s)| s.0 * s.1 < 100_000)
            {
                let seed = (500 + i * 10 + j) as u64;
                let mut c = case(
                    format!("random 0.4 seed {seed}, {block} generations per dispatch"),
                    rule(text),
                    soup(w, h, 0.4, seed),
                    seed,
                    2 * (block as u64 + 2),
                );
                c.stride = block as u64 + 2;
                cases.push(with(c, LifeKernel::Blocked, Some(block), None));
            }
        }
    }
    for (band_rows, (w, h)) in [(3u64, (100u32, 40u32)), (20, (130, 70))] {
        for text in ["B3/S23", "B2/S34H", "B2(1/3)/S12H"] {
            let mut c = case(
                format!("bands of {band_rows} rows, random 0.4"),
                rule(text),
                soup(w, h, 0.4, band_rows),
                9,
                36,
            );
            c.stride = 18;
            cases.push(with(c, LifeKernel::Blocked, Some(16), Some(band_rows)));
        }
    }
    groups.push(Group {
        name: "blocked kernel",
        cases,
    });

    // Active tiles with dense stretches: runs that go from sparse to dense and back, compared
    // every so many generations so that a batch holds both kinds.
    let mut cases = Vec::new();
    let mut acorn = Grid::new(128, 128);
    for (x, y) in [(1u32, 0u32), (3, 1), (0, 2), (1, 2), (4, 2), (5, 2), (6, 2)] {
        acorn.set(60 + x, 60 + y, true);
    }
    let c = case(
        "acorn filling a small torus".into(),
        Rule::life(),
        acorn,
        0,
        390,
    );
    let mut c = with(c, LifeKernel::Tiles, Some(4), Some(64));
    c.stride = 13;
    cases.push(c);
    for text in ["B3/S23", "B2(1/3)/S12H"] {
        let c = case(
            "random 0.5, dying down".into(),
            rule(text),
            soup(160, 100, 0.5, 3),
            3,
            400,
        );
        let mut c = with(c, LifeKernel::Tiles, Some(5), Some(40));
        c.stride = 50;
        cases.push(c);
    }
    groups.push(Group {
        name: "active tiles with dense stretches",
        cases,
    });
    groups
}
