//! The engine registry and the seam: an engine added through the registry alone reaches the
//! command line and the app; `auto` chooses by the work and says why. New tests of the
//! registry, the seam's contract and the worker belong here; tests of one engine's
//! simulation belong in `engines.rs`, `sparse.rs` or `gpu.rs`.

mod common;

use std::process::ExitCode;

use lifelab::engine::{Bounds, CellRect, Census, Engine, EngineResult, Put, Universe};
use lifelab::grid::Grid;
use lifelab::registry::{self, EngineSpec, Request};
use lifelab::rule::Rule;
use lifelab::tiles::TileMap;

/// An engine that only the test knows: it delegates to the reference engine under its own name.
struct Dummy(Box<dyn Engine>);

impl Engine for Dummy {
    fn core(&self) -> &lifelab::engine::Core {
        self.0.core()
    }
    fn core_mut(&mut self) -> &mut lifelab::engine::Core {
        self.0.core_mut()
    }
    fn name(&self) -> &'static str {
        "dummy"
    }
    fn kind(&self) -> lifelab::engine::EngineKind {
        lifelab::engine::EngineKind::Other
    }
    fn rule(&self) -> &Rule {
        self.0.rule()
    }
    fn universe(&self) -> Universe {
        self.0.universe()
    }
    fn generation(&self) -> u64 {
        self.0.generation()
    }
    fn set_generation(&mut self, g: u64) {
        self.0.set_generation(g)
    }
    fn step(&mut self, n: u64) -> EngineResult<()> {
        self.0.step(n)
    }
    fn population(&mut self) -> EngineResult<u64> {
        self.0.population()
    }
    fn census(&mut self) -> EngineResult<Census> {
        self.0.census()
    }
    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        self.0.cell(x, y)
    }
    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.0.set_cell(x, y, alive)
    }
    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        self.0.put(cells, at, how)
    }
    fn clear(&mut self) -> EngineResult<()> {
        self.0.clear()
    }
    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        self.0.bounds()
    }
    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        self.0.cells_in(rect)
    }
    fn export(&mut self) -> EngineResult<TileMap> {
        self.0.export()
    }
    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        self.0.import(tiles)
    }
}

fn register_dummy() {
    registry::register(EngineSpec {
        kind: lifelab::engine::EngineKind::Other,
        name: "dummy",
        summary: "the test's own engine",
        supports: |r| match r.universe {
            Universe::Torus { .. } => Ok(()),
            Universe::Plane | Universe::Bounded { .. } | Universe::Tube(_) => {
                Err("it runs tori only".into())
            }
        },
        // Never chosen by auto.
        cost: |_| None,
        memory: |_| 0,
        floor: |_| 0.0,
        create: |r| Ok(Box::new(Dummy(registry::create("reference", r)?.0))),
    });
}

#[cfg(feature = "app")]
#[test]
fn an_engine_added_through_the_registry_reaches_the_command_line_and_the_app() {
    register_dummy();
    assert!(registry::names().contains(&"dummy"));
    // The command line: `--engine dummy` parses and runs, in this process.
    use clap::Parser;
    let cli = lifelab::cli::Cli::try_parse_from([
        "lifelab",
        "run",
        "--pattern",
        "blinker",
        "--size",
        "16",
        "--gens",
        "3",
        "--engine",
        "dummy",
        "--json",
    ])
    .expect("--engine dummy is accepted");
    assert_eq!(lifelab::cli::main_with(cli), ExitCode::SUCCESS);
    // An engine no one added is refused with the list of those there are.
    let err = lifelab::cli::Cli::try_parse_from(["lifelab", "run", "--engine", "warp"])
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("no engine called 'warp'") && err.contains("dummy"),
        "{err}"
    );

    // The app: its Engine menu lists it, and choosing it runs the simulation there.
    let egui_ctx = eframe::egui::Context::default();
    let options = lifelab::app::AppOptions {
        pattern: Some("glider".into()),
        size: Some("32x32".into()),
        window: "1280x800".into(),
        data_dir: Some(std::env::temp_dir().join(format!("lifelab-dummy-{}", std::process::id()))),
        ..Default::default()
    };
    let mut app = lifelab::app::LifelabApp::headless(None, &egui_ctx, options).unwrap();
    assert!(app.engine_names().contains(&"dummy"));
    app.command(
        &egui_ctx,
        lifelab::app::command::Command::SetEngine("dummy".into()),
    );
    app.command(&egui_ctx, lifelab::app::command::Command::Step(4));
    let cells = app.cells().unwrap();
    assert_eq!(app.status().engine, "dummy");
    assert_eq!(cells.population(), 5);
}

fn request(universe: Universe, population: u64, span: u64, generations: u64) -> Request {
    let mut r = Request::new(Rule::life(), universe);
    r.workload.population = population;
    r.workload.span = span;
    r.workload.generations = generations;
    r.options.forbid_gpu = true;
    r
}

#[test]
fn auto_takes_the_sparse_engine_for_a_pattern_and_hashlife_for_a_long_jump() {
    // Acorn on a big torus (seven cells in a 7x3 box), a few hundred generations: the tile
    // engine.
    let c = registry::choose("auto", &request(Universe::torus(4096, 4096), 7, 21, 500)).unwrap();
    assert_eq!(c.engine, "tiles", "{}", c.reason);
    assert!(c.reason.contains("sparse"), "{}", c.reason);
    // To its stabilisation at 5206: still the tile engine, which computes a methuselah's churn
    // faster than HashLife memoises it (BENCHMARKS.md, issue 23).
    let c = registry::choose("auto", &request(Universe::torus(4096, 4096), 7, 21, 5206)).unwrap();
    assert_eq!(c.engine, "tiles", "{}", c.reason);
    // A hundred thousand generations: a jump long enough for HashLife.
    let c = registry::choose(
        "auto",
        &request(Universe::torus(4096, 4096), 7, 21, 100_000),
    )
    .unwrap();
    assert_eq!(c.engine, "hashlife", "{}", c.reason);
    // The same generations looked at one by one (as the window and analyses do): the tiles.
    let mut one_by_one = request(Universe::torus(4096, 4096), 7, 21, 5206);
    one_by_one.workload.stride = 1;
    let c = registry::choose("auto", &one_by_one).unwrap();
    assert_eq!(c.engine, "tiles", "{}", c.reason);
    // A dense soup of the same torus: the dense engine.
    let cells = 4096 * 4096;
    let c = registry::choose(
        "auto",
        &request(Universe::torus(4096, 4096), cells / 2, cells, 1000),
    )
    .unwrap();
    assert_eq!(c.engine, "cpu", "{}", c.reason);
    // A million generations on the plane: HashLife.
    let c = registry::choose("auto", &request(Universe::Plane, 7, 21, 1_000_000)).unwrap();
    assert_eq!(c.engine, "hashlife", "{}", c.reason);
    assert!(c.reason.contains("long jump"), "{}", c.reason);
    // A few generations on the plane: the tile engine.
    let c = registry::choose("auto", &request(Universe::Plane, 7, 21, 100)).unwrap();
    assert_eq!(c.engine, "tiles", "{}", c.reason);
}

#[test]
fn auto_never_takes_a_software_adapter_and_run_says_what_it_chose() {
    // lavapipe (device type Cpu) is slower than the CPU engines on the same cores.
    if let Ok(ctx) = lifelab::gpu::shared_context()
        && !lifelab::gpu::is_hardware(ctx)
    {
        let mut r = request(Universe::torus(4096, 4096), 1 << 23, 1 << 24, 1000);
        r.options.forbid_gpu = false;
        let c = registry::choose("auto", &r).unwrap();
        assert_ne!(c.engine, "gpu", "{}", c.reason);
    }
    let out = common::cli::lifelab(&[
        "run",
        "--pattern",
        "acorn",
        "--size",
        "2048x2048",
        "--gens",
        "5206",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["population"], 633);
    assert_eq!(v["engine"], "tiles");
    assert!(
        v["engine_reason"].as_str().unwrap().contains("sparse"),
        "{v}"
    );
}

#[test]
fn the_plane_is_a_universe_of_its_own_in_reports() {
    let out = common::cli::lifelab(&[
        "run",
        "--pattern",
        "acorn",
        "--plane",
        "--gens",
        "1000000",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Acorn's 633 cells, its 13 gliders still among them (LifeWiki).
    assert_eq!(v["population"], 633);
    assert_eq!(v["universe"]["kind"], "plane");
    assert_eq!(v["engine"], "hashlife");
    // B0 on the plane is emulated as Golly does: B0/S8 has Smax, so its dual rule runs. A
    // block under it at generation 100: 4096 cells (bgolly 3.3, QuickLife, on the plane).
    let run = |rule: &str| {
        let out = common::cli::lifelab(&[
            "run",
            "--rule",
            rule,
            "--plane",
            "--pattern",
            "block",
            "--json",
        ]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), v)
    };
    let (code, v) = run("B0/S8");
    assert_eq!(
        (code, &v["population"]),
        (Some(0), &serde_json::json!(4096)),
        "{v}"
    );
    // A stochastic B0 rule has no such emulation, and is refused with the reason.
    let (code, v) = run("B0(1/2)3/S23");
    assert_eq!(code, Some(1));
    assert!(v["error"].as_str().unwrap().contains("B0"), "{v}");
}

#[test]
fn a_costless_spec_can_be_chosen_by_name_only() {
    register_dummy();
    let r = request(Universe::torus(64, 64), 10, 100, 10);
    assert_ne!(registry::choose("auto", &r).unwrap().engine, "dummy");
    assert_eq!(registry::choose("dummy", &r).unwrap().engine, "dummy");
    let e = registry::choose("dummy", &request(Universe::Plane, 10, 100, 10))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("the dummy engine cannot run") && e.contains("tori only"),
        "{e}"
    );
}
