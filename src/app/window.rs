//! The window: opening it (on the best adapter, or in CPU mode), and each frame's layout. The
//! simulation is never stepped here: the frame reads the worker's figures, draws, and applies
//! the commands the panels returned.

use std::sync::Arc;
use std::time::Instant;

use anyhow::anyhow;
use eframe::{egui, egui_wgpu};

use super::command::Command;
use super::options::{AppOptions, initial_state};
use super::panels::games::GameTab;
use super::panels::{self, Mode, Tool};
use super::{LifelabApp, canvas, sim};
use crate::pattern::Format;

/// Opens the window and runs until it closes.
pub fn run(options: AppOptions, tabs: Vec<Box<dyn GameTab>>) -> anyhow::Result<()> {
    let initial = initial_state(&options)?;
    let (w, h) = options
        .window
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse::<f32>().ok()?, h.trim().parse::<f32>().ok()?)))
        .ok_or_else(|| anyhow!("--window {}: expected WxH, like 1280x800", options.window))?;
    let wanted = crate::gpu::context::wanted_name(crate::gpu::wanted_adapter().as_deref());
    // With no wgpu adapter (or none of the name asked for) the window draws through OpenGL and
    // the simulation runs on the CPU engines (CPU mode).
    let adapters = crate::gpu::context::adapters();
    let renderer = match crate::gpu::context::pick(&adapters, wanted.as_deref()) {
        Some(_) => eframe::Renderer::Wgpu,
        None => {
            let why = match &wanted {
                Some(w) if !adapters.is_empty() => format!(
                    "no GPU adapter's name contains '{w}' (adapters: {})",
                    adapters
                        .iter()
                        .map(|a| a.get_info().name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                _ => crate::gpu::GpuError::no_adapter().to_string(),
            };
            eprintln!("note: {why}; opening in CPU mode");
            eframe::Renderer::Glow
        }
    };
    let setup = egui_wgpu::WgpuSetupCreateNew {
        instance_descriptor: {
            let mut d = wgpu::InstanceDescriptor::new_without_display_handle();
            d.backends =
                wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY | wgpu::Backends::GL);
            d
        },
        native_adapter_selector: Some(Arc::new(move |adapters: &[wgpu::Adapter], _surface| {
            crate::gpu::context::pick(adapters, wanted.as_deref())
                .cloned()
                .ok_or_else(|| crate::gpu::GpuError::no_adapter().to_string())
        })),
        // The adapter's own limits, so that big tori fit; timestamps where the adapter has them.
        device_descriptor: Arc::new(|adapter: &wgpu::Adapter| wgpu::DeviceDescriptor {
            label: Some("lifelab app"),
            required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
            required_limits: adapter.limits(),
            ..Default::default()
        }),
        ..egui_wgpu::WgpuSetupCreateNew::without_display_handle()
    };
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(format!("lifelab — {}", initial.source))
            .with_inner_size([w, h])
            .with_drag_and_drop(true),
        renderer,
        wgpu_options: egui_wgpu::WgpuConfiguration {
            wgpu_setup: egui_wgpu::WgpuSetup::CreateNew(setup),
            ..Default::default()
        },
        ..Default::default()
    };
    eframe::run_native(
        "lifelab",
        native,
        Box::new(move |cc| {
            LifelabApp::new(cc, initial, options, tabs)
                .map(|app| Box::new(app) as Box<dyn eframe::App>)
                .map_err(|e| e.to_string().into())
        }),
    )
    .map_err(|e| anyhow!("the window could not open: {e}"))
}

/// A full-width strip of text over the view: CPU mode, a GPU failure.
fn banner(ui: &mut egui::Ui, fill: egui::Color32, text: &str) {
    egui::Frame::new()
        .fill(fill)
        .inner_margin(6.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(
                egui::RichText::new(text)
                    .color(egui::Color32::WHITE)
                    .strong(),
            );
        });
}

/// A job's progress: label, done / total, rate, time left, and Cancel.
fn progress_bar(ui: &mut egui::Ui, busy: &crate::session::worker::Busy, out: &mut Vec<Command>) {
    let (done, total, rate, left) = busy.figures();
    egui::Frame::new()
        .fill(egui::Color32::from_rgb(30, 40, 60))
        .inner_margin(6.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.spinner();
                let fraction = if total > 0 {
                    done as f32 / total as f32
                } else {
                    0.0
                };
                let text = if total > 0 {
                    format!(
                        "{}: {done} / {total}, {rate:.0}/s{}",
                        busy.label,
                        left.map_or(String::new(), |s| format!(", {s:.1} s left"))
                    )
                } else {
                    format!("{}…", busy.label)
                };
                ui.add(
                    egui::ProgressBar::new(fraction)
                        .text(text)
                        .desired_width(ui.available_width() - 90.0),
                );
                if ui.button("Cancel").on_hover_text("Stop it (Esc)").clicked() {
                    out.push(Command::Cancel);
                }
            });
        });
}

impl eframe::App for LifelabApp {
    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // A clean exit with nothing unsaved leaves no autosave behind.
        if !self.dirty && self.restore.is_none() {
            self.autosave.clear();
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let frame_started = Instant::now();
        let ctx = ui.ctx().clone();

        // What the worker did since the last frame.
        self.life.poll();
        self.bind_gpu_view();
        if let Some(e) = self.life.job_error.take() {
            self.note(e);
        }
        if let Mode::Elementary = self.mode
            && let Some((e, _)) = &mut self.elementary
            && let Err(err) = e.tick()
        {
            e.running = false;
            self.note(format!("the simulation stopped: {err}"));
        }

        let mut out = Vec::new();
        if ctx.input(|i| i.viewport().close_requested()) && !self.quit_confirmed && self.dirty {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            out.push(Command::Quit);
        }
        self.shortcuts(&ctx, &mut out);
        let status = self.status();

        egui::Panel::top("menu").show(ui, |ui| {
            self.menu(ui, &status, &mut out);
            self.controls.ui(ui, &status, &mut self.tool, &mut out);
        });
        egui::Panel::bottom("status").show(ui, |ui| panels::status::ui(ui, &status));
        egui::Panel::left("tools")
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::CollapsingHeader::new("Rule")
                        .default_open(true)
                        .show(ui, |ui| {
                            self.rule_panel.ui(ui, &status, &mut out);
                        });
                    egui::CollapsingHeader::new("Pattern library")
                        .default_open(true)
                        .show(ui, |ui| panels::library::ui(ui, &mut out));
                    egui::CollapsingHeader::new("Edit")
                        .default_open(true)
                        .show(ui, |ui| {
                            self.edit_panel.ui(ui, &status, &mut out);
                        });
                    egui::CollapsingHeader::new("Population")
                        .default_open(true)
                        .show(ui, |ui| {
                            panels::plot::ui(ui, &self.life.history());
                        });
                    egui::CollapsingHeader::new("Analysis")
                        .default_open(true)
                        .show(ui, |ui| self.analysis_panel.ui(ui, &mut out));
                    egui::CollapsingHeader::new("Elementary automata")
                        .default_open(self.mode == Mode::Elementary)
                        .show(ui, |ui| {
                            self.elementary_panel.ui(ui, &status, &mut out);
                        });
                });
            });
        if self.show_games {
            egui::Panel::right("games")
                .default_size(420.0)
                .show(ui, |ui| self.games.ui(ui));
        }
        egui::CentralPanel::no_frame().show(ui, |ui| {
            if let Some(why) = &self.cpu_mode {
                banner(ui, egui::Color32::from_rgb(120, 90, 10), why);
            }
            if let Some(failure) = &self.life.failure {
                banner(
                    ui,
                    egui::Color32::from_rgb(130, 30, 30),
                    &format!("The GPU failed: {failure}."),
                );
            }
            if let Some(busy) = &status.busy {
                progress_bar(ui, busy, &mut out);
                ctx.request_repaint();
            }
            if let Some((text, _)) = &self.notice {
                ui.colored_label(egui::Color32::LIGHT_RED, text);
            }
            match self.mode {
                Mode::Life => self.draw_life(ui, &status, &mut out),
                Mode::Elementary => match &self.elementary {
                    Some((e, target)) => {
                        let (_, newest) = e.rows.ring();
                        let picture = match (&e.rows, target) {
                            (sim::SpaceTimeRows::Cpu { ring, .. }, _) => {
                                canvas::Picture::Grid(ring)
                            }
                            (_, Some(t)) => canvas::Picture::Gpu(t, 0),
                            _ => canvas::Picture::None,
                        };
                        self.elementary_canvas.ui(
                            ui,
                            &status,
                            Tool::Move,
                            picture,
                            (1, newest),
                            None,
                            &mut out,
                        );
                    }
                    None => {
                        ui.centered_and_justified(|ui| {
                            ui.label(
                                "Choose a rule and press \"Start diagram\" in the Elementary panel.",
                            );
                        });
                    }
                },
            }
        });

        self.prompts(&ctx, &mut out);
        for command in out {
            self.apply(&ctx, command);
        }
        if self.life.failure.is_some() && !self.failure_saved {
            // The GPU failed: keep what there is, at once.
            self.failure_saved = true;
            self.autosave.touch();
            self.write_autosave();
        }
        if self.dirty && self.autosave.due() {
            self.write_autosave();
        }
        if self
            .notice
            .as_ref()
            .is_some_and(|(_, t)| t.elapsed().as_secs() > 8)
        {
            self.notice = None;
        }
        self.screenshot_step(&ctx);
        let busy = self.life.running()
            || self.life.busy().is_some()
            || self.screenshot.is_some()
            || self.elementary.as_ref().is_some_and(|(e, _)| e.running);
        if busy {
            ctx.request_repaint();
        } else if self.autosave_pending() {
            // The autosave's delay runs out without any input.
            ctx.request_repaint_after(super::autosave::DELAY);
        }
        self.frame_ms = frame_started.elapsed().as_secs_f64() * 1000.0;
        self.frames += 1;
        if self.life.running() || self.life.busy().is_some() {
            self.max_frame_ms = self.max_frame_ms.max(self.frame_ms);
        }
    }
}

impl LifelabApp {
    fn autosave_pending(&self) -> bool {
        self.dirty && !self.autosave.due()
    }

    /// The Life view: the GPU engine's buffers drawn directly, or the cells under the view
    /// that the worker read.
    fn draw_life(&mut self, ui: &mut egui::Ui, status: &panels::Status, out: &mut Vec<Command>) {
        if self.centre_later {
            self.centre_later = false;
            let size = ui.available_size();
            let c = match (self.fit_rect, self.life.size()) {
                (Some(r), _) => (
                    r.x as f64 + r.width as f64 / 2.0,
                    r.y as f64 + r.height as f64 / 2.0,
                ),
                (None, Some((w, h))) => (w as f64 / 2.0, h as f64 / 2.0),
                (None, None) => (0.0, 0.0),
            };
            self.canvas
                .viewport
                .centre_on((size.x as f64, size.y as f64), c);
        }
        let current = self.life.figures().gpu_current;
        let view = self.life.worker().view();
        let picture = match (&self.life_view, current) {
            (Some((t, _)), Some(current)) => canvas::Picture::Gpu(t, current),
            _ => match &view {
                Some(v) => canvas::Picture::Cells(v),
                None => canvas::Picture::Waiting,
            },
        };
        self.canvas
            .ui(ui, status, self.tool, picture, (0, 0), self.fit_rect, out);
        if self.life_view.is_none() {
            let ppp = ui.ctx().pixels_per_point() as f64;
            let g = self.canvas.geometry;
            let size = (g.rect[2] as f64 / ppp, g.rect[3] as f64 / ppp);
            let (rect, block) = self.canvas.viewport.request(size, ppp);
            self.life
                .worker()
                .request_view(crate::session::worker::ViewRequest { rect, block });
            if view.is_none_or(|v| v.request.rect != rect || v.request.block != block) {
                ui.ctx().request_repaint();
            }
        }
    }

    /// The modal prompts: restore an autosave, discard unsaved edits, room for a methuselah.
    fn prompts(&mut self, ctx: &egui::Context, out: &mut Vec<Command>) {
        if let Some(offer) = &self.offer {
            let side = offer.side;
            let mut answered = false;
            let modal = egui::Modal::new(egui::Id::unique("room offer")).show(ctx, |ui| {
                ui.set_max_width(460.0);
                ui.heading("The torus is too small for this pattern");
                ui.label(&offer.text);
                ui.horizontal(|ui| {
                    if ui.button(format!("Resize to {side}x{side}")).clicked() {
                        out.push(Command::Resize {
                            width: side,
                            height: side,
                        });
                        answered = true;
                    }
                    if ui.button("Use the unbounded plane").clicked() {
                        out.push(Command::SetPlane(true));
                        answered = true;
                    }
                    if ui.button("Keep this torus").clicked() {
                        answered = true;
                    }
                });
            });
            if answered || modal.should_close() {
                self.offer = None;
            }
        }
        if let Some(p) = &self.restore {
            let when = p.comments.first().cloned().unwrap_or_default();
            let modal = egui::Modal::new(egui::Id::unique("restore autosave")).show(ctx, |ui| {
                ui.heading("Unsaved work from last time");
                ui.label(format!(
                    "lifelab did not close cleanly, and kept your unsaved work ({}, {when}). Restore it?",
                    p.name.as_deref().unwrap_or("a pattern")
                ));
                ui.horizontal(|ui| {
                    if ui.button("Restore").clicked() {
                        out.push(Command::RestoreAutosave);
                    }
                    if ui.button("Discard").clicked() {
                        out.push(Command::DiscardAutosave);
                    }
                });
            });
            if modal.should_close() {
                out.push(Command::DiscardAutosave);
            }
        }
        if self.pending_discard.is_some() {
            let modal =
                egui::Modal::new(egui::Id::unique("discard unsaved edits")).show(ctx, |ui| {
                    ui.heading("Unsaved edits");
                    ui.label("The cells you drew have not been saved. Discard them?");
                    ui.horizontal(|ui| {
                        if ui.button("Discard").clicked() {
                            out.push(Command::ConfirmDiscard);
                        }
                        if ui.button("Save as RLE…").clicked() {
                            out.push(Command::CancelDiscard);
                            out.push(Command::SaveDialog(Format::Rle));
                        }
                        if ui.button("Cancel").clicked() {
                            out.push(Command::CancelDiscard);
                        }
                    });
                });
            if modal.should_close() {
                out.push(Command::CancelDiscard);
            }
        }
    }
}
