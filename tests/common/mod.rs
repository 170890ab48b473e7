//! Helpers shared by the integration tests. Each test file uses a different subset.
#![allow(dead_code)]

pub mod cli;

#[cfg(feature = "app")]
pub mod app;
#[cfg(feature = "app")]
pub mod xvfb;

use lifelab::engine::{Engine, Universe};
use lifelab::grid::Grid;
use lifelab::pattern::library;
use lifelab::rule::Rule;

pub fn rule(s: &str) -> Rule {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A library pattern centred on a `w x h` torus.
pub fn on_torus(name: &str, w: u32, h: u32) -> Grid {
    let p = library::get(name).unwrap_or_else(|| panic!("no library pattern {name}"));
    let mut grid = Grid::new(w, h);
    let (x, y) = grid.centre_offset(p.width(), p.height());
    grid.paste(&p.cells, x, y);
    grid
}

pub fn soup(w: u32, h: u32, density: f64, seed: u64) -> Grid {
    let mut g = Grid::new(w, h);
    g.fill_random(density, seed);
    g
}

/// The registry's names of the engines, for the tests.
pub const REFERENCE: &str = "reference";
pub const CPU: &str = "cpu";
pub const TILES: &str = "tiles";
pub const HASHLIFE: &str = "hashlife";
pub const GPU: &str = "gpu";

/// The engine `name` (from the registry) on `grid`'s torus, loaded with it.
pub fn engine(name: &str, rule: Rule, grid: &Grid, seed: u64) -> Box<dyn Engine> {
    let request =
        lifelab::registry::Request::new(rule, Universe::torus(grid.width(), grid.height()))
            .with_seed(seed);
    let (mut e, _) =
        lifelab::registry::create(name, &request).unwrap_or_else(|e| panic!("{name}: {e}"));
    e.set_grid(grid, 0).unwrap();
    e
}

/// The grid after `gens` generations on the given engine.
pub fn run(name: &str, rule: Rule, grid: &Grid, gens: u64, seed: u64) -> Grid {
    let mut e = engine(name, rule, grid, seed);
    e.step(gens).unwrap();
    e.grid().unwrap()
}

/// Steps `kind` and the reference engine side by side and fails at the first generation and
/// cell where they differ.
pub fn assert_matches_reference(kind: &str, rule: Rule, grid: &Grid, gens: u64, seed: u64) {
    let mut oracle = engine(REFERENCE, rule, grid, seed);
    let mut other = engine(kind, rule, grid, seed);
    for g in 1..=gens {
        oracle.step(1).unwrap();
        other.step(1).unwrap();
        let (want, got) = (oracle.grid().unwrap(), other.grid().unwrap());
        assert!(got.padding_is_zero(), "{kind} set padding bits");
        if let Some((x, y)) = want.first_difference(&got) {
            panic!(
                "{kind} differs from the reference: rule {rule}, {}x{} torus, seed {seed}, \
                 generation {g}, first at cell ({x}, {y})",
                grid.width(),
                grid.height()
            );
        }
    }
}

/// Whether the CI environment asks for tools to be present rather than skipped.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Whether the GPU tests can run: an adapter is there (in CI there must be one, lavapipe), or
/// the test says it skips.
pub fn gpu_available() -> bool {
    match lifelab::gpu::shared_context() {
        Ok(_) => true,
        Err(e) => {
            assert!(
                !in_ci(),
                "the GPU tests need an adapter in CI ({e}); .ci/run installs lavapipe"
            );
            eprintln!("skipped: no GPU adapter ({e})");
            false
        }
    }
}

/// A reproducible soup of states for a rule of `states` states: each cell of the rectangle at
/// (x0, y0), `w` by `h`, is live one time in `one_in`, in a state from 1 to `states - 1`.
pub fn state_soup(
    (x0, y0): (i64, i64),
    (w, h): (u32, u32),
    states: u16,
    one_in: u64,
    seed: u64,
) -> lifelab::tiles::TileMap {
    let mut tiles = lifelab::tiles::TileMap::new();
    let mut x = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
    for cy in 0..h as i64 {
        for cx in 0..w as i64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x.is_multiple_of(one_in) {
                tiles.set_state(x0 + cx, y0 + cy, (1 + (x >> 8) % (states as u64 - 1)) as u8);
            }
        }
    }
    tiles
}

/// Whether bgolly and Golly's folder `dir` (its patterns, from the `golly` Debian package) are
/// installed: in CI they must be (`.ci/run` installs them), elsewhere a test skips without them.
pub fn golly_installed(dir: &str) -> bool {
    let found = std::process::Command::new("bgolly")
        .arg("-h")
        .output()
        .is_ok()
        && std::path::Path::new(dir).is_dir();
    assert!(
        found || !in_ci(),
        "bgolly and Golly's patterns are not installed: .ci/run installs them with `apt-get install golly`"
    );
    if !found {
        eprintln!("skipped: bgolly is not installed (apt-get install golly)");
    }
    found
}
