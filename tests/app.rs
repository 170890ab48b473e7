//! The desktop app: its commands applied without a window, and screenshots of the real window
//! under Xvfb (on lavapipe in CI). New app tests belong here; the viewport's pure coordinate
//! arithmetic is unit-tested in `src/app/viewport.rs`.
#![cfg(feature = "app")]

mod common;

use std::path::{Path, PathBuf};

use std::process::{Child, Command as Process, Stdio};

use common::in_ci;
use eframe::egui;
use lifelab::app::command::Command;
use lifelab::app::panels::games::GameTab;
use lifelab::app::{AppOptions, LifelabApp};
use lifelab::engine::CellRect;
use lifelab::grid::Grid;
use lifelab::pattern::library;

fn gpu() -> Option<lifelab::gpu::GpuContext> {
    match lifelab::gpu::shared_context() {
        Ok(c) => Some(c.clone()),
        Err(e) => {
            assert!(!in_ci(), "the app tests need a GPU adapter in CI ({e})");
            eprintln!("skipped: no GPU adapter ({e})");
            None
        }
    }
}

/// A headless app on the GPU adapter, or in CPU mode where there is none.
fn app(options: AppOptions) -> Option<(LifelabApp, egui::Context)> {
    let ctx = lifelab::gpu::shared_context().ok().cloned();
    let egui_ctx = egui::Context::default();
    Some((
        LifelabApp::headless(ctx, &egui_ctx, options).unwrap(),
        egui_ctx,
    ))
}

/// A private folder for one test's autosave.
fn data_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lifelab-data-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Options for a test app; `tag` keeps each test's autosave folder apart.
fn options(pattern: &str, size: &str) -> AppOptions {
    AppOptions {
        pattern: Some(pattern.to_string()),
        size: Some(size.to_string()),
        window: "1280x800".into(),
        seed: 1,
        data_dir: Some(data_dir(&format!("{pattern}-{size}"))),
        ..Default::default()
    }
}

/// The glider centred on a torus, as the app places it.
fn glider_on(w: u32, h: u32) -> Grid {
    let p = library::get("glider").unwrap();
    let mut g = Grid::new(w, h);
    g.paste(&p.cells, (w - 3) / 2, (h - 3) / 2);
    g
}

/// Runs at `pace` until at least generation `g` (at most `tries` ticks `sleep_ms` apart), then
/// pauses.
fn run_until(
    app: &mut LifelabApp,
    ctx: &egui::Context,
    pace: lifelab::session::worker::Pace,
    g: u64,
    tries: u32,
    sleep_ms: u64,
) {
    app.command(ctx, Command::SetSpeed(pace));
    app.command(ctx, Command::Play);
    for _ in 0..tries {
        app.tick().unwrap();
        if app.status().generation >= g {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(sleep_ms));
    }
    app.command(ctx, Command::Pause);
}

#[test]
fn commands_step_draw_reset_and_ask_before_discarding() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    assert_eq!(app.cells().unwrap(), glider_on(32, 32));
    assert_eq!(app.status().population, Some(5));

    // Four steps move the glider one cell diagonally (Step N is a job on the worker).
    app.command(&ctx, Command::Step(4));
    assert_eq!(app.cells().unwrap(), glider_on(32, 32).translated(1, 1));
    assert_eq!(app.status().generation, 4);

    // A stroke that starts on a dead cell draws; the edit is unsaved.
    app.command(
        &ctx,
        Command::DrawAt {
            cell: (2, 2),
            begin: true,
        },
    );
    app.command(
        &ctx,
        Command::DrawAt {
            cell: (3, 2),
            begin: false,
        },
    );
    app.command(&ctx, Command::EndStroke);
    let cells = app.cells().unwrap();
    assert!(cells.get(2, 2) && cells.get(3, 2));
    assert!(app.status().dirty);
    // One that starts on a live cell erases.
    app.command(
        &ctx,
        Command::DrawAt {
            cell: (3, 2),
            begin: true,
        },
    );
    app.command(&ctx, Command::EndStroke);
    assert!(!app.cells().unwrap().get(3, 2));

    // Loading over unsaved edits asks first, and Cancel keeps them.
    let acorn = library::get("acorn").unwrap();
    app.command(
        &ctx,
        Command::Load {
            pattern: acorn.clone(),
            source: "acorn".into(),
        },
    );
    assert!(app.is_asking_to_discard());
    app.command(&ctx, Command::CancelDiscard);
    assert!(app.cells().unwrap().get(2, 2));
    app.command(
        &ctx,
        Command::Load {
            pattern: acorn,
            source: "acorn".into(),
        },
    );
    app.command(&ctx, Command::ConfirmDiscard);
    app.settle();
    assert_eq!(app.status().population, Some(7));
    assert!(!app.status().dirty);

    // Reset returns to the loaded state.
    app.command(&ctx, Command::Step(30));
    app.command(&ctx, Command::Reset);
    assert_eq!(app.cells().unwrap().population(), 7);
}

#[test]
fn rules_fills_resize_and_clear() {
    let Some((mut app, ctx)) = app(options("blinker", "20x10")) else {
        return;
    };
    // A bad rule changes nothing: the rule panel never sends one, and a parsed rule applies.
    app.command(&ctx, Command::SetRule("B36/S23".parse().unwrap()));
    app.settle();
    assert_eq!(app.status().rule.to_string(), "B36/S23");
    assert_eq!(app.cells().unwrap().population(), 3);

    // A fill of a selection touches only the selection.
    let region = CellRect::new(0, 0, 5, 4);
    app.command(
        &ctx,
        Command::RandomFill {
            density: 1.0,
            seed: 3,
            region: Some(region),
        },
    );
    let cells = app.cells().unwrap();
    assert!((0..5).all(|x| (0..4).all(|y| cells.get(x, y))));
    assert_eq!(cells.population(), 20 + 3);

    // Resizing keeps the cells, centred; the torus grows.
    app.command(&ctx, Command::ConfirmDiscard);
    app.command(
        &ctx,
        Command::Resize {
            width: 40,
            height: 30,
        },
    );
    app.command(&ctx, Command::ConfirmDiscard);
    app.settle();
    assert_eq!(app.status().size, (40, 30));
    assert_eq!(app.cells().unwrap().population(), 23);

    // A pattern with its own rule and torus switches to them.
    let mut p = library::get("glider").unwrap();
    p.rule = Some("B3/S23:T64,48".parse().unwrap());
    app.command(
        &ctx,
        Command::Load {
            pattern: p,
            source: "glider".into(),
        },
    );
    app.command(&ctx, Command::ConfirmDiscard);
    app.settle();
    assert_eq!(app.status().size, (64, 48));
    assert_eq!(app.status().rule.to_string(), "B3/S23");

    app.command(&ctx, Command::Clear);
    assert_eq!(app.cells().unwrap().population(), 0);
}

#[test]
fn running_records_generations_and_population_history() {
    let Some((mut app, ctx)) = app(options("r-pentomino", "256x256")) else {
        return;
    };
    let pace = lifelab::session::worker::Pace::PerSecond(2000.0);
    run_until(&mut app, &ctx, pace, 40, 200, 2);
    let g = app.status().generation;
    assert!(g >= 40, "ran {g} generations");
    // The population shown is the GPU census of the current generation.
    for _ in 0..100 {
        app.tick().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let want = app.cells().unwrap().population();
    assert_eq!(app.status().population, Some(want));
}

#[test]
fn the_analyze_button_identifies_the_current_state() {
    let Some((mut app, ctx)) = app(options("lwss", "64x64")) else {
        return;
    };
    app.command(&ctx, Command::Analyze);
    let findings = (0..500)
        .find_map(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            app.analysis_findings()
        })
        .expect("the analysis answers");
    assert!(
        findings[0].starts_with("a spaceship (Lightweight spaceship, xq4_6frc): period 4"),
        "{findings:?}"
    );
}

#[test]
fn cpu_mode_runs_the_same_commands_without_a_gpu() {
    let egui_ctx = egui::Context::default();
    let mut app = LifelabApp::headless(None, &egui_ctx, options("glider", "32x32")).unwrap();
    assert_eq!(app.status().adapter, "CPU mode: no GPU adapter");
    assert_ne!(app.status().engine, "gpu");
    app.command(&egui_ctx, Command::Step(4));
    assert_eq!(app.cells().unwrap(), glider_on(32, 32).translated(1, 1));
    app.command(
        &egui_ctx,
        Command::DrawAt {
            cell: (2, 2),
            begin: true,
        },
    );
    app.command(&egui_ctx, Command::EndStroke);
    assert!(app.cells().unwrap().get(2, 2));
    let mut start = Grid::new(64, 1);
    start.set(32, 0, true);
    app.command(
        &egui_ctx,
        Command::EnterElementary {
            rule: lifelab::rule::ElementaryRule(90),
            start,
            capacity: 8,
        },
    );
    app.command(&egui_ctx, Command::Step(3));
    let rows = app.elementary_rows().unwrap().unwrap();
    assert_eq!(
        (0..64).filter(|&x| rows.get(x, 3)).collect::<Vec<u32>>(),
        [29, 31, 33, 35]
    );
}

#[test]
fn losing_the_gpu_keeps_the_drawn_state_and_goes_on_on_the_cpu() {
    // A private device, so that destroying it leaves the other tests' device alone.
    if gpu().is_none() {
        return;
    }
    let ctx = lifelab::gpu::GpuContext::new(None).unwrap();
    let egui_ctx = egui::Context::default();
    let mut opts = options("glider", "48x40");
    // The GPU engine itself, even on a software adapter that auto would not choose.
    opts.engine = "gpu".into();
    let dir = opts.data_dir.clone().unwrap();
    let mut app = LifelabApp::headless(Some(ctx), &egui_ctx, opts).unwrap();
    // The user draws a block, then runs.
    for (i, cell) in [(5, 5), (6, 5), (5, 6), (6, 6)].into_iter().enumerate() {
        app.command(
            &egui_ctx,
            Command::DrawAt {
                cell,
                begin: i == 0,
            },
        );
    }
    app.command(&egui_ctx, Command::EndStroke);
    let drawn = app.cells().unwrap();
    assert_eq!(drawn.population(), 9);
    app.command(&egui_ctx, Command::Play);
    app.tick().unwrap();
    app.destroy_device_for_test();
    for _ in 0..20 {
        app.tick().unwrap();
        if app.gpu_failure().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let failure = app.gpu_failure().expect("the loss is noticed").to_string();
    assert!(failure.contains("device"), "{failure}");
    // The run the failure stopped goes on on the CPU, from the state the user drew (the last
    // good generation, here the one the run started from), block and all.
    assert!(app.status().running, "the run goes on after the fall-back");
    app.command(&egui_ctx, Command::Pause);
    app.settle();
    let after = |gens: u64| {
        let mut e = lifelab::cpu::ReferenceEngine::new(lifelab::rule::Rule::life(), &drawn, 0);
        for _ in 0..gens {
            e.step_once();
        }
        lifelab::engine::Engine::grid(&mut e).unwrap()
    };
    let g = app.status().generation;
    let kept = app.cells().unwrap();
    assert!(kept.get(5, 5) && kept.get(6, 6), "the drawn block survives");
    assert_eq!(kept, after(g), "generation {g}");
    app.command(&egui_ctx, Command::Step(4));
    assert_eq!(app.cells().unwrap(), after(g + 4));
    assert_eq!(app.status().adapter, "CPU engine (the GPU failed)");
    assert_ne!(app.status().engine, "gpu");
    // And it is autosaved at once.
    app.autosave_now();
    let saved = lifelab::app::autosave::read(&dir.join("autosave.lifelab")).unwrap();
    assert_eq!(saved.cells.population(), 9);
}

#[test]
fn unsaved_work_is_autosaved_and_offered_back_at_the_next_start() {
    let Some(ctx) = gpu() else { return };
    let egui_ctx = egui::Context::default();
    let opts = options("glider", "40x40");
    let mut first = LifelabApp::headless(Some(ctx.clone()), &egui_ctx, opts.clone()).unwrap();
    assert!(first.pending_restore().is_none());
    first.command(
        &egui_ctx,
        Command::DrawAt {
            cell: (1, 1),
            begin: true,
        },
    );
    first.command(&egui_ctx, Command::EndStroke);
    first.autosave_now();
    let work = first.cells().unwrap();
    drop(first); // a crash: no clean exit
    let mut second = LifelabApp::headless(Some(ctx), &egui_ctx, opts.clone()).unwrap();
    assert!(
        second.pending_restore().is_some(),
        "the work is offered back"
    );
    second.command(&egui_ctx, Command::RestoreAutosave);
    assert_eq!(second.cells().unwrap(), work);
    assert!(second.status().dirty, "restored work is still unsaved");
    // Discarding it removes the file.
    second.command(
        &egui_ctx,
        Command::Save {
            path: opts.data_dir.clone().unwrap().join("saved.rle"),
            format: lifelab::pattern::Format::Rle,
        },
    );
    second.settle();
    assert!(!opts.data_dir.unwrap().join("autosave.lifelab").exists());
}

#[test]
fn elementary_mode_scrolls_the_space_time_diagram() {
    let Some((mut app, ctx)) = app(options("glider", "16x16")) else {
        return;
    };
    let mut start = Grid::new(64, 1);
    start.set(32, 0, true);
    app.command(
        &ctx,
        Command::EnterElementary {
            rule: lifelab::rule::ElementaryRule(90),
            start,
            capacity: 8,
        },
    );
    app.command(&ctx, Command::Step(3));
    let rows = app.elementary_rows().unwrap().unwrap();
    // Rule 90 from one cell: generation 3 is cells 29, 31, 33, 35 (Pascal's row 3 mod 2).
    // The newest of the 8 rows kept is row 3 (generation 3 mod 8).
    let alive: Vec<u32> = (0..64).filter(|&x| rows.get(x, 3)).collect();
    assert_eq!(alive, [29, 31, 33, 35]);
}

/// An X server for the screenshot tests: the one in $DISPLAY, or a private Xvfb. The tests
/// take turns (the guard holds a lock) so that parallel tests never race for a display number.
struct Display {
    name: String,
    server: Option<Child>,
    _turn: std::sync::MutexGuard<'static, ()>,
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Some(s) = &mut self.server {
            // SIGTERM lets Xvfb remove its lock file; SIGKILL left one per test, and enough of
            // them once used up every display number a test would try.
            let _ = Process::new("kill")
                .args(["-TERM", &s.id().to_string()])
                .status();
            for _ in 0..100 {
                if let Ok(Some(_)) = s.try_wait() {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            let _ = s.kill();
            let _ = s.wait();
        }
    }
}

/// Whether display `n` is held by a running server (a lock file whose process is gone is left
/// over from a killed one, and is removed).
fn display_taken(n: u32) -> bool {
    let lock = format!("/tmp/.X{n}-lock");
    let Ok(text) = std::fs::read_to_string(&lock) else {
        return Path::new(&lock).exists();
    };
    let alive = text
        .trim()
        .parse::<u32>()
        .is_ok_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
    if !alive {
        let _ = std::fs::remove_file(&lock);
    }
    alive
}

static X_TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn display() -> Option<Display> {
    let turn = X_TURN.lock().unwrap_or_else(|e| e.into_inner());
    if let Ok(d) = std::env::var("DISPLAY")
        && !d.is_empty()
    {
        return Some(Display {
            name: d,
            server: None,
            _turn: turn,
        });
    }
    // Other test binaries or users may hold low numbers: start from one derived from our pid
    // and move on when a server cannot start there.
    let base = 100 + std::process::id() % 400;
    let mut last_error = String::new();
    for n in (base..base + 40).filter(|&n| !display_taken(n)) {
        let name = format!(":{n}");
        // A socket without a lock is left over from a server that died: it would look ready.
        let socket = format!("/tmp/.X11-unix/X{n}");
        let _ = std::fs::remove_file(&socket);
        let mut child = match Process::new("Xvfb")
            .args([
                name.as_str(),
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
                // Without it the server resets when its last client leaves (the readiness
                // probe below), and refuses the next connection meanwhile.
                "-noreset",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(child) => child,
            Err(e) => {
                assert!(
                    !in_ci(),
                    "Xvfb is missing ({e}): .ci/run installs it with apt-get install xvfb"
                );
                eprintln!("skipped: no X display and no Xvfb ({e})");
                return None;
            }
        };
        for _ in 0..200 {
            // Ready once it accepts a connection, not merely once the socket exists.
            if std::os::unix::net::UnixStream::connect(&socket).is_ok() {
                return Some(Display {
                    name,
                    server: Some(child),
                    _turn: turn,
                });
            }
            if let Ok(Some(status)) = child.try_wait() {
                last_error = format!("Xvfb {name} exited: {status}");
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    panic!("could not start Xvfb on any display from :{base}: {last_error}");
}

fn screenshot(
    display: &Display,
    args: &[&str],
    name: &str,
) -> (image::RgbaImage, serde_json::Value) {
    screenshot_env(display, args, name, &[])
}

/// A screenshot with extra environment variables (such as a backend with no adapters).
fn screenshot_env(
    display: &Display,
    args: &[&str],
    name: &str,
    env: &[(&str, &str)],
) -> (image::RgbaImage, serde_json::Value) {
    let dir = std::env::temp_dir().join(format!("lifelab-app-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png: PathBuf = dir.join(format!("{name}.png"));
    let runtime = dir.join("runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    let out = Process::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(args)
        .args([
            "--screenshot",
            png.to_str().unwrap(),
            "--window",
            "1024x700",
        ])
        .env("DISPLAY", &display.name)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("LIFELAB_DATA_DIR", dir.join("data"))
        .env_remove("WAYLAND_DISPLAY")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the app failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let image = image::open(&png).unwrap().to_rgba8();
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{}.json", png.display())).unwrap())
            .unwrap();
    (image, info)
}

/// The pixel at the centre of a torus cell, for the copy of the torus the view shows first.
fn cell_centre(info: &serde_json::Value, x: u32, y: u32) -> (u32, u32) {
    let v = &info["view"];
    let f = |p: &serde_json::Value, i: usize| p[i].as_f64().unwrap();
    let (rx, ry) = (f(&v["rect"], 0), f(&v["rect"], 1));
    let (ox, oy) = (f(&v["origin"], 0), f(&v["origin"], 1));
    let (tw, th) = (f(&v["torus"], 0), f(&v["torus"], 1));
    let ppc = v["pixels_per_cell"].as_f64().unwrap();
    let dx = (x as f64 + 0.5 - ox).rem_euclid(tw);
    let dy = (y as f64 + 0.5 - oy).rem_euclid(th);
    ((rx + dx * ppc) as u32, (ry + dy * ppc) as u32)
}

fn is_live(p: &image::Rgba<u8>) -> bool {
    // view_render::LIVE is (1.0, 0.86, 0.31): a warm yellow.
    p[0] > 220 && p[1] > 190 && p[2] < 120
}

#[test]
fn the_window_shows_a_glider_at_the_expected_pixels() {
    if gpu().is_none() {
        return;
    }
    let Some(display) = display() else { return };
    for gens in [0u64, 4] {
        let (image, info) = screenshot(
            &display,
            &[
                "--pattern",
                "glider",
                "--size",
                "16x16",
                "--zoom",
                "24",
                "--after-gens",
                &gens.to_string(),
            ],
            &format!("glider{gens}"),
        );
        assert_eq!(info["generation"], gens);
        assert_eq!(info["population"], 5);
        // Not blank: the panels, the grid and the cells make many colours.
        let mut colours: Vec<[u8; 4]> = image.pixels().map(|p| p.0).collect();
        colours.sort_unstable();
        colours.dedup();
        assert!(colours.len() > 50, "{} colours", colours.len());
        // Every cell of the glider is drawn live at its pixel, and its neighbourhood is dead.
        let glider = glider_on(16, 16).translated(gens as i64 / 4, gens as i64 / 4);
        for y in 0..16 {
            for x in 0..16 {
                let (px, py) = cell_centre(&info, x, y);
                let p = image.get_pixel(px, py);
                assert_eq!(
                    is_live(p),
                    glider.get(x, y),
                    "cell ({x}, {y}) at pixel ({px}, {py}): {p:?}"
                );
            }
        }
    }
}

#[test]
fn zoomed_out_pixels_shade_the_live_fraction() {
    if gpu().is_none() {
        return;
    }
    let Some(display) = display() else { return };
    // Half the cells of a 2048x2048 soup live; at 1 point per 8 cells each pixel covers 64 of
    // them, so it is drawn between the dead and the live colour, near sqrt(1/2) of the way.
    let (image, info) = screenshot(
        &display,
        &[
            "--random",
            "0.5",
            "--size",
            "2048x2048",
            "--zoom",
            "0.125",
            "--after-gens",
            "0",
        ],
        "soup",
    );
    let population = info["population"].as_u64().unwrap() as f64;
    assert!((population / (2048.0 * 2048.0) - 0.5).abs() < 0.01);
    let v = &info["view"]["rect"];
    let (x0, y0) = (v[0].as_f64().unwrap() as u32, v[1].as_f64().unwrap() as u32);
    let (w, h) = (v[2].as_f64().unwrap() as u32, v[3].as_f64().unwrap() as u32);
    let mut reds = Vec::new();
    for y in (y0 + 40..y0 + h - 40).step_by(37) {
        for x in (x0 + 40..x0 + w - 40).step_by(41) {
            reds.push(image.get_pixel(x, y)[0] as f64);
        }
    }
    let mean = reds.iter().sum::<f64>() / reds.len() as f64;
    // dead red 0.06, live red 1.0: sqrt(0.5) of the way is 0.72, or 184 of 255.
    assert!((mean - 184.0).abs() < 20.0, "mean red {mean}");
}

#[test]
fn without_an_adapter_the_window_runs_on_the_cpu_and_says_so() {
    // wgpu built without Metal finds no adapter for WGPU_BACKEND=metal on Linux: the same
    // state as a machine with no GPU driver. The window must still simulate and draw.
    let Some(display) = display() else { return };
    let (image, info) = screenshot_env(
        &display,
        &[
            "--pattern",
            "glider",
            "--size",
            "16x16",
            "--zoom",
            "24",
            "--after-gens",
            "4",
        ],
        "cpu-mode",
        &[("WGPU_BACKEND", "metal")],
    );
    assert_eq!(info["cpu_mode"], true);
    assert_eq!(info["generation"], 4);
    assert_eq!(info["population"], 5);
    let glider = glider_on(16, 16).translated(1, 1);
    for y in 0..16 {
        for x in 0..16 {
            let (px, py) = cell_centre(&info, x, y);
            let p = image.get_pixel(px, py);
            assert_eq!(
                is_live(p),
                glider.get(x, y),
                "cell ({x}, {y}) at pixel ({px}, {py}): {p:?}"
            );
        }
    }
    // The banner, filled with (120, 90, 10), sits just above the view (a few points of
    // spacing between them).
    let v = &info["view"]["rect"];
    let (x0, y0) = (v[0].as_f64().unwrap() as u32, v[1].as_f64().unwrap() as u32);
    let above: Vec<[u8; 3]> = (y0 - 20..y0)
        .map(|y| {
            let p = image.get_pixel(x0 + 3, y).0;
            [p[0], p[1], p[2]]
        })
        .collect();
    assert!(above.contains(&[120, 90, 10]), "above the view: {above:?}");
}

#[test]
fn the_space_time_diagram_is_one_bounded_picture_with_the_newest_row_at_the_bottom() {
    if gpu().is_none() {
        return;
    }
    let Some(display) = display() else { return };
    // On the GPU viewer and on the CPU one (no adapter).
    for (name, env) in [
        ("w90-gpu", vec![]),
        ("w90-cpu", vec![("WGPU_BACKEND", "metal")]),
    ] {
        let (image, info) = screenshot_env(
            &display,
            &["--rule", "W90", "--size", "65", "--after-gens", "8"],
            name,
            &env,
        );
        assert_eq!(info["mode"], "elementary", "{name}");
        assert_eq!(info["generation"], 8, "{name}");
        let v = &info["view"];
        let f = |p: &serde_json::Value, i: usize| p[i].as_f64().unwrap();
        let (rx, ry) = (f(&v["rect"], 0), f(&v["rect"], 1));
        let (ox, oy) = (f(&v["origin"], 0), f(&v["origin"], 1));
        let ppc = v["pixels_per_cell"].as_f64().unwrap();
        let rows = f(&v["torus"], 1) as u64;
        let newest = info["ring_newest"].as_u64().unwrap();
        // No wrapping: cell (x, row) is at one place only.
        let pixel = |x: f64, row: f64| {
            let p = image.get_pixel(
                (rx + (x + 0.5 - ox) * ppc) as u32,
                (ry + (row + 0.5 - oy) * ppc) as u32,
            );
            [p[0], p[1], p[2]]
        };
        // Rule 90 from one cell (the ring's centre, 32): generation g is row g of Pascal's
        // triangle mod 2, cells 32 - g + 2j for the odd C(g, j) (Lucas: j & (g - j) == 0).
        for g in 0..=8u64 {
            let row = ((g + rows - newest - 1) % rows) as f64;
            for x in 0..65u64 {
                let j = (x + g)
                    .checked_sub(32)
                    .filter(|d| d % 2 == 0)
                    .map(|d| d / 2);
                let alive = j.is_some_and(|j| j <= g && j & (g - j) == 0);
                let p = pixel(x as f64, row);
                assert_eq!(
                    is_live(&image::Rgba([p[0], p[1], p[2], 255])),
                    alive,
                    "{name}: generation {g}, cell {x}: {p:?}"
                );
            }
        }
        // The newest generation is the bottom row, and left of the picture and above it is the
        // panel's colour (view_render::OUTSIDE, 0.106 of 255), not another copy of the ring.
        assert_eq!((8 + rows - newest - 1) % rows, rows - 1);
        for (x, row) in [(-3.0, rows as f64 - 1.0), (70.0, 5.0)] {
            assert_eq!(
                pixel(x, row),
                [27, 27, 27],
                "{name}: outside at ({x}, {row})"
            );
        }
    }
}

// ---- Issue 15: undo, editing, paste, keys, info, autosave, plot, repeats, follow, hexagons.

/// A key press as the window would receive it.
fn key(key: egui::Key, modifiers: egui::Modifiers) -> egui::Event {
    egui::Event::Key {
        key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers,
    }
}

/// One frame's input: the events, and the modifiers held (the window reports both).
fn keys(events: Vec<egui::Event>) -> egui::RawInput {
    let modifiers = events
        .iter()
        .find_map(|e| match e {
            egui::Event::Key { modifiers, .. } => Some(*modifiers),
            _ => None,
        })
        .unwrap_or_default();
    let mut all = vec![egui::Event::ModifiersChanged(modifiers)];
    all.extend(events);
    egui::RawInput {
        events: all,
        ..Default::default()
    }
}

fn ctrl() -> egui::Modifiers {
    egui::Modifiers {
        ctrl: true,
        command: true,
        ..Default::default()
    }
}

#[test]
fn undo_and_redo_take_back_every_kind_of_change_in_order() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let start = app.cells().unwrap();
    // A stroke, a fill, a rule change, a resize, then ten steps.
    for (i, cell) in [(2, 2), (3, 2)].into_iter().enumerate() {
        app.command(
            &ctx,
            Command::DrawAt {
                cell,
                begin: i == 0,
            },
        );
    }
    app.command(&ctx, Command::EndStroke);
    let drawn = app.cells().unwrap();
    assert_eq!(drawn.population(), 7);
    app.command(
        &ctx,
        Command::RandomFill {
            density: 1.0,
            seed: 3,
            region: Some(CellRect::new(24, 24, 4, 4)),
        },
    );
    let filled = app.cells().unwrap();
    assert_eq!(filled.population(), 7 + 16);
    app.command(&ctx, Command::SetRule("B36/S23".parse().unwrap()));
    app.command(
        &ctx,
        Command::Resize {
            width: 40,
            height: 40,
        },
    );
    let resized = app.cells().unwrap();
    assert_eq!(app.status().size, (40, 40));
    app.command(&ctx, Command::Step(10));
    let stepped = app.cells().unwrap();
    assert_eq!(app.undo_labels(), (Some("step"), None));

    // Back, one step at a time.
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), resized);
    assert_eq!(app.status().generation, 0);
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), filled);
    assert_eq!(app.status().size, (32, 32));
    assert_eq!(app.status().rule.to_string(), "B36/S23");
    app.command(&ctx, Command::Undo);
    app.settle();
    assert_eq!(app.status().rule.to_string(), "B3/S23");
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), drawn);
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), start);
    app.command(&ctx, Command::Undo);
    assert_eq!(app.notice(), Some("nothing to undo"));
    assert_eq!(app.notice_is_error(), Some(false));

    // And forward again, to the stepped torus.
    for _ in 0..5 {
        app.command(&ctx, Command::Redo);
        app.settle();
    }
    assert_eq!(app.status().size, (40, 40));
    assert_eq!(app.status().generation, 10);
    assert_eq!(app.cells().unwrap(), stepped);
    assert_eq!(app.undo_labels().1, None);
}

#[test]
fn undo_after_a_run_goes_back_to_where_it_started() {
    let Some((mut app, ctx)) = app(options("r-pentomino", "128x128")) else {
        return;
    };
    let before = app.cells().unwrap();
    run_until(
        &mut app,
        &ctx,
        lifelab::session::worker::Pace::Max,
        30,
        500,
        2,
    );
    app.settle();
    assert!(app.status().generation >= 30);
    assert_eq!(app.undo_labels().0, Some("run"));
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), before);
    assert_eq!(app.status().generation, 0);
}

/// Space and the Run button toggle the run; a run started that way is undone as one started
/// by Play (it was not recorded at all: Undo stayed grey after Run, then Run again).
#[test]
fn undo_after_a_run_toggled_on_and_off_goes_back_to_where_it_started() {
    let Some((mut app, ctx)) = app(options("r-pentomino", "128x128")) else {
        return;
    };
    let before = app.cells().unwrap();
    app.command(&ctx, Command::SetSpeed(lifelab::session::worker::Pace::Max));
    app.command(&ctx, Command::TogglePlay);
    for _ in 0..500 {
        app.tick().unwrap();
        if app.status().generation >= 30 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    app.command(&ctx, Command::TogglePlay);
    app.settle();
    assert!(app.status().generation >= 30);
    assert_eq!(app.undo_labels().0, Some("run"));
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), before);
    assert_eq!(app.status().generation, 0);
}

#[test]
fn clear_inside_and_outside_the_selection_and_delete_keys() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let glider = glider_on(32, 32);
    let corner = CellRect::new(0, 0, 4, 4);
    app.command(
        &ctx,
        Command::RandomFill {
            density: 1.0,
            seed: 1,
            region: Some(corner),
        },
    );
    app.command(&ctx, Command::Select(Some(corner)));
    app.command(&ctx, Command::ClearOutside);
    let kept = app.cells().unwrap();
    assert_eq!(kept.population(), 16);
    assert!(kept.get(0, 0) && kept.get(3, 3));
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap().population(), 5 + 16);
    // Delete clears the selection only; Shift+Delete what is outside it.
    let shift = egui::Modifiers {
        shift: true,
        ..Default::default()
    };
    let cmds = app.keyboard(&ctx, keys(vec![key(egui::Key::Delete, Default::default())]));
    assert!(matches!(cmds[..], [Command::Clear]), "{cmds:?}");
    let cmds = app.keyboard(&ctx, keys(vec![key(egui::Key::Delete, shift)]));
    assert!(matches!(cmds[..], [Command::ClearOutside]), "{cmds:?}");
    app.command(&ctx, Command::Select(Some(corner)));
    app.command(&ctx, Command::Clear);
    assert_eq!(app.cells().unwrap(), glider);
}

#[test]
fn a_paste_floats_turns_mirrors_and_lands_where_clicked() {
    let Some((mut app, ctx)) = app(options("block", "32x32")) else {
        return;
    };
    let before = app.cells().unwrap();
    let glider = library::get("glider").unwrap();
    app.command(&ctx, Command::BeginPaste(glider.clone()));
    assert_eq!(app.floating_paste(), Some(&glider.cells));
    assert_eq!(app.notice_is_error(), Some(false));
    // The keys, in the order pressed: > turns it clockwise, X mirrors it.
    let cmds = app.keyboard(
        &ctx,
        keys(vec![
            egui::Event::Text(">".into()),
            key(egui::Key::X, Default::default()),
        ]),
    );
    for c in cmds {
        app.command(&ctx, c);
    }
    // .o.      o..    ..o
    // ..o  cw  o.o lr o.o
    // ooo      oo.    .oo
    let want = Grid::from_text("..o\no.o\n.oo");
    assert_eq!(app.floating_paste(), Some(&want));
    // Nothing changes until the click; then it lands centred on the clicked cell.
    assert_eq!(app.cells().unwrap(), before);
    app.command(&ctx, Command::PlacePaste { at: (5, 6) });
    assert!(app.floating_paste().is_none());
    let mut expected = before.clone();
    expected.combine(&want, 4, 5, |o, n| o | n);
    assert_eq!(app.cells().unwrap(), expected);
    // Undo takes the paste back; Esc drops a floating one.
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), before);
    app.command(&ctx, Command::BeginPaste(glider));
    let cmds = app.keyboard(&ctx, keys(vec![key(egui::Key::Escape, Default::default())]));
    assert!(matches!(cmds[..], [Command::CancelPaste]), "{cmds:?}");
}

#[test]
fn keys_work_whatever_has_the_focus_and_tab_steps() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    // Two Tabs in one frame are one job of two steps (a second job would find the first
    // busy), and egui never sees them (it would move the focus into the widgets).
    let tab = key(egui::Key::Tab, Default::default());
    let cmds = app.keyboard(&ctx, keys(vec![tab.clone(), tab]));
    assert!(matches!(cmds[..], [Command::Step(2)]), "{cmds:?}");
    let shift_ctrl = egui::Modifiers {
        shift: true,
        ..ctrl()
    };
    for (event, want) in [
        (key(egui::Key::Space, Default::default()), "TogglePlay"),
        (key(egui::Key::N, Default::default()), "Step(1)"),
        (key(egui::Key::Z, ctrl()), "Undo"),
        (key(egui::Key::Z, shift_ctrl), "Redo"),
        (key(egui::Key::Y, ctrl()), "Redo"),
        (key(egui::Key::A, ctrl()), "SelectAll"),
        (key(egui::Key::T, Default::default()), "SetFollow(true)"),
        (
            key(egui::Key::CloseBracket, Default::default()),
            "Zoom(2.0)",
        ),
    ] {
        let cmds = app.keyboard(&ctx, keys(vec![event]));
        assert_eq!(format!("{cmds:?}"), format!("[{want}]"));
    }
    assert!(!app.info_open());
    app.keyboard(&ctx, keys(vec![key(egui::Key::I, ctrl())]));
    assert!(app.info_open());
    assert!(!app.help_open());
    app.keyboard(&ctx, keys(vec![key(egui::Key::F1, Default::default())]));
    assert!(app.help_open());
}

#[test]
fn readme_lists_every_shortcut_of_the_help_window() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for (keys, what) in lifelab::app::help::SHORTCUTS {
        assert!(
            readme.contains(keys),
            "README.md does not list {keys} ({what})"
        );
    }
}

/// A file opened in the window without a bounded-grid suffix lands on the unbounded plane, as
/// in Golly, whatever torus was showing; a file's own `:T` gives its torus.
#[test]
fn a_file_without_a_torus_opens_on_the_plane() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let dir = data_dir("plane");
    let plain = dir.join("plain.rle");
    std::fs::write(&plain, "x = 3, y = 1, rule = B3/S23\n3o!\n").unwrap();
    app.command(&ctx, Command::LoadFile(plain));
    app.settle();
    assert_eq!(app.status().universe, lifelab::engine::Universe::Plane);
    assert_eq!(app.status().population, Some(3));
    let torus = dir.join("torus.rle");
    std::fs::write(&torus, "x = 3, y = 1, rule = B3/S23:T40,30\n3o!\n").unwrap();
    app.command(&ctx, Command::LoadFile(torus));
    app.settle();
    assert_eq!(
        app.status().universe,
        lifelab::engine::Universe::torus(40, 30)
    );
}

#[test]
fn pattern_info_shows_the_files_comments_and_save_keeps_them() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let dir = data_dir("info");
    let file = dir.join("named.rle");
    std::fs::write(
        &file,
        "#N Blinker pair\n#O A. Author\n#C two blinkers\n#C period 2\nx = 5, y = 1, rule = B3/S23\n3o2bo!\n",
    )
    .unwrap();
    app.command(&ctx, Command::LoadFile(file.clone()));
    app.settle();
    let info = app.pattern_info().clone();
    assert_eq!(info.name.as_deref(), Some("Blinker pair"));
    assert_eq!(info.author.as_deref(), Some("A. Author"));
    assert_eq!(info.comments, ["two blinkers", "period 2"]);
    assert_eq!(info.format.as_deref(), Some("rle"));
    assert_eq!(app.title_text(), "lifelab — Blinker pair");
    app.command(
        &ctx,
        Command::DrawAt {
            cell: (1, 1),
            begin: true,
        },
    );
    app.command(&ctx, Command::EndStroke);
    assert_eq!(app.title_text(), "lifelab — Blinker pair *");
    let saved = dir.join("saved.rle");
    app.command(
        &ctx,
        Command::Save {
            path: saved.clone(),
            format: lifelab::pattern::Format::Rle,
        },
    );
    // Saving is a job on the worker (with progress, as a large torus takes a while).
    app.settle();
    assert!(!app.status().dirty);
    let back = lifelab::pattern::load_file(&saved).unwrap();
    assert_eq!(back.name.as_deref(), Some("Blinker pair"));
    assert_eq!(back.author.as_deref(), Some("A. Author"));
    assert!(
        back.comments.iter().any(|c| c == "two blinkers"),
        "{back:?}"
    );
    assert!(back.comments.iter().any(|c| c == "period 2"), "{back:?}");
}

#[test]
fn loading_clears_what_belonged_to_the_last_pattern() {
    let Some((mut app, ctx)) = app(options("glider", "64x64")) else {
        return;
    };
    app.command(&ctx, Command::Analyze);
    let found = (0..500).find_map(|_| {
        std::thread::sleep(std::time::Duration::from_millis(10));
        app.analysis_findings()
    });
    assert!(found.is_some());
    app.command(
        &ctx,
        Command::Load {
            pattern: library::get("gosper-glider-gun").unwrap(),
            source: "gosper-glider-gun".into(),
        },
    );
    app.settle();
    assert!(
        app.analysis_findings().is_none(),
        "the glider's analysis is gone"
    );
    assert!(app.title_text().contains("Gosper"), "{}", app.title_text());
    // Elementary mode: the rule box and the status line speak of the elementary rule.
    let mut start = Grid::new(64, 1);
    start.set(32, 0, true);
    app.command(
        &ctx,
        Command::EnterElementary {
            rule: lifelab::rule::ElementaryRule(90),
            start,
            capacity: 8,
        },
    );
    assert_eq!(app.notice(), None);
    assert_eq!(app.status().rule.to_string(), "W90");
    app.command(&ctx, Command::SetRule("W30".parse().unwrap()));
    assert_eq!(app.status().rule.to_string(), "W30");
}

#[test]
fn the_plot_has_the_population_of_every_generation_of_a_step_n() {
    let Some((mut app, ctx)) = app(options("r-pentomino", "64x64")) else {
        return;
    };
    app.command(&ctx, Command::Step(50));
    app.settle();
    let history = app.population_history();
    // The reference engine's populations, generation by generation.
    let mut reference =
        lifelab::cpu::ReferenceEngine::empty(lifelab::rule::Rule::life(), 64, 64, 0).unwrap();
    use lifelab::engine::Engine;
    let start = app.status();
    assert_eq!(start.generation, 50);
    let mut g = Grid::new(64, 64);
    let r = library::get("r-pentomino").unwrap().cells;
    g.paste(&r, (64 - r.width()) / 2, (64 - r.height()) / 2);
    reference.set_grid(&g, 0).unwrap();
    for g in 1..=50u64 {
        reference.step(1).unwrap();
        let want = reference.population().unwrap();
        assert!(
            history.contains(&(g, want)),
            "generation {g}: want population {want}, history {history:?}"
        );
    }
}

#[test]
fn the_status_line_says_when_the_whole_torus_repeats() {
    let Some((mut app, ctx)) = app(options("blinker", "16x16")) else {
        return;
    };
    app.command(&ctx, Command::Step(4));
    app.settle();
    assert_eq!(app.status().repeat, None, "not watched: nothing said");
    app.command(&ctx, Command::SetWatchRepeats(true));
    app.command(&ctx, Command::Step(6));
    app.settle();
    let r = app.status().repeat.expect("a blinker repeats");
    assert_eq!(r.period, 2);
    assert!(
        r.to_string()
            .starts_with("stable with period 2 since generation"),
        "{r}"
    );
    // A block is still; after an edit, the watch knows where the state began.
    app.command(&ctx, Command::Clear);
    for (i, cell) in [(4, 4), (5, 4), (4, 5), (5, 5)].into_iter().enumerate() {
        app.command(
            &ctx,
            Command::DrawAt {
                cell,
                begin: i == 0,
            },
        );
    }
    app.command(&ctx, Command::EndStroke);
    app.command(&ctx, Command::Step(3));
    app.settle();
    let r = app.status().repeat.expect("a block repeats");
    assert_eq!(r.to_string(), "still since generation 1");
    // A stochastic rule is refused with the reason.
    app.command(&ctx, Command::SetWatchRepeats(false));
    app.command(&ctx, Command::SetRule("B3/S2(1/2)3".parse().unwrap()));
    app.settle();
    app.command(&ctx, Command::SetWatchRepeats(true));
    assert!(
        app.notice().unwrap().contains("stochastic"),
        "{:?}",
        app.notice()
    );
}

#[test]
fn following_publishes_the_live_cells_box() {
    let Some((mut app, ctx)) = app(options("glider", "64x64")) else {
        return;
    };
    assert_eq!(app.status().bounds, None);
    app.command(&ctx, Command::SetFollow(true));
    app.command(&ctx, Command::Step(8));
    app.settle();
    // The glider moved two cells down and right from its centred start (30..33).
    let b = app
        .status()
        .bounds
        .expect("the box is published while following");
    assert_eq!((b.left, b.top, b.width(), b.height()), (32, 32, 3, 3));
}

#[test]
fn lifelabs_own_file_dialog_opens_when_asked() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    app.set_own_file_dialog(true);
    app.command(&ctx, Command::OpenDialog);
    assert!(app.file_dialog_open());
}

#[test]
fn a_large_torus_is_autosaved_compactly_and_restored_whole() {
    let Some(ctx) = gpu() else { return };
    let egui_ctx = egui::Context::default();
    let mut opts = options("glider", "8192x8192");
    opts.engine = "cpu".into();
    let dir = opts.data_dir.clone().unwrap();
    let mut first = LifelabApp::headless(Some(ctx.clone()), &egui_ctx, opts.clone()).unwrap();
    first.command(
        &egui_ctx,
        Command::RandomFill {
            density: 0.5,
            seed: 9,
            region: None,
        },
    );
    let work = first.cells().unwrap();
    first.autosave_now();
    drop(first);
    // About one bit per cell: 8 MiB of cells, not the 20 MiB or more of RLE.
    let size = std::fs::metadata(dir.join("autosave.lifelab"))
        .unwrap()
        .len();
    assert!(size < 9 << 20, "{size} bytes");
    let mut second = LifelabApp::headless(Some(ctx), &egui_ctx, opts).unwrap();
    assert!(second.pending_restore().is_some());
    second.command(&egui_ctx, Command::RestoreAutosave);
    assert_eq!(second.cells().unwrap(), work);
}

#[test]
fn hexagonal_rules_are_drawn_as_hexagons_around_each_cell() {
    let Some(display) = display() else { return };
    let dir = data_dir("hex-window");
    let file = dir.join("one.rle");
    // One live cell under a hexagonal rule, centred on a 16x16 torus: at (7, 7).
    std::fs::write(&file, "x = 1, y = 1, rule = B2/S34H:T16,16\no!\n").unwrap();
    let (image, info) = screenshot(
        &display,
        &[
            "--pattern",
            file.to_str().unwrap(),
            "--zoom",
            "32",
            "--after-gens",
            "0",
        ],
        "hexagons",
    );
    let v = &info["view"];
    assert_eq!(v["hex"], true);
    let f = |p: &serde_json::Value, i: usize| p[i].as_f64().unwrap();
    let (rx, ry, rw, rh) = (
        f(&v["rect"], 0),
        f(&v["rect"], 1),
        f(&v["rect"], 2),
        f(&v["rect"], 3),
    );
    let (ox, oy) = (f(&v["origin"], 0), f(&v["origin"], 1));
    let ppc = v["pixels_per_cell"].as_f64().unwrap();
    // The side panel has a fixed width: the view starts at 300 points.
    assert_eq!(rx, 300.0);
    // Where the centre of cell (x, y) is drawn: each row half a cell left of the row above,
    // rows sqrt(3)/2 apart; of the copies of the torus (16 cells across, and 16 rows down
    // shifted 8 left), the first inside the view.
    let row = 3f64.sqrt() / 2.0;
    let centre = |x: f64, y: f64| -> (u32, u32) {
        for m in -3..=3 {
            for k in -3..=3 {
                let (cx, cy) = (x + 0.5 + 16.0 * k as f64, y + 0.5 + 16.0 * m as f64);
                let px = rx + (cx - cy / 2.0 - ox) * ppc;
                let py = ry + (cy * row - oy) * ppc;
                if px > rx + ppc && py > ry + ppc && px < rx + rw - ppc && py < ry + rh - ppc {
                    return (px as u32, py as u32);
                }
            }
        }
        panic!("no copy of ({x}, {y}) in view");
    };
    let live = |(px, py): (u32, u32)| is_live(image.get_pixel(px, py));
    assert!(live(centre(7.0, 7.0)), "the cell's hexagon is live");
    // Its six hexagonal neighbours touch it and are dead.
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)] {
        let c = centre(7.0 + dx as f64, 7.0 + dy as f64);
        assert!(!live(c), "neighbour ({dx}, {dy}) at {c:?}");
    }
    // Halfway from the cell's centre towards each neighbour's is still the cell (the
    // hexagons tile with no gaps): a square grid would put (1, 1)'s direction in a corner.
    let (x0, y0) = centre(7.0, 7.0);
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)] {
        let (x1, y1) = centre(7.0 + dx as f64, 7.0 + dy as f64);
        let mid = ((x0 * 3 + x1) / 4, (y0 * 3 + y1) / 4);
        assert!(live(mid), "a quarter of the way to ({dx}, {dy}): {mid:?}");
    }
}

#[test]
fn a_mistyped_adapter_name_opens_in_cpu_mode_and_says_which() {
    let Some(display) = display() else { return };
    let (_, info) = screenshot_env(
        &display,
        &[
            "--pattern",
            "glider",
            "--size",
            "16x16",
            "--after-gens",
            "1",
        ],
        "mistyped-adapter",
        &[("LIFELAB_ADAPTER", "no-such-gpu")],
    );
    assert_eq!(info["cpu_mode"], true);
    let text = info["cpu_mode_text"].as_str().unwrap();
    assert!(text.contains("no-such-gpu"), "{text}");
    assert_eq!(info["generation"], 1);
}

#[test]
fn a_long_run_keeps_points_all_along_the_plot() {
    let Some((mut app, ctx)) = app(options("r-pentomino", "96x96")) else {
        return;
    };
    // With the repeat watch on, as the census then also carries the hash.
    app.command(&ctx, Command::SetWatchRepeats(true));
    let max = lifelab::session::worker::Pace::Max;
    run_until(&mut app, &ctx, max, 200_000, 3000, 5);
    app.settle();
    let h = app.population_history();
    let last = h.last().unwrap().0;
    assert!(last >= 200_000, "{last}");
    // Thinned to a bounded number of points, but evenly: no gap wider than a few hundredths
    // of the run, and the first generations (the R-pentomino's growth) are there.
    let widest = h.windows(2).map(|w| w[1].0 - w[0].0).max().unwrap();
    assert!(
        widest <= last / 50,
        "a gap of {widest} generations in {last}: {:?}",
        &h[..h.len().min(20)]
    );
    assert!(
        h.iter().any(|&(g, _)| g > 0 && g < 200),
        "{:?}",
        &h[..h.len().min(20)]
    );
}

// ---- The games panel: each tab driven through the same actions as its buttons, and drawn ----

/// The games tab with this title, fresh.
fn games_tab(title: &str) -> Box<dyn GameTab> {
    lifelab::app::game_tabs()
        .into_iter()
        .find(|t| t.title() == title)
        .unwrap_or_else(|| panic!("no games tab {title}"))
}

/// Draws a tab for two frames (the first lays out) on a headless egui context and returns what
/// the painter was given.
fn draw_tab(tab: &mut dyn GameTab) -> Vec<egui::epaint::ClippedShape> {
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(900.0, 3000.0),
        )),
        ..Default::default()
    };
    let _ = ctx.run_ui(input(), |ui| tab.ui(ui));
    ctx.run_ui(input(), |ui| tab.ui(ui)).shapes
}

fn texts(shapes: &[egui::epaint::ClippedShape]) -> Vec<String> {
    fn walk(shape: &egui::Shape, out: &mut Vec<String>) {
        match shape {
            egui::Shape::Text(t) => out.push(t.galley.text().to_string()),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for s in shapes {
        walk(&s.shape, &mut out);
    }
    out
}

/// Everything a tab shows as text.
fn shown_text(tab: &mut dyn GameTab) -> Vec<String> {
    texts(&draw_tab(tab))
}

fn log_of(tab: &dyn GameTab) -> Vec<String> {
    tab.state()["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn games_heaps_are_numbered_from_1_everywhere() {
    let mut nim = games_tab("Nim");
    // 3 5 7, take 1 from heap 1: (2, 5, 7) has nim-sum 0, so the computer has no winning move
    // and takes one from the largest heap, heap 3.
    nim.act("take 1 1").unwrap();
    assert_eq!(nim.state()["heaps"], serde_json::json!([2, 5, 6]));
    let log = log_of(nim.as_ref());
    assert!(
        log.iter().any(|l| l == "you took 1 from heap 1, leaving 2"),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|l| l.starts_with("the computer takes 1 from heap 3")),
        "{log:?}"
    );
    // The explanation of a winning reply counts from 1 too: from (2, 5, 6) taking 2 from heap 2
    // leaves (2, 3, 6), nim-sum 7; the reply lowers heap 3 from 6 to 1.
    nim.act("take 2 2").unwrap();
    let log = log_of(nim.as_ref());
    assert!(
        log.last().unwrap().contains("heap 3 goes from 6 to 1"),
        "{log:?}"
    );
    let err = nim.act("take 4 1").unwrap_err();
    assert_eq!(err, "there is no heap 4: the heaps are numbered 1 to 3");
    let text = shown_text(nim.as_mut()).join("\n");
    assert!(
        text.contains("heap 1:") && text.contains("heap 3:"),
        "{text}"
    );
    assert!(!text.contains("heap 0"), "{text}");
    // A mistyped heap in the heaps field is named as the Nim command names it: from 1.
    let mut nim = games_tab("Nim");
    nim.act("new 3 x").unwrap_err();
    let text = shown_text(nim.as_mut()).join("\n");
    assert!(
        text.contains("heap 2: 'x' is not a number of stones"),
        "{text}"
    );
}

#[test]
fn games_a_move_that_is_not_legal_is_refused_with_a_message() {
    let mut nim = games_tab("Nim");
    let err = nim.act("take 2 9").unwrap_err();
    assert_eq!(err, "heap 2 holds 5 stones: you cannot take 9");
    // Nothing was taken (before, 9 was clamped to 5).
    assert_eq!(nim.state()["heaps"], serde_json::json!([3, 5, 7]));
    assert!(shown_text(nim.as_mut()).contains(&err));
    assert!(
        nim.act("take 2 x")
            .unwrap_err()
            .contains("'x' is not a whole number")
    );
    // The Grundy tab's take-set: 1..3 does not allow 4.
    let mut grundy = games_tab("Grundy");
    grundy.act("play").unwrap();
    let err = grundy.act("take 1 4").unwrap_err();
    assert_eq!(
        err,
        "4 is not in the take-set 1..3: you cannot take it from heap 1"
    );
    assert_eq!(grundy.state()["heaps"], serde_json::json!([9, 6, 5, 4]));
    // Tic-tac-toe: a taken square.
    let mut ttt = games_tab("Tic-tac-toe");
    ttt.act("play 4").unwrap();
    let taken: Vec<usize> = (0..9)
        .filter(|&s| ttt.state()["board"].as_str().unwrap().as_bytes()[s] != b'.')
        .collect();
    let err = ttt.act(&format!("play {}", taken[1])).unwrap_err();
    assert!(err.contains("is taken"), "{err}");
}

#[test]
fn games_the_grundy_tab_can_be_played() {
    // Heaps 9 6 5 4 with take 1..3 have g = 1 2 1 0. You take 1 from the 9: g 0 2 1 0, sum 3.
    // Bouton's rule lowers the heap whose g has the sum's top bit, the 6 (g 2), to g 2 XOR 3 =
    // 1: taking 1 leaves 5.
    let mut grundy = games_tab("Grundy");
    grundy.act("play").unwrap();
    grundy.act("take 1 1").unwrap();
    assert_eq!(grundy.state()["heaps"], serde_json::json!([8, 5, 5, 4]));
    let log = log_of(grundy.as_ref());
    assert!(
        log.last()
            .unwrap()
            .starts_with("the computer takes 1 from heap 2"),
        "{log:?}"
    );
    let text = shown_text(grundy.as_mut()).join("\n");
    assert!(text.contains("Play: take 1..3 from one heap"), "{text}");
}

#[test]
fn games_the_tree_rings_the_current_position_and_keeps_arrows_off_the_ranks() {
    let mut tree = games_tab("Game tree");
    tree.act("new").unwrap();
    assert_eq!(tree.state()["current_vertex"], 0);
    // Six matches, take 1 or 2, misère: counts 1, 4 and 7 are lost. You take 1 (5 left); the
    // computer takes 1, leaving you 4. In the tree: the first child of the first child.
    tree.act("take 1").unwrap();
    assert_eq!(tree.state()["left"], 4);
    assert_eq!(tree.state()["current_path"], "0.0");
    let state = tree.state();
    assert_eq!(state["arrowheads_on_labels"], 0);
    assert!(state["rank_labels"].as_u64().unwrap() > 0);
    // The ring is drawn: a circle stroked in the highlight colour.
    fn ringed(shape: &egui::Shape) -> bool {
        match shape {
            egui::Shape::Circle(c) => c.stroke.color == egui::Color32::from_rgb(255, 255, 90),
            egui::Shape::Vec(v) => v.iter().any(ringed),
            _ => false,
        }
    }
    let shapes = draw_tab(tree.as_mut());
    assert!(shapes.iter().any(|s| ringed(&s.shape)));
    let text = texts(&shapes);
    assert!(text.iter().any(|t| t == "level"), "{text:?}");
    // A move the take-set does not allow.
    let err = tree.act("take 3").unwrap_err();
    assert_eq!(err, "4 left and the take-set is 1..2: you cannot take 3");
}

#[test]
fn games_tic_tac_toe_shows_the_numbers_its_explanations_use() {
    let mut ttt = games_tab("Tic-tac-toe");
    let text = shown_text(ttt.as_mut());
    for s in 0..9 {
        assert!(text.contains(&s.to_string()), "square {s}: {text:?}");
    }
    ttt.act("play 4").unwrap();
    let log = log_of(ttt.as_ref());
    assert!(
        log.last().unwrap().starts_with("the computer plays "),
        "{log:?}"
    );
}

#[test]
fn games_the_untouchable_king_tab_colours_every_position_and_plays_the_mate() {
    let mut king = games_tab("Untouchable king");
    // White king c3, queen h2: with the black king on a1 Qb2 mates at once (worked by hand);
    // the squares next to the white king are not legal for the black king.
    let state = king.state();
    assert_eq!(state["king"], "c3");
    assert_eq!(state["board"]["a1"], 1);
    assert!(state["board"]["b3"].is_null());
    assert!(state["board"]["c3"].is_null());
    let text = shown_text(king.as_mut());
    assert!(text.iter().any(|t| t.contains("are won (all)")), "{text:?}");
    king.act("start a1").unwrap();
    assert!(log_of(king.as_ref())[0].contains("White mates in 1"));
    let err = king.act("move a8").unwrap_err();
    assert_eq!(err, "the queen cannot go to a8: not a legal move");
    king.act("move b2").unwrap();
    assert_eq!(king.state()["over"], true);
    assert_eq!(
        log_of(king.as_ref()).last().unwrap(),
        "checkmate: White wins"
    );
    // As Black, the solver mates as fast as it can: at once.
    let mut king = games_tab("Untouchable king");
    king.act("side black").unwrap();
    king.act("start a1").unwrap();
    assert_eq!(king.state()["over"], true);
    assert_eq!(king.state()["queen"], "b2");
    // Another square for the white king: the board follows it.
    let mut king = games_tab("Untouchable king");
    king.act("king a1").unwrap();
    assert_eq!(king.state()["king"], "a1");
    assert!(king.state()["board"]["b2"].is_null());
}

#[test]
fn games_the_octal_tab_plays_kayles() {
    // A heap of 3; you take 1 from its end, leaving 2; the computer takes both (g(2) = 2 != 0,
    // and taking 2 leaves 0) and you have no move.
    let mut octal = games_tab("Octal");
    octal.act("heaps 3").unwrap();
    octal.act("play").unwrap();
    assert_eq!(
        octal.act("take 1 3").unwrap_err(),
        "heap 1 (of 3): you cannot take 3 leaving 0 in kayles (0.77)"
    );
    assert_eq!(
        octal.act("take 1 5").unwrap_err(),
        "heap 1 holds 3: you cannot take 5"
    );
    octal.act("take 1 1").unwrap();
    assert_eq!(octal.state()["heaps"], serde_json::json!([]));
    assert!(
        log_of(octal.as_ref())
            .last()
            .unwrap()
            .ends_with("the computer wins")
    );
    let text = shown_text(octal.as_mut()).join("\n");
    assert!(text.contains("certified: period 12 from n = 71"), "{text}");
}

#[test]
fn games_the_wythoff_tab_answers_with_a_lost_position() {
    // From (4, 5) you take 1 from both: (3, 4). The computer takes 2 from both, leaving
    // (1, 2), the first lost position.
    let mut w = games_tab("Wythoff");
    w.act("position 4 5").unwrap();
    w.act("play").unwrap();
    assert!(w.act("take 1 2").unwrap_err().contains("the same number"));
    w.act("take 1 1").unwrap();
    assert_eq!(w.state()["position"], serde_json::json!([1, 2]));
}

#[test]
fn games_the_hackenbush_tab_cuts_and_answers() {
    // The default picture: a tree worth 4, a triangle on a stalk (2) and a stalk of 2. Cutting
    // the tree's root edge (edge 1) wins: the tree falls, 6 edges stand at value 0; the
    // computer then cuts one edge, and 5 stand.
    let mut h = games_tab("Hackenbush");
    let text = shown_text(h.as_mut()).join("\n");
    assert!(text.contains("value 4"), "{text}");
    assert!(text.contains("winning cuts: edge 1 (g–a)"), "{text}");
    h.act("play").unwrap();
    h.act("cut 1").unwrap();
    assert_eq!(h.state()["standing"], 5);
    assert_eq!(h.act("cut 2").unwrap_err(), "edge 2 (a–b) is already gone");
}

#[test]
fn games_the_sums_tab_plays_a_sum_of_different_games() {
    // Nim 3, Kayles 5, Wythoff (1, 2), take {1, 3, 4} from 6: values 3, 4, 0, 2. You take 1
    // from the Nim heap: 2 XOR 4 XOR 0 XOR 2 = 4. Only Kayles 5 can go to 0, by taking 1 from
    // the middle: 2 + 2.
    let mut sums = games_tab("Sums");
    sums.act("play").unwrap();
    assert!(sums.act("move 9 1").unwrap_err().contains("no component 9"));
    sums.act("move 1 1").unwrap();
    let components = sums.state()["components"].clone();
    assert_eq!(components[0], "nim:2");
    assert_eq!(components[1], "0.77:2,2");
}

#[test]
fn the_plot_of_an_empty_universe_has_no_negative_populations() {
    // All zeros once drew the axis around 0, from -5 to 5.
    let mut panel = lifelab::app::panels::plot::PlotPanel::default();
    let history = [(0u64, 0u64), (1, 0), (2, 0)];
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(300.0, 300.0),
        )),
        ..Default::default()
    };
    let _ = ctx.run_ui(input(), |ui| panel.ui(ui, &history));
    let shapes = ctx.run_ui(input(), |ui| panel.ui(ui, &history)).shapes;
    let shown = texts(&shapes);
    let numbers: Vec<f64> = shown.iter().filter_map(|t| t.trim().parse().ok()).collect();
    assert!(numbers.len() >= 4, "the axes have numbers: {shown:?}");
    assert!(
        numbers.iter().all(|&n| n >= 0.0),
        "no negative marks: {shown:?}"
    );
}

#[test]
fn undoing_a_long_run_puts_the_plot_back_as_it_was() {
    // A run of 50000 generations thins the plot's early points; undoing it once drew a straight
    // line from generation 0 to where the run started.
    let Some((mut app, ctx)) = app(options("r-pentomino", "96x96")) else {
        return;
    };
    app.command(&ctx, Command::Step(30));
    app.settle();
    let before = app.population_history();
    assert_eq!(before.len(), 31, "every generation of the step: {before:?}");
    run_until(
        &mut app,
        &ctx,
        lifelab::session::worker::Pace::Max,
        50_000,
        3000,
        5,
    );
    app.settle();
    assert!(app.status().generation >= 50_000);
    app.command(&ctx, Command::Undo);
    app.settle();
    assert_eq!(app.status().generation, 30);
    assert_eq!(app.population_history(), before);
}
