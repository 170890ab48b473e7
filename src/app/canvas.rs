//! The central view: the universe (or the space-time diagram), with pan, zoom, drawing and
//! selection. Gestures become commands. The picture comes from the GPU engine's own buffers
//! (`view_render`), or from the cells under the view that the worker read (`cpu_view`).

use eframe::{egui, egui_wgpu};

use super::command::Command;
use super::panels::{Status, Tool};
use super::view_render::{DEAD, EDGE, LINE, LIVE, ViewTarget, ViewUniforms};
use super::viewport::Viewport;
use crate::engine::{CellRect, Universe};
use crate::session::worker::ViewPicture;

/// Where the view was on screen at the last frame, for screenshots' sidecar files.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct ViewGeometry {
    /// The view's rectangle in framebuffer pixels: x, y, width, height.
    pub rect: [f32; 4],
    /// Framebuffer pixels per cell.
    pub pixels_per_cell: f64,
    /// The cell coordinates at the view's top-left pixel.
    pub origin: [f64; 2],
    pub torus: [u32; 2],
}

/// What the view draws from.
pub enum Picture<'a> {
    /// The engine's GPU buffers, through a view target and the current ping-pong set.
    Gpu(&'a ViewTarget, usize),
    /// A whole bounded grid on the CPU (the space-time ring in CPU mode).
    Grid(&'a crate::grid::Grid),
    /// The cells under the view, as the worker last read them.
    Cells(&'a ViewPicture),
    /// The worker has not read the cells yet.
    Waiting,
    /// Nothing drawable (a torus in more bands than the viewer binds).
    None,
}

pub struct Canvas {
    pub viewport: Viewport,
    /// CPU mode: the texture the CPU-drawn picture goes into.
    texture: Option<egui::TextureHandle>,
    /// Fit the view at the next frame (after a load or resize).
    pub fit_pending: bool,
    /// A drag in progress: its last cell, unwrapped, for line drawing.
    last_cell: Option<(i64, i64)>,
    select_from: Option<(i64, i64)>,
    hover: Option<(i64, i64)>,
    pub geometry: ViewGeometry,
}

impl Canvas {
    pub fn new(universe: Universe) -> Self {
        Self::with_viewport(Viewport::of(universe))
    }

    /// A canvas for the space-time diagram: a bounded picture, not a torus.
    pub fn space_time(size: (u32, u32)) -> Self {
        Self::with_viewport(Viewport::bounded(size))
    }

    fn with_viewport(viewport: Viewport) -> Self {
        Self {
            viewport,
            texture: None,
            fit_pending: true,
            last_cell: None,
            select_from: None,
            hover: None,
            geometry: ViewGeometry::default(),
        }
    }

    /// Draws the view and turns gestures into commands. `target` is `None` when the torus has
    /// more bands than the viewer binds.
    #[allow(clippy::too_many_arguments)]
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        status: &Status,
        tool: Tool,
        picture: Picture<'_>,
        mode_uniforms: (u32, u32),
        fit_rect: Option<CellRect>,
        out: &mut Vec<Command>,
    ) {
        let (rect, response) =
            ui.allocate_exact_size(ui.available_size(), egui::Sense::click_and_drag());
        let size = (rect.width() as f64, rect.height() as f64);
        if self.fit_pending && size.0 > 1.0 && size.1 > 1.0 {
            self.viewport.fit(size, fit_rect);
            self.fit_pending = false;
        }
        let local = |p: egui::Pos2| ((p.x - rect.min.x) as f64, (p.y - rect.min.y) as f64);

        // Zoom with the wheel, about the cursor.
        if let Some(pointer) = response.hover_pos() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y + i.zoom_delta().ln() * 200.0);
            if scroll != 0.0 {
                self.viewport
                    .zoom_about(local(pointer), 2f64.powf(scroll as f64 / 120.0));
            }
            self.hover = Some(self.viewport.cell_at(local(pointer)));
        } else {
            self.hover = None;
        }

        let shift = ui.input(|i| i.modifiers.shift);
        let primary = response.dragged_by(egui::PointerButton::Primary);
        let other_button = response.dragged_by(egui::PointerButton::Middle)
            || response.dragged_by(egui::PointerButton::Secondary);
        let panning = other_button
            || (primary
                && !shift
                && (tool == Tool::Move || (tool == Tool::Draw && status.running)));
        if panning {
            let d = response.drag_delta();
            self.viewport.pan((d.x as f64, d.y as f64));
        }

        // Only the primary button draws: a right or middle drag pans, and never edits.
        let pointer_primary =
            ui.input(|i| i.pointer.primary_down() || i.pointer.primary_released());
        let drawing = tool == Tool::Draw
            && !status.running
            && status.busy.is_none()
            && !shift
            && !other_button
            && pointer_primary;
        let selecting = tool == Tool::Select || shift;
        if let Some(pos) = response.interact_pointer_pos() {
            let c = self.viewport.screen_to_cell(local(pos));
            let cell = (c.0.floor() as i64, c.1.floor() as i64);
            if drawing && (response.drag_started() || response.clicked() || primary) {
                self.draw_line(
                    cell,
                    response.drag_started() || response.clicked(),
                    status,
                    out,
                );
                if response.clicked() {
                    out.push(Command::EndStroke);
                    self.last_cell = None;
                }
            }
            if selecting && (response.drag_started() || primary) {
                let from = *self.select_from.get_or_insert(cell);
                out.push(Command::Select(Some(selection(from, cell, &self.viewport))));
            }
        }
        if response.drag_stopped() {
            if self.last_cell.take().is_some() {
                out.push(Command::EndStroke);
            }
            self.select_from = None;
        }
        if response.clicked() && selecting {
            out.push(Command::Select(None));
        }

        // The picture.
        let ppp = ui.ctx().pixels_per_point() as f64;
        let v = &self.viewport;
        let (mode, newest) = mode_uniforms;
        match picture {
            Picture::Gpu(target, current) => {
                let unwrapped = (v.origin.0.floor(), v.origin.1.floor());
                let origin_cell = (
                    unwrapped.0.rem_euclid(v.torus.0 as f64),
                    unwrapped.1.rem_euclid(v.torus.1 as f64),
                );
                let uniforms = ViewUniforms {
                    rect_min: [rect.min.x * ppp as f32, rect.min.y * ppp as f32],
                    origin_frac: [
                        (v.origin.0 - unwrapped.0) as f32,
                        (v.origin.1 - unwrapped.1) as f32,
                    ],
                    origin_cell: [origin_cell.0 as u32, origin_cell.1 as u32],
                    cells_per_pixel: (1.0 / (v.zoom * ppp)) as f32,
                    grid_lines: v.shows_grid_lines() as u32,
                    width: status_width(status, mode),
                    height: v.torus.1,
                    words: target.words,
                    band_rows: target.band_rows,
                    mode,
                    newest,
                    origin_signed: [
                        unwrapped.0.clamp(i32::MIN as f64, i32::MAX as f64) as i32,
                        unwrapped.1.clamp(i32::MIN as f64, i32::MAX as f64) as i32,
                    ],
                    live: LIVE,
                    dead: DEAD,
                    line: LINE,
                    edge: EDGE,
                };
                ui.painter().add(egui_wgpu::Callback::new_paint_callback(
                    rect,
                    target.callback(current, uniforms),
                ));
            }
            Picture::Grid(_) | Picture::Cells(_) => {
                let size = [
                    rect.width().max(1.0) as usize,
                    rect.height().max(1.0) as usize,
                ];
                let image = match picture {
                    Picture::Grid(grid) => {
                        let ring = (mode == 1).then_some(newest);
                        super::cpu_view::render(grid, v, size, ring)
                    }
                    Picture::Cells(cells) => super::cpu_view::render_cells(cells, v, size),
                    _ => unreachable!("matched above"),
                };
                let tex = self.texture.get_or_insert_with(|| {
                    ui.ctx()
                        .load_texture("cpu view", image.clone(), egui::TextureOptions::NEAREST)
                });
                tex.set(image, egui::TextureOptions::NEAREST);
                ui.painter().image(
                    tex.id(),
                    rect,
                    egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                    egui::Color32::WHITE,
                );
            }
            Picture::Waiting => {
                ui.painter()
                    .rect_filled(rect, 0.0, egui::Color32::from_gray(15));
            }
            Picture::None => {
                ui.painter()
                    .rect_filled(rect, 0.0, egui::Color32::from_gray(20));
                ui.painter().text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    "This torus is split into more GPU buffers than the viewer can draw;\n\
                     it still runs, and the status line follows it.",
                    egui::FontId::proportional(16.0),
                    egui::Color32::LIGHT_GRAY,
                );
            }
        }
        self.geometry = ViewGeometry {
            rect: [
                rect.min.x * ppp as f32,
                rect.min.y * ppp as f32,
                rect.width() * ppp as f32,
                rect.height() * ppp as f32,
            ],
            pixels_per_cell: v.zoom * ppp,
            origin: [v.origin.0, v.origin.1],
            torus: [v.torus.0, v.torus.1],
        };

        // The selection, as one outline (not per cell).
        if let Some(sel) = status.selection.filter(|_| mode == 0) {
            let (x, y) = v.cell_to_screen((sel.x, sel.y));
            let min = rect.min + egui::vec2(x as f32, y as f32);
            let r = egui::Rect::from_min_size(
                min,
                egui::vec2(
                    (sel.width as f64 * v.zoom) as f32,
                    (sel.height as f64 * v.zoom) as f32,
                ),
            );
            ui.painter().with_clip_rect(rect).rect_stroke(
                r,
                0.0,
                egui::Stroke::new(1.5, egui::Color32::from_rgb(90, 200, 255)),
                egui::StrokeKind::Outside,
            );
        }
        if let Some((x, y)) = self.hover.filter(|_| mode == 0) {
            // On a dark plate, inside the view.
            let painter = ui.painter().with_clip_rect(rect);
            let galley = painter.layout_no_wrap(
                format!("({x}, {y})  zoom {}", zoom_text(v.zoom)),
                egui::FontId::monospace(12.0),
                egui::Color32::LIGHT_GRAY,
            );
            let at = rect.right_top() + egui::vec2(-12.0 - galley.size().x, 8.0);
            painter.rect_filled(
                egui::Rect::from_min_size(
                    at - egui::vec2(4.0, 2.0),
                    galley.size() + egui::vec2(8.0, 4.0),
                ),
                3.0,
                egui::Color32::from_black_alpha(190),
            );
            painter.galley(at, galley, egui::Color32::LIGHT_GRAY);
        }
    }

    /// Emits a draw command for every cell from the last one to `cell` (a Bresenham line), so
    /// that fast strokes leave no gaps.
    fn draw_line(
        &mut self,
        cell: (i64, i64),
        begin: bool,
        status: &Status,
        out: &mut Vec<Command>,
    ) {
        let _ = status;
        let v = self.viewport;
        let wrap = |c: (i64, i64)| v.wrap_cell(c);
        let from = if begin { None } else { self.last_cell };
        match from {
            None => out.push(Command::DrawAt {
                cell: wrap(cell),
                begin: true,
            }),
            Some(start) if start != cell => {
                let (mut x, mut y) = start;
                let (dx, dy) = ((cell.0 - x).abs(), -(cell.1 - y).abs());
                let (sx, sy) = ((cell.0 - x).signum(), (cell.1 - y).signum());
                let mut err = dx + dy;
                while (x, y) != cell {
                    let e2 = 2 * err;
                    if e2 >= dy {
                        err += dy;
                        x += sx;
                    }
                    if e2 <= dx {
                        err += dx;
                        y += sy;
                    }
                    out.push(Command::DrawAt {
                        cell: wrap((x, y)),
                        begin: false,
                    });
                }
            }
            Some(_) => {}
        }
        self.last_cell = Some(cell);
    }
}

fn status_width(status: &Status, mode: u32) -> u32 {
    match (mode, status.elementary) {
        (1, Some((_, width, _))) => width,
        _ => status.size.0,
    }
}

/// The rectangle between two cells (unwrapped), at most one torus.
fn selection(a: (i64, i64), b: (i64, i64), v: &Viewport) -> CellRect {
    let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
    let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
    let (x, y) = v.wrap_cell((x0, y0));
    let (mut w, mut h) = ((x1 - x0 + 1) as u64, (y1 - y0 + 1) as u64);
    if v.wraps() {
        w = w.min(v.torus.0 as u64);
        h = h.min(v.torus.1 as u64);
    }
    CellRect::new(
        x,
        y,
        w.min(u32::MAX as u64) as u32,
        h.min(u32::MAX as u64) as u32,
    )
}

fn zoom_text(zoom: f64) -> String {
    if zoom >= 1.0 {
        format!("{zoom:.0} px/cell")
    } else {
        format!("1 px/{:.0} cells", 1.0 / zoom)
    }
}
