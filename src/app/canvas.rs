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
    /// Hexagonal cells: `origin` is then in display coordinates (see `viewport.rs`).
    pub hex: bool,
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
    /// The hovered cell before wrapping (where it is drawn).
    hover_raw: Option<(i64, i64)>,
    /// Wheel notches not yet zoomed by (a touchpad sends fractions of one).
    wheel: f64,
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
            wheel: 0.0,
            select_from: None,
            hover: None,
            hover_raw: None,
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
        paste: Option<&crate::grid::Grid>,
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

        // Zoom with the wheel, about the cursor: a power of two per notch, as in Golly (a
        // touchpad's small deltas and a pinch add up to notches). One step a frame at most:
        // X11 reports one click of the wheel twice in a frame (as a button and as a scroll
        // valuator).
        if let Some(pointer) = response.hover_pos() {
            self.wheel += ui.input(|i| wheel_notches(&i.events));
            if self.wheel.abs() >= 1.0 {
                self.viewport.zoom_step(local(pointer), self.wheel > 0.0);
                self.wheel = 0.0;
            }
            self.hover = Some(self.viewport.cell_at(local(pointer)));
            self.hover_raw = Some(self.viewport.cell_at_unwrapped(local(pointer)));
        } else {
            self.hover = None;
            self.hover_raw = None;
        }

        let shift = ui.input(|i| i.modifiers.shift);
        let primary = response.dragged_by(egui::PointerButton::Primary);
        let other_button = response.dragged_by(egui::PointerButton::Middle)
            || response.dragged_by(egui::PointerButton::Secondary);
        let panning = other_button || (primary && !shift && tool == Tool::Move);
        if panning {
            let d = response.drag_delta();
            self.viewport.pan((d.x as f64, d.y as f64));
        }

        // Only the primary button draws: a right or middle drag pans, and never edits. As in
        // Golly, drawing goes on while a run does (the worker applies the cells between two
        // pieces of work).
        let drawing = tool == Tool::Draw
            && paste.is_none()
            && status.busy.is_none()
            && !shift
            && !other_button;
        let selecting = paste.is_none() && (tool == Tool::Select || shift);
        if let (Some(_), Some(cell)) = (paste, self.hover)
            && response.clicked_by(egui::PointerButton::Primary)
        {
            out.push(Command::PlacePaste { at: cell });
        }
        // A stroke or a selection starts on the press, at the cell pressed, as in Golly: not
        // at the first motion egui counts as a drag, which would lose the pressed cell and
        // start a selection wherever the pointer had got to by then.
        let (pressed, down, released, press_origin, pointer) = ui.input(|i| {
            (
                i.pointer.primary_pressed(),
                i.pointer.primary_down(),
                i.pointer.primary_released(),
                i.pointer.press_origin(),
                i.pointer.interact_pos(),
            )
        });
        let cell_of = |p: egui::Pos2| self.viewport.cell_at_unwrapped(local(p));
        // A tap pressed and let go within one frame is a click, not a press held on the view.
        if pressed
            && (response.is_pointer_button_down_on() || (released && response.contains_pointer()))
            // egui forgets the press origin once the button is let go.
            && let Some(at) = press_origin.or(pointer).map(cell_of)
        {
            if drawing {
                self.draw_line(at, true, status, out);
            }
            if selecting {
                self.select_from = Some(at);
                out.push(Command::Select(Some(selection(at, at, &self.viewport))));
            }
        } else if (down || released)
            && let Some(at) = pointer.map(cell_of)
        {
            // The stroke goes on, also outside the view, until the button is let go.
            if self.last_cell.is_some() {
                self.draw_line(at, false, status, out);
            }
            if let Some(from) = self.select_from {
                out.push(Command::Select(Some(selection(from, at, &self.viewport))));
            }
        }
        if released || !down {
            if self.last_cell.take().is_some() {
                out.push(Command::EndStroke);
            }
            // A click without a drag clears the selection.
            if self.select_from.take().is_some() && response.clicked() {
                out.push(Command::Select(None));
            }
        }

        // The picture.
        let ppp = ui.ctx().pixels_per_point() as f64;
        let v = &self.viewport;
        let (mode, newest) = mode_uniforms;
        match picture {
            Picture::Gpu(target, current) => {
                // The origin as a whole cell and a fraction (an f32 could not hold the
                // position on a large torus); a hexagonal view's is of the sheared origin.
                let sheared = if v.hex {
                    let row = v.origin.1 / super::viewport::ROW;
                    (v.origin.0 + row.floor() / 2.0, row)
                } else {
                    v.origin
                };
                let unwrapped = (sheared.0.floor(), sheared.1.floor());
                let origin_cell = (
                    unwrapped.0.rem_euclid(v.torus.0 as f64),
                    unwrapped.1.rem_euclid(v.torus.1 as f64),
                );
                let copy = v
                    .copy_origin((rect.width() as f64, rect.height() as f64))
                    .unwrap_or((0, 0));
                let uniforms = ViewUniforms {
                    rect_min: [rect.min.x * ppp as f32, rect.min.y * ppp as f32],
                    origin_frac: [
                        (sheared.0 - unwrapped.0) as f32,
                        (sheared.1 - unwrapped.1) as f32,
                    ],
                    origin_cell: [origin_cell.0 as u32, origin_cell.1 as u32],
                    cells_per_pixel: (1.0 / (v.zoom * ppp)) as f32,
                    grid_lines: v.line_flags(),
                    width: status_width(status, mode),
                    height: v.torus.1,
                    words: target.words,
                    band_rows: target.band_rows,
                    mode,
                    newest,
                    copy_min: [
                        (copy.0 as f64 - unwrapped.0).clamp(i32::MIN as f64, i32::MAX as f64)
                            as i32,
                        (copy.1 as f64 - unwrapped.1).clamp(i32::MIN as f64, i32::MAX as f64)
                            as i32,
                    ],
                    hex: v.hex as u32,
                    _pad: [0; 3],
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
        // A strip's edges, over the picture.
        let edge = egui::Color32::from_rgb(
            (EDGE[0] * 255.0) as u8,
            (EDGE[1] * 255.0) as u8,
            (EDGE[2] * 255.0) as u8,
        );
        let size = (rect.width() as f64, rect.height() as f64);
        for [a, b] in self.viewport.strip_edges(size) {
            let at = |p: (f64, f64)| rect.min + egui::vec2(p.0 as f32, p.1 as f32);
            ui.painter()
                .with_clip_rect(rect)
                .line_segment([at(a), at(b)], egui::Stroke::new(2.0, edge));
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
            hex: v.hex,
        };

        // The selection, as one outline (not per cell; sheared in a hexagonal view).
        if let Some(sel) = status.selection.filter(|_| mode == 0) {
            let at = v.cell_to_screen((sel.x, sel.y));
            let (w, h) = (sel.width as f64, sel.height as f64);
            let corners: Vec<egui::Pos2> = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
                .into_iter()
                .map(|o| {
                    let (x, y) = v.offset_to_screen(at, o);
                    rect.min + egui::vec2(x as f32, y as f32)
                })
                .collect();
            ui.painter()
                .with_clip_rect(rect)
                .add(egui::Shape::closed_line(
                    corners,
                    egui::Stroke::new(1.5, egui::Color32::from_rgb(90, 200, 255)),
                ));
        }
        if let (Some(p), Some(at)) = (paste, self.hover_raw.filter(|_| mode == 0)) {
            draw_paste(ui, rect, v, p, at);
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

/// The floating paste under the mouse, centred on the hovered cell as it will be placed: its
/// live cells tinted, and its box. A very large paste shows only its box.
fn draw_paste(
    ui: &egui::Ui,
    rect: egui::Rect,
    v: &Viewport,
    cells: &crate::grid::Grid,
    at: (i64, i64),
) {
    let painter = ui.painter().with_clip_rect(rect);
    let left = (
        at.0 - cells.width() as i64 / 2,
        at.1 - cells.height() as i64 / 2,
    );
    let z = v.zoom as f32;
    // The paste's top-left corner, unwrapped (it follows the mouse across the seam).
    let corner = {
        let d = |x: f64, y: f64| {
            if v.hex {
                super::viewport::hex_display(x, y)
            } else {
                (x, y)
            }
        };
        let (x, y) = d(left.0 as f64, left.1 as f64);
        ((x - v.origin.0) * v.zoom, (y - v.origin.1) * v.zoom)
    };
    let point = |o: (f64, f64)| {
        let (x, y) = v.offset_to_screen(corner, o);
        rect.min + egui::vec2(x as f32, y as f32)
    };
    let tint = egui::Color32::from_rgba_unmultiplied(120, 220, 255, 150);
    if cells.population() <= 20_000 && z >= 0.5 {
        for (cx, cy) in cells.alive_cells() {
            if v.hex {
                let c = point((cx as f64 + 0.5, cy as f64 + 0.5));
                painter.circle_filled(c, (z * 0.45).max(0.5), tint);
            } else {
                painter.rect_filled(
                    egui::Rect::from_min_size(
                        point((cx as f64, cy as f64)),
                        egui::vec2(z.max(1.0), z.max(1.0)),
                    ),
                    0.0,
                    tint,
                );
            }
        }
    }
    let (w, h) = (cells.width() as f64, cells.height() as f64);
    painter.add(egui::Shape::closed_line(
        [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
            .into_iter()
            .map(point)
            .collect(),
        egui::Stroke::new(1.0, tint),
    ));
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

/// The wheel notches in a frame's events, up (zoom in) positive: a line is a notch, 50 points
/// of a touchpad are one, and a pinch doubling the size is one.
fn wheel_notches(events: &[egui::Event]) -> f64 {
    events
        .iter()
        .map(|e| match e {
            egui::Event::MouseWheel { unit, delta, .. } => match unit {
                egui::MouseWheelUnit::Line => delta.y as f64,
                egui::MouseWheelUnit::Point => delta.y as f64 / 50.0,
                egui::MouseWheelUnit::Page => delta.y as f64 * 3.0,
            },
            egui::Event::Zoom(f) if *f > 0.0 => (*f as f64).log2(),
            _ => 0.0,
        })
        .sum()
}

/// The zoom as the status shows it: "16 px/cell", "1 px/cell", "1 px/32 cells".
fn zoom_text(zoom: f64) -> String {
    let short = |x: f64| {
        if (x - x.round()).abs() < 0.05 {
            format!("{x:.0}")
        } else {
            format!("{x:.1}")
        }
    };
    let cells = 1.0 / zoom;
    if zoom >= 1.0 || short(cells) == "1" {
        format!("{} px/cell", short(zoom.max(1.0)))
    } else {
        format!("1 px/{} cells", short(cells))
    }
}

#[cfg(test)]
mod tests {
    use super::zoom_text;

    #[test]
    fn the_zoom_reads_as_pixels_per_cell_or_cells_per_pixel() {
        assert_eq!(zoom_text(16.0), "16 px/cell");
        assert_eq!(zoom_text(1.0), "1 px/cell");
        assert_eq!(zoom_text(1.0 / 32.0), "1 px/32 cells");
        // A fit that is not a power of two: never "1 px/1 cells".
        assert_eq!(zoom_text(0.8), "1 px/1.2 cells");
        assert_eq!(zoom_text(0.97), "1 px/cell");
        assert_eq!(zoom_text(1.5), "1.5 px/cell");
    }
}
