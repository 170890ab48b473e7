//! The app without a window, as the app tests drive it: a headless app on the GPU adapter (or
//! in CPU mode), options with a private autosave folder, and key events.
#![allow(dead_code)]

use std::path::PathBuf;

use eframe::egui;
use lifelab::app::command::Command;
use lifelab::app::{AppOptions, LifelabApp};
use lifelab::grid::Grid;
use lifelab::pattern::library;

use super::in_ci;

pub fn gpu() -> Option<lifelab::gpu::GpuContext> {
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
pub fn app(options: AppOptions) -> Option<(LifelabApp, egui::Context)> {
    let ctx = lifelab::gpu::shared_context().ok().cloned();
    let egui_ctx = egui::Context::default();
    Some((
        LifelabApp::headless(ctx, &egui_ctx, options).unwrap(),
        egui_ctx,
    ))
}

/// A private folder for one test's autosave.
pub fn data_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lifelab-data-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Options for a test app; `tag` keeps each test's autosave folder apart.
pub fn options(pattern: &str, size: &str) -> AppOptions {
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
pub fn glider_on(w: u32, h: u32) -> Grid {
    let p = library::get("glider").unwrap();
    let mut g = Grid::new(w, h);
    g.paste(&p.cells, (w - 3) / 2, (h - 3) / 2);
    g
}

/// Runs at `pace` until at least generation `g` (at most `tries` ticks `sleep_ms` apart), then
/// pauses.
pub fn run_until(
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

/// A key press as the window would receive it.
pub fn key(key: egui::Key, modifiers: egui::Modifiers) -> egui::Event {
    egui::Event::Key {
        key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers,
    }
}

/// One frame's input: the events, and the modifiers held (the window reports both).
pub fn keys(events: Vec<egui::Event>) -> egui::RawInput {
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

pub fn ctrl() -> egui::Modifiers {
    egui::Modifiers {
        ctrl: true,
        command: true,
        ..Default::default()
    }
}

/// One whole frame of a 1280x800 window with `events`, as the window would run it: what it
/// painted.
pub fn frame(
    app: &mut LifelabApp,
    ctx: &egui::Context,
    events: Vec<egui::Event>,
) -> Vec<egui::epaint::ClippedShape> {
    let raw = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        events,
        ..Default::default()
    };
    app.run_frame(ctx, raw).shapes
}

/// Every text a frame painted, with where it starts.
pub fn texts_at(shapes: &[egui::epaint::ClippedShape]) -> Vec<(String, egui::Pos2)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(String, egui::Pos2)>) {
        match shape {
            egui::Shape::Text(t) => out.push((t.galley.text().to_string(), t.pos)),
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

/// The pointer moved to `at`, with a button pressed or let go there, and `modifiers` held.
pub fn pointer(
    at: egui::Pos2,
    button: Option<bool>,
    modifiers: egui::Modifiers,
) -> Vec<egui::Event> {
    let mut events = vec![
        egui::Event::ModifiersChanged(modifiers),
        egui::Event::PointerMoved(at),
    ];
    if let Some(pressed) = button {
        events.push(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers,
        });
    }
    events
}

/// The analysis panel's findings, once its thread has answered: `None` after `seconds`.
pub fn wait_for_findings(app: &mut LifelabApp, seconds: u64) -> Option<Vec<String>> {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    loop {
        // Frames land what the worker read for the analysis.
        app.tick().ok()?;
        if let Some(f) = app.analysis_findings() {
            return Some(f);
        }
        if std::time::Instant::now() > until {
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
