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
