//! `--screenshot FILE.png --after-gens N`: the run goes through the same path as a user's (the
//! worker, the repainting frames, the pace), and once generation N is reached the window is
//! saved with a sidecar `FILE.png.json` saying where the view was and how the run went.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::Instant;

use anyhow::Context;
use eframe::egui;

use super::LifelabApp;
use super::command::Command;
use super::panels::Mode;

/// A screenshot in progress.
pub(super) struct ScreenshotPlan {
    path: PathBuf,
    after_gens: u64,
    /// Frames to wait once the state is final, so that the status line has caught up.
    settle: u32,
    /// Fit the view to the final pattern first (when no --zoom was given).
    fit: bool,
    receiver: Option<Receiver<Arc<egui::ColorImage>>>,
    started: Instant,
}

impl ScreenshotPlan {
    pub fn new(path: PathBuf, after_gens: u64, fit: bool) -> Self {
        Self {
            path,
            after_gens,
            settle: 3,
            fit,
            receiver: None,
            started: Instant::now(),
        }
    }
}

impl LifelabApp {
    /// Collects a finished screenshot, or asks for one when the state is final.
    pub(super) fn screenshot_step(&mut self, ctx: &egui::Context) {
        let Some(plan) = &self.screenshot else {
            return;
        };
        if let Some(rx) = &plan.receiver {
            if let Ok(image) = rx.try_recv() {
                let (path, started) = (plan.path.clone(), plan.started);
                let elementary = self
                    .elementary
                    .as_ref()
                    .filter(|_| self.mode == Mode::Elementary)
                    .map(|(e, _)| (e.rows.generation(), e.rows.ring().1));
                let f = self.life.figures();
                let info = serde_json::json!({
                    "mode": if elementary.is_some() { "elementary" } else { "life" },
                    "view": self.canvas_geometry(),
                    "generation": elementary.map_or(self.life.generation(), |(g, _)| g),
                    "ring_newest": elementary.map(|(_, n)| n),
                    "population": self.life.population().filter(|_| elementary.is_none()),
                    "engine": f.engine,
                    "engine_reason": self.life.choice.reason,
                    "universe": self.life.universe,
                    // From the start of the run to the generation shot, and to the shot itself.
                    "seconds": f.stopped_after.unwrap_or_else(|| started.elapsed().as_secs_f64()),
                    "seconds_to_image": started.elapsed().as_secs_f64(),
                    "frames": self.frames,
                    "max_frame_ms": self.max_frame_ms,
                    "frame_ms": self.frame_ms,
                    "adapter": self.ctx.as_ref().map(|c| c.name().to_string()),
                    "cpu_mode": self.cpu_mode.is_some(),
                    "cpu_mode_text": self.cpu_mode.clone(),
                    "image": [image.size[0], image.size[1]],
                });
                let sidecar = PathBuf::from(format!("{}.json", path.display()));
                let result = save_png(&path, &image).and_then(|_| {
                    std::fs::write(&sidecar, info.to_string())
                        .with_context(|| format!("writing {}", sidecar.display()))
                });
                if let Err(e) = result {
                    eprintln!("error: {e:#}");
                }
                self.screenshot = None;
                self.quit_confirmed = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            return;
        }
        let after_gens = plan.after_gens;
        let ready = match self.mode {
            Mode::Life => {
                self.life.generation() >= after_gens
                    && !self.life.running()
                    && self.life.busy().is_none()
                    && self.picture_is_current()
            }
            Mode::Elementary => self.elementary.as_mut().is_some_and(|(e, _)| {
                if e.rows.generation() >= after_gens {
                    e.running = false;
                    true
                } else {
                    false
                }
            }),
        };
        let Some(plan) = &mut self.screenshot else {
            return;
        };
        if !ready {
            return;
        }
        if plan.fit && self.mode == Mode::Life {
            plan.fit = false;
            self.apply(ctx, Command::FitPattern);
            return;
        }
        if plan.settle > 0 {
            plan.settle -= 1;
            return;
        }
        let (tx, rx) = channel();
        ctx.request_screenshot(move |image| {
            let _ = tx.send(image);
        });
        plan.receiver = Some(rx);
    }

    /// Whether the picture the view shows is of the current generation and view.
    fn picture_is_current(&self) -> bool {
        if self.life_view.is_some() {
            return true;
        }
        let generation = self.life.generation();
        self.life.view().is_some_and(|v| v.generation == generation)
    }
}

fn save_png(path: &std::path::Path, image: &egui::ColorImage) -> anyhow::Result<()> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    image::save_buffer(path, &bytes, w as u32, h as u32, image::ColorType::Rgba8)
        .with_context(|| format!("writing {}", path.display()))
}
