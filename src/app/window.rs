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
use super::{LifelabApp, canvas};
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
    let mut cpu_reason = None;
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
            cpu_reason = Some(why);
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
            LifelabApp::new(cc, initial, options, tabs, cpu_reason)
                .map(|app| Box::new(app) as Box<dyn eframe::App>)
                .map_err(|e| e.to_string().into())
        }),
    )
    .map_err(|e| anyhow!("the window could not open: {e}"))
}

/// The last message, on a plate at the bottom of the view: over the cells, so that the view
/// does not move when a message comes and goes.
fn notice(ui: &egui::Ui, area: egui::Rect, text: &str, error: bool) {
    let colour = if error {
        egui::Color32::from_rgb(255, 150, 140)
    } else {
        egui::Color32::from_rgb(170, 210, 255)
    };
    let painter = ui.painter().with_clip_rect(area);
    let galley = painter.layout(
        text.to_string(),
        egui::FontId::proportional(14.0),
        colour,
        (area.width() - 40.0).max(100.0),
    );
    let at = area.left_bottom() + egui::vec2(14.0, -14.0 - galley.size().y);
    painter.rect_filled(
        egui::Rect::from_min_size(
            at - egui::vec2(8.0, 5.0),
            galley.size() + egui::vec2(16.0, 10.0),
        ),
        4.0,
        egui::Color32::from_black_alpha(210),
    );
    painter.galley(at, galley, colour);
}

/// A saved file gets its format's extension when the name typed has none.
fn with_extension(path: std::path::PathBuf, format: Format) -> std::path::PathBuf {
    if path.extension().is_some() {
        path
    } else {
        path.with_extension(format.extension())
    }
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
    fn raw_input_hook(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        self.take_tab(ctx, raw_input);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // A clean exit with nothing unsaved leaves no autosave behind.
        if !self.dirty && self.restore.is_none() {
            self.autosave.clear();
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
    }
}

impl LifelabApp {
    /// One frame of the window: what the worker did, the panels, the canvas, the commands.
    pub(super) fn frame(&mut self, ui: &mut egui::Ui) {
        let frame_started = Instant::now();
        let ctx = ui.ctx().clone();

        // What the worker did since the last frame.
        self.life.poll();
        self.bind_gpu_view();
        self.land();
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
        // Fixed widths: the canvas does not move when a panel's contents change.
        let mut tools_open = self.show_tools;
        egui::Panel::left("tools")
            .exact_size(300.0)
            .show_collapsible(ui, &mut tools_open, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::CollapsingHeader::new("Rule")
                        .default_open(true)
                        .show(ui, |ui| {
                            self.rule_panel.ui(ui, &status, &mut out);
                        });
                    egui::CollapsingHeader::new("Pattern library")
                        .default_open(false)
                        .show(ui, |ui| panels::library::ui(ui, &mut out));
                    egui::CollapsingHeader::new("Edit")
                        .default_open(true)
                        .show(ui, |ui| {
                            self.edit_panel.ui(ui, &status, &mut out);
                        });
                    let plot = egui::CollapsingHeader::new("Population")
                        .default_open(true)
                        .show(ui, |ui| {
                            if self.mode == Mode::Elementary {
                                ui.label(
                                    egui::RichText::new(
                                        "The space-time diagram is the elementary rule's history; \
                                         the plot follows the Life-like universe (Mode > Life-like).",
                                    )
                                    .weak(),
                                );
                            } else {
                                self.plot.ui(ui, &self.life.history());
                            }
                        });
                    // The worker records every generation's population only while it shows.
                    let shown = plot.body_returned.is_some();
                    if shown != self.show_plot {
                        self.show_plot = shown;
                        self.set_watch();
                    }
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
                .exact_size(420.0)
                .show(ui, |ui| self.games.ui(ui));
        }
        if self.show_census {
            egui::Panel::right("census")
                .exact_size(360.0)
                .resizable(false)
                .show(ui, |ui| {
                    ui.heading("Census");
                    self.census.ui(ui, &mut out);
                });
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
            let view_area = ui.available_rect_before_wrap();
            match self.mode {
                Mode::Life => self.draw_life(ui, &status, &mut out),
                Mode::Elementary => match &self.elementary {
                    Some((e, target)) => {
                        let (_, newest) = e.rows.ring();
                        let picture = match (e.rows.cpu_rows(), target) {
                            (Some(ring), _) => canvas::Picture::Grid(ring),
                            (_, Some(t)) => canvas::Picture::Gpu(t, 0),
                            _ => canvas::Picture::None,
                        };
                        self.elementary_canvas.viewport.grid = self.show_grid;
                        self.elementary_canvas.ui(
                            ui,
                            &status,
                            Tool::Move,
                            picture,
                            (1, newest),
                            None,
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
            if let Some((text, _, error)) = &self.notice {
                notice(ui, view_area, text, *error);
            }
        });
        self.show_tools = tools_open;

        super::help::ui(&ctx, &mut self.help);
        self.info_window(&ctx);
        self.file_dialog_frame(&ctx, &mut out);
        self.update_title(&ctx);
        self.prompts(&ctx, &mut out);
        for command in out {
            self.apply(&ctx, command);
        }
        if self.life.failure.is_some() && !self.failure_saved {
            // The GPU failed: keep what there is, at once.
            self.failure_saved = true;
            self.write_autosave();
        }
        if self.dirty && self.autosave.due() {
            self.write_autosave();
        }
        if let Some(Err(e)) = self.autosave.poll() {
            self.note(format!("autosave failed: {e:#}"));
        }
        if self
            .notice
            .as_ref()
            .is_some_and(|(_, t, _)| t.elapsed().as_secs() > 8)
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
        } else if let Some(wait) = self.autosave.due_in().filter(|_| self.dirty) {
            // A frame when the autosave is due, input or not (a timer, not an event).
            ctx.request_repaint_after(wait);
        }
        self.frame_ms = frame_started.elapsed().as_secs_f64() * 1000.0;
        self.frames += 1;
        if self.life.running() || self.life.busy().is_some() {
            self.max_frame_ms = self.max_frame_ms.max(self.frame_ms);
        }
    }
}

impl LifelabApp {
    /// lifelab's own file dialog, while open: a chosen file becomes Open or Save.
    fn file_dialog_frame(&mut self, ctx: &egui::Context, out: &mut Vec<Command>) {
        let Some((dialog, action)) = &mut self.file_dialog else {
            return;
        };
        dialog.show(ctx);
        if dialog.selected() {
            if let Some(path) = dialog.path().map(|p| p.to_path_buf()) {
                out.push(match *action {
                    super::FileAction::Open => Command::LoadFile(path),
                    super::FileAction::Save(format) => Command::Save {
                        path: with_extension(path, format),
                        format,
                    },
                });
            }
            self.file_dialog = None;
        } else if !dialog.visible() {
            self.file_dialog = None;
        }
    }

    /// The window's title names what is shown, with a mark while there are unsaved edits.
    fn update_title(&mut self, ctx: &egui::Context) {
        let title = self.title_text();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    /// File → Pattern info: the name, author and comments the file carried, its rule and
    /// size, and the universe.
    fn info_window(&mut self, ctx: &egui::Context) {
        if !self.show_info {
            return;
        }
        let status = self.status();
        // The box as the worker last answered, never waited for; asked for again once the
        // cells have changed since (a GPU engine reads its grid back for it: not every frame).
        let state = (self.life.generation(), self.life.figures().edits_applied);
        if self
            .info_bounds
            .is_none_or(|(t, asked_at)| self.life.bounds_for(t).is_some() && asked_at != state)
        {
            self.info_bounds = Some((self.life.request_bounds(), state));
        }
        let size = match self.life.figures().bounds_answer {
            0 => "…".to_string(),
            _ => self.life.figures().bounds.map_or("empty".to_string(), |b| {
                format!("{}x{} (the live cells' box)", b.width(), b.height())
            }),
        };
        let info = &self.info;
        let mut open = true;
        egui::Window::new("Pattern info")
            .open(&mut open)
            .collapsible(false)
            .default_width(420.0)
            .show(ctx, |ui| {
                egui::Grid::new("pattern info")
                    .num_columns(2)
                    .spacing([12.0, 4.0])
                    .show(ui, |ui| {
                        let mut row = |k: &str, v: String| {
                            ui.label(egui::RichText::new(k).strong());
                            ui.label(v);
                            ui.end_row();
                        };
                        row("name", info.name.clone().unwrap_or_else(|| "—".into()));
                        row("author", info.author.clone().unwrap_or_else(|| "—".into()));
                        row("from", self.source.clone());
                        row("format", info.format.clone().unwrap_or_else(|| "—".into()));
                        row("rule", status.rule.to_string());
                        row("size", size);
                        row("universe", status.universe.describe());
                        row("generation", status.generation.to_string());
                    });
                ui.separator();
                ui.label(egui::RichText::new("Comments").strong());
                if info.comments.is_empty() {
                    ui.label(egui::RichText::new("none").weak());
                } else {
                    egui::ScrollArea::vertical()
                        .max_height(240.0)
                        .show(ui, |ui| {
                            for c in &info.comments {
                                ui.label(c);
                            }
                        });
                }
                ui.label(
                    egui::RichText::new("Save keeps the name, author and comments.")
                        .weak()
                        .small(),
                );
            });
        if !open {
            self.show_info = false;
        }
    }

    /// While following: when the live cells' box leaves the view, fit the view to it again
    /// (Golly's autofit).
    fn follow_pattern(&mut self, ui: &egui::Ui, status: &panels::Status) {
        let Some(b) = status.bounds.filter(|_| self.follow) else {
            return;
        };
        let Some(r) = b.rect() else { return };
        let size = ui.available_size();
        self.canvas
            .viewport
            .keep_in_view((size.x as f64, size.y as f64), r);
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
        let size = ui.available_size();
        self.canvas
            .viewport
            .set_hex(status.rule.is_hex(), (size.x as f64, size.y as f64));
        self.follow_pattern(ui, status);
        let current = self.life.figures().gpu_current;
        let view = self.life.view();
        let picture = match (&self.life_view, current) {
            (Some((t, _)), Some(current)) => canvas::Picture::Gpu(t, current),
            _ => match &view {
                Some(v) => canvas::Picture::Cells(v),
                None => canvas::Picture::Waiting,
            },
        };
        let paste = self.paste.as_ref().map(|p| &p.cells);
        self.canvas.viewport.grid = self.show_grid;
        self.canvas.ui(
            ui,
            status,
            self.tool,
            picture,
            (0, 0),
            self.fit_rect,
            paste,
            out,
        );
        if self.life_view.is_none() {
            let ppp = ui.ctx().pixels_per_point() as f64;
            let g = self.canvas.geometry;
            let size = (g.rect[2] as f64 / ppp, g.rect[3] as f64 / ppp);
            let (rect, block) = self.canvas.viewport.request(size, ppp);
            self.life
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
            let what = p.name.clone().unwrap_or_else(|| p.source.clone());
            let modal = egui::Modal::new(egui::Id::unique("restore autosave")).show(ctx, |ui| {
                ui.heading("Unsaved work from last time");
                ui.label(format!(
                    "lifelab did not close cleanly, and kept your unsaved work: {what}, generation {}, {} live cells on {}. Restore it?",
                    p.generation,
                    p.cells.population(),
                    p.universe.describe()
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
                    ui.label(self.discard_question());
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
