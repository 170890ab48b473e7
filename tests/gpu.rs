//! The GPU engines, bit for bit against the CPU reference, on whatever adapter wgpu finds (in CI:
//! lavapipe, Mesa's software Vulkan). New tests of GPU code paths belong here.
//!
//! With `CI=true` and no adapter these tests fail and say why; elsewhere they print that they
//! were skipped, and why.

mod common;

use common::GPU;
use common::{gpu_available, on_torus, rule, soup};
use lifelab::check::{self, Case, Fault};
use lifelab::gpu::{LifeKernel, LifeOptions, ShaderMode};
use lifelab::grid::Grid;

/// Runs one group of the conformance suite, with the given shader mode (and each case's own
/// kernel: the default, active tiles, unless the group names one).
fn suite_group(name_starts: &str, shader: ShaderMode) {
    suite_group_on(name_starts, shader, None);
}

/// Runs one group of the conformance suite with the given shader mode, on `kernel` if given.
fn suite_group_on(name_starts: &str, shader: ShaderMode, kernel: Option<LifeKernel>) {
    if !gpu_available() {
        return;
    }
    let group = check::suite()
        .into_iter()
        .find(|g| g.name.starts_with(name_starts))
        .unwrap_or_else(|| panic!("no suite group '{name_starts}'"));
    assert!(!group.cases.is_empty());
    for mut case in group.cases {
        case.options.gpu.shader = shader;
        if let Some(k) = kernel {
            case.options.gpu.kernel = k;
        }
        let found = check::run_case(GPU, &case, None).unwrap();
        assert_eq!(
            found,
            None,
            "{}",
            found.as_ref().map(|m| m.to_string()).unwrap_or_default()
        );
    }
}

#[test]
fn every_named_rule_on_every_odd_size() {
    suite_group("every named rule", ShaderMode::Specialised);
}

#[test]
fn every_named_rule_with_the_generic_shader_on_the_dense_kernel() {
    // The first GPU kernel, still selectable as `--kernel dense`, and the shader that reads
    // the rule from a table; the other tests run the default, active tiles.
    suite_group_on(
        "every named rule",
        ShaderMode::Generic,
        Some(LifeKernel::Dense),
    );
}

#[test]
fn hexagonal_von_neumann_b0_and_stochastic_rules() {
    suite_group("hexagonal", ShaderMode::Specialised);
    suite_group_on("hexagonal", ShaderMode::Generic, Some(LifeKernel::Dense));
}

/// Non-totalistic, MAP (an asymmetric one, hexagonal and von Neumann ones), B0 and Golly's 2D
/// Wolfram rules: their circuit as the shader's rule, on every kernel, on odd sizes and on tall,
/// thin tori held transposed, bit for bit against the reference engine.
#[test]
fn rules_of_the_3x3_block_on_every_kernel() {
    let group = "rules of the 3x3 block";
    suite_group(group, ShaderMode::Specialised);
    suite_group_on(group, ShaderMode::Generic, Some(LifeKernel::Dense));
    suite_group_on(group, ShaderMode::Specialised, Some(LifeKernel::Sparse));
    suite_group_on(group, ShaderMode::Specialised, Some(LifeKernel::Blocked));
}

#[test]
fn active_tiles_on_small_odd_and_settling_tori() {
    // The tile list on every workload: tori smaller than a tile, exactly one, widths that are
    // not a multiple of it; hexagonal, von Neumann, B0 and stochastic rules.
    suite_group("active tiles: small", ShaderMode::Specialised);
}

#[test]
fn active_tiles_in_bands_and_across_the_wrap() {
    suite_group("active tiles in bands", ShaderMode::Specialised);
}

#[test]
fn a_glider_crosses_every_kind_of_tile_edge() {
    suite_group("active tiles: a glider", ShaderMode::Specialised);
}

#[test]
fn a_change_reaches_each_side_and_corner_of_a_tile() {
    // Each of these runs goes wrong when the compaction pass drops one of the eight
    // directions (tried on a model of the tile kernel and on the shader itself).
    suite_group("active tiles: changes across", ShaderMode::Specialised);
}

#[test]
fn the_blocked_kernel_advances_several_generations_per_dispatch() {
    suite_group("blocked kernel", ShaderMode::Specialised);
}

#[test]
fn active_tiles_hand_over_to_dense_stretches_and_back() {
    suite_group("active tiles with dense stretches", ShaderMode::Specialised);
}

#[test]
fn edits_between_generations_restart_the_tile_list() {
    // Cells set one by one (the app's pencil) and patterns pasted in mid-run, on the tile
    // kernel (in bands) and the reference, compared every generation.
    if !gpu_available() {
        return;
    }
    let start = on_torus("glider", 150, 100);
    let mut case = Case {
        label: "edits".into(),
        rule: rule("B3/S23"),
        start,
        seed: 0,
        gens: 1,
        options: Default::default(),
        stride: 1,
    };
    case.options.gpu.max_band_bytes = Some(30 * 24);
    let mut oracle = check::engine_for(common::REFERENCE, &case).unwrap();
    let mut tested = check::engine_for(GPU, &case).unwrap();
    let blinker = on_torus("blinker", 5, 5);
    for g in 1..=40u64 {
        if g % 10 == 3 {
            for e in [&mut oracle, &mut tested] {
                e.set_cell(64, 29 + g as i64, true).unwrap();
                e.set_cell(65, 29 + g as i64, true).unwrap();
                e.set_cell(63, 30 + g as i64, true).unwrap();
            }
        }
        if g % 10 == 7 {
            for e in [&mut oracle, &mut tested] {
                e.put(&blinker, (126, 58), lifelab::engine::Put::Or)
                    .unwrap();
            }
        }
        oracle.step(1).unwrap();
        tested.step(1).unwrap();
        let (want, got) = (oracle.grid().unwrap(), tested.grid().unwrap());
        assert_eq!(want.first_difference(&got), None, "generation {g}");
    }
}

#[test]
fn the_tile_list_of_a_glider_is_a_few_tiles_and_of_a_soup_all() {
    if !gpu_available() {
        return;
    }
    // A glider on a 256x256 torus (16 tiles of 64x64) touches at most 4 tiles; every tile of a
    // 50% soup changes.
    let mut glider = common::engine(GPU, rule("B3/S23"), &on_torus("glider", 256, 256), 0);
    glider.step(50).unwrap();
    let a = glider.active_fraction().unwrap().unwrap();
    assert!((1.0 / 16.0..=4.0 / 16.0).contains(&a), "{a}");
    let mut soup_engine = common::engine(GPU, rule("B3/S23"), &soup(256, 256, 0.5, 2), 0);
    soup_engine.step(5).unwrap();
    assert_eq!(soup_engine.active_fraction().unwrap(), Some(1.0));
}

#[test]
fn bench_compares_the_kernels_on_a_sparse_workload() {
    if !gpu_available() {
        return;
    }
    let out = common::cli::lifelab(&[
        "bench",
        "--engine",
        "gpu",
        "--kernel",
        "dense",
        "--kernel",
        "tiles",
        "--kernel",
        "blocked",
        "--block",
        "4",
        "--pattern",
        "acorn",
        "--size",
        "128",
        "--pattern-gens",
        "60",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = v["results"].as_array().unwrap();
    let kernels: Vec<(&str, u64)> = results
        .iter()
        .map(|r| (r["kernel"].as_str().unwrap(), r["block"].as_u64().unwrap()))
        .collect();
    assert_eq!(kernels, [("dense", 1), ("tiles", 4), ("blocked", 4)]);
    // The same run on every kernel: acorn's population at generation 60 on the reference.
    let mut oracle = common::engine(
        common::REFERENCE,
        rule("B3/S23"),
        &on_torus("acorn", 128, 128),
        0,
    );
    oracle.step(60).unwrap();
    let want = oracle.population().unwrap();
    for r in results {
        assert_eq!(r["population"], want, "{r}");
        assert_eq!(r["workload"], "acorn");
        let active = r["active_fraction"].as_f64().unwrap();
        assert!(active > 0.0 && active <= 1.0, "{r}");
    }
}

#[test]
fn bad_kernel_flags_get_clear_errors() {
    for (args, wanted) in [
        (
            vec!["run", "--engine", "gpu", "--block", "0", "--json"],
            "the generations per dispatch must be a whole number from 1 to 16",
        ),
        (
            vec!["bench", "--block", "17", "--json"],
            "the generations per dispatch must be a whole number from 1 to 16",
        ),
        (
            vec!["check", "--kernel", "warp", "--json"],
            "invalid value 'warp' for '--kernel <KERNEL>'",
        ),
    ] {
        let out = common::cli::lifelab(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(wanted), "{args:?}: {e}");
    }
}

#[test]
fn all_256_elementary_rules() {
    suite_group("all 256 elementary", ShaderMode::Specialised);
}

#[test]
fn library_patterns() {
    suite_group("library patterns", ShaderMode::Specialised);
}

#[test]
fn tori_split_into_bands() {
    suite_group("tori split into bands", ShaderMode::Specialised);
}

#[test]
fn tall_thin_tori_held_transposed_match_the_reference() {
    // Narrower than a word and taller than wide: the device holds them transposed, and the
    // stochastic draw must still be made at each cell's own coordinates.
    suite_group("tall, thin tori", ShaderMode::Specialised);
    suite_group("tall, thin tori", ShaderMode::Generic);
}

#[test]
fn many_generations_in_one_submission_match_the_reference() {
    // The suite compares after every generation; here 300 generations run as one batch.
    if !gpu_available() {
        return;
    }
    for (text, (w, h)) in [
        ("B3/S23", (97, 61)),
        ("B2(1/3)/S12H", (64, 40)),
        ("W110", (131, 3)),
    ] {
        let r = rule(text);
        let start = soup(w, h, 0.4, 11);
        let want = common::run(common::REFERENCE, r, &start, 300, 5);
        let got = common::run(GPU, r, &start, 300, 5);
        assert_eq!(want.first_difference(&got), None, "{text}");
    }
}

#[test]
fn an_injected_single_bit_difference_is_caught() {
    if !gpu_available() {
        return;
    }
    let case = Case {
        label: "fault injection".into(),
        rule: rule("B3/S23"),
        start: soup(31, 7, 0.4, 3),
        seed: 0,
        gens: 10,
        options: Default::default(),
        stride: 1,
    };
    assert_eq!(check::run_case(GPU, &case, None).unwrap(), None);
    let fault = Fault {
        generation: 5,
        x: 12,
        y: 3,
    };
    let m = check::run_case(GPU, &case, Some(fault))
        .unwrap()
        .expect("caught");
    assert_eq!((m.generation, m.x, m.y), (5, 12, 3));
    assert_eq!(m.rule, "B3/S23");
}

#[test]
fn acorn_reaches_633_on_the_gpu() {
    if !gpu_available() {
        return;
    }
    let start = on_torus("acorn", 2048, 2048);
    let mut e = common::engine(GPU, rule("B3/S23"), &start, 0);
    e.step(5206).unwrap();
    assert_eq!(e.population().unwrap(), 633);
}

#[test]
fn the_space_time_buffer_holds_successive_generations() {
    if !gpu_available() {
        return;
    }
    let ctx = lifelab::gpu::shared_context().unwrap();
    let width = 101;
    let mut start = Grid::new(width, 1);
    start.set(50, 0, true);
    let r = rule("W30");
    let capacity = 16;
    let mut st =
        lifelab::gpu::elementary::SpaceTime::new(ctx, r.elementary().unwrap(), &start, capacity)
            .unwrap();
    // 20 generations wrap the 16-row ring: rows hold generations 5..=20.
    st.step(20).unwrap();
    let rows = st.read_rows().unwrap();
    let (_, _, cap, newest) = st.buffer();
    assert_eq!((cap, newest), (16, 20 % 16));
    let mut oracle = lifelab::cpu::ReferenceEngine::new(r, &start, 0);
    for g in 1..=20u32 {
        oracle.step_once();
        if g >= 5 {
            let want = lifelab::engine::Engine::grid(&mut oracle).unwrap();
            let row = g % capacity;
            for x in 0..width {
                assert_eq!(rows.get(x, row), want.get(x, 0), "generation {g}, cell {x}");
            }
        }
    }
}

#[test]
fn a_torus_too_large_for_the_device_gets_a_clear_error() {
    if !gpu_available() {
        return;
    }
    let ctx = lifelab::gpu::shared_context().unwrap();
    let Some(budget) = lifelab::gpu::grid::memory_budget(ctx) else {
        eprintln!("skipped: {} does not report its memory", ctx.name());
        return;
    };
    // A torus one and a half times what the device's share of memory allows (four copies of
    // it must fit the budget), still within what the CPU side may allocate (half of what is
    // available, of which the budget is 80%): the GPU, not the grid, must refuse it.
    let side = ((budget as f64 * 1.5 / 4.0 * 8.0).sqrt() as u64 / 64 * 64).to_string();
    let size = format!("{side}x{side}");
    let out = common::cli::lifelab(&["run", "--engine", "gpu", "--size", &size, "--gens", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("a {size} torus needs")), "{err}");
    assert!(
        err.contains("the largest square torus it can take is about"),
        "{err}"
    );
}

#[test]
fn check_command_passes_and_reports_json() {
    if !gpu_available() {
        return;
    }
    let out = common::cli::lifelab(&[
        "check",
        "--pattern",
        "gosper-glider-gun",
        "--size",
        "64x40",
        "--gens",
        "60",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["passed"], true);
    assert_eq!(v["generations"], 60);
    // The hidden fault flag proves the command notices a difference and exits 1.
    let out = common::cli::lifelab(&[
        "check",
        "--rule",
        "HighLife",
        "--random",
        "0.4",
        "--size",
        "33x65",
        "--gens",
        "9",
        "--inject-fault",
        "7,32,64",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["passed"], false);
    assert_eq!(v["mismatch"]["generation"], 7);
    assert_eq!(
        (v["mismatch"]["x"].as_u64(), v["mismatch"]["y"].as_u64()),
        (Some(32), Some(64))
    );
    assert_eq!(v["mismatch"]["rule"], "B36/S23");
}

#[test]
fn auto_takes_no_software_gpu_and_bench_reports_both_engines() {
    if !gpu_available() {
        return;
    }
    let out = common::cli::lifelab(&[
        "run",
        "--pattern",
        "r-pentomino",
        "--size",
        "1024",
        "--gens",
        "1103",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The R-pentomino is sparse: a sparse CPU engine (the tile engine, for a methuselah's
    // churn) beats any GPU on it; and a software adapter (lavapipe) is never auto's choice.
    assert_eq!(v["engine"], "tiles", "{v}");
    assert_eq!(v["population"], 116);
    let out = common::cli::lifelab(&[
        "bench", "--engine", "gpu", "--engine", "cpu", "--rule", "B3/S23", "--size", "256",
        "--gens", "4", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let engines: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["engine"].as_str().unwrap())
        .collect();
    assert_eq!(engines, ["gpu", "cpu"]);
    assert!(v["adapter"]["name"].is_string());
}

#[test]
fn gpu_census_matches_the_cpu_census_every_generation() {
    if !gpu_available() {
        return;
    }
    let ctx = lifelab::gpu::shared_context().unwrap();
    for (text, (w, h), band_rows) in [
        ("B3/S23", (301u32, 77u32), None),
        ("B36/S23", (64, 64), Some(5u64)),
        ("B2(1/3)/S12H", (33, 20), Some(3)),
    ] {
        let r = rule(text);
        let start = soup(w, h, 0.45, 21);
        let options = LifeOptions {
            max_band_bytes: band_rows.map(|n| n * (w as u64).div_ceil(64) * 8),
            ..LifeOptions::default()
        };
        let mut gpu = lifelab::gpu::life::GpuLifeEngine::new(ctx, r, &start, 9, options).unwrap();
        let census = gpu.new_census(16).unwrap();
        census.reset();
        gpu.step_with_census(16, &census, 0).unwrap();
        let got = census.fetch(16).unwrap();
        let mut cpu = lifelab::cpu::ReferenceEngine::new(r, &start, 9);
        for (g, c) in got.iter().enumerate() {
            cpu.step_once();
            let want = lifelab::engine::Engine::grid(&mut cpu).unwrap().census();
            assert_eq!(*c, want, "{text}, generation {}", g + 1);
        }
        assert_eq!(
            lifelab::engine::Engine::population(&mut gpu).unwrap(),
            got[15].population
        );
    }
}

#[test]
fn the_census_of_every_generation_after_an_edit_is_in_its_own_slot() {
    // A pattern put on a cleared torus starts the tile kernel with a seed pass, which computes
    // no generation: it must not take a census slot (it once shifted every census by one).
    if !gpu_available() {
        return;
    }
    // The census of a tile-list generation is the one the tile kernel keeps by adding what
    // each word it writes changes: in one band and in several, square, hexagonal and stochastic.
    use lifelab::engine::{Engine, Put};
    let ctx = lifelab::gpu::shared_context().unwrap();
    let (w, h) = (300u32, 200u32);
    for (text, band_rows) in [
        ("B3/S23", None),
        ("B36/S23", Some(37u64)),
        ("B2/S34H", Some(64)),
        ("B2(1/3)/S12H", Some(50)),
    ] {
        let r = rule(text);
        let options = LifeOptions {
            max_band_bytes: band_rows.map(|n| n * (w as u64).div_ceil(64) * 8),
            ..LifeOptions::default()
        };
        let mut gpu =
            lifelab::gpu::life::GpuLifeEngine::new(ctx, r, &Grid::new(w, h), 0, options).unwrap();
        let mut cpu = lifelab::cpu::ReferenceEngine::new(r, &Grid::new(w, h), 0);
        let acorn = lifelab::pattern::library::get("acorn")
            .unwrap()
            .trimmed()
            .cells;
        for e in [&mut gpu as &mut dyn Engine, &mut cpu] {
            e.clear().unwrap();
            e.put(&acorn, (140, 90), Put::Or).unwrap();
        }
        let mut got = Vec::new();
        gpu.step_census(300, &mut got).unwrap();
        let mut populations = Vec::new();
        gpu.step_populations(300, &mut populations).unwrap();
        assert_eq!(got.len(), 300);
        assert_eq!(populations.len(), 300);
        for g in 0..600 {
            cpu.step_once();
            let want = Engine::grid(&mut cpu).unwrap().census();
            if g < 300 {
                assert_eq!(got[g], want, "{text}, generation {}", g + 1);
            } else {
                assert_eq!(
                    populations[g - 300],
                    want.population,
                    "{text}, generation {}",
                    g + 1
                );
            }
        }
        // An edit mid-run: the kept census starts again.
        for e in [&mut gpu as &mut dyn Engine, &mut cpu] {
            e.set_cell(10, 10, true).unwrap();
            e.set_cell(11, 10, true).unwrap();
            e.set_cell(12, 10, true).unwrap();
        }
        let mut got = Vec::new();
        gpu.step_census(5, &mut got).unwrap();
        for (g, c) in got.iter().enumerate() {
            cpu.step_once();
            let want = Engine::grid(&mut cpu).unwrap().census();
            assert_eq!(*c, want, "{text}, after the edit, {}", g + 1);
        }
    }
}

#[test]
fn uploads_in_small_pieces_across_bands_arrive_whole() {
    if !gpu_available() {
        return;
    }
    let ctx = lifelab::gpu::shared_context().unwrap();
    // 100 cells wide (two 64-bit words a row, 16 bytes), bands of 5 rows (80 bytes), pieces of
    // 24 bytes: pieces end mid-row and mid-band, and the device is waited on after each.
    for piece in [8, 24, 64 << 20] {
        let grid = soup(100, 37, 0.5, piece as u64);
        let gpu = lifelab::gpu::grid::GpuGrid::new(ctx, 100, 37, Some(80)).unwrap();
        assert_eq!(gpu.bands.len(), 8);
        gpu.upload_in_pieces(ctx, &grid, piece);
        let back = gpu.download(ctx).unwrap();
        assert_eq!(
            back.first_difference(&grid),
            None,
            "pieces of {piece} bytes"
        );
    }
}

/// Without an adapter: every shader lifelab builds (the generated Life shaders for every named
/// rule in both modes, the elementary, census and view shaders) parses and validates with naga,
/// and the uniform struct it declares has the Rust struct's fields at the same offsets.
#[test]
fn every_shader_validates_and_its_struct_matches_the_rust_one() {
    use wgpu::naga;
    let mut shaders = lifelab::gpu::shaders();
    #[cfg(feature = "app")]
    shaders.push((
        lifelab::app::view_render::source(),
        lifelab::app::view_render::layout(),
    ));
    // The census's soups kernel, for a B/S rule and a non-totalistic one, with each struct it
    // shares.
    for rule in ["B3/S23", "B3/S2-i34q"] {
        let table =
            lifelab::census::census_table(&lifelab::rule::Rule::parse(rule).unwrap()).unwrap();
        for layout in lifelab::census::gpu::layouts() {
            shaders.push((lifelab::census::gpu::source(&table), layout));
        }
    }
    assert!(shaders.len() > 2 * lifelab::rule::named::all().len());
    for (source, layout) in shaders {
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("{}: {}", layout.shader, e.emit_to_string(&source)));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}: {}", layout.shader, e.emit_to_string(&source)));
        let ty = module
            .types
            .iter()
            .map(|(_, t)| t)
            .find(|t| t.name.as_deref() == Some(layout.wgsl_struct))
            .unwrap_or_else(|| {
                panic!(
                    "{} declares no struct {}",
                    layout.shader, layout.wgsl_struct
                )
            });
        let naga::TypeInner::Struct { members, span } = &ty.inner else {
            panic!("{} is not a struct", layout.wgsl_struct)
        };
        let wgsl: Vec<(String, usize)> = members
            .iter()
            .map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize))
            .collect();
        let rust: Vec<(String, usize)> = layout
            .fields
            .iter()
            .map(|(n, o)| (n.to_string(), *o))
            .collect();
        assert_eq!(wgsl, rust, "{}: fields and offsets", layout.shader);
        assert_eq!(*span as usize, layout.size, "{}: size", layout.shader);
    }
}

/// A GPU engine holding a soup of B3/S23 on a 96x80 torus, on a private device (so that
/// destroying it leaves the other tests' device alone): the device, the request, the engine,
/// the registry's choice and the soup.
fn gpu_on_a_private_device(
    seed: u64,
) -> (
    lifelab::gpu::GpuContext,
    lifelab::registry::Request,
    Box<dyn lifelab::engine::Engine>,
    lifelab::registry::Choice,
    Grid,
) {
    use lifelab::engine::Universe;
    use lifelab::registry::{self, Request};
    let ctx = lifelab::gpu::GpuContext::new(None).unwrap();
    let start = soup(96, 80, 0.4, seed);
    let mut request = Request::new(rule("B3/S23"), Universe::torus(96, 80));
    request.options.context = Some(ctx.clone());
    let (mut engine, choice) = registry::create("gpu", &request).unwrap();
    engine.set_grid(&start, 0).unwrap();
    (ctx, request, engine, choice, start)
}

/// Destroys the device once the run has passed generation 500.
fn lose_after_500(
    ctx: lifelab::gpu::GpuContext,
    progress: std::sync::Arc<lifelab::engine::Progress>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while progress.get().0 < 500 {
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        ctx.device.destroy();
    })
}

/// The command line's run gets the session's GPU fall-back: the device is destroyed under a
/// run on the GPU engine, and the run goes on on the CPU from the last checkpoint to the
/// generation asked for, with the population the reference engine gives there.
#[test]
fn a_run_whose_gpu_fails_goes_on_on_the_cpu_to_the_generation_asked_for() {
    if !gpu_available() {
        return;
    }
    use lifelab::engine::Progress;
    let (ctx, request, mut engine, _, start) = gpu_on_a_private_device(7);
    let gens = 20_000;
    let progress = std::sync::Arc::new(Progress::new(gens));
    let loser = lose_after_500(ctx, progress.clone());
    let note =
        lifelab::session::fallback::step_with_fallback(&mut engine, &request, gens, &progress)
            .unwrap();
    loser.join().unwrap();
    let note = note.expect("the failure is reported");
    assert!(note.contains("went on on the"), "{note}");
    assert!(!engine.kind().on_gpu());
    assert_eq!(engine.generation(), gens);
    let mut oracle = common::engine(common::REFERENCE, rule("B3/S23"), &start, 0);
    oracle.step(gens).unwrap();
    assert_eq!(engine.grid().unwrap(), oracle.grid().unwrap());
}

/// The same through the session the window uses, as the command line's `run` goes: its worker
/// runs the whole run as one job, and the engine that goes on on the CPU is the session's
/// afterwards.
#[test]
fn the_sessions_unwatched_run_goes_on_on_the_cpu_when_its_gpu_fails() {
    if !gpu_available() {
        return;
    }
    use lifelab::engine::Universe;
    use lifelab::session::Session;
    use lifelab::session::cells::Cells;
    use lifelab::session::life::Settings;
    let (ctx, request, engine, choice, start) = gpu_on_a_private_device(11);
    let settings = Settings {
        seed: 1,
        wanted: "gpu".into(),
        memory: None,
    };
    let mut session = Session::with_engine(
        None,
        engine,
        choice,
        (rule("B3/S23"), Universe::torus(96, 80)),
        (Cells::default(), 0),
        settings,
    );
    let gens = 20_000;
    let job = session.run_unwatched(gens, request);
    let loser = lose_after_500(ctx, job.progress.clone());
    let note = job.wait().unwrap();
    loser.join().unwrap();
    let note = note.expect("the failure is reported");
    assert!(note.contains("went on on the"), "{note}");
    let (on_gpu, generation, grid) =
        session.read_now(|e| (e.kind().on_gpu(), e.generation(), e.grid().unwrap()));
    assert!(!on_gpu);
    assert_eq!(generation, gens);
    let mut oracle = common::engine(common::REFERENCE, rule("B3/S23"), &start, 0);
    oracle.step(gens).unwrap();
    assert_eq!(grid, oracle.grid().unwrap());
}

#[test]
fn generations_rules_on_the_gpu_match_the_reference_state_for_state() {
    // The suite's Generations group starts from two-state soups; the dying states come from
    // the rules and are compared cell for cell after every generation.
    suite_group("Generations rules", ShaderMode::Specialised);
    if !gpu_available() {
        return;
    }
    // A start with every state in it, imported as tiles (the path a Generations pattern file
    // and Undo take), on an odd torus.
    use lifelab::engine::{CellRect, Universe};
    use lifelab::registry::{self, Request};
    use lifelab::tiles::TileMap;
    for text in ["345/3/6", "1456/2356/256", "12/2-a/3", "23/3/3H"] {
        let rule = lifelab::rule::Rule::parse(text).unwrap();
        let (w, h) = (37u32, 29u32);
        let mut tiles = TileMap::new();
        let mut v: u64 = 0x9E37_79B9_7F4A_7C15;
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                v ^= v << 13;
                v ^= v >> 7;
                v ^= v << 17;
                let s = (v % rule.states() as u64) as u8;
                tiles.set_state(x, y, s);
            }
        }
        let universe = Universe::torus(w, h);
        let engine = |name: &str| {
            let (mut e, _) = registry::create(name, &Request::new(rule, universe)).unwrap();
            e.import(&tiles).unwrap();
            e
        };
        let (mut reference, mut gpu) = (engine("reference"), engine(GPU));
        let rect = CellRect::new(0, 0, w, h);
        for _ in 0..12 {
            reference.step(3).unwrap();
            gpu.step(3).unwrap();
            assert_eq!(
                reference.states_in(rect).unwrap(),
                gpu.states_in(rect).unwrap(),
                "{text} at generation {}",
                reference.generation()
            );
            assert_eq!(reference.census().unwrap(), gpu.census().unwrap(), "{text}");
        }
    }
}

#[test]
fn rule_files_on_the_gpu_match_the_reference_state_for_state() {
    if !gpu_available() {
        return;
    }
    // Every neighbourhood: Golly's von Neumann and Moore tables and trees where Golly's rules
    // folder is there, the hexagonal and one-dimensional tables of tests/data, and von
    // Neumann's automata; random states on odd tori, compared cell for cell every few
    // generations.
    use lifelab::engine::{CellRect, Universe};
    use lifelab::registry::{self, Request};
    use lifelab::rule::{Rule, RuleKind, loader};
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules");
    let mut files = vec![data.join("HexParity.rule"), data.join("Rule110Rows.rule")];
    let golly = std::path::Path::new("/usr/share/golly/Rules");
    for name in [
        "Langtons-Loops",
        "WireWorld",
        "Codd",
        "Evoloop",
        "BBM-Margolus-emulated",
        "Turmite_121181121020",
    ] {
        if golly.join(format!("{name}.rule")).is_file() {
            files.push(golly.join(format!("{name}.rule")));
        } else {
            assert!(
                !common::in_ci(),
                "Golly's rules are needed in CI (apt-get install golly)"
            );
        }
    }
    let mut rules: Vec<_> = files
        .iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_str().unwrap();
            loader::load_path(path, name).unwrap()
        })
        .collect();
    // Von Neumann's 29- and 32-state automata, built in as trees of 29 and 32 states.
    for name in ["JvN29", "Nobili32", "Hutton32"] {
        rules.push(loader::resolve(name).unwrap().unwrap());
    }
    for (k, &loaded) in rules.iter().enumerate() {
        let rule = Rule {
            kind: RuleKind::Loaded(loaded),
            torus: None,
            bounded: None,
            tube: None,
        };
        let (w, h) = (37u32 + k as u32, 29u32);
        let tiles = common::state_soup((0, 0), (w, h), rule.states(), 3, k as u64 + 1);
        let universe = Universe::torus(w, h);
        let engine = |engine: &str| {
            let (mut e, _) = registry::create(engine, &Request::new(rule, universe)).unwrap();
            e.import(&tiles).unwrap();
            e
        };
        let (mut reference, mut gpu) = (engine("reference"), engine(GPU));
        let rect = CellRect::new(0, 0, w, h);
        for _ in 0..8 {
            reference.step(3).unwrap();
            gpu.step(3).unwrap();
            assert_eq!(
                reference.states_in(rect).unwrap(),
                gpu.states_in(rect).unwrap(),
                "{} at generation {}",
                loaded.name(),
                reference.generation()
            );
        }
    }
}

#[test]
fn larger_than_life_on_the_gpu_matches_the_reference_state_for_state() {
    if !gpu_available() {
        return;
    }
    // Every shape, with and without the middle cell and dying states, on odd tori (one of them
    // Golly's smallest, twice the range wide, where a column is counted twice).
    use lifelab::engine::{CellRect, Universe};
    use lifelab::registry::{self, Request};
    use lifelab::rule::Rule;
    use lifelab::rule::ltl::Shape;
    for (k, shape) in Shape::ALL.into_iter().enumerate() {
        for (r, states, middle, (w, h)) in [
            (1u16, 2u16, false, (37u32, 29u32)),
            (3, 4, true, (31, 23)),
            (2, 2, true, (4, 9)),
        ] {
            let n = shape.neighbours(r as i64) as u32;
            let (lo, hi) = ((n / 5).max(1), (n / 3).max(2));
            let text = format!(
                "R{r},C{states},M{},S{lo}..{},B{}..{hi},N{}",
                middle as u8,
                hi + 1,
                lo + 1,
                shape.letter()
            );
            let rule: Rule = text.parse().unwrap();
            let universe = Universe::torus(w, h);
            let tiles = common::state_soup((0, 0), (w, h), states, 3, k as u64 + 7);
            let engine = |engine: &str| {
                let (mut e, _) = registry::create(engine, &Request::new(rule, universe))
                    .unwrap_or_else(|e| panic!("{engine} {rule}: {e}"));
                e.import(&tiles).unwrap();
                e
            };
            let (mut reference, mut gpu) = (engine("reference"), engine(GPU));
            let rect = CellRect::new(0, 0, w, h);
            for _ in 0..4 {
                reference.step(2).unwrap();
                gpu.step(2).unwrap();
                assert_eq!(
                    reference.states_in(rect).unwrap(),
                    gpu.states_in(rect).unwrap(),
                    "{rule} on {w}x{h} at generation {}",
                    reference.generation()
                );
            }
        }
    }
}
