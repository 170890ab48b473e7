//! The desktop app: its commands applied without a window (`commands`), whole frames run
//! headless against the clock (`frames`), the games panel (`games`), and screenshots of the
//! real window under Xvfb (`window`, on lavapipe in CI; the harness is in `tests/common`). The
//! viewport's pure coordinate arithmetic is unit-tested in `src/app/viewport.rs`.
#![cfg(feature = "app")]

#[path = "../common/mod.rs"]
mod common;

mod commands;
mod frames;
mod games;
mod window;

use std::path::PathBuf;

use common::in_ci;
use common::xvfb::*;
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
